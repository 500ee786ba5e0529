/* What a waiting, yielding rank takes from a rank that computes a dgemm on the same core (mpivet's
 * HPL case, 4 ranks on 2 cores; bench/sim/oversub.sh runs it with 2 ranks pinned to one core,
 * Open MPI with mpi_yield_when_idle 1; real MPI and OpenBLAS only). For each square size m of
 * SIZES (m x m x 128, the shape of HPL's trailing update at NB = 128), REPS times after a barrier:
 * rank 0 times one dgemm while rank 1 sleeps (alone) and while rank 1 waits in MPI_Recv for rank
 * 0's message sent after it (beside a waiter). Prints per size the medians and their difference
 * ("stretch m M alone A beside B extra E", seconds), then the model of
 * mpivet/emulate-handoff.h's waiter's spin fitted to them: X, the median extra of the calls of
 * 4 ms and more, and D, the median of (alone - extra) over the calls whose extra is under X / 2
 * (the computation a waiter lets pass before it takes the core; 0 when no call is that short):
 * "spin-seconds X after D". */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "oversub-util.h"

#define REPS 11
#define K 128

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, mv_bench_cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Rank 0's dgemm time; rank 1 sleeps through it (sleep_s > 0) or waits for its end in MPI_Recv. */
static double timed(int rank, int m, const double *a, const double *b, double *c, double sleep_s)
{
  double t = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double t0 = MPI_Wtime();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, K, -1.0, a, m, b, K, 1.0, c, m);
    t = MPI_Wtime() - t0;
    MPI_Send(NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  } else {
    if (sleep_s > 0) {
      struct timespec ts = {(time_t)sleep_s, (long)((sleep_s - (double)(time_t)sleep_s) * 1e9)};
      nanosleep(&ts, NULL);
    }
    MPI_Recv(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return t;
}

int main(int argc, char **argv)
{
  static const int sizes[] = {250, 500, 1000, 1500, 2000};
  enum { NS = sizeof sizes / sizeof *sizes };
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int top = sizes[NS - 1];
  double *a = malloc(sizeof *a * (size_t)top * K), *b = malloc(sizeof *b * (size_t)K * top);
  double *c = calloc((size_t)top * top, sizeof *c);
  if (!a || !b || !c)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (long i = 0; i < (long)top * K; i++)
    a[i] = b[i] = 1e-3 * (double)(i % 7);
  double alone_m[NS], extra_m[NS];
  for (int s = 0; s < NS; s++) {
    int m = sizes[s];
    double alone[REPS], beside[REPS], first = timed(rank, m, a, b, c, 0.05);   /* warm-up */
    MPI_Bcast(&first, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int r = 0; r < REPS; r++) {
      alone[r] = timed(rank, m, a, b, c, 2 * first + 0.005);
      beside[r] = timed(rank, m, a, b, c, 0);
    }
    if (rank == 0) {
      double al = median(alone, REPS), be = median(beside, REPS);
      alone_m[s] = al, extra_m[s] = be - al;
      printf("stretch m %d alone %.6f beside %.6f extra %.6f\n", m, al, be, be - al);
    }
  }
  if (rank == 0) {
    double longs[NS], shorts[NS];
    int nl = 0, ns = 0;
    for (int s = 0; s < NS; s++)
      if (alone_m[s] >= 4e-3)
        longs[nl++] = extra_m[s];
    double x = nl ? median(longs, nl) : 0;
    for (int s = 0; s < NS; s++)
      if (extra_m[s] < x / 2)
        shorts[ns++] = alone_m[s] - (extra_m[s] > 0 ? extra_m[s] : 0);
    printf("spin-seconds %.4e after %.4e\n", x, ns ? median(shorts, ns) : 0.0);
  }
  free(a);
  free(b);
  free(c);
  MPI_Finalize();
  return 0;
}
