/* Comma lists of message sizes in bytes ("8,1024"), as mpivet-bench's --msizes takes them:
 * one parser and one default for mpivet-bench and `mpivet bench`. */
#ifndef MPIVET_SIZELIST_H
#define MPIVET_SIZELIST_H

#include <stddef.h>
#include <stdint.h>

#define MV_BENCH_DEFAULT_MSIZES "8,1024"
#define MV_SIZE_LIST_MAX_BYTES ((int64_t)1 << 31)

/* Sizes of text into out[0..cap), *n of them: 0; MV_EPARSE when an item is not a size from 0
 * to MV_SIZE_LIST_MAX_BYTES (the item, or "" for an empty one, copied into bad[badsize]);
 * MV_ERANGE when there are more than cap. */
int mv_size_list_parse(const char *text, int64_t *out, size_t cap, size_t *n, char *bad,
                       size_t badsize);

#endif
