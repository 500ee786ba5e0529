/* Unit tests of the Extra-P text format and of the results.csv <-> Extra-P conversion: parsing
 * one and two parameters, error positions, and lossless round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/convert.h"
#include "mpivet/error.h"
#include "mpivet/extrap.h"
#include "mpivet/grow.h"
#include "test.h"

static const char one_param[] =
  "PARAMETER p\n"
  "POINTS 2 4 8\n"
  "\n"
  "REGION MPI_Bcast\n"
  "METRIC time_s\n"
  "DATA 1 1.5 2\n"
  "DATA 2\n"
  "DATA 3 0.30000000000000004\n"
  "METRIC mem_bytes\n"
  "DATA 10\nDATA 20\nDATA 30\n"
  "REGION MPI_Reduce:reduce_as_gather\n"
  "METRIC time_s\n"
  "DATA 5\nDATA 6\nDATA 7\n";

static void test_parse_one_param(void)
{
  struct mv_extrap x;
  struct mv_error err;
  mv_extrap_init(&x);
  ASSERT_INT_EQ(mv_extrap_parse(&x, "t", one_param, strlen(one_param), &err), 0);
  ASSERT_INT_EQ(x.nparams, 1);
  ASSERT_STR_EQ(x.params[0], "p");
  ASSERT_INT_EQ(x.npoints, 3);
  ASSERT_INT_EQ(x.nkernels, 3);
  ASSERT_STR_EQ(x.kernels[1].metric, "mem_bytes");
  ASSERT_STR_EQ(x.kernels[2].region, "MPI_Reduce:reduce_as_gather");
  ASSERT_INT_EQ(x.kernels[0].nvalues[0], 3);
  ASSERT_DOUBLE_NEAR(x.kernels[0].values[2][1], 0.1 + 0.2, 0);
  mv_extrap_release(&x);
}

static void test_parse_two_params(void)
{
  static const char text[] = "PARAMETER p\nPARAMETER msize\nPOINTS ( 2 8 ) (4 8) ( 2 1024 )\n"
                             "REGION r\nMETRIC m\nDATA 1\nDATA 2\nDATA 3\n";
  struct mv_extrap x;
  struct mv_error err;
  mv_extrap_init(&x);
  ASSERT_INT_EQ(mv_extrap_parse(&x, "t", text, strlen(text), &err), 0);
  ASSERT_INT_EQ(x.nparams, 2);
  ASSERT_INT_EQ(x.npoints, 3);
  ASSERT_DOUBLE_NEAR(x.points[2 * 2 + 1], 1024, 0);
  mv_extrap_release(&x);
}

static void expect_error(const char *text, const char *want)
{
  struct mv_extrap x;
  struct mv_error err;
  mv_extrap_init(&x);
  ASSERT_TRUE(mv_extrap_parse(&x, "in.txt", text, strlen(text), &err) < 0);
  ASSERT_STR_EQ(mv_test_errtext(&err), want);
  mv_extrap_release(&x);
}

static void test_errors(void)
{
  expect_error("PARAMETER p\nPOINTS 2 x4\n", "in.txt:2:10: expected a finite number, got \"x4\"");
  expect_error("PARAMETER p\nPOINTS 2 4\nREGION r\nMETRIC m\nDATA 1\n",
               "in.txt: expected values for every point, got none for region \"r\" metric \"m\" at point 2");
  expect_error("PARAMETER p\nDATA 1\n", "in.txt:2:1: expected at most 0 DATA lines (one per point) after REGION or METRIC");
  expect_error("POINTS 2\n", "in.txt:1:7: expected PARAMETER before POINTS");
  expect_error("PARAMETER a b\nPOINTS 2 3\n", "in.txt:2:8: expected \"(\" and 2 coordinates");
  expect_error("PARAMETER p\nPOINTS 2 2\n", "in.txt:2:10: point listed twice");
  expect_error("PARAMETER p\nPOINTS 2\nREGION r\nMETRIC m\nDATA\n", "in.txt:5:5: expected at least one value after DATA");
  expect_error("HELLO\n", "in.txt:1:1: expected PARAMETER, POINTS, REGION, METRIC or DATA");
  expect_error("PARAMETER p\nPOINTS 2\n", "in.txt: expected DATA for at least one REGION");
}

/* parse -> write -> parse gives the same text again (lossless). */
static void test_write_roundtrip(void)
{
  struct mv_extrap x, y;
  struct mv_error err;
  mv_extrap_init(&x);
  mv_extrap_init(&y);
  ASSERT_INT_EQ(mv_extrap_parse(&x, "t", one_param, strlen(one_param), &err), 0);
  char *buf1 = NULL, *buf2 = NULL;
  size_t len1 = 0, len2 = 0;
  FILE *fp = open_memstream(&buf1, &len1);
  ASSERT_INT_EQ(mv_extrap_write(&x, NULL, fp), 0);
  fclose(fp);
  ASSERT_INT_EQ(mv_extrap_parse(&y, "t2", buf1, len1, &err), 0);
  fp = open_memstream(&buf2, &len2);
  ASSERT_INT_EQ(mv_extrap_write(&y, NULL, fp), 0);
  fclose(fp);
  ASSERT_STR_EQ(buf2, buf1);
  ASSERT_DOUBLE_NEAR(y.kernels[0].values[2][1], 0.1 + 0.2, 0);
  free(buf1);
  free(buf2);
  mv_extrap_release(&x);
  mv_extrap_release(&y);
}

/* Extra-P -> results.csv -> Extra-P reproduces the text exactly. */
static void test_convert_roundtrip(void)
{
  char dir[] = "/tmp/mv-test-extrap-XXXXXX", csv[300];
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  snprintf(csv, sizeof csv, "%s/r.csv", dir);
  struct mv_extrap x, y;
  struct mv_results_writer *w;
  struct mv_error err;
  mv_extrap_init(&x);
  mv_extrap_init(&y);
  ASSERT_INT_EQ(mv_extrap_parse(&x, "t", one_param, strlen(one_param), &err), 0);
  ASSERT_INT_EQ(mv_results_writer_open(&w, csv, MV_RESULTS_ATOMIC), 0);
  ASSERT_INT_EQ(mv_convert_extrap_to_results(&x, w, &err), 0);
  ASSERT_INT_EQ(mv_results_writer_close(w, 1), 0);
  struct mv_convert_options opt = {0};
  char *text = NULL;
  size_t len = 0;
  ASSERT_INT_EQ(mv_read_file(csv, 0, &text, &len, &err), 0);
  ASSERT_INT_EQ(mv_convert_results_to_extrap(csv, text, len, &opt, &y, &err), 0);
  free(text);
  char *a = NULL, *b = NULL;
  size_t la = 0, lb = 0;
  FILE *fa = open_memstream(&a, &la), *fb = open_memstream(&b, &lb);
  mv_extrap_write(&x, NULL, fa);
  mv_extrap_write(&y, NULL, fb);
  fclose(fa);
  fclose(fb);
  ASSERT_STR_EQ(b, a);
  free(a);
  free(b);
  mv_extrap_release(&x);
  mv_extrap_release(&y);
  unlink(csv);
  rmdir(dir);
}

int main(void)
{
  RUN_TEST(test_parse_one_param);
  RUN_TEST(test_parse_two_params);
  RUN_TEST(test_errors);
  RUN_TEST(test_write_roundtrip);
  RUN_TEST(test_convert_roundtrip);
  return TEST_EXIT();
}
