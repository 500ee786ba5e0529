/* Lock contention chain after the thesis's section 5.6 microbenchmark: rank 0 is the target.
 * After a barrier every rank runs foo() for BASE + r*SKEW ms, so rank 0 locks its own window
 * first (exclusive) and holds it HOLD ms in bar(); the others lock rank 0 exclusively in rank
 * order, accumulate one int, unlock, run foo() for 0.1 ms (rank 0: AFTER ms, outside MPI, so
 * that a library without a progress thread cannot pass the lock on) and meet in a final barrier.
 * Usage: lock-chain [HOLD_MS=200] [BASE_MS=10] [SKEW_MS=10] [AFTER_MS=0] */
#include "common.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long hold = ex_arg(argc, argv, 1, 200), base = ex_arg(argc, argv, 2, 10);
  long skew = ex_arg(argc, argv, 3, 10), after = ex_arg(argc, argv, 4, 0);
  int *mem, one = 1;
  MPI_Win win;
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  *mem = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  ex_work_ms((double)(base + rank * skew));                 /* foo() */
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  if (rank == 0)
    ex_work_ms((double)hold);                               /* bar(): local window updates */
  else
    MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  ex_work_ms(rank == 0 && after > 0 ? (double)after : 0.1); /* foo() after the release */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
