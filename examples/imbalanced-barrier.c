/* Wait at Barrier: rank r works r*STEP ms before each barrier, so rank r waits (p-1-r)*STEP ms
 * per iteration. Usage: imbalanced-barrier [ITERS=3] [STEP_MS=50] */
#include "common.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long iters = ex_arg(argc, argv, 1, 3), step = ex_arg(argc, argv, 2, 50);
  for (long i = 0; i < iters; i++) {
    ex_work_ms((double)(rank * step));
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
