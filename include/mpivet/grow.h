/* Growing arrays and whole-file reads, the two bits of memory plumbing every parser needs:
 * one implementation instead of a realloc loop in each component. */
#ifndef MPIVET_GROW_H
#define MPIVET_GROW_H

#include <stddef.h>
#include <stdio.h>

/* Make room for `need` elements of `elem` bytes in *ptr (capacity *cap, doubled as needed,
 * at least `min_cap`). Returns 0 or MV_ENOMEM (then *ptr and *cap are unchanged). */
int mv_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t min_cap);

/* mv_grow for an array that keeps no capacity: its capacity is implied by its length n, the
 * least power of two >= n (0 for n == 0), which is what mv_grow with min_cap 1 leaves. */
int mv_grow_implied(void *ptr, size_t n, size_t need, size_t elem);

/* Read the whole stream into a NUL-terminated malloc'd buffer (*len excludes the NUL).
 * Returns 0, MV_ENOMEM or MV_EIO; the stream stays open. */
int mv_read_stream(FILE *fp, char **buf, size_t *len);

#endif
