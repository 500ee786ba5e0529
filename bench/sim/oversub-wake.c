/* How long a waiting rank takes to notice its message when the rank that shares its core computes
 * (mpivet's HPL case, 4 ranks on 2 cores; bench/sim/oversub.sh runs it, real MPI only).
 * 3 ranks bound round-robin to 2 cores (mpirun --map-by core): ranks 0 and 2 share a core,
 * rank 1 has the other. Each repetition, after a barrier:
 * - rank 2 computes for about T (work calibrated alone, T = argv[1] s, default 0.03);
 * - rank 1 sleeps a random time in [T/10, T/2], reads the clock and sends it to rank 0;
 * - rank 0 waits for it in MPI_Recv and reads the clock when it returns.
 * The wake-up delay is the receive's clock minus the send's (CLOCK_MONOTONIC, one clock for all
 * processes of the machine). "busy" repetitions have rank 2 computing; "idle" ones have rank 2
 * waiting in MPI_Recv for rank 0 (the hand-off with an idle core-mate, for comparison). A busy
 * repetition counts only when the message was sent while rank 2 computed; the ones whose receive
 * returned after rank 2 stopped are counted apart (the delay was cut by the core-mate's end).
 * Also the core-mate's stretch: its computation beside the waiter over alone, minus 1 (the part of
 * the core the waiting, yielding rank took). Prints one line per figure, seconds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "oversub-util.h"

#define REPS 120

static void pause_s(double s)
{
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

/* Prints count, mean and quantiles of v[0..n) (sorted in place). */
static void summary(const char *name, double *v, int n)
{
  if (n == 0) {
    printf("%s n 0\n", name);
    return;
  }
  qsort(v, n, sizeof *v, mv_bench_cmp);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("%s n %d mean %.3e median %.3e p10 %.3e p90 %.3e max %.3e s\n", name, n, sum / n,
         v[n / 2], v[n / 10], v[(9 * n) / 10], v[n - 1]);
}

/* One repetition; busy: rank 2 computes n iterations, else it waits for rank 0. Rank 0 gets back
 * {send time, receive time, rank 2's start, rank 2's end}. */
static void rep(int rank, int busy, long n, double t, unsigned *seed, double out[4])
{
  double mate[2] = {0, 0}, sent = 0, got = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 2) {
    mate[0] = mv_bench_now();
    if (busy)
      mv_bench_work(n);
    else
      MPI_Recv(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mate[1] = mv_bench_now();
    MPI_Send(mate, 2, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    pause_s(t / 10 + (t / 2 - t / 10) * (double)rand_r(seed) / RAND_MAX);
    sent = mv_bench_now();
    MPI_Send(&sent, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&sent, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    got = mv_bench_now();
    if (!busy)
      MPI_Send(NULL, 0, MPI_BYTE, 2, 2, MPI_COMM_WORLD);
    MPI_Recv(mate, 2, MPI_DOUBLE, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  out[0] = sent, out[1] = got, out[2] = mate[0], out[3] = mate[1];
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0)
      fprintf(stderr, "oversub-wake: run with 3 ranks (ranks 0 and 2 on one core)\n");
    MPI_Finalize();
    return 2;
  }
  double t = argc > 1 ? atof(argv[1]) : 0.03;
  unsigned seed = 12345u + (unsigned)rank;
  /* Calibrate the work alone (rank 0, yielding in MPI_Bcast, takes next to nothing of it). */
  long n = 1000000;
  double alone = 0;
  if (rank == 2) {
    for (;;) {
      double t0 = mv_bench_now();
      mv_bench_work(n);
      alone = mv_bench_now() - t0;
      if (alone > t / 4)
        break;
      n *= 2;
    }
    n = (long)(n * t / alone);
    alone = 1e30;
    for (int i = 0; i < 5; i++) {   /* the fastest of 5: the others may still be starting */
      double t0 = mv_bench_now();
      mv_bench_work(n);
      if (mv_bench_now() - t0 < alone)
        alone = mv_bench_now() - t0;
    }
  }
  MPI_Bcast(&n, 1, MPI_LONG, 2, MPI_COMM_WORLD);
  MPI_Bcast(&alone, 1, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  double busy[REPS], cut[REPS], idle[REPS], stretch[REPS], out[4];
  int nb = 0, nc = 0, ni = 0, ns = 0;
  for (int r = 0; r < REPS; r++) {
    rep(rank, 1, n, t, &seed, out);
    if (rank == 0 && out[0] >= out[2] && out[0] < out[3]) {
      if (out[1] < out[3])
        busy[nb++] = out[1] - out[0];
      else
        cut[nc++] = out[1] - out[0];
      stretch[ns++] = (out[3] - out[2]) / alone - 1;
    }
    rep(rank, 0, n, t, &seed, out);
    if (rank == 0)
      idle[ni++] = out[1] - out[0];
  }
  if (rank == 0) {
    printf("core-mate computes %.3e s alone (%ld iterations), %d repetitions\n", alone, n, REPS);
    summary("wake-busy", busy, nb);
    summary("wake-cut", cut, nc);
    summary("wake-idle", idle, ni);
    summary("mate-stretch", stretch, ns);
    /* Deciles of every delay with the core-mate computing at the send (the cut ones are lower
     * bounds), for MV_EMULATE_WAKE_QUANTILES (mpivet/emulate-handoff.h). */
    for (int i = 0; i < nc; i++)
      busy[nb++] = cut[i];
    qsort(busy, nb, sizeof *busy, mv_bench_cmp);
    printf("wake-quantiles");
    for (int q = 0; q <= 10 && nb > 0; q++)
      printf("%s%.3e", q ? "," : " ", busy[q == 10 ? nb - 1 : q * nb / 10]);
    printf(" s\n");
  }
  MPI_Finalize();
  return 0;
}
