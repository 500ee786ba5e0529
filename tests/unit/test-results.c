/* Unit tests of results.csv: parsing, strict validation messages (file:line:column), quoting,
 * append mode repairing a torn line, atomic mode, a million rows read in bounded memory, and the
 * dataset's ordering of groups by process count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/results.h"
#include "test.h"

static char dir[] = "/tmp/mv-test-results-XXXXXX";

static void write_file(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");
  fputs(text, fp);
  fclose(fp);
}

static char *read_file(const char *path)
{
  FILE *fp = fopen(path, "r");
  if (!fp)
    return NULL;
  static char buf[65536];
  size_t n = fread(buf, 1, sizeof buf - 1, fp);
  buf[n] = '\0';
  fclose(fp);
  return buf;
}

#define HDR "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid\n"

static void test_read_valid(void)
{
  char path[256];
  snprintf(path, sizeof path, "%s/ok.csv", dir);
  /* columns in another order, an extra column, quoted library with a comma, CRLF, blank line */
  write_file(path, "value,extra,run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,valid\r\n"
                   "1.5e-06,x,0,smpi,\"SMPI 3.32, \"\"cluster\"\"\",16,1,MPI_Bcast,default,800,time_s,3,1\r\n"
                   "\n"
                   "2,y,1,mpirun,Open MPI 4.1.4,4,4,MPI_Allreduce,allreduce_as_reduce_bcast,8,time_s,0,0\n");
  struct mv_results_reader *r;
  struct mv_row row;
  ASSERT_INT_EQ(mv_results_reader_open(&r, path), 0);
  ASSERT_INT_EQ(mv_results_reader_next(r, &row), 1);
  ASSERT_DOUBLE_NEAR(row.value, 1.5e-6, 0);
  ASSERT_STR_EQ(row.library, "SMPI 3.32, \"cluster\"");
  ASSERT_INT_EQ(row.nprocs, 16);
  ASSERT_INT_EQ(row.msize, 800);
  ASSERT_INT_EQ(row.rep, 3);
  ASSERT_INT_EQ(mv_results_reader_next(r, &row), 1);
  ASSERT_STR_EQ(row.impl, "allreduce_as_reduce_bcast");
  ASSERT_INT_EQ(row.valid, 0);
  ASSERT_INT_EQ(mv_results_reader_next(r, &row), 0);
  ASSERT_INT_EQ(mv_results_reader_rows(r), 2);
  mv_results_reader_close(r);
}

/* Each bad input must fail with exactly this message. */
static void expect_error(const char *text, const char *want)
{
  char path[256];
  snprintf(path, sizeof path, "%s/bad.csv", dir);
  write_file(path, text);
  struct mv_results_reader *r;
  struct mv_row row;
  int rc = mv_results_reader_open(&r, path);
  if (rc == 0)
    while ((rc = mv_results_reader_next(r, &row)) == 1)
      ;
  ASSERT_TRUE(rc < 0);
  char full[512];
  snprintf(full, sizeof full, "%s/bad.csv:%s", dir, want);
  ASSERT_STR_EQ(mv_test_errtext(mv_results_reader_error(r)), full);
  mv_results_reader_close(r);
}

static void test_errors(void)
{
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,abc,1\n",
               "2:46: expected a finite number in column \"value\", got \"abc\"");
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,1,1\n0,smpi,S,x6,1,MPI_Bcast,default,8,time_s,0,1,1\n",
               "3:10: expected an integer in column \"nprocs\", got \"x6\"");
  expect_error("run,engine,library,nprocs,ppn,op,impl,msize,rep,value,valid\n",
               "1:1: expected a column \"metric\" in the header (" "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid)");
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,1\n",
               "2:46: expected 12 fields as in the header, got 11");
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,1,2\n",
               "2:48: expected valid in [0, 1], got 2");
  expect_error(HDR "0,smpi,S,16,1,,default,800,time_s,0,1,1\n",
               "2:15: expected a non-empty \"op\"");
  expect_error(HDR "0,\"smpi,S,16\n", "2:3: expected a closing quote");
  expect_error("", "1:1: expected a header line (run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid), got an empty file");
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,inf,1\n",
               "2:46: expected a finite number in column \"value\", got \"inf\"");
}

