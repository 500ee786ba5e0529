/* Clock alignment: ranks of one node (one MPI_COMM_TYPE_SHARED communicator, so one kernel and
 * one CLOCK_MONOTONIC, which the TSC stamps are converted to) share their node leader's offset
 * exactly; each node leader measures the offset of rank 0's clock from its own with ping-pongs
 * (the sample with the shortest round trip wins, offset = t0 - midpoint), at MPI_Init and
 * MPI_Finalize; the archive writer interpolates linearly between the two. On one node every
 * offset is 0 by construction: a ping-pong estimate between oversubscribed ranks was off by up
 * to 2.5 ms (docs/analyze.md, lock chain). Under SMPI all ranks share the simulated clock. */
#include "clock.h"
#include "emit.h"
#include "state.h"

#define MV__PINGS 16

#ifndef MV_SMPI
/* Offset of the leaders' rank 0 (world rank 0) from this leader's clock. */
static int64_t pingpong(MPI_Comm leaders, uint64_t *t_local)
{
  int rank, size;
  PMPI_Comm_rank(leaders, &rank);
  PMPI_Comm_size(leaders, &size);
  *t_local = mv__mono_ns();
  if (rank == 0) {
    for (int r = 1; r < size; r++)
      for (int k = 0; k < MV__PINGS; k++) {
        uint64_t t0;
        PMPI_Recv(&t0, 1, MPI_UINT64_T, r, 77, leaders, MPI_STATUS_IGNORE);
        t0 = mv__mono_ns();
        PMPI_Send(&t0, 1, MPI_UINT64_T, r, 78, leaders);
      }
    return 0;
  }
  uint64_t best_rtt = UINT64_MAX, remote = 0;
  for (int k = 0; k < MV__PINGS; k++) {
    uint64_t t1 = mv__mono_ns(), t0 = 0;
    PMPI_Send(&t1, 1, MPI_UINT64_T, 0, 77, leaders);
    PMPI_Recv(&t0, 1, MPI_UINT64_T, 0, 78, leaders, MPI_STATUS_IGNORE);
    uint64_t t2 = mv__mono_ns();
    if (t2 - t1 < best_rtt) {
      best_rtt = t2 - t1;
      *t_local = t1 + (t2 - t1) / 2;
      remote = t0;
    }
  }
  return (int64_t)(remote - *t_local);
}

static int64_t measure(MPI_Comm comm, uint64_t *t_local)
{
  int rank, node_rank;
  MPI_Comm node, leaders;
  int64_t off = 0;
  PMPI_Comm_rank(comm, &rank);
  /* key = world rank: world rank 0 is its node's leader and the leaders' rank 0 */
  PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  PMPI_Comm_rank(node, &node_rank);
  PMPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  *t_local = mv__mono_ns();
  if (leaders != MPI_COMM_NULL) {
    off = pingpong(leaders, t_local);
    PMPI_Comm_free(&leaders);
  }
  PMPI_Bcast(&off, 1, MPI_INT64_T, 0, node);
  PMPI_Comm_free(&node);
  return off;
}
#endif

void mv__clock_sync(const char *tag)
{
  uint64_t t;
#ifdef MV_SMPI
  int64_t off = 0;
  t = mv__now();
#else
  int64_t off = measure(G.tool_comm, &t);
#endif
  mv__def("%s %llu %lld", tag, (unsigned long long)t, (long long)off);
  mv__clock_anchor();
}
