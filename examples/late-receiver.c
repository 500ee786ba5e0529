/* Late Receiver: each even rank r sends 4 MiB (above every eager limit, so the send waits for
 * the matching receive) to rank r+1 at once; rank r+1 works DELAY ms before receiving.
 * Usage: late-receiver [ITERS=3] [DELAY_MS=100] */
#include "common.h"

#define MSG_BYTES (4 << 20)

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = ex_arg(argc, argv, 1, 3), delay = ex_arg(argc, argv, 2, 100);
  char *buf = calloc(MSG_BYTES, 1);
  int pairs_last = size - size % 2;
  for (long i = 0; i < iters && rank < pairs_last; i++) {
    if (rank % 2 == 0) {
      MPI_Send(buf, MSG_BYTES, MPI_BYTE, rank + 1, 9, MPI_COMM_WORLD);
    } else {
      ex_work_ms((double)delay);
      MPI_Recv(buf, MSG_BYTES, MPI_BYTE, rank - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
