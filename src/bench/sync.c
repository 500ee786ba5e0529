/* Clock-synchronisation methods, a small registry of strategies:
 *   skampi  offset only, rank 0 against each rank in turn, min-RTT ping-pong (SKaMPI);
 *   jk      linear drift model per rank against rank 0 from several fit points (Jones-Koenig);
 *   hca     hierarchical: log2(p) rounds down a binomial tree, each child fits a linear model
 *           against its already-synchronised parent, pairs of a round in parallel (HCA-like).
 * Each client composes the fitted model y = a x + d with its current clock model. */
#include <math.h>
#include <string.h>

#include "bench.h"

#define SKAMPI_ROUNDS 40
#define FIT_POINTS 12
#define FIT_ROUNDS 8

/* Least squares y = a x + d; with fewer than 3 points, linear == 0, or a slope within three
 * standard errors of 1 (no measurable drift, e.g. one node's shared clock) only the offset:
 * an insignificant slope fitted over a short span would grow the error with time. */
static void fit_line(const double *x, const double *y, int n, int linear, double *a, double *d)
{
  double mx = 0, my = 0, sxx = 0, sxy = 0, sse = 0;
  for (int i = 0; i < n; i++) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  for (int i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  *a = linear && n > 2 && sxx > 0 ? sxy / sxx : 1.0;
  for (int i = 0; i < n; i++) {
    double r = y[i] - my - *a * (x[i] - mx);
    sse += r * r;
  }
  if (*a != 1.0 && fabs(*a - 1.0) <= 3 * sqrt(sse / (n - 2) / sxx))
    *a = 1.0;
  *d = my - *a * mx;
}

/* Synchronise client to server: nfit points of `rounds` ping-pongs each, then compose. */
static void sync_pair(MPI_Comm comm, int me, int server, int client, int nfit, int rounds,
                      int linear, struct bench_clock *clk)
{
  double x[FIT_POINTS], y[FIT_POINTS];
  if (me != server && me != client)
    return;
  bench_pair_start(comm, me == client ? server : client, me == client);
  for (int i = 0; i < nfit; i++)
    bench_pingpong_point(comm, me == client ? server : client, me == client, rounds, clk,
                         &x[i], &y[i]);
  if (me != client)
    return;
  double a, d;
  fit_line(x, y, nfit, linear, &a, &d);
  clk->slope *= a;
  clk->offset = a * clk->offset + d;
}

static void start(MPI_Comm comm, struct bench_clock *clk, int *rank, int *size)
{
  MPI_Comm_rank(comm, rank);
  MPI_Comm_size(comm, size);
  clk->base = bench_now();
  clk->slope = 1.0;
  clk->offset = 0.0;
}

static int sync_skampi(MPI_Comm comm, struct bench_clock *clk)
{
  int rank, size;
  start(comm, clk, &rank, &size);
  for (int r = 1; r < size; r++)
    sync_pair(comm, rank, 0, r, 1, SKAMPI_ROUNDS, 0, clk);
  return 0;
}

static int sync_jk(MPI_Comm comm, struct bench_clock *clk)
{
  int rank, size;
  start(comm, clk, &rank, &size);
  for (int r = 1; r < size; r++)
    sync_pair(comm, rank, 0, r, FIT_POINTS, FIT_ROUNDS, 1, clk);
  return 0;
}

static int sync_hca(MPI_Comm comm, struct bench_clock *clk)
{
  int rank, size, dist = 1;
  start(comm, clk, &rank, &size);
  while (dist * 2 < size)
    dist *= 2;
  for (; dist >= 1; dist /= 2) {
    /* Parents (multiples of 2*dist) are synchronised already; children r + dist follow. */
    int parent = rank - rank % (2 * dist);
    int child = parent + dist;
    if (child < size)
      sync_pair(comm, rank, parent, child, FIT_POINTS, FIT_ROUNDS, 1, clk);
  }
  return 0;
}

static const struct bench_sync_method methods[] = {
  {"skampi", "offset only, rank 0 against each rank (SKaMPI), O(p)", sync_skampi},
  {"jk", "linear drift model against rank 0 (Jones-Koenig), O(p)", sync_jk},
  {"hca", "hierarchical linear models down a binomial tree (HCA-like), O(log p) rounds", sync_hca},
};

const struct bench_sync_method *bench_sync_methods(int *count)
{
  *count = (int)(sizeof methods / sizeof methods[0]);
  return methods;
}

const struct bench_sync_method *bench_sync_find(const char *name)
{
  int n;
  const struct bench_sync_method *m = bench_sync_methods(&n);
  for (int i = 0; i < n; i++)
    if (strcmp(m[i].name, name) == 0)
      return &m[i];
  return NULL;
}
