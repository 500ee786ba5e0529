/* The message-size vocabulary: a size as plans and expectation files name it ("800" total,
 * "800p" per process), and comma lists of sizes in bytes ("8,1024") as mpivet-bench's --msizes
 * takes them (one parser and one default for mpivet-bench and `mpivet bench`). */
#ifndef MPIVET_SIZELIST_H
#define MPIVET_SIZELIST_H

#include <stddef.h>
#include <stdint.h>

#define MV_BENCH_DEFAULT_MSIZES "8,1024"

/* A message size as plans and expectation files name it: a total volume in bytes ("800", the
 * PGMPI convention of results.csv's msize column) or a size per process ("800p": a total of
 * 800 x nprocs bytes at each process count, as Table 1 of the scalability-validation paper
 * means its 800 bytes for Gather, Allgather and Alltoall). */
#define MV_MSIZE_MAX ((int64_t)1 << 31)
struct mv_msize_spec {
  int64_t bytes;        /* 0 .. MV_MSIZE_MAX */
  int per_process;
};
/* Parse exactly text[0..len): digits, then an optional 'p' (bytes > 0 then). Returns 0 or
 * MV_EPARSE with *errcol the 0-based offset of the problem and msg "expected ..., got ...". */
int mv_msize_spec_parse(const char *text, size_t len, struct mv_msize_spec *out, size_t *errcol,
                        char *msg, size_t msgsize);
/* "800" or "800p". */
int mv_msize_spec_format(const struct mv_msize_spec *s, char *buf, size_t size);
/* The total volume at nprocs: bytes, or bytes x nprocs. */
int64_t mv_msize_spec_total(const struct mv_msize_spec *s, int nprocs);
/* 1 when both name the same size. */
int mv_msize_spec_equal(const struct mv_msize_spec *a, const struct mv_msize_spec *b);
/* 1 when a row of msize bytes (total volume) measured at nprocs has this size. */
int mv_msize_spec_has(const struct mv_msize_spec *s, int64_t msize, int nprocs);

/* The largest item of a size list, the same bound. */
#define MV_SIZE_LIST_MAX_BYTES MV_MSIZE_MAX

/* Sizes of text into out[0..cap), *n of them: 0; MV_EPARSE when an item is not a size from 0
 * to MV_SIZE_LIST_MAX_BYTES (the item, or "" for an empty one, copied into bad[badsize]);
 * MV_ERANGE when there are more than cap. */
int mv_size_list_parse(const char *text, int64_t *out, size_t cap, size_t *n, char *bad,
                       size_t badsize);

#endif
