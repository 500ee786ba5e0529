/* Growing arrays and whole-file reads, the two bits of memory plumbing every parser needs:
 * one implementation instead of a realloc loop in each component. */
#ifndef MPIVET_GROW_H
#define MPIVET_GROW_H

#include <stddef.h>
#include <stdio.h>

/* Make room for `need` elements of `elem` bytes in *ptr (capacity *cap, doubled as needed,
 * at least `min_cap`). Returns 0 or MV_ENOMEM (then *ptr and *cap are unchanged). */
int mv_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t min_cap);

/* Read the whole stream into a NUL-terminated malloc'd buffer (*len excludes the NUL).
 * Returns 0, MV_ENOMEM or MV_EIO; the stream stays open. */
int mv_read_stream(FILE *fp, char **buf, size_t *len);

#endif
