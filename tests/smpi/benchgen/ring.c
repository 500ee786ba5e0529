/* benchgen test pattern: a ring. Each iteration every rank posts a receive from its left
 * neighbour, sends to its right one (message of 1 KiB), waits, and computes for 20 us of
 * simulated time.
 * Usage: ring [ITERS=20] */
#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 20);
  char out[1024] = {0}, in[1024];
  for (long i = 0; i < iters; i++) {
    MPI_Request r;
    MPI_Irecv(in, sizeof in, MPI_CHAR, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &r);
    MPI_Send(out, sizeof out, MPI_CHAR, (rank + 1) % size, 7, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    work_us(20);
  }
  MPI_Finalize();
  return 0;
}
