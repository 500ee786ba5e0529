/* First touch of fresh memory inside MPI calls, for SMPI. A receive into a buffer that was
 * allocated but never written makes the MPI library's copy fault every page in (16 us per 4 KiB
 * page on this project's VM: 20 ms for a fresh 4 MiB buffer). SMPI copies the payload inside
 * the simulator and charges nothing for it, so a late receiver was predicted 12 % short. With
 * MV_PAGE_TOUCH_S (seconds per page, measured by `mpivet calibrate` and defined in its
 * kernels.h, which includes this header), each MPI call below counts the pages of its receive
 * buffer that are not in memory yet (mincore), reads one byte of each so that it is (a later
 * call into the same pages, e.g. a second MPI_Irecv posted before the first completes, does not
 * count them again), and after the call charges that many times MV_PAGE_TOUCH_S to the rank
 * (smpi_execute). The count runs outside SMPI's benchmarking of the program's computation. A
 * buffer written before, or received into once, costs nothing more. Only contiguous receive
 * types are charged: a vector or struct type touches the pages of its blocks, not of its whole
 * extent, and those are not enumerated.
 *
 * Memory from SMPI_SHARED_MALLOC / SMPI_PARTIAL_SHARED_MALLOC (mpivet/emulate.h's MV_SHARED_*)
 * is exempt: its content is not simulated (an emulated HPL skips the matrix generation that
 * touched it in the real run). Calls wrapped: MPI_Recv, MPI_Irecv (charged when posted),
 * MPI_Sendrecv, MPI_Get, and the blocking collectives' receive buffers (rooted ones at the root,
 * MPI_Bcast off the root). Send buffers are not charged.
 * Non-blocking collectives and MPI-IO are not charged. On a real MPI, or without
 * MV_PAGE_TOUCH_S, or with MV_FIRST_TOUCH_OFF, this header only includes mpi.h. */
#ifndef MPIVET_FIRST_TOUCH_H
#define MPIVET_FIRST_TOUCH_H

#include <mpi.h>

#if defined(SMPI_SHARED_MALLOC) && defined(MV_PAGE_TOUCH_S) && !defined(MV_FIRST_TOUCH_OFF)
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define MV__TOUCH_MAX_EXEMPT 1024   /* live shared allocations; beyond, nothing is charged */

/* Exempt ranges of this rank (SMPI privatizes the program's globals per rank). */
__attribute__((unused)) static struct {
  uintptr_t begin[MV__TOUCH_MAX_EXEMPT], end[MV__TOUCH_MAX_EXEMPT];
  int n, overflow;
} mv__touch_exempt_ranges;

__attribute__((unused)) static void *mv__touch_exempt(void *p, size_t bytes)
{
  if (!p)
    return p;
  if (mv__touch_exempt_ranges.n == MV__TOUCH_MAX_EXEMPT) {
    mv__touch_exempt_ranges.overflow = 1;
    return p;
  }
  int i = mv__touch_exempt_ranges.n++;
  mv__touch_exempt_ranges.begin[i] = (uintptr_t)p;
  mv__touch_exempt_ranges.end[i] = (uintptr_t)p + bytes;
  return p;
}

__attribute__((unused)) static void mv__touch_unexempt(void *p)
{
  for (int i = 0; i < mv__touch_exempt_ranges.n; i++)
    if (mv__touch_exempt_ranges.begin[i] == (uintptr_t)p) {
      int last = --mv__touch_exempt_ranges.n;
      mv__touch_exempt_ranges.begin[i] = mv__touch_exempt_ranges.begin[last];
      mv__touch_exempt_ranges.end[i] = mv__touch_exempt_ranges.end[last];
      return;
    }
}

static inline int mv__touch_is_exempt(uintptr_t page, uintptr_t size)
{
  for (int i = 0; i < mv__touch_exempt_ranges.n; i++)
    if (page < mv__touch_exempt_ranges.end[i] && page + size > mv__touch_exempt_ranges.begin[i])
      return 1;
  return 0;
}

#undef SMPI_SHARED_MALLOC
#define SMPI_SHARED_MALLOC(size) mv__touch_exempt(smpi_shared_malloc((size), __FILE__, __LINE__), (size))
#undef SMPI_PARTIAL_SHARED_MALLOC
#define SMPI_PARTIAL_SHARED_MALLOC(size, offsets, n) \
  mv__touch_exempt(smpi_shared_malloc_partial((size), (offsets), (n)), (size))
#undef SMPI_SHARED_FREE
#define SMPI_SHARED_FREE(p) (mv__touch_unexempt(p), smpi_shared_free(p))

