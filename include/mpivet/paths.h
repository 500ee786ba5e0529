/* Where mpivet finds its own files: the share/ data (catalog, expectations, platforms)
 * and the MPI programs built once per MPI flavor (openmpi, mpich, smpi). Works from the
 * build tree and from an installed prefix; MPIVET_SHARE and MPIVET_LIBEXEC override. */
#ifndef MPIVET_PATHS_H
#define MPIVET_PATHS_H

#include <stddef.h>

/* Directory holding the running mpivet executable. */
int mv_path_self_dir(char *buf, size_t size);
/* Full path of share/mpivet/<name>; MV_ENOENT when not found. */
int mv_path_share(const char *name, char *buf, size_t size);
/* Full path of an MPI program or library built for a flavor ("openmpi", "mpich", "smpi"),
 * e.g. mv_path_mpi("smpi", "mpivet-bench"); MV_ENOENT when that flavor was not built. */
int mv_path_mpi(const char *flavor, const char *name, char *buf, size_t size);
/* 1 when path exists and is not a regular file (/dev/null, a FIFO, a terminal): an output that
 * must be written in place, never replaced by a renamed temporary. */
int mv_path_is_special(const char *path);
/* Full path of the executable `name` as the shell finds it: `name` itself when it holds a '/',
 * else the first PATH entry where it is executable (an empty entry is the current folder);
 * MV_ENOENT when there is none. */
int mv_path_find(const char *name, char *buf, size_t size);

#endif
