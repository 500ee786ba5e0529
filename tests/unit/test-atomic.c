/* The atomic file writer (util/atomic.c): the destination holds its old content or the whole
 * new one; no temporary is left behind; a special file (a FIFO here: testing on /dev/null would
 * replace the machine's /dev/null when the code is broken and the test runs as root) is written
 * in place and stays a FIFO. A new file (_new) never replaces one, not even one that appears
 * between open and commit (another process writing the same new file). Expected contents are
 * the literal strings written. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpivet/atomic.h"
#include "mpivet/error.h"
#include "test.h"

static char dir[64];

static void slurp(const char *path, char *buf, size_t size)
{
  buf[0] = '\0';
  FILE *fp = fopen(path, "r");
  if (!fp)
    return;
  size_t n = fread(buf, 1, size - 1, fp);
  buf[n] = '\0';
  fclose(fp);
}

static int entries(void)
{
  int n = 0;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));)
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

static int put_text(FILE *fp, void *arg)
{
  return fputs(arg, fp) < 0 ? MV_EIO : 0;
}

static int fail_half(FILE *fp, void *arg)
{
  fputs(arg, fp);
  return MV_EPARSE;
}

static void test_replace(void)
{
  char path[128], got[64];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  ASSERT_INT_EQ(mv_atomic_write(path, put_text, "old\n"), 0);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "old\n");
  struct mv_atomic_file f;
  ASSERT_INT_EQ(mv_atomic_open(&f, path), 0);
  fputs("new\n", f.fp);
  fflush(f.fp);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "old\n");          /* not visible before the commit */
  ASSERT_INT_EQ(entries(), 1);          /* out.txt only: the temporary has no name (O_TMPFILE) */
  ASSERT_INT_EQ(f.anon, 1);
  ASSERT_INT_EQ(mv_atomic_commit(&f), 0);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "new\n");
  ASSERT_INT_EQ(entries(), 1);
}

static void test_abort(void)
{
  char path[128], got[64];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  ASSERT_INT_EQ(mv_atomic_write(path, fail_half, "half"), MV_EPARSE);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "new\n");
  struct mv_atomic_file f;
  ASSERT_INT_EQ(mv_atomic_open(&f, path), 0);
  fputs("dropped", f.fp);
  mv_atomic_abort(&f);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "new\n");
  ASSERT_INT_EQ(entries(), 1);
  char missing[128];
  snprintf(missing, sizeof missing, "%s/no/such/folder.txt", dir);
  ASSERT_INT_EQ(mv_atomic_write(missing, put_text, "x"), MV_ENOENT);
}

static void test_special(void)
{
  struct stat st;
  char fifo[128], got[64];
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  ASSERT_INT_EQ(mkfifo(fifo, 0600), 0);
  pid_t pid = fork();
  if (pid == 0) {   /* the reader: copies what comes through the FIFO into fifo.copy */
    char copy[160], buf[64];
    alarm(10);   /* a FIFO replaced by a regular file would leave this open waiting */
    snprintf(copy, sizeof copy, "%s.copy", fifo);
    FILE *in = fopen(fifo, "r"), *out = fopen(copy, "w");
    size_t n = in && out ? fread(buf, 1, sizeof buf, in) : 0;
    _exit(!out || fwrite(buf, 1, n, out) != n || fclose(out) != 0);
  }
  ASSERT_INT_EQ(mv_atomic_write(fifo, put_text, "through\n"), 0);
  int status = 1;
  waitpid(pid, &status, 0);
  ASSERT_INT_EQ(status, 0);
  ASSERT_TRUE(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
  char copy[160];
  snprintf(copy, sizeof copy, "%s.copy", fifo);
  slurp(copy, got, sizeof got);
  ASSERT_STR_EQ(got, "through\n");
  unlink(copy);
  unlink(fifo);
}

static void test_new(void)
{
  char path[128], got[64];
  snprintf(path, sizeof path, "%s/new.txt", dir);
  ASSERT_INT_EQ(mv_atomic_write_new(path, put_text, "first\n"), 0);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "first\n");
  ASSERT_INT_EQ(mv_atomic_write_new(path, put_text, "second\n"), MV_EEXIST);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "first\n");
  unlink(path);
  /* the race: path appears after the open (the other writer committed first) */
  struct mv_atomic_file f;
  ASSERT_INT_EQ(mv_atomic_open_new(&f, path), 0);
  fputs("late\n", f.fp);
  ASSERT_INT_EQ(mv_atomic_write_new(path, put_text, "early\n"), 0);
  ASSERT_INT_EQ(mv_atomic_commit(&f), MV_EEXIST);
  slurp(path, got, sizeof got);
  ASSERT_STR_EQ(got, "early\n");
  ASSERT_INT_EQ(entries(), 2);   /* out.txt and new.txt: no temporary left */
  unlink(path);
}

/* A writer killed (SIGKILL) before its commit leaves no file at all: the temporary has no name
 * (O_TMPFILE, which ext4 and tmpfs have; the test runs in /tmp). Before, PATH.tmp.<pid>.<n> was
 * left (smpi/trust-signals: "temporary files left after SIGKILL", convert at stop 24). */
static void test_killed(void)
{
  char path[128];
  snprintf(path, sizeof path, "%s/killed.txt", dir);
  int before = entries(), ready[2];
  ASSERT_INT_EQ(pipe(ready), 0);
  pid_t pid = fork();
  if (pid == 0) {
    struct mv_atomic_file f;
    if (mv_atomic_open_new(&f, path) == 0 && f.anon) {
      fputs("half\n", f.fp);
      fflush(f.fp);
      (void)!write(ready[1], "y", 1);
    } else
      (void)!write(ready[1], "n", 1);
    pause();
    _exit(0);
  }
  char c = 0;
  ASSERT_INT_EQ((int)read(ready[0], &c, 1), 1);
  ASSERT_INT_EQ(c, 'y');                  /* the temporary is unnamed here */
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  close(ready[0]);
  close(ready[1]);
  ASSERT_INT_EQ(entries(), before);       /* nothing left by the killed writer */
}

int main(void)
{
  snprintf(dir, sizeof dir, "/tmp/mv-atomic-XXXXXX");
  if (!mkdtemp(dir))
    return 1;
  RUN_TEST(test_replace);
  RUN_TEST(test_abort);
  RUN_TEST(test_special);
  RUN_TEST(test_new);
  RUN_TEST(test_killed);
  char path[128];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  unlink(path);
  rmdir(dir);
  return TEST_EXIT();
}
