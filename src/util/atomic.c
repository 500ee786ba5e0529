/* The one atomic file writer (include/mpivet/atomic.h): temporary + fsync + rename (or, for a
 * new file, a rename or link that never replaces), special files written in place. The temporary
 * has no name while it is written (O_TMPFILE) where the file system allows it, so a kill -9
 * leaves nothing behind; elsewhere it is PATH.tmp.<pid>.<n>. Used by
 * results.csv, Extra-P files, reports, plans, meta.json and the command layer's outputs. */
#define _GNU_SOURCE   /* renameat2 */
#include "mpivet/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpivet/error.h"
#include "mpivet/paths.h"

static unsigned serial;   /* PATH.tmp.<pid>.<serial>: two writers of one path in one process */
#define TMP_EXTRA 48      /* bytes beyond PATH that a temporary's name takes, its NUL included */

/* The next temporary name for path in tmp (a buffer of strlen(path) + TMP_EXTRA bytes). */
static void next_tmp_name(char *tmp, const char *path)
{
  snprintf(tmp, strlen(path) + TMP_EXTRA, "%s.tmp.%ld.%u", path, (long)getpid(), serial++);
}

static void release(struct mv_atomic_file *f)
{
  free(f->path);
  free(f->tmp);
  f->fp = NULL;
  f->path = f->tmp = NULL;
}

/* A temporary of this process's own, PATH.tmp.<pid>.<n> (two writers of one path in one process
 * get two), created with the mode a new file gets. */
static FILE *open_tmp(char *tmp, const char *path)
{
  for (;;) {
    next_tmp_name(tmp, path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      FILE *fp = fdopen(fd, "w");
      if (!fp) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        errno = saved;
      }
      return fp;
    }
    if (errno != EEXIST)
      return NULL;
  }
}

