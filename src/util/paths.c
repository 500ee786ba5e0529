/* Locating mpivet's own files: the directory of the running executable, share/mpivet data and
 * the per-flavor MPI programs, in the build tree or an installed prefix (env overrides first);
 * executables found as the shell finds them in PATH. */
#include "mpivet/paths.h"

#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/error.h"

int mv_path_self_dir(char *buf, size_t size)
{
  ssize_t n = readlink("/proc/self/exe", buf, size - 1);
  if (n <= 0)
    return MV_ENOENT;
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (slash)
    *slash = '\0';
  return 0;
}

static int exists(const char *path)
{
  return access(path, F_OK) == 0;
}

/* Try dir/rel; copy into buf when it exists. */
static int try_path(const char *dir, const char *rel, char *buf, size_t size)
{
  int n = snprintf(buf, size, "%s/%s", dir, rel);
  return n > 0 && (size_t)n < size && exists(buf);
}

int mv_path_share(const char *name, char *buf, size_t size)
{
  char self[PATH_MAX], dir[PATH_MAX + 32];
  const char *env = getenv("MPIVET_SHARE");
  if (env && try_path(env, name, buf, size))
    return 0;
  if (mv_path_self_dir(self, sizeof self) == 0) {
    snprintf(dir, sizeof dir, "%s/../share/mpivet", self);
    if (try_path(dir, name, buf, size))
      return 0;
  }
  if (try_path(MV_SOURCE_SHARE_DIR, name, buf, size))
    return 0;
  return MV_ENOENT;
}

int mv_path_mpi(const char *flavor, const char *name, char *buf, size_t size)
{
  char self[PATH_MAX], dir[PATH_MAX + 64];
  const char *env = getenv("MPIVET_LIBEXEC");
  if (env) {
    snprintf(dir, sizeof dir, "%s/%s", env, flavor);
    if (try_path(dir, name, buf, size))
      return 0;
  }
  if (mv_path_self_dir(self, sizeof self) == 0) {
    snprintf(dir, sizeof dir, "%s/../lib/mpivet/%s", self, flavor);
    if (try_path(dir, name, buf, size))
      return 0;
  }
  return MV_ENOENT;
}

int mv_path_is_special(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int mv_path_find(const char *name, char *buf, size_t size)
{
  if (strchr(name, '/')) {
    snprintf(buf, size, "%s", name);
    return access(name, X_OK) == 0 ? 0 : MV_ENOENT;
  }
  for (const char *p = getenv("PATH"); p && *p;) {
    size_t n = strcspn(p, ":");
    snprintf(buf, size, "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
    if (access(buf, X_OK) == 0)
      return 0;
    p += n + (p[n] == ':');
  }
  return MV_ENOENT;
}