/* Pages of [buf, buf + bytes) that are not in memory and not exempt, each read once to bring it
 * in; 0 for NULL, MPI_IN_PLACE or memory that is not mapped (mincore fails: counting stops). */
static inline size_t mv__touch_pages(const void *buf, MPI_Aint bytes)
{
  if (!buf || buf == MPI_IN_PLACE || bytes <= 0 || mv__touch_exempt_ranges.overflow)
    return 0;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)buf & ~(page - 1);
  uintptr_t end = (uintptr_t)buf + (uintptr_t)bytes;
  size_t n = 0;
  unsigned char in_core[256];
  smpi_bench_end();   /* the simulator's own work, not the program's computation */
  while (a < end) {
    size_t k = (size_t)((end - a + page - 1) / page);
    k = k > sizeof in_core ? sizeof in_core : k;
    if (mincore((void *)a, k * page, in_core) != 0)
      break;
    for (size_t i = 0; i < k; i++) {
      uintptr_t p = a + i * page;
      if (!(in_core[i] & 1) && !mv__touch_is_exempt(p, page)) {
        n++;
        (void)*(volatile const char *)(p < (uintptr_t)buf ? (uintptr_t)buf : p);
      }
    }
    a += k * page;
  }
  smpi_bench_begin();
  return n;
}

/* Bytes that count elements of a contiguous type t fill (0 for other types). */
static inline MPI_Aint mv__touch_bytes(int count, MPI_Datatype t)
{
  MPI_Aint lb = 0, extent = 0;
  int size = 0;
  if (count <= 0 || PMPI_Type_get_true_extent(t, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_size(t, &size) != MPI_SUCCESS || (MPI_Aint)size != extent || lb != 0)
    return 0;
  return (MPI_Aint)count * extent;
}

static inline int mv__touch_comm_size(MPI_Comm comm)
{
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}

/* The span of a v-collective's receive buffer: the largest displs[i] + counts[i]. */
static inline MPI_Aint mv__touch_vbytes(const int *counts, const int *displs, MPI_Datatype t,
                                        MPI_Comm comm)
{
  int size = mv__touch_comm_size(comm), top = 0;
  for (int i = 0; counts && displs && i < size; i++)
    if (counts[i] > 0 && displs[i] + counts[i] > top)
      top = displs[i] + counts[i];
  return mv__touch_bytes(top, t);
}

static inline int mv__touch_is_root(int root, MPI_Comm comm)
{
  int rank = -1;
  PMPI_Comm_rank(comm, &rank);
  return rank == root;
}

/* One wrapper per call: count the receive buffer's fresh pages, make the call, charge them. The
 * call goes to the MPI_ function, not PMPI_, so that another profiling layer still sees it
 * (mpivet/emulate-handoff.h, the tracer); the names become function-like macros, so a definition
 * written `int (MPI_Recv)(...)` keeps its name. */
#define MV__TOUCH_WRAP(name, params, args, buf, bytes)  \
  static inline int mv__touch_##name params             \
  {                                                     \
    size_t pages_ = mv__touch_pages((buf), (bytes));    \
    int rc_ = (name)args;                               \
    if (pages_)                                         \
      smpi_execute((double)pages_ * (MV_PAGE_TOUCH_S)); \
    return rc_;                                         \
  }

/* Calls of one signature: reductions into rb (count elements), and exchanges with every rank
 * (rc elements from each). */
#define MV__TOUCH_WRAP_REDUCTION(name)                                                          \
  MV__TOUCH_WRAP(name, (const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op, MPI_Comm m), \
                 (sb, rb, c, t, op, m), rb, mv__touch_bytes(c, t))
#define MV__TOUCH_WRAP_ALL_TO(name)                                                              \
  MV__TOUCH_WRAP(name,                                                                           \
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,    \
                  MPI_Comm m),                                                                   \
                 (sb, sc, st, rb, rc, rt, m), rb, mv__touch_bytes(rc * mv__touch_comm_size(m), rt))

MV__TOUCH_WRAP(MPI_Recv, (void *b, int c, MPI_Datatype t, int src, int tag, MPI_Comm m, MPI_Status *st),
               (b, c, t, src, tag, m, st), b, mv__touch_bytes(c, t))
#define MPI_Recv(...) mv__touch_MPI_Recv(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Irecv, (void *b, int c, MPI_Datatype t, int src, int tag, MPI_Comm m, MPI_Request *r),
               (b, c, t, src, tag, m, r), b, mv__touch_bytes(c, t))
