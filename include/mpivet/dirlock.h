/* Output folders: one advisory lock per folder (DIR/.mpivet.lock, flock), held until the process
 * ends however it ends (the kernel drops it, so a killed run leaves no stale lock), and the test
 * "this folder holds nothing yet", so that a command never writes over files it did not create. */
#ifndef MPIVET_DIRLOCK_H
#define MPIVET_DIRLOCK_H

#include <stddef.h>

/* The name of the lock file inside a locked folder. */
#define MV_DIR_LOCK_NAME ".mpivet.lock"

/* Lock dir (which must exist) for the rest of the process: 0, MV_EBUSY when another process
 * holds it, MV_EIO when the lock file cannot be created. Close-on-exec: launched programs do
 * not inherit it. */
int mv_dir_lock(const char *dir);
/* In a forked child that does not exec (the launch guard): close the lock files inherited from
 * the parent, so that the locks end with the process that took them and not with the child
 * (a guard outlives a killed mpivet by up to 3 s, and `check --resume` found the folder busy).
 * Async-signal-safe. */
void mv_dir_locks_close_in_child(void);
/* 1 when dir holds nothing but the lock file; else 0 and the name of one entry in first. */
int mv_dir_is_empty(const char *dir, char *first, size_t size);

#endif
