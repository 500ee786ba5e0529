/* The one atomic file writer (include/mpivet/atomic.h): temporary + fsync + rename, special
 * files written in place. Used by results.csv, Extra-P files, reports, plans and meta.json. */
#include "mpivet/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/error.h"
#include "mpivet/paths.h"

static void release(struct mv_atomic_file *f)
{
  free(f->path);
  free(f->tmp);
  f->fp = NULL;
  f->path = f->tmp = NULL;
}

int mv_atomic_open(struct mv_atomic_file *f, const char *path)
{
  memset(f, 0, sizeof *f);
  size_t len = strlen(path) + 32;
  f->path = strdup(path);
  if (!f->path)
    return MV_ENOMEM;
  if (!mv_path_is_special(path)) {
    f->tmp = malloc(len);
    if (!f->tmp) {
      release(f);
      return MV_ENOMEM;
    }
    snprintf(f->tmp, len, "%s.tmp.%ld", path, (long)getpid());
  }
  f->fp = fopen(f->tmp ? f->tmp : path, "w");
  if (!f->fp) {
    int rc = errno == ENOENT ? MV_ENOENT : MV_EIO, saved = errno;
    release(f);
    errno = saved;   /* the reason, for the caller's message */
    return rc;
  }
  return 0;
}

/* fsync the folder holding path, so that the rename survives a crash. */
static int sync_dir(const char *path)
{
  const char *slash = strrchr(path, '/');
  char dir[4096];
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else if ((size_t)(slash - path) >= sizeof dir)
    return 0;   /* cannot name it: the file itself is synced */
  else
    snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
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
  first_error(&err, fclose(f->fp) != 0);
  if (f->tmp) {
    first_error(&err, !err && rename(f->tmp, f->path) < 0);
    if (err)
      unlink(f->tmp);
    else
      first_error(&err, sync_dir(f->path) < 0);
  }
  release(f);
  errno = err;   /* the reason, for the caller's message */
  return err ? MV_EIO : 0;
}

void mv_atomic_abort(struct mv_atomic_file *f)
{
  if (f->fp)
    fclose(f->fp);
  if (f->tmp)
    unlink(f->tmp);
  release(f);
}

int mv_atomic_write(const char *path, int (*fn)(FILE *fp, void *arg), void *arg)
{
  struct mv_atomic_file f;
  int rc = mv_atomic_open(&f, path);
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
