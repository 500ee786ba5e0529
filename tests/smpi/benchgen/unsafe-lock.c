/* benchgen test pattern: a message sent while holding a passive-target lock that the receiver
 * also wants. Rank 0 locks rank 2's window exclusively, puts, sends to rank 1 (small, buffered),
 * unlocks; rank 1 computes 200 us, locks the same window exclusively, then receives from rank 0.
 * It completes because rank 0 locks first and its send is buffered; if MPI_Send waits for its
 * receive, rank 1 waits for the lock that rank 0 holds: benchgen must report the potential
 * deadlock (rank 0 in MPI_Send, rank 1 in MPI_Win_lock). */
#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size, x = 0;
  static double mem[64];
  MPI_Win win;
  pattern_start(&argc, &argv, &rank, &size, 1);
  MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Put(mem, 8, MPI_DOUBLE, 2, 0, 8, MPI_DOUBLE, win);
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Win_unlock(2, win);
  } else if (rank == 1) {
    work_us(200);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_unlock(2, win);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
