/* One-sided epochs on a user communicator and on MPI_COMM_WORLD, for the RMA replay (traced, then
 * `mpivet benchgen`, then `mpivet simulate`: tests/mpi/simulate-replay-rma.sh, bench/sim/predict.sh):
 * a window on the even/odd split communicator with fence epochs (put to the next member, an
 * accumulate to the previous one), a world window with post/start/complete/wait towards the
 * right neighbour, and an exclusive lock of rank 0 with a put; 200 us of work per iteration. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
  int rank, size, hr, hs, iters = argc > 1 ? atoi(argv[1]) : 10;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  double *a = calloc(4096, sizeof *a), *b = calloc(4096, sizeof *b), src[512] = {1};
  MPI_Win wh, ww;
  MPI_Win_create(a, 4096 * sizeof *a, sizeof *a, MPI_INFO_NULL, half, &wh);
  MPI_Win_create(b, 4096 * sizeof *b, sizeof *b, MPI_INFO_NULL, MPI_COMM_WORLD, &ww);
  MPI_Group world, from, to;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Group_incl(world, 1, &left, &from);
  MPI_Group_incl(world, 1, &right, &to);
  struct timespec work = {0, 200000};
  for (int it = 0; it < iters; it++) {
    MPI_Win_fence(0, wh);
    MPI_Put(src, 512, MPI_DOUBLE, (hr + 1) % hs, 0, 512, MPI_DOUBLE, wh);
    MPI_Accumulate(src, 64, MPI_DOUBLE, (hr + hs - 1) % hs, 1024, 64, MPI_DOUBLE, MPI_SUM, wh);
    MPI_Win_fence(0, wh);
    MPI_Win_post(from, 0, ww);
    MPI_Win_start(to, 0, ww);
    MPI_Put(src, 256, MPI_DOUBLE, right, 0, 256, MPI_DOUBLE, ww);
    MPI_Win_complete(ww);
    MPI_Win_wait(ww);
    nanosleep(&work, NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, ww);
    MPI_Put(src, 8, MPI_DOUBLE, 0, 2048 + 8 * rank, 8, MPI_DOUBLE, ww);
    MPI_Win_unlock(0, ww);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  MPI_Group_free(&world);
  MPI_Win_free(&ww);
  MPI_Win_free(&wh);
  MPI_Comm_free(&half);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