/* The folder holding path in dir; -1 when it is too long to name. */
static int folder_of(const char *path, char *dir, size_t size)
{
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(dir, size, ".");
  else if ((size_t)(slash - path) >= size)
    return -1;
  else
    snprintf(dir, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
  return 0;
}

/* An unnamed temporary in path's folder (O_TMPFILE), or NULL where the file system has none. */
static FILE *open_anon(const char *path)
{
  char dir[4096];
  if (folder_of(path, dir, sizeof dir) < 0)
    return NULL;
  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    return NULL;
  FILE *fp = fdopen(fd, "w");
  if (!fp)
    close(fd);
  return fp;
}

static int open_file(struct mv_atomic_file *f, const char *path, int create)
{
  memset(f, 0, sizeof *f);
  struct stat st;
  if (create && !mv_path_is_special(path) && lstat(path, &st) == 0) {
    errno = EEXIST;
    return MV_EEXIST;
  }
  f->create = create;
  f->path = strdup(path);
  if (!f->path)
    return MV_ENOMEM;
  if (!mv_path_is_special(path)) {
    f->tmp = malloc(strlen(path) + TMP_EXTRA);
    if (!f->tmp) {
      release(f);
      return MV_ENOMEM;
    }
  }
  if (f->tmp && (f->fp = open_anon(path)) != NULL)
    f->anon = 1;
  else
    f->fp = f->tmp ? open_tmp(f->tmp, path) : fopen(path, "w");
  if (!f->fp) {
    int rc = errno == ENOENT ? MV_ENOENT : MV_EIO, saved = errno;
    release(f);
    errno = saved;   /* the reason, for the caller's message */
    return rc;
  }
  return 0;
}

int mv_atomic_open(struct mv_atomic_file *f, const char *path)
{
  return open_file(f, path, 0);
}

int mv_atomic_open_new(struct mv_atomic_file *f, const char *path)
{
  return open_file(f, path, 1);
}

/* Move tmp to path; a new file never replaces one that appeared since it was opened (another
 * process writing the same new file): -1 with errno EEXIST then. */
static int place(const char *tmp, const char *path, int create)
{
  if (!create)
    return rename(tmp, path);
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  /* a file system without RENAME_NOREPLACE: link() does not replace either */
  if (link(tmp, path) != 0)
    return -1;
  unlink(tmp);
  return 0;
}

/* Give the unnamed temporary fd its name path (never replacing it when create), through a named
 * link tmp (PATH.tmp.<pid>.<n>, a moment long) that is renamed over path otherwise. */
static int place_anon(int fd, char *tmp, const char *path, int create)
{
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  const char *name = create ? path : tmp;
  for (;;) {
    if (!create)
      next_tmp_name(tmp, path);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
      break;
    if (errno == ENOENT && linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
      break;   /* no /proc: the descriptor itself (needs CAP_DAC_READ_SEARCH) */
    if (create || errno != EEXIST)
      return -1;
  }
  if (create || rename(tmp, path) == 0)
    return 0;
  int saved = errno;
  unlink(tmp);
  errno = saved;
  return -1;
}

/* fsync the folder holding path, so that the rename survives a crash. */
static int sync_dir(const char *path)
{
  char dir[4096];
  if (folder_of(path, dir, sizeof dir) < 0)
    return 0;   /* cannot name it: the file itself is synced */
  int fd = open(dir, O_RDONLY);
  if (fd < 0)
    return 0;
  int rc = fsync(fd) < 0 && errno != EINVAL ? MV_EIO : 0;
  close(fd);
  return rc;
}

/* errno of the first failed step (a stream error seen by ferror kept its write's errno). */
static void first_error(int *err, int failed)
{
  if (failed && !*err)
    *err = errno ? errno : EIO;
}

int mv_atomic_commit(struct mv_atomic_file *f)
{
  int err = 0;
  first_error(&err, ferror(f->fp) || fflush(f->fp) != 0);
  first_error(&err, !err && f->tmp && fsync(fileno(f->fp)) < 0 && errno != EINVAL);
  first_error(&err, !err && f->anon &&
                        place_anon(fileno(f->fp), f->tmp, f->path, f->create) < 0);
  first_error(&err, fclose(f->fp) != 0);
  if (f->anon && !err)
    first_error(&err, sync_dir(f->path) < 0);
  else if (f->tmp && !f->anon) {
    first_error(&err, !err && place(f->tmp, f->path, f->create) < 0);
    if (err)
      unlink(f->tmp);
    else
      first_error(&err, sync_dir(f->path) < 0);
  }
  int create = f->create;
  release(f);
  errno = err;   /* the reason, for the caller's message */
  return !err ? 0 : create && err == EEXIST ? MV_EEXIST : MV_EIO;
}

void mv_atomic_abort(struct mv_atomic_file *f)
{
  if (f->fp)
    fclose(f->fp);
  if (f->tmp && !f->anon)
    unlink(f->tmp);
  release(f);
}

static int write_file(const char *path, int create, int (*fn)(FILE *fp, void *arg), void *arg)
{
  struct mv_atomic_file f;
  int rc = open_file(&f, path, create);
  if (rc < 0)
    return rc;
  rc = fn(f.fp, arg);
  if (rc != 0) {
    int saved = errno;
    mv_atomic_abort(&f);
    errno = saved;
    return rc < 0 ? rc : MV_EIO;
  }
  return mv_atomic_commit(&f);
}

int mv_atomic_write(const char *path, int (*fn)(FILE *fp, void *arg), void *arg)
{
  return write_file(path, 0, fn, arg);
}

int mv_atomic_write_new(const char *path, int (*fn)(FILE *fp, void *arg), void *arg)
{
  return write_file(path, 1, fn, arg);
}

static int copy_stream(FILE *out, void *arg)
{
  FILE *in = arg;
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n)
      return MV_EIO;
  return ferror(in) ? MV_EIO : 0;
}

int mv_atomic_copy(const char *from, const char *path)
{
  FILE *in = fopen(from, "rb");
  if (!in)
    return MV_ENOENT;
  int rc = mv_atomic_write(path, copy_stream, in);
  fclose(in);
  return rc;
}