#define MPI_Irecv(...) mv__touch_MPI_Irecv(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Sendrecv,
               (const void *sb, int sc, MPI_Datatype st, int dst, int stag, void *rb, int rc,
                MPI_Datatype rt, int src, int rtag, MPI_Comm m, MPI_Status *s),
               (sb, sc, st, dst, stag, rb, rc, rt, src, rtag, m, s), rb, mv__touch_bytes(rc, rt))
#define MPI_Sendrecv(...) mv__touch_MPI_Sendrecv(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Get,
               (void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt,
                MPI_Win w),
               (o, oc, ot, target, disp, tc, tt, w), o, mv__touch_bytes(oc, ot))
#define MPI_Get(...) mv__touch_MPI_Get(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Bcast, (void *b, int c, MPI_Datatype t, int root, MPI_Comm m), (b, c, t, root, m),
               mv__touch_is_root(root, m) ? NULL : b, mv__touch_bytes(c, t))
#define MPI_Bcast(...) mv__touch_MPI_Bcast(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Reduce,
               (const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op, int root, MPI_Comm m),
               (sb, rb, c, t, op, root, m), mv__touch_is_root(root, m) ? rb : NULL, mv__touch_bytes(c, t))
#define MPI_Reduce(...) mv__touch_MPI_Reduce(__VA_ARGS__)
MV__TOUCH_WRAP_REDUCTION(MPI_Allreduce)
#define MPI_Allreduce(...) mv__touch_MPI_Allreduce(__VA_ARGS__)
MV__TOUCH_WRAP_REDUCTION(MPI_Scan)
#define MPI_Scan(...) mv__touch_MPI_Scan(__VA_ARGS__)
MV__TOUCH_WRAP_REDUCTION(MPI_Exscan)
#define MPI_Exscan(...) mv__touch_MPI_Exscan(__VA_ARGS__)
MV__TOUCH_WRAP_REDUCTION(MPI_Reduce_scatter_block)
#define MPI_Reduce_scatter_block(...) mv__touch_MPI_Reduce_scatter_block(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Gather,
               (const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root,
                MPI_Comm m),
               (sb, sc, st, rb, rc, rt, root, m), mv__touch_is_root(root, m) ? rb : NULL,
               mv__touch_bytes(rc * mv__touch_comm_size(m), rt))
#define MPI_Gather(...) mv__touch_MPI_Gather(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Gatherv,
               (const void *sb, int sc, MPI_Datatype st, void *rb, const int *rcs, const int *ds,
                MPI_Datatype rt, int root, MPI_Comm m),
               (sb, sc, st, rb, rcs, ds, rt, root, m), mv__touch_is_root(root, m) ? rb : NULL,
               mv__touch_vbytes(rcs, ds, rt, m))
#define MPI_Gatherv(...) mv__touch_MPI_Gatherv(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Scatter,
               (const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root,
                MPI_Comm m),
               (sb, sc, st, rb, rc, rt, root, m), rb, mv__touch_bytes(rc, rt))
#define MPI_Scatter(...) mv__touch_MPI_Scatter(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Scatterv,
               (const void *sb, const int *scs, const int *ds, MPI_Datatype st, void *rb, int rc,
                MPI_Datatype rt, int root, MPI_Comm m),
               (sb, scs, ds, st, rb, rc, rt, root, m), rb, mv__touch_bytes(rc, rt))
#define MPI_Scatterv(...) mv__touch_MPI_Scatterv(__VA_ARGS__)
MV__TOUCH_WRAP_ALL_TO(MPI_Allgather)
#define MPI_Allgather(...) mv__touch_MPI_Allgather(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Allgatherv,
               (const void *sb, int sc, MPI_Datatype st, void *rb, const int *rcs, const int *ds,
                MPI_Datatype rt, MPI_Comm m),
               (sb, sc, st, rb, rcs, ds, rt, m), rb, mv__touch_vbytes(rcs, ds, rt, m))
#define MPI_Allgatherv(...) mv__touch_MPI_Allgatherv(__VA_ARGS__)
MV__TOUCH_WRAP_ALL_TO(MPI_Alltoall)
#define MPI_Alltoall(...) mv__touch_MPI_Alltoall(__VA_ARGS__)
MV__TOUCH_WRAP(MPI_Alltoallv,
               (const void *sb, const int *scs, const int *sds, MPI_Datatype st, void *rb,
                const int *rcs, const int *rds, MPI_Datatype rt, MPI_Comm m),
               (sb, scs, sds, st, rb, rcs, rds, rt, m), rb, mv__touch_vbytes(rcs, rds, rt, m))
#define MPI_Alltoallv(...) mv__touch_MPI_Alltoallv(__VA_ARGS__)
#endif

#endif
