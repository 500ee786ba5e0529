/* Late Post: rank 0 is the target; per iteration it works DELAY ms before MPI_Win_post, while
 * every other rank opens its access epoch at once (MPI_Win_start), puts into rank 0 and calls
 * MPI_Win_complete: each origin waits about DELAY ms in start, put or complete (the MPI library
 * decides where). Usage: late-post [ITERS=3] [DELAY_MS=100] */
#include "common.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = ex_arg(argc, argv, 1, 3), delay = ex_arg(argc, argv, 2, 100);
  int *mem = calloc((size_t)size, sizeof *mem), val = rank;
  MPI_Win win;
  MPI_Win_create(mem, (MPI_Aint)(size * sizeof *mem), sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  MPI_Group world, peers;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int zero = 0;
  if (rank == 0)
    MPI_Group_excl(world, 1, &zero, &peers);  /* origins: everybody else */
  else
    MPI_Group_incl(world, 1, &zero, &peers);  /* target: rank 0 */
  for (long i = 0; i < iters; i++) {
    if (rank == 0) {
      ex_work_ms((double)delay);
      MPI_Win_post(peers, 0, win);
      MPI_Win_wait(win);
    } else {
      MPI_Win_start(peers, 0, win);
      MPI_Put(&val, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
      MPI_Win_complete(win);
    }
  }
  MPI_Group_free(&peers);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(mem);
  MPI_Finalize();
  return 0;
}
