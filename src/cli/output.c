/* The command layer's own output files (platform -o, regress --junit/--json, analyze --html and
 * --cube, benchgen -o, convert -o): written whole through the atomic writer (util/atomic.c), so a
 * full disk or a read-only folder leaves no partial file and an existing file its old content,
 * and every write failure says "cannot write PATH: REASON" with the system's reason. Outputs
 * that must be new (convert, benchgen without --force, analyze --html) are created without
 * replacing: of two runs writing one new file at once, the second is refused, not silently last. */
#include <errno.h>
#include <string.h>
#include <sys/statvfs.h>

#include "cli.h"
#include "mpivet/atomic.h"
#include "mpivet/error.h"

const char *mv_cli_reason(int err)
{
  return (err == MV_EIO || err == MV_ENOENT) && errno ? strerror(errno) : mv_strerror(err);
}

int mv_cli_write_failed(const char *cmd, const char *path, int err)
{
  return mv_cli_fail(cmd, err, "cannot write %s: %s", path, mv_cli_reason(err));
}

int mv_cli_write_file(const char *cmd, const char *path, int (*fn)(FILE *fp, void *arg), void *arg)
{
  errno = 0;
  int rc = mv_atomic_write(path, fn, arg);
  if (rc == MV_EIO || rc == MV_ENOENT)
    return mv_cli_write_failed(cmd, path, rc);
  return rc;
}

int mv_cli_write_new_file(const char *cmd, const char *path, const char *hint,
                          int (*fn)(FILE *fp, void *arg), void *arg)
{
  errno = 0;
  int rc = mv_atomic_write_new(path, fn, arg);
  if (rc == MV_EEXIST)
    return mv_cli_error(cmd, "%s exists; not overwriting it (%s)", path, hint);
  if (rc == MV_EIO || rc == MV_ENOENT)
    return mv_cli_write_failed(cmd, path, rc);
  return rc;
}

void mv_cli_disk_note(const char *dir, char *buf, size_t size)
{
  struct statvfs st;
  buf[0] = '\0';
  if (statvfs(dir, &st) != 0)
    return;
  if (st.f_flag & ST_RDONLY)
    snprintf(buf, size, " (%s is on a read-only file system)", dir);
  else if (st.f_bavail == 0 || (st.f_favail == 0 && st.f_files > 0))
    snprintf(buf, size, " (no space left on the device holding %s)", dir);
}