/* Issue 15 items 10 and 16: a UTF-8 byte-order mark (spreadsheets write one) is accepted, a
 * negative time or memory size is refused where it stands (other metrics may be negative), and a
 * too-long line is reported with its own line number. */
static void test_bom_negative_long_line(void)
{
  char path[256];
  snprintf(path, sizeof path, "%s/bom.csv", dir);
  write_file(path, "\xEF\xBB\xBF" HDR "0,smpi,S,16,1,MPI_Bcast,default,800,score,0,-2.5,1\n");
  struct mv_results_reader *r;
  struct mv_row row;
  ASSERT_INT_EQ(mv_results_reader_open(&r, path), 0);
  ASSERT_INT_EQ(mv_results_reader_next(r, &row), 1);
  ASSERT_DOUBLE_NEAR(row.value, -2.5, 0);
  mv_results_reader_close(r);
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,-1e-06,1\n",
               "2:46: expected a time_s >= 0 in column \"value\", got \"-1e-06\"");
  expect_error(HDR "0,smpi,S,16,1,MPI_Bcast,default,800,mem_bytes,0,-8,1\n",
               "2:49: expected a mem_bytes >= 0 in column \"value\", got \"-8\"");
  size_t n = (1u << 20) + 16;
  char *big = malloc(sizeof HDR + n + 2);
  ASSERT_TRUE(big != NULL);
  memcpy(big, HDR, sizeof HDR - 1);
  memset(big + sizeof HDR - 1, 'x', n);
  strcpy(big + sizeof HDR - 1 + n, "\n");
  expect_error(big, "2:1048576: expected a line shorter than 1048576 bytes");
  free(big);
}

static void test_format_roundtrip(void)
{
  struct mv_row row, back;
  mv_row_init(&row);
  strcpy(row.engine, "mpirun");
  strcpy(row.library, "lib, \"quoted\"");
  strcpy(row.op, "MPI_Gather");
  row.value = 0.1 + 0.2; /* needs 17 digits to round-trip */
  row.msize = 1LL << 40;
  char line[1024], path[256];
  ASSERT_TRUE(mv_row_format(&row, line, sizeof line) > 0);
  snprintf(path, sizeof path, "%s/rt.csv", dir);
  FILE *fp = fopen(path, "w");
  fprintf(fp, HDR "%s\n", line);
  fclose(fp);
  struct mv_results_reader *r;
  ASSERT_INT_EQ(mv_results_reader_open(&r, path), 0);
  ASSERT_INT_EQ(mv_results_reader_next(r, &back), 1);
  ASSERT_TRUE(back.value == row.value);
  ASSERT_STR_EQ(back.library, row.library);
  ASSERT_INT_EQ(back.msize, 1LL << 40);
  mv_results_reader_close(r);
}

