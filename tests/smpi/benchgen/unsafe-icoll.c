/* benchgen test pattern: an unsafe exchange through a non-blocking collective. Rank 0 sends to
 * rank 1, then joins an MPI_Ibarrier and waits for it; rank 1 joins and waits first, then
 * receives. It completes because the small message is buffered, but if MPI_Send waits for its
 * receive, rank 1's barrier never completes: benchgen must follow the Ibarrier's request and
 * report the potential deadlock (rank 0 in MPI_Send, rank 1 in MPI_Wait). */
#include <mpi.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 0;
  MPI_Request r;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rank == 1)
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
