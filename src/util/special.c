/* Outputs that are not regular files (/dev/null, a FIFO, a terminal) are written in place:
 * the atomic writers (temporary + rename) would otherwise replace them with a regular file.
 * Kept apart from paths.c so that the MPI programs can link it alone. */
#include <sys/stat.h>

#include "mpivet/paths.h"

int mv_path_is_special(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}