static void test_append_repairs_torn_line(void)
{
  char path[256];
  snprintf(path, sizeof path, "%s/append.csv", dir);
  /* a writer killed mid-row left "1,smpi,S,1" without newline: it must disappear */
  write_file(path, HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,1,1\n1,smpi,S,1");
  struct mv_results_writer *w;
  struct mv_row row;
  mv_row_init(&row);
  strcpy(row.engine, "smpi");
  strcpy(row.op, "MPI_Reduce");
  row.value = 2;
  ASSERT_INT_EQ(mv_results_writer_open(&w, path, MV_RESULTS_APPEND), 0);
  ASSERT_INT_EQ(mv_results_writer_write(w, &row), 0);
  ASSERT_INT_EQ(mv_results_writer_close(w, 1), 0);
  ASSERT_STR_EQ(read_file(path), HDR "0,smpi,S,16,1,MPI_Bcast,default,800,time_s,0,1,1\n"
                                     "0,smpi,,1,1,MPI_Reduce,default,0,time_s,0,2,1\n");
  /* a file with another header is refused, not appended to */
  write_file(path, "a,b\n1,2\n");
  ASSERT_INT_EQ(mv_results_writer_open(&w, path, MV_RESULTS_APPEND), MV_EPARSE);
}

static void test_atomic_abandon(void)
{
  char path[256];
  snprintf(path, sizeof path, "%s/atomic.csv", dir);
  write_file(path, "old contents\n");
  struct mv_results_writer *w;
  struct mv_row row;
  mv_row_init(&row);
  strcpy(row.engine, "smpi");
  strcpy(row.op, "x");
  ASSERT_INT_EQ(mv_results_writer_open(&w, path, MV_RESULTS_ATOMIC), 0);
  ASSERT_INT_EQ(mv_results_writer_write(w, &row), 0);
  ASSERT_INT_EQ(mv_results_writer_close(w, 0), 0);
  ASSERT_STR_EQ(read_file(path), "old contents\n");
  ASSERT_INT_EQ(mv_results_writer_open(&w, path, MV_RESULTS_ATOMIC), 0);
  ASSERT_INT_EQ(mv_results_writer_write(w, &row), 0);
  ASSERT_INT_EQ(mv_results_writer_close(w, 1), 0);
  ASSERT_STR_EQ(read_file(path), HDR "0,smpi,,1,1,x,default,0,time_s,0,0,1\n");
}

static long max_rss_kb(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* A million rows (about 60 MB) must stream through a reader whose memory does not grow. */
static void test_million_rows_bounded(void)
{
  char path[256];
  snprintf(path, sizeof path, "%s/million.csv", dir);
  FILE *fp = fopen(path, "w");
  fputs(HDR, fp);
  for (long i = 0; i < 1000000; i++)
    fprintf(fp, "%ld,smpi,SMPI 3.32,%d,1,MPI_Allgather,default,800,time_s,%ld,%.17g,1\n", i % 10,
            16 << (int)(i % 7), i, 1e-6 * (double)(i % 997));
  fclose(fp);
  long before = max_rss_kb();
  struct mv_results_reader *r;
  struct mv_row row;
  double sum = 0;
  ASSERT_INT_EQ(mv_results_reader_open(&r, path), 0);
  int rc;
  while ((rc = mv_results_reader_next(r, &row)) == 1)
    sum += row.value;
  ASSERT_INT_EQ(rc, 0);
  ASSERT_INT_EQ(mv_results_reader_rows(r), 1000000);
  mv_results_reader_close(r);
  ASSERT_TRUE(sum > 0);
  /* the reader needs one line buffer: growth of 4 MB would mean rows are being kept */
  ASSERT_TRUE(max_rss_kb() - before < 4096);
  unlink(path);
}

/* Groups arriving as 8, 2, 16, 4, 2' come out 2, 2', 4, 8, 16: by nprocs, equal ones in
 * arrival order (the order a stable sort by nprocs gives, worked out by hand). */
static void test_insert_by_nprocs(void)
{
  struct mv_group g[5] = {{.nprocs = 8}, {.nprocs = 2}, {.nprocs = 16}, {.nprocs = 4}, {.nprocs = 2}};
  const struct mv_group *out[5];
  size_t n = 0;
  for (int i = 0; i < 5; i++)
    n = mv_groups_insert_by_nprocs(out, n, &g[i]);
  ASSERT_INT_EQ((int)n, 5);
  const struct mv_group *want[5] = {&g[1], &g[4], &g[3], &g[0], &g[2]};
  for (int i = 0; i < 5; i++)
    ASSERT_TRUE(out[i] == want[i]);
}

int main(void)
{
  if (mv_test_tmpdir(dir, sizeof dir, NULL) != 0)
    return 1;
  RUN_TEST(test_read_valid);
  RUN_TEST(test_errors);
  RUN_TEST(test_bom_negative_long_line);
  RUN_TEST(test_format_roundtrip);
  RUN_TEST(test_append_repairs_torn_line);
  RUN_TEST(test_atomic_abandon);
  RUN_TEST(test_million_rows_bounded);
  RUN_TEST(test_insert_by_nprocs);
  mv_test_tmpdir_done(dir, NULL);
  return TEST_EXIT();
}
