/* benchgen test pattern: all-to-all transposes as in a distributed FFT. Each iteration: 50 us of
 * computation, MPI_Alltoall of 512 bytes per pair, 30 us, an MPI_Allreduce of one double; rank 0
 * broadcasts 64 bytes every 5 iterations. Usage: fft [ITERS=10] */
#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 10);
  char *a = calloc((size_t)size, 512), *b = calloc((size_t)size, 512), params[64] = {0};
  double x = 1, y;
  for (long i = 0; i < iters; i++) {
    work_us(50);
    MPI_Alltoall(a, 512, MPI_CHAR, b, 512, MPI_CHAR, MPI_COMM_WORLD);
    work_us(30);
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (i % 5 == 4)
      MPI_Bcast(params, sizeof params, MPI_CHAR, 0, MPI_COMM_WORLD);
  }
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
