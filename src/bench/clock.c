/* Clocks: local time, waiting for a time point, the per-rank model global = slope * (local -
 * base) + offset, the ping-pong fit point every sync method is built from, and the residual
 * offsets against rank 0 that --check-clock and meta.json report. */
#include <sched.h>
#include <time.h>

#include "bench.h"

#define TAG_PING 901
#define TAG_PONG 902
#define TAG_GO 903
#define RESIDUAL_ROUNDS 20

double bench_now(void) { return MPI_Wtime(); }

void bench_wait_until(double t, int yield)
{
#ifdef MV_SMPI
  (void)yield;
  /* Simulated time only advances in SMPI calls: sleep exactly the remainder. */
  double d = t - bench_now();
  if (d > 0) {
    struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
    nanosleep(&ts, NULL);
  }
#else
  /* Yield while spinning only when ranks share cores: otherwise a yield hands the core to any
   * other runnable process for a whole time slice. */
  while (bench_now() < t)
    if (yield)
      sched_yield();
#endif
}

double bench_clock_global(const struct bench_clock *c, double local)
{
  return c->slope * (local - c->base) + c->offset;
}

double bench_clock_local(const struct bench_clock *c, double global)
{
  return (global - c->offset) / c->slope + c->base;
}

/* Client side sends a ping (its time is taken before and after), the server answers with its
 * clock reading; the round with the smallest round-trip time gives the fit point
 * x = client time at the midpoint, y = server time then (both through their models). */
void bench_pingpong_point(MPI_Comm comm, int peer, int client, int rounds,
                          const struct bench_clock *clk, double *x, double *y)
{
  double best_rtt = 1e300, t;
  for (int i = 0; i < rounds; i++) {
    if (client) {
      double c1 = bench_clock_global(clk, bench_now());
      MPI_Send(&c1, 1, MPI_DOUBLE, peer, TAG_PING, comm);
      MPI_Recv(&t, 1, MPI_DOUBLE, peer, TAG_PONG, comm, MPI_STATUS_IGNORE);
      double c2 = bench_clock_global(clk, bench_now());
      if (c2 - c1 < best_rtt) {
        best_rtt = c2 - c1;
        *x = (c1 + c2) / 2;
        *y = t;
      }
    } else {
      MPI_Recv(&t, 1, MPI_DOUBLE, peer, TAG_PING, comm, MPI_STATUS_IGNORE);
      t = bench_clock_global(clk, bench_now());
      MPI_Send(&t, 1, MPI_DOUBLE, peer, TAG_PONG, comm);
    }
  }
}

/* The server tells a client to start: clients never queue early messages at the server (an
 * O(p) unexpected-message queue makes SMPI's matching quadratic). */
void bench_pair_start(MPI_Comm comm, int peer, int client)
{
  char go = 0;
  if (client)
    MPI_Recv(&go, 1, MPI_CHAR, peer, TAG_GO, comm, MPI_STATUS_IGNORE);
  else
    MPI_Send(&go, 1, MPI_CHAR, peer, TAG_GO, comm);
}

void bench_clock_residuals(MPI_Comm comm, const struct bench_clock *clk, double *res)
{
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int r = 1; r < size; r++) {
    double x = 0, y = 0;
    if (rank == r) {
      bench_pair_start(comm, 0, 1);
      bench_pingpong_point(comm, 0, 1, RESIDUAL_ROUNDS, clk, &x, &y);
      double off = x - y;   /* this rank's global clock minus rank 0's, same instant */
      MPI_Send(&off, 1, MPI_DOUBLE, 0, TAG_PING, comm);
    } else if (rank == 0) {
      bench_pair_start(comm, r, 0);
      bench_pingpong_point(comm, r, 0, RESIDUAL_ROUNDS, clk, &x, &y);
      MPI_Recv(&res[r], 1, MPI_DOUBLE, r, TAG_PING, comm, MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0)
    res[0] = 0;
}
