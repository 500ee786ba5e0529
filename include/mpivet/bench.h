/* The operations mpivet-bench measures (names it understands in --ops) and what the rest of
 * mpivet knows about each: the cost model, the plan, the report. mpivet-bench's operation table
 * is generated from this list (`mpivet-bench --list` prints it; tests/mpi/bench-mpi.sh). */
#ifndef MPIVET_BENCH_H
#define MPIVET_BENCH_H

#include <stddef.h>
#include <string.h>
#include <strings.h>

/* The operations table: one line per measurable entry, the one place for what mpivet knows about
 * an operation. X(id, op, impl, kind, sized, growth, calls, trees, label):
 *   id        the entry's C identifier (mpivet-bench implements it as bench_run_<id> or, for a
 *             MEMORY entry, bench_create_<id>; its operation table is generated from this list)
 *   op, impl  the results.csv columns (impl "default" is the library's own call; a mock-up or
 *             variant is named by its impl id everywhere: --ops, expectation files, reports)
 *   kind      TIME (time_s) or MEMORY (mem_bytes, rss_bytes of a create/free pair)
 *   sized     1 when msize sets the message volume, 0 when it is ignored (recorded as 0)
 *   growth    messages per call of the algorithms used at small sizes (the cost model): P
 *             (trees), PLOGP (dissemination, recursive doubling, Bruck), P2 (pairwise, linear scan)
 *   calls     collectives per call (mock-ups combine two)
 *   trees     1 when its MPI calls (or SMPI's algorithms for them) may call Bcast, Reduce or
 *             Allreduce, whose first call makes SMPI's selector detect SMP placement (O(p^2))
 *   label     the report's column title
 */
#define MV_BENCH_OPS(X) \
  X(barrier, "MPI_Barrier", "default", TIME, 0, PLOGP, 1, 0, "Barrier") \
  X(bcast, "MPI_Bcast", "default", TIME, 1, P, 1, 1, "Bcast") \
  X(reduce, "MPI_Reduce", "default", TIME, 1, P, 1, 1, "Reduce") \
  X(allreduce, "MPI_Allreduce", "default", TIME, 1, PLOGP, 1, 1, "Allreduce") \
  X(gather, "MPI_Gather", "default", TIME, 1, P, 1, 0, "Gather") \
  X(gatherv, "MPI_Gatherv", "default", TIME, 1, P, 1, 0, "Gatherv") \
  X(allgather, "MPI_Allgather", "default", TIME, 1, PLOGP, 1, 0, "Allgather") \
  X(allgatherv, "MPI_Allgatherv", "default", TIME, 1, P, 1, 0, "Allgatherv") \
  X(alltoall, "MPI_Alltoall", "default", TIME, 1, PLOGP, 1, 0, "Alltoall") \
  X(alltoallv, "MPI_Alltoallv", "default", TIME, 1, P2, 1, 0, "Alltoallv") \
  X(scatter, "MPI_Scatter", "default", TIME, 1, P, 1, 0, "Scatter") \
  X(scatterv, "MPI_Scatterv", "default", TIME, 1, P, 1, 0, "Scatterv") \
  X(reduce_scatter, "MPI_Reduce_scatter", "default", TIME, 1, PLOGP, 1, 1, "Reduce_scatter") \
  X(reduce_scatter_block, "MPI_Reduce_scatter_block", "default", TIME, 1, P, 1, 1, "Reduce_scatter_block") \
  X(scan, "MPI_Scan", "default", TIME, 1, P2, 1, 1, "Scan") \
  X(exscan, "MPI_Exscan", "default", TIME, 1, P2, 1, 1, "Exscan") \
  X(pingpong, "pingpong", "default", TIME, 1, P, 1, 1, "pingpong") \
  X(gather_as_allgather, "MPI_Gather", "gather_as_allgather", TIME, 1, P, 1, 1, "gather_as_allgather") \
  X(gather_as_reduce, "MPI_Gather", "gather_as_reduce", TIME, 1, P, 1, 1, "gather_as_reduce") \
  X(allgather_as_alltoall, "MPI_Allgather", "allgather_as_alltoall", TIME, 1, P, 1, 1, "allgather_as_alltoall") \
  X(allgather_as_allreduce, "MPI_Allgather", "allgather_as_allreduce", TIME, 1, P, 1, 1, "allgather_as_allreduce") \
  X(scatter_as_bcast, "MPI_Scatter", "scatter_as_bcast", TIME, 1, P, 1, 1, "scatter_as_bcast") \
  X(reduce_as_allreduce, "MPI_Reduce", "reduce_as_allreduce", TIME, 1, P, 1, 1, "reduce_as_allreduce") \
  X(reduce_scatter_as_allreduce, "MPI_Reduce_scatter", "reduce_scatter_as_allreduce", TIME, 1, P, 1, 1, "reduce_scatter_as_allreduce") \
  X(bcast_as_scatter_allgather, "MPI_Bcast", "bcast_as_scatter_allgather", TIME, 1, P, 1, 1, "bcast_as_scatter_allgather") \
  X(allgather_as_gather_bcast, "MPI_Allgather", "allgather_as_gather_bcast", TIME, 1, P, 2, 1, "Allgather (Gather+Bcast)") \
  X(allreduce_as_reduce_bcast, "MPI_Allreduce", "allreduce_as_reduce_bcast", TIME, 1, P, 2, 1, "Allreduce (Reduce+Bcast)") \
  X(allreduce_as_reduce_scatter_block_allgather, "MPI_Allreduce", "allreduce_as_reduce_scatter_block_allgather", TIME, 1, P, 1, 1, "allreduce_as_reduce_scatter_block_allgather") \
  X(reduce_as_reduce_scatter_block_gather, "MPI_Reduce", "reduce_as_reduce_scatter_block_gather", TIME, 1, P, 1, 1, "reduce_as_reduce_scatter_block_gather") \
  X(reduce_scatter_block_as_reduce_scatter, "MPI_Reduce_scatter_block", "reduce_scatter_block_as_reduce_scatter", TIME, 1, P, 1, 1, "reduce_scatter_block_as_reduce_scatter") \
  X(scan_as_exscan_reduce_local, "MPI_Scan", "scan_as_exscan_reduce_local", TIME, 1, P, 1, 1, "scan_as_exscan_reduce_local") \
  X(reduce_scatter_as_reduce_scatterv, "MPI_Reduce_scatter", "reduce_scatter_as_reduce_scatterv", TIME, 1, P, 1, 1, "reduce_scatter_as_reduce_scatterv") \
  X(bcast_as_binomial, "MPI_Bcast", "bcast_as_binomial", TIME, 1, P, 1, 1, "Bcast (BT)") \
  X(comm_create, "MPI_Comm_create", "default", MEMORY, 0, PLOGP, 1, 1, "Comm_create") \
  X(comm_dup, "MPI_Comm_dup", "default", MEMORY, 0, PLOGP, 1, 1, "Comm_dup") \
  X(win_create, "MPI_Win_create", "default", MEMORY, 1, PLOGP, 2, 1, "Win_create") \
  X(cart_create, "MPI_Cart_create", "default", MEMORY, 0, PLOGP, 1, 1, "Cart_create")

