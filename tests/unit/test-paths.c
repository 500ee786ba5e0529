/* Tests of mv_path_find (mpivet/paths.h): executables found as POSIX sh finds them (XCU 2.9.1.1,
 * "Command Search and Execution": a name with a slash is used as is; otherwise each PATH entry in
 * order, an empty entry meaning the current folder). Expected paths are built here by hand in a
 * scratch folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpivet/error.h"
#include "mpivet/paths.h"
#include "test.h"

static char tmpdir[256] = "/tmp/mv-test-paths-XXXXXX";

/* An executable file DIR/NAME (mode 0755), or a plain one (0644). */
static void make_file(const char *dir, const char *name, int executable)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  mkdir(dir, 0755);
  FILE *fp = fopen(path, "w");
  ASSERT_TRUE(fp != NULL);
  if (fp)
    fclose(fp);
  ASSERT_INT_EQ(chmod(path, executable ? 0755 : 0644), 0);
}

static void test_find(void)
{
  char a[300], b[300], buf[600], want[600];
  snprintf(a, sizeof a, "%s/a", tmpdir);
  snprintf(b, sizeof b, "%s/b", tmpdir);
  make_file(a, "tool", 0); /* not executable: skipped */
  make_file(b, "tool", 1);
  make_file(a, "first", 1);
  make_file(b, "first", 1);
  char path[700];
  snprintf(path, sizeof path, "%s:%s", a, b);
  setenv("PATH", path, 1);
  snprintf(want, sizeof want, "%s/tool", b);
  ASSERT_INT_EQ(mv_path_find("tool", buf, sizeof buf), 0);
  ASSERT_STR_EQ(buf, want);
  snprintf(want, sizeof want, "%s/first", a); /* the first entry wins */
  ASSERT_INT_EQ(mv_path_find("first", buf, sizeof buf), 0);
  ASSERT_STR_EQ(buf, want);
  ASSERT_INT_EQ(mv_path_find("nosuch", buf, sizeof buf), MV_ENOENT);
  /* a name with a slash is taken as it is, never searched */
  snprintf(want, sizeof want, "%s/tool", b);
  ASSERT_INT_EQ(mv_path_find(want, buf, sizeof buf), 0);
  ASSERT_STR_EQ(buf, want);
  snprintf(want, sizeof want, "%s/tool", a);
  ASSERT_INT_EQ(mv_path_find(want, buf, sizeof buf), MV_ENOENT);
  /* an empty entry is the current folder */
  ASSERT_INT_EQ(chdir(b), 0);
  setenv("PATH", ":/nonexistent", 1);
  ASSERT_INT_EQ(mv_path_find("tool", buf, sizeof buf), 0);
  ASSERT_STR_EQ(buf, "./tool");
  setenv("PATH", "", 1);
  ASSERT_INT_EQ(mv_path_find("tool", buf, sizeof buf), MV_ENOENT);
}

int main(void)
{
  if (mv_test_tmpdir(tmpdir, sizeof tmpdir, NULL))
    return 1;
  RUN_TEST(test_find);
  ASSERT_INT_EQ(chdir("/"), 0);
  mv_test_tmpdir_done(tmpdir, NULL);
  return TEST_EXIT();
}
