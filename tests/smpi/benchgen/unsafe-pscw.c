/* benchgen test pattern: an exchange that completes only because MPI_Win_start did not wait for
 * the target's post. Rank 0 opens an access epoch to rank 1 (start, put, complete), then
 * receives from rank 1; rank 1 first sends to rank 0 (a small, buffered message), then posts
 * its exposure epoch to rank 0 and waits. MPI lets MPI_Win_start block until the post, and
 * MPI_Send until its receive: benchgen must report the potential deadlock (rank 0 in
 * MPI_Win_start, rank 1 in MPI_Send). Ranks other than 0 and 1 only create and free the window. */
#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size, x = 0, other;
  static double mem[64];
  MPI_Win win;
  MPI_Group world, peer;
  pattern_start(&argc, &argv, &rank, &size, 1);
  MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  other = rank < 2 ? 1 - rank : 0;
  MPI_Group_incl(world, 1, &other, &peer);
  if (rank == 0) {
    MPI_Win_start(peer, 0, win);
    MPI_Put(mem, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, win);
    MPI_Win_complete(win);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Win_post(peer, 0, win);
    MPI_Win_wait(win);
  }
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