enum mv_op_kind { MV_OP_TIME, MV_OP_MEMORY };
enum mv_op_growth { MV_OP_GROWTH_P, MV_OP_GROWTH_PLOGP, MV_OP_GROWTH_P2 };

struct mv_op_info {
  const char *op, *impl;
  enum mv_op_kind kind;
  int sized;
  enum mv_op_growth growth;
  double calls;
  int trees;
  const char *label;
};

/* The entry named by the first n bytes of name (op "MPI_Bcast" or "Bcast" for its default,
 * case-insensitive, or an impl id such as "allreduce_as_reduce_bcast"), or NULL. */
static inline const struct mv_op_info *mv_bench_op_info_n(const char *name, size_t n)
{
  static const struct mv_op_info table[] = {
#define MV_BENCH_INFO_(id, op, impl, kind, sized, growth, calls, trees, label) \
    {op, impl, MV_OP_##kind, sized, MV_OP_GROWTH_##growth, calls, trees, label},
    MV_BENCH_OPS(MV_BENCH_INFO_)
#undef MV_BENCH_INFO_
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    const char *key = strcmp(table[i].impl, "default") != 0 ? table[i].impl : table[i].op;
    int mpi = strcmp(table[i].impl, "default") == 0 && strncmp(key, "MPI_", 4) == 0;
    if ((strlen(key) == n && strncasecmp(name, key, n) == 0) ||
        (mpi && strlen(key + 4) == n && strncasecmp(name, key + 4, n) == 0))
      return &table[i];
  }
  return NULL;
}
static inline const struct mv_op_info *mv_bench_op_info(const char *name)
{
  return mv_bench_op_info_n(name, strlen(name));
}

/* Group names accepted in --ops besides single entries. */
#define MV_BENCH_GROUPS(X) X("all") X("collectives") X("mockups") X("memory")

/* 1 when name is an entry (op "MPI_Bcast" or "Bcast" for its default, case-insensitive, or an
 * impl id such as "allreduce_as_reduce_bcast") or a group; 0 otherwise. */
static inline int mv_bench_op_known(const char *name)
{
  if (mv_bench_op_info(name))
    return 1;
#define MV_BENCH_GROUP_(g) if (strcasecmp(name, g) == 0) return 1;
  MV_BENCH_GROUPS(MV_BENCH_GROUP_)
#undef MV_BENCH_GROUP_
  return 0;
}

#endif
