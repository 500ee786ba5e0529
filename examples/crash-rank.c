/* Fault example for the tracer's crash test: ranks exchange messages in a ring; after ITERS/2
 * iterations rank 1 raises SIGSEGV, the others are then killed by the launcher.
 * Usage: crash-rank [ITERS=200] */
#include <signal.h>

#include "common.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = ex_arg(argc, argv, 1, 200);
  int out = rank, in = -1;
  for (long i = 0; i < iters; i++) {
    if (rank == 1 && i == iters / 2)
      raise(SIGSEGV);
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
