/* Writing an output file so that readers see the old file or the complete new one, never a
 * half-written one: a temporary beside it, flushed, fsynced and renamed over PATH (the folder
 * fsynced too). The temporary is unnamed (O_TMPFILE) until commit where the file system allows
 * it, so that a process killed while writing leaves no file; elsewhere it is PATH.tmp.<pid>.<n>. A special file (/dev/stdout, /dev/null, a FIFO, a terminal)
 * is written in place: renaming over it would replace it with a regular file. After MV_EIO or
 * MV_ENOENT errno holds the system's reason (ENOSPC, EROFS, ...) for the caller's message.
 * The _new variants create PATH and never replace a file: the temporary is linked into place
 * without replacing (renameat2 RENAME_NOREPLACE, else link()), so of two processes writing one
 * new PATH at once exactly one succeeds, and a check before writing cannot race with it. */
#ifndef MPIVET_ATOMIC_H
#define MPIVET_ATOMIC_H

#include <stdio.h>

struct mv_atomic_file {
  FILE *fp;    /* write here */
  char *path;  /* the destination */
  char *tmp;   /* the temporary's name, NULL when writing a special file in place */
  int create;  /* commit never replaces path (mv_atomic_open_new) */
  int anon;    /* the temporary has no name until commit (O_TMPFILE): a kill leaves nothing */
};

/* Open path for writing. 0; MV_ENOENT when its folder does not exist; MV_EIO; MV_ENOMEM.
 * On failure nothing is left to clean up. */
int mv_atomic_open(struct mv_atomic_file *f, const char *path);
/* As mv_atomic_open, for a new file: MV_EEXIST when path exists (a special file excepted). */
int mv_atomic_open_new(struct mv_atomic_file *f, const char *path);
/* Flush, fsync, close and rename into place. 0, or MV_EIO when any step failed (a write error
 * of the stream included); the temporary is then removed and path keeps its old content.
 * Opened with mv_atomic_open_new: MV_EEXIST when path was created meanwhile (left untouched). */
int mv_atomic_commit(struct mv_atomic_file *f);
/* Close and remove the temporary; path keeps its old content. */
void mv_atomic_abort(struct mv_atomic_file *f);
/* Open, fn(fp, arg), commit when fn returns 0, abort otherwise: fn's error, or the first
 * error of opening or committing. */
int mv_atomic_write(const char *path, int (*fn)(FILE *fp, void *arg), void *arg);
/* The same for a new file (mv_atomic_open_new): MV_EEXIST when path exists or appears meanwhile. */
int mv_atomic_write_new(const char *path, int (*fn)(FILE *fp, void *arg), void *arg);
/* A copy of the file from as path (mv_atomic_write): 0; MV_ENOENT when from cannot be opened
 * (errno says why); MV_EIO. */
int mv_atomic_copy(const char *from, const char *path);

#endif
