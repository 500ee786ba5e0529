/* For bench/trace_overhead: with 2+ ranks, a 0-byte ping-pong between ranks 0 and 1 printing
 * the one-way latency in microseconds: ITERS round trips (after 1000 warm-up ones) in blocks of
 * 1000, the median of the block means, so that blocks hit by the OS scheduler on a loaded
 * machine do not decide the figure; with 1 rank, ITERS calls of MPI_Iprobe printing the mean
 * time per call in microseconds (the tracer's cost per call without network or peer). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 1000

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void round_trips(int rank, long n)
{
  char b = 0;
  for (long i = 0; i < n; i++) {
    if (rank == 0) {
      MPI_Send(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
}

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
  long nblocks = iters / BLOCK > 0 ? iters / BLOCK : 1;
  double *mean = malloc((size_t)nblocks * sizeof *mean);
  round_trips(rank, 1000);
  MPI_Barrier(MPI_COMM_WORLD);
  for (long k = 0; k < nblocks; k++) {
    double t0 = MPI_Wtime();
    round_trips(rank, BLOCK);
    mean[k] = (MPI_Wtime() - t0) / BLOCK / 2 * 1e6;
  }
  qsort(mean, (size_t)nblocks, sizeof *mean, cmp);
  if (rank == 0)
    printf("%.4f\n", mean[nblocks / 2]);
  free(mean);
  MPI_Finalize();
  return 0;
}
