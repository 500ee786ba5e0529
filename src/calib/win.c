/* The window measurements of mpivet-calib: the time rank 0 spends in MPI_Win_allocate,
 * MPI_Win_create and the MPI_Win_free of either, for one window size (bytes per rank, every rank
 * of MPI_COMM_WORLD taking part). Real libraries take time that grows with the size (Open MPI's
 * allocate: 89 us at 0 B, 13.7 ms at 16 MiB on stop 31's VM, 1.5-3.3 us per 4 KiB page); SMPI
 * charges under a microsecond whatever the size, so include/mpivet/win-cost.h charges the
 * calibrated cost. A timed free starts after a barrier (MPI_Win_free synchronises: a rank that
 * left the creation late would make the other wait in it); a created window covers the run's
 * send buffer, written before any measurement. */
#include "calib.h"

double calib_win_measure(struct calib_run *r, const struct calib_job *j)
{
  MPI_Aint bytes = (MPI_Aint)j->bytes;
  int allocate = j->op == MV_CALIB_WINALLOC || j->op == MV_CALIB_WINALLOCFREE;
  int time_free = j->op == MV_CALIB_WINALLOCFREE || j->op == MV_CALIB_WINCREATEFREE;
  void *base = NULL;
  MPI_Win win;
  double t0 = MPI_Wtime();
  int rc = allocate ? MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win)
                    : MPI_Win_create(r->sendbuf, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  double t = calib_elapsed(r, t0);
  if (rc != MPI_SUCCESS)
    return 0;
  if (time_free) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
  }
  MPI_Win_free(&win);
  if (time_free)
    t = calib_elapsed(r, t0);
  return r->rank == 0 ? t : 0;
}
