/* Names mpivet-bench understands in --ops, for callers that validate a request before launching
 * it (`mpivet bench`, `mpivet check`). mpivet-bench checks its own operation table against this
 * list at start-up (`mpivet-bench --list` fails on any difference; tests/mpi/bench-list.sh). */
#ifndef MPIVET_BENCH_H
#define MPIVET_BENCH_H

#include <string.h>
#include <strings.h>

/* X(op, impl): one line per measurable entry; impl "default" is the library's own call. */
#define MV_BENCH_OPS(X)                                                  \
  X("MPI_Barrier", "default")                                            \
  X("MPI_Bcast", "default")                                              \
  X("MPI_Reduce", "default")                                             \
  X("MPI_Allreduce", "default")                                          \
  X("MPI_Gather", "default")                                             \
  X("MPI_Gatherv", "default")                                            \
  X("MPI_Allgather", "default")                                          \
  X("MPI_Allgatherv", "default")                                         \
  X("MPI_Alltoall", "default")                                           \
  X("MPI_Alltoallv", "default")                                          \
  X("MPI_Scatter", "default")                                            \
  X("MPI_Scatterv", "default")                                           \
  X("MPI_Reduce_scatter", "default")                                     \
  X("MPI_Reduce_scatter_block", "default")                               \
  X("MPI_Scan", "default")                                               \
  X("MPI_Exscan", "default")                                             \
  X("pingpong", "default")                                               \
  X("MPI_Gather", "gather_as_allgather")                                 \
  X("MPI_Gather", "gather_as_reduce")                                    \
  X("MPI_Allgather", "allgather_as_alltoall")                            \
  X("MPI_Allgather", "allgather_as_allreduce")                           \
  X("MPI_Scatter", "scatter_as_bcast")                                   \
  X("MPI_Reduce", "reduce_as_allreduce")                                 \
  X("MPI_Reduce_scatter", "reduce_scatter_as_allreduce")                 \
  X("MPI_Bcast", "bcast_as_scatter_allgather")                           \
  X("MPI_Allgather", "allgather_as_gather_bcast")                        \
  X("MPI_Allreduce", "allreduce_as_reduce_bcast")                        \
  X("MPI_Allreduce", "allreduce_as_reduce_scatter_block_allgather")      \
  X("MPI_Reduce", "reduce_as_reduce_scatter_block_gather")               \
  X("MPI_Reduce_scatter_block", "reduce_scatter_block_as_reduce_scatter") \
  X("MPI_Scan", "scan_as_exscan_reduce_local")                           \
  X("MPI_Reduce_scatter", "reduce_scatter_as_reduce_scatterv")           \
  X("MPI_Bcast", "bcast_as_binomial")                                    \
  X("MPI_Comm_create", "default")                                        \
  X("MPI_Comm_dup", "default")                                           \
  X("MPI_Win_create", "default")                                         \
  X("MPI_Cart_create", "default")

/* Group names accepted in --ops besides single entries. */
#define MV_BENCH_GROUPS(X) X("all") X("collectives") X("mockups") X("memory")

/* 1 when name is an entry (op "MPI_Bcast" or "Bcast" for its default, case-insensitive, or an
 * impl id such as "allreduce_as_reduce_bcast") or a group; 0 otherwise. */
static inline int mv_bench_op_known(const char *name)
{
#define MV_BENCH_MATCH_(op, impl)                                                      \
  if (strcmp(impl, "default") != 0 ? strcasecmp(name, impl) == 0                       \
                                   : (strcasecmp(name, op) == 0 ||                     \
                                      (strncmp(op, "MPI_", 4) == 0 && strcasecmp(name, (op) + 4) == 0))) \
    return 1;
  MV_BENCH_OPS(MV_BENCH_MATCH_)
#undef MV_BENCH_MATCH_
#define MV_BENCH_GROUP_(g) if (strcasecmp(name, g) == 0) return 1;
  MV_BENCH_GROUPS(MV_BENCH_GROUP_)
#undef MV_BENCH_GROUP_
  return 0;
}

#endif
