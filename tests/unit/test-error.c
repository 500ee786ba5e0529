/* Tests of the error context (struct mv_error, mpivet/error.h) and of mv_read_file
 * (mpivet/grow.h), which reports through it: the place and reason of each failure in the
 * "file:line:column: text" form the commands print; the strerror texts are glibc's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "test.h"

static char tmpdir[256] = "/tmp/mv-test-error-XXXXXX";

static void test_set_and_text(void)
{
  struct mv_error e;
  char buf[600];
  ASSERT_INT_EQ(mv_error_set(&e, MV_EPARSE, "r.csv", 12, 7, "expected a number, got \"%s\"", "abc"),
                MV_EPARSE);
  ASSERT_INT_EQ(e.code, MV_EPARSE);
  ASSERT_STR_EQ(mv_error_text(&e, buf, sizeof buf), "r.csv:12:7: expected a number, got \"abc\"");
  mv_error_set(&e, MV_EIO, "r.csv", 3, 0, "read error");
  ASSERT_STR_EQ(mv_error_text(&e, buf, sizeof buf), "r.csv:3: read error");
  mv_error_set(&e, MV_ENOMEM, NULL, 3, 4, "out of memory");
  ASSERT_STR_EQ(mv_error_text(&e, buf, sizeof buf), "out of memory");
  ASSERT_INT_EQ(mv_error_set(NULL, MV_ERANGE, "x", 0, 0, "ignored"), MV_ERANGE);
  char small[8];
  ASSERT_STR_EQ(mv_error_text(&e, small, sizeof small), "out of ");   /* truncated, terminated */
}

static void test_read_file(void)
{
  char path[300], want[400], *buf = NULL;
  size_t len = 0;
  struct mv_error e;
  snprintf(path, sizeof path, "%s/ten", tmpdir);
  FILE *fp = fopen(path, "w");
  ASSERT_TRUE(fp != NULL);
  if (!fp)
    return;
  fputs("0123456789", fp);
  fclose(fp);
  ASSERT_INT_EQ(mv_read_file(path, 0, &buf, &len, &e), 0);
  ASSERT_INT_EQ(len, 10);
  ASSERT_STR_EQ(buf, "0123456789");
  free(buf);
  ASSERT_INT_EQ(mv_read_file(path, 10, &buf, &len, &e), 0);   /* max is inclusive */
  free(buf);
  buf = NULL;
  ASSERT_INT_EQ(mv_read_file(path, 9, &buf, &len, &e), MV_ERANGE);
  ASSERT_TRUE(buf == NULL);
  snprintf(want, sizeof want, "%s: larger than 9 bytes", path);
  ASSERT_STR_EQ(mv_error_text(&e, want + 200, 200), want);
  snprintf(path, sizeof path, "%s/missing", tmpdir);
  ASSERT_INT_EQ(mv_read_file(path, 0, &buf, &len, &e), MV_ENOENT);
  snprintf(want, sizeof want, "%s: No such file or directory", path);
  ASSERT_STR_EQ(mv_error_text(&e, want + 200, 200), want);
  ASSERT_INT_EQ(mv_read_file(path, 0, &buf, &len, NULL), MV_ENOENT);
  /* a folder opens but does not read (EISDIR) */
  ASSERT_INT_EQ(mv_read_file(tmpdir, 0, &buf, &len, &e), MV_EIO);
  snprintf(want, sizeof want, "%s: read error", tmpdir);
  ASSERT_STR_EQ(mv_error_text(&e, want + 200, 200), want);
}

int main(void)
{
  if (mv_test_tmpdir(tmpdir, sizeof tmpdir, NULL) != 0)
    return 1;
  RUN_TEST(test_set_and_text);
  RUN_TEST(test_read_file);
  mv_test_tmpdir_done(tmpdir, NULL);
  return TEST_EXIT();
}
