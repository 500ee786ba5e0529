/* Late Sender: each even rank r works DELAY ms and then sends to rank r+1, which posts its
 * receive at once and waits DELAY ms per iteration. Usage: late-sender [ITERS=3] [DELAY_MS=100] */
#include "common.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = ex_arg(argc, argv, 1, 3), delay = ex_arg(argc, argv, 2, 100);
  int buf = 0;
  int pairs_last = size - size % 2;  /* an odd last rank has no partner and stays idle */
  for (long i = 0; i < iters && rank < pairs_last; i++) {
    if (rank % 2 == 0) {
      ex_work_ms((double)delay);
      MPI_Send(&buf, 1, MPI_INT, rank + 1, 7, MPI_COMM_WORLD);
    } else {
      MPI_Recv(&buf, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Finalize();
  return 0;
}
