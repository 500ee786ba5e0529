/* Clock alignment: every rank measures the offset of rank 0's CLOCK_MONOTONIC from its own
 * with a few ping-pongs (the sample with the shortest round trip wins, offset = t0 - midpoint),
 * at MPI_Init and MPI_Finalize; the archive writer interpolates linearly between the two.
 * Under SMPI all ranks share the simulated clock: the offset is 0 and nothing is exchanged. */
#include "state.h"

#define MV__PINGS 4

#ifndef MV_SMPI
static int64_t measure(MPI_Comm comm, uint64_t *t_local)
{
  int rank, size;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (rank == 0) {
    for (int r = 1; r < size; r++)
      for (int k = 0; k < MV__PINGS; k++) {
        uint64_t t0;
        PMPI_Recv(&t0, 1, MPI_UINT64_T, r, 77, comm, MPI_STATUS_IGNORE);
        t0 = mv__mono_ns();
        PMPI_Send(&t0, 1, MPI_UINT64_T, r, 78, comm);
      }
    *t_local = mv__mono_ns();
    return 0;
  }
  uint64_t best_rtt = UINT64_MAX, mid = 0, remote = 0;
  for (int k = 0; k < MV__PINGS; k++) {
    uint64_t t1 = mv__mono_ns(), t0 = 0;
    PMPI_Send(&t1, 1, MPI_UINT64_T, 0, 77, comm);
    PMPI_Recv(&t0, 1, MPI_UINT64_T, 0, 78, comm, MPI_STATUS_IGNORE);
    uint64_t t2 = mv__mono_ns();
    if (t2 - t1 < best_rtt) {
      best_rtt = t2 - t1;
      mid = t1 + (t2 - t1) / 2;
      remote = t0;
    }
  }
  *t_local = mid;
  return (int64_t)(remote - mid);
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
