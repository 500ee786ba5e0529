/* benchgen test pattern: an unsafe exchange. Ranks 0 and 1 both send before they receive; it
 * completes because small messages are buffered, but MPI allows MPI_Send to wait for the
 * receive: benchgen must report the potential deadlock (ranks 0 and 1, their MPI_Send). */
#include <mpi.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 0, y;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank < 2) {
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
