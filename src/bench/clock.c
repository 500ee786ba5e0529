/* Clocks: local time, waiting for a time point, the per-rank model global = slope * (local -
 * base) + offset, the ping-pong fit point every sync method is built from, and the residual
 * offsets against rank 0 that --check-clock and meta.json report. Ranks that share cores wait
 * for their turn asleep (bench_idle_*), so that the two ranks of a ping-pong get the cores. */
#include <sched.h>
#include <time.h>

#include "bench.h"

#define TAG_PING 901
#define TAG_PONG 902
#define TAG_GO 903
#define TAG_GATHER 905
#define RESIDUAL_ROUNDS 60
#define IDLE_FIRST_S 2e-5      /* idle waits sleep this long first, doubling up to IDLE_MAX_S */
#define IDLE_MAX_S 2e-4
#define SPIN_MARGIN_S 3e-4     /* oversubscribed: sleep until this long before a time point */
#define SPIN_MARGIN_LONG_S 2e-3

double bench_now(void) { return MPI_Wtime(); }

static void sleep_s(double d)
{
  struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
  nanosleep(&ts, NULL);
}

void bench_wait_until(double t, int yield)
{
#ifdef MV_SMPI
  (void)yield;
  /* Simulated time only advances in SMPI calls: sleep exactly the remainder. */
  double d = t - bench_now();
  if (d > 0)
    sleep_s(d);
#else
  /* Sleep through most of a long wait (a sleeping rank leaves its core to the others), then
   * spin; yield while spinning only when ranks share cores: otherwise a yield hands the core
   * to any other runnable process for a whole time slice. */
  double margin = yield ? SPIN_MARGIN_S : SPIN_MARGIN_LONG_S, d = t - bench_now();
  if (d > margin)
    sleep_s(d - margin);
  while (bench_now() < t)
    if (yield)
      sched_yield();
#endif
}

void bench_idle_wait(MPI_Request *req, int idle)
{
  double nap = IDLE_FIRST_S;
  int done = 0;
  if (!idle) {
    MPI_Wait(req, MPI_STATUS_IGNORE);
    return;
  }
  for (MPI_Test(req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(req, &done, MPI_STATUS_IGNORE)) {
    sleep_s(nap);
    nap = nap * 2 < IDLE_MAX_S ? nap * 2 : IDLE_MAX_S;
  }
}

/* With idle set the ranks send their values to rank 0 and wait asleep for its answer: a
 * point-to-point receive completes in the waiting rank's own MPI_Test, whereas a nonblocking
 * collective advances only while every rank polls it. Reducing and releasing in one step also
 * spares the blocking MPI_Allreduce that followed the exit barrier: with MPICH the ranks released
 * first spun in it and starved those still asleep on their core (docs/bench.md). */
void bench_idle_max(MPI_Comm comm, double *v, int n, int idle)
{
  double in[BENCH_IDLE_MAX_N];
  MPI_Request req;
  int rank, size;
  if (!idle) {
    if (n > 0)
      MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, comm);
    else
      MPI_Barrier(comm);
    return;
  }
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != 0) {
    MPI_Send(v, n, MPI_DOUBLE, 0, TAG_GATHER, comm);
    MPI_Irecv(v, n, MPI_DOUBLE, 0, TAG_GATHER, comm, &req);
    bench_idle_wait(&req, idle);
    return;
  }
  for (int r = 1; r < size; r++) {
    MPI_Irecv(in, n, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_GATHER, comm, &req);
    bench_idle_wait(&req, idle);
    for (int i = 0; i < n; i++)
      v[i] = in[i] > v[i] ? in[i] : v[i];
  }
  for (int r = 1; r < size; r++)
    MPI_Send(v, n, MPI_DOUBLE, r, TAG_GATHER, comm);
}

void bench_idle_barrier(MPI_Comm comm, int idle)
{
  bench_idle_max(comm, NULL, 0, idle);
}

double bench_clock_global(const struct bench_clock *c, double local)
{
  return c->slope * (local - c->base) + c->offset;
}

