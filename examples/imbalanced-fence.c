/* Wait at Fence: every rank exposes p doubles; per iteration rank r works r*STEP ms, puts one
 * double into its right neighbour's window and calls MPI_Win_fence, so rank r waits
 * (p-1-r)*STEP ms in each closing fence. Usage: imbalanced-fence [ITERS=3] [STEP_MS=50] */
#include "common.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = ex_arg(argc, argv, 1, 3), step = ex_arg(argc, argv, 2, 50);
  double *mem = calloc((size_t)size, sizeof *mem), val = rank;
  MPI_Win win;
  MPI_Win_create(mem, (MPI_Aint)(size * sizeof *mem), sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  MPI_Win_fence(0, win);
  for (long i = 0; i < iters; i++) {
    ex_work_ms((double)(rank * step));
    MPI_Put(&val, 1, MPI_DOUBLE, (rank + 1) % size, rank, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
  }
  MPI_Win_free(&win);
  free(mem);
  MPI_Finalize();
  return 0;
}
