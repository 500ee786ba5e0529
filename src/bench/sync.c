/* Clock-synchronisation methods, a small registry of strategies:
 *   skampi  offset only, rank 0 against each rank in turn, min-RTT ping-pong (SKaMPI);
 *   jk      linear drift model per rank against rank 0 from several fit points (Jones-Koenig);
 *   hca     hierarchical: log2(p) rounds down a binomial tree, each child fits a linear model
 *           against its already-synchronised parent, pairs of a round in parallel (HCA-like;
 *           when ranks share cores, as many pairs at once as the cores allow).
 * Each client composes the fitted model y = a x + d with its current clock model. */
#include <math.h>
#include <string.h>

#include "bench.h"

#define SKAMPI_ROUNDS 40
#define FIT_POINTS 12
#define FIT_ROUNDS 8
#define TAG_TURN 904

/* Fit y = a x + d on the points whose round trip is at most twice the best one (a point's
 * error is at most half its round trip: a preempted rank makes a point useless, and one such
 * point can tilt a least-squares line); mean offset only when linear == 0, fewer than 3 points
 * remain, or the slope is not significant: within three standard errors of 1, or a drift over
 * the fitted span smaller than the points' error bound (one node's shared clock has none, and
 * an insignificant slope fitted over a short span would grow the error with time). */
static void fit_line(const struct bench_point *pt, int n, int linear, double *a, double *d)
{
  double best = 1e300, worst = 0, lo = 1e300, hi = -1e300, mx = 0, my = 0, sxx = 0, sxy = 0;
  double sse = 0;
  int k = 0;
  for (int i = 0; i < n; i++)
    best = pt[i].rtt < best ? pt[i].rtt : best;
  for (int i = 0; i < n; i++)
    if (pt[i].rtt <= 2 * best) {
      mx += pt[i].x;
      my += pt[i].y;
      k++;
    }
  mx /= k;
  my /= k;
  for (int i = 0; i < n; i++)
    if (pt[i].rtt <= 2 * best) {
      sxx += (pt[i].x - mx) * (pt[i].x - mx);
      sxy += (pt[i].x - mx) * (pt[i].y - my);
      worst = pt[i].rtt > worst ? pt[i].rtt : worst;
      lo = pt[i].x < lo ? pt[i].x : lo;
      hi = pt[i].x > hi ? pt[i].x : hi;
    }
  *a = linear && k > 2 && sxx > 0 ? sxy / sxx : 1.0;
  for (int i = 0; i < n; i++)
    if (pt[i].rtt <= 2 * best) {
      double r = pt[i].y - my - *a * (pt[i].x - mx);
      sse += r * r;
    }
  if (*a != 1.0 && (fabs(*a - 1.0) <= 3 * sqrt(sse / (k - 2) / sxx) ||
                    fabs(*a - 1.0) * (hi - lo) <= worst))
    *a = 1.0;
  *d = my - *a * mx;
}

/* Synchronise client to server: nfit points of `rounds` ping-pongs each, then compose. */
static void sync_pair(MPI_Comm comm, const struct bench_sync_env *env, int me, int server,
                      int client, int nfit, int rounds, int linear, struct bench_clock *clk)
{
  struct bench_point pt[FIT_POINTS];
  if (me != server && me != client)
    return;
  int yield = env->idle && !env->place;
  bench_pair_start(comm, me == client ? server : client, me == client, env->idle);
  for (int i = 0; i < nfit; i++)
    bench_pingpong_point(comm, me == client ? server : client, me == client, rounds, yield, clk,
                         &pt[i]);
  if (me != client)
    return;
  double a, d;
  fit_line(pt, nfit, linear, &a, &d);
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

static int sync_skampi(MPI_Comm comm, const struct bench_sync_env *env, struct bench_clock *clk)
{
  int rank, size;
  start(comm, clk, &rank, &size);
  for (int r = 1; r < size; r++)
    sync_pair(comm, env, rank, 0, r, 1, SKAMPI_ROUNDS, 0, clk);
  return 0;
}

static int sync_jk(MPI_Comm comm, const struct bench_sync_env *env, struct bench_clock *clk)
{
  int rank, size;
  start(comm, clk, &rank, &size);
  for (int r = 1; r < size; r++)
    sync_pair(comm, env, rank, 0, r, FIT_POINTS, FIT_ROUNDS, 1, clk);
  return 0;
}

/* The parent of the g-th pair over all rounds (largest distance first, parents in order), -1
 * past the end. */
static int hca_parent(int size, int top, int g)
{
  for (int dist = top; dist >= 1; dist /= 2) {
    int pairs = (size - dist + 2 * dist - 1) / (2 * dist);  /* parents p with p + dist < size */
    if (g < pairs)
      return g * 2 * dist;
    g -= pairs;
  }
  return -1;
}

/* With env->max_pairs = m > 0 the pairs of all rounds form one sequence and pair g starts after
 * pair g - m finished (a turn message between their parents; none when it is the same rank),
 * so that at most m pairs share the cores, also across rounds. */
static void hca_turn(MPI_Comm comm, const struct bench_sync_env *env, int size, int top, int g,
                     int after)
{
  int m = env->max_pairs, me = hca_parent(size, top, g), other;
  char turn = 0;
  if (m <= 0)
    return;
  if (!after && g >= m && (other = hca_parent(size, top, g - m)) != me) {
    MPI_Request req;
    MPI_Irecv(&turn, 1, MPI_CHAR, other, TAG_TURN, comm, &req);
    bench_idle_wait(&req, env->idle);
  } else if (after && (other = hca_parent(size, top, g + m)) >= 0 && other != me) {
    MPI_Send(&turn, 1, MPI_CHAR, other, TAG_TURN, comm);
  }
}

static int sync_hca(MPI_Comm comm, const struct bench_sync_env *env, struct bench_clock *clk)
{
  int rank, size, top = 1, g = 0;
  start(comm, clk, &rank, &size);
  while (top * 2 < size)
    top *= 2;
  for (int dist = top; dist >= 1; dist /= 2) {
    /* Parents (multiples of 2*dist) are synchronised already; children r + dist follow. */
    int parent = rank - rank % (2 * dist);
    int child = parent + dist;
    int mine = g + parent / (2 * dist);  /* my pair's index in the sequence */
    g += (size - dist + 2 * dist - 1) / (2 * dist);
    if (child >= size)
      continue;
    if (env->place)  /* a parent (rank / dist even) and its child on different cores */
      env->place(env->ctx, (rank / dist) % 2 == 0);
    if (rank == parent)
      hca_turn(comm, env, size, top, mine, 0);
    sync_pair(comm, env, rank, parent, child, FIT_POINTS, FIT_ROUNDS, 1, clk);
    if (rank == parent)
      hca_turn(comm, env, size, top, mine, 1);
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
