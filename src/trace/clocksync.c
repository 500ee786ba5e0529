/* Clock alignment: every rank measures the offset of rank 0's clock from its own with a few
 * ping-pongs (the sample with the shortest round trip wins, offset = t0 - midpoint). Done at
 * MPI_Init and MPI_Finalize; the archive writer interpolates linearly between the two. */
#include "state.h"

#define MV__PINGS 4

int64_t mv__clock_offset(MPI_Comm comm, uint64_t *t_local)
{
  int rank, size;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (rank == 0) {
    for (int r = 1; r < size; r++)
      for (int k = 0; k < MV__PINGS; k++) {
        uint64_t t0;
        PMPI_Recv(&t0, 1, MPI_UINT64_T, r, 77, comm, MPI_STATUS_IGNORE);
        t0 = mv__now();
        PMPI_Send(&t0, 1, MPI_UINT64_T, r, 78, comm);
      }
    *t_local = mv__now();
    return 0;
  }
  uint64_t best_rtt = UINT64_MAX, mid = 0, remote = 0;
  for (int k = 0; k < MV__PINGS; k++) {
    uint64_t t1 = mv__now(), t0 = 0;
    PMPI_Send(&t1, 1, MPI_UINT64_T, 0, 77, comm);
    PMPI_Recv(&t0, 1, MPI_UINT64_T, 0, 78, comm, MPI_STATUS_IGNORE);
    uint64_t t2 = mv__now();
    if (t2 - t1 < best_rtt) {
      best_rtt = t2 - t1;
      mid = t1 + (t2 - t1) / 2;
      remote = t0;
    }
  }
  *t_local = mid;
  return (int64_t)(remote - mid);
}
