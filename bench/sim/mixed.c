/* A program of our own for prediction figures: every iteration computes (a dependent multiply-add
 * loop of WORK steps, 20 M by default: about 36 ms on this project's VM; it runs under SMPI too,
 * which times it), exchanges 1 MiB with its ring neighbours and runs three small Allreduces.
 * Usage: mixed [ITERS=20] [WORK=20000000]. Prints its own time. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/emulate.h"

#define MSG (1 << 20)

static double compute(long n)
{
  double x = 0.0;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + (double)(i & 7) * 1e-3;
  return x;
}

int main(int argc, char **argv)
{
  int rank, size, iters = argc > 1 ? atoi(argv[1]) : 20;
  long work = argc > 2 ? atol(argv[2]) : 20000000;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char *out = MV_SHARED_MALLOC(MSG), *in = MV_SHARED_MALLOC(MSG);
  memset(out, rank, MSG);
  double sink = 0, v[4] = {1, 2, 3, 4}, r[4];
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; it++) {
    sink += compute(work);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(out, MSG, MPI_BYTE, right, 1, in, MSG, MPI_BYTE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int k = 0; k < 3; k++)
      MPI_Allreduce(v, r, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  if (rank == 0)
    printf("mixed: %d ranks, %d iterations, time %.6f s (checksum %g)\n", size, iters, t, sink > 0 ? 1.0 : 0.0);
  MV_SHARED_FREE(out);
  MV_SHARED_FREE(in);
  MPI_Finalize();
  return 0;
}
