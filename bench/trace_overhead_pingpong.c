/* For bench/trace_overhead: with 2+ ranks, a 0-byte ping-pong between ranks 0 and 1 printing
 * the mean one-way latency in microseconds over ITERS round trips (after 1000 warm-up ones);
 * with 1 rank, ITERS calls of MPI_Iprobe printing the mean time per call in microseconds
 * (the tracer's cost per call without any network or scheduling noise). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, flag;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
  if (size == 1) {
    double t1 = MPI_Wtime();
    for (long i = 0; i < iters; i++)
      MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    printf("%.4f\n", (MPI_Wtime() - t1) / (double)iters * 1e6);
    MPI_Finalize();
    return 0;
  }
  char b = 0;
  double t0 = 0;
  for (long i = -1000; i < iters; i++) {
    if (i == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    if (rank == 0) {
      MPI_Send(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  double t = MPI_Wtime() - t0;
  if (rank == 0)
    printf("%.4f\n", t / (double)iters / 2 * 1e6);
  MPI_Finalize();
  return 0;
}