double bench_clock_local(const struct bench_clock *c, double global)
{
  return (global - c->offset) / c->slope + c->base;
}

/* Receive one double. MPICH spins in a blocking receive: when ranks share cores, the two ranks
 * of a ping-pong that land on one core would alternate only once per time slice, so with yield
 * set poll and yield the core in between (docs/bench.md has the measurements). Open MPI yields
 * in its own progress loop when oversubscribed and does better without ours; SMPI waits in
 * simulated time. */
static void pp_recv(double *t, int peer, int tag, MPI_Comm comm, int yield)
{
#if defined(OPEN_MPI) || defined(MV_SMPI)
  (void)yield;
  MPI_Recv(t, 1, MPI_DOUBLE, peer, tag, comm, MPI_STATUS_IGNORE);
#else
  MPI_Request req;
  int done = 0;
  if (!yield) {
    MPI_Recv(t, 1, MPI_DOUBLE, peer, tag, comm, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Irecv(t, 1, MPI_DOUBLE, peer, tag, comm, &req);
  for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE))
    sched_yield();
#endif
}

/* Client side sends a ping (its time is taken before and after), the server answers with its
 * clock reading; the round with the smallest round-trip time gives the fit point
 * x = client time at the midpoint, y = server time then (both through their models); its
 * error is at most half that round trip, returned in p->rtt (client only). */
void bench_pingpong_point(MPI_Comm comm, int peer, int client, int rounds, int yield,
                          const struct bench_clock *clk, struct bench_point *p)
{
  double t;
  p->rtt = 1e300;
  for (int i = 0; i < rounds; i++) {
    if (client) {
      double c1 = bench_clock_global(clk, bench_now());
      MPI_Send(&c1, 1, MPI_DOUBLE, peer, TAG_PING, comm);
      pp_recv(&t, peer, TAG_PONG, comm, yield);
      double c2 = bench_clock_global(clk, bench_now());
      if (c2 - c1 < p->rtt) {
        p->rtt = c2 - c1;
        p->x = (c1 + c2) / 2;
        p->y = t;
      }
    } else {
      pp_recv(&t, peer, TAG_PING, comm, yield);
      t = bench_clock_global(clk, bench_now());
      MPI_Send(&t, 1, MPI_DOUBLE, peer, TAG_PONG, comm);
    }
  }
}

/* The server tells a client to start: clients never queue early messages at the server (an
 * O(p) unexpected-message queue makes SMPI's matching quadratic). Idle clients sleep. */
void bench_pair_start(MPI_Comm comm, int peer, int client, int idle)
{
  char go = 0;
  MPI_Request req;
  if (client) {
    MPI_Irecv(&go, 1, MPI_CHAR, peer, TAG_GO, comm, &req);
    bench_idle_wait(&req, idle);
  } else {
    MPI_Send(&go, 1, MPI_CHAR, peer, TAG_GO, comm);
  }
}

/* Rank 0 against each rank in turn, the same min-RTT ping-pong as the sync (its error bound is
 * half the best round trip); the others wait asleep when idle is set. */
void bench_clock_residuals(MPI_Comm comm, const struct bench_clock *clk, int idle, int yield,
                           double *res)
{
  int rank, size;
  struct bench_point p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int r = 1; r < size; r++) {
    if (rank == r) {
      bench_pair_start(comm, 0, 1, idle);
      bench_pingpong_point(comm, 0, 1, RESIDUAL_ROUNDS, yield, clk, &p);
      double off = p.x - p.y;   /* this rank's global clock minus rank 0's, same instant */
      MPI_Send(&off, 1, MPI_DOUBLE, 0, TAG_PING, comm);
    } else if (rank == 0) {
      bench_pair_start(comm, r, 0, idle);
      bench_pingpong_point(comm, r, 0, RESIDUAL_ROUNDS, yield, clk, &p);
      MPI_Recv(&res[r], 1, MPI_DOUBLE, r, TAG_PING, comm, MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0)
    res[0] = 0;
  bench_idle_barrier(comm, idle);
}
