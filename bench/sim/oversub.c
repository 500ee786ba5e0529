/* What a waiting rank costs a rank that shares its core (mpivet's HPL case, 4 ranks on 2 cores):
 * run with 2 ranks pinned to one core (bench/sim/oversub.sh), real MPI only.
 * - alone: rank 0 times a fixed computation while rank 1 sleeps (nanosleep: off the CPU);
 * - beside a waiter: the same computation while rank 1 waits in MPI_Recv for rank 0's message;
 *   share = beside / alone - 1 is the part of the core the waiting rank took (0: it blocked or
 *   yielded at once; 1: it polled for its whole fair share);
 * - ping-pong: the one-way time of an empty message between the two ranks of the core.
 * Each figure is the median of REPS repetitions. Prints "share S" and "pingpong T s". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "oversub-util.h"

#define REPS 7

static double median(double *v, int n)
{
  qsort(v, n, sizeof *v, mv_bench_cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Rank 0 times mv_bench_work(n); rank 1 sleeps through it (waiter = 0) or waits for its end in MPI_Recv. */
static double timed(int rank, long n, int waiter, double sleep_s)
{
  double t = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double t0 = MPI_Wtime();
    mv_bench_work(n);
    t = MPI_Wtime() - t0;
    MPI_Send(NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  } else {
    if (!waiter) {
      struct timespec ts = {(time_t)sleep_s, (long)((sleep_s - (time_t)sleep_s) * 1e9)};
      nanosleep(&ts, NULL);
    }
    MPI_Recv(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return t;
}

int main(int argc, char **argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long n = argc > 1 ? atol(argv[1]) : 20000000;   /* about 20-60 ms here */
  double alone[REPS], beside[REPS], pp[REPS];
  timed(rank, n, 0, 0.5);   /* warm-up */
  double t1 = 0;
  if (rank == 0) {
    double t0 = MPI_Wtime();
    mv_bench_work(n);
    t1 = MPI_Wtime() - t0;
  }
  MPI_Bcast(&t1, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int r = 0; r < REPS; r++) {
    alone[r] = timed(rank, n, 0, 3 * t1 + 0.01);
    beside[r] = timed(rank, n, 1, 0);
  }
  for (int r = 0; r < REPS; r++) {
    int iters = 100;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
      if (rank == 0) {
        MPI_Send(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
    pp[r] = (MPI_Wtime() - t0) / (2 * iters);
  }
  if (rank == 0) {
    double a = median(alone, REPS), b = median(beside, REPS);
    printf("alone %.6f s beside a waiter %.6f s share %.3f\n", a, b, b / a - 1);
    printf("pingpong %.3e s\n", median(pp, REPS));
  }
  MPI_Finalize();
  return 0;
}
