/* MPI_Finalize's compressed trace (docs/trace.md): every rank compresses its own raw records,
 * then the rank sets are merged pairwise in ceil(log2 p) rounds (rank r + 2^k sends to r at
 * round k), identical ranks kept once, and rank 0 writes DIR/compressed.mvt. With
 * MPIVET_TRACE_TIMES=1 rank 0 says what each part cost (CPU seconds summed over the ranks). */
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ctrace.h"
#include "output.h"
#include "say.h"
#include "state.h"

#define TAG 7411

/* The parts of the work at finalize whose cost MPIVET_TRACE_TIMES reports: CPU seconds of each
 * rank's own work, and rank 0's wall time from its compression's end to the end of the rounds
 * and of the closing collective (under SMPI that holds every simulated rank's work and the
 * simulator's). */
enum { T_BUILD, T_MERGE, T_WRITE, T_BUILD_WALL, T_PARTS };
enum { W_ROUNDS, W_CLOSE, W_PARTS };

/* CPU seconds of the calling thread. Each part timed holds no MPI call, so under SMPI, where
 * every simulated rank runs on one thread, no other rank runs inside it: the difference is
 * this rank's own work. The system call, because SMPI may redirect clock_gettime to simulated
 * time. */
static double clock_s(clockid_t id)
{
  struct timespec ts;
  if (syscall(SYS_clock_gettime, id, &ts) != 0)
    return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double cpu_s(void)
{
  return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static int build_own(struct mv__ct_set *set)
{
  struct mv__raw_defs own = {0};
  own.nranks = G.size;
  mv__defs_read(G.dir, G.rank, &own);
  struct mv__clock clk = own.ranks ? own.ranks[G.rank].clock : (struct mv__clock){0};
  struct mv__ct_comm *comms = malloc((G.nseen + 1) * sizeof *comms);
  if (!comms)
    return mv__defs_release(&own), -1;
  for (size_t i = 0; i < G.nseen; i++)
    comms[i] = (struct mv__ct_comm){G.seen[i].id, G.seen[i].size, G.seen[i].rank};
  struct mv__ct_input in = {G.dir, G.rank, G.size, &clk, comms, G.nseen, own.groups, own.ngroups};
  struct mv__ct_rank r;
  int err = mv__ct_build(&in, &r);
  if (!err)
    err = mv__ct_set_add_rank(set, G.rank, &r);
  mv__bytes_release(&r.blob);
  free(comms);
  mv__defs_release(&own);
  return err;
}

static void send_set(const struct mv__ct_set *set, int err, int to, double *t)
{
  struct mv__bytes b = {0};
  double t0 = cpu_s();
  if (!err && mv__ct_set_pack(set, &b) != 0)
    err = -1;
  t[T_MERGE] += cpu_s() - t0;
  uint64_t head[2] = {err ? 0 : b.n, err != 0};
  PMPI_Send(head, 2, MPI_UINT64_T, to, TAG, G.tool_comm);
  if (head[0])
    PMPI_Send(b.p, (int)b.n, MPI_BYTE, to, TAG, G.tool_comm);
  mv__bytes_release(&b);
}

static int recv_merge(struct mv__ct_set *set, int err, int from, double *t)
{
  uint64_t head[2];
  PMPI_Recv(head, 2, MPI_UINT64_T, from, TAG, G.tool_comm, MPI_STATUS_IGNORE);
  uint8_t *p = head[0] ? malloc(head[0]) : NULL;
  if (head[0])  /* received even when short of memory, into nothing, so the sender finishes */
    PMPI_Recv(p, p ? (int)head[0] : 0, MPI_BYTE, from, TAG, G.tool_comm, MPI_STATUS_IGNORE);
  struct mv__ct_set other = {0};
  double t0 = cpu_s();
  if (!err && (head[1] || (head[0] && !p)))
    err = -1;
  if (!err && mv__ct_set_unpack(&other, p, head[0]) != 0)
    err = -1;
  if (!err && mv__ct_set_merge(set, &other) != 0)
    err = -1;
  mv__ct_set_release(&other);
  free(p);
  t[T_MERGE] += cpu_s() - t0;
  return err;
}

static int write_root(const struct mv__ct_set *set)
{
  struct mv__raw_defs d = {0};
  d.nranks = G.size;
  for (int r = 0; r < G.size; r++)
    mv__defs_read(G.dir, r, &d);
  int err = mv__ct_write(G.dir, set, &d, G.size);
  mv__defs_release(&d);
  return err;
}

/* Rank 0 says the parts' CPU seconds summed over the ranks (under SMPI: the wall time they
 * add, the simulated ranks running one at a time) and the largest one rank spent. */
static void say_times(const double *t, const double *w)
{
  double sum[T_PARTS], max[T_PARTS];
  PMPI_Reduce(t, sum, T_PARTS, MPI_DOUBLE, MPI_SUM, 0, G.tool_comm);
  PMPI_Reduce(t, max, T_PARTS, MPI_DOUBLE, MPI_MAX, 0, G.tool_comm);
  int rounds = 0;
  for (int step = 1; step < G.size; step *= 2)
    rounds++;
  if (G.rank == 0)
    mv__say("compressed trace at finalize, CPU s summed over %d ranks (largest one rank): "
            "compression %.3f (%.3f; wall %.3f), merge in %d rounds %.3f (%.3f), writing %.3f "
            "(%.3f); rank 0's wall s: rounds %.3f, writing and closing %.3f",
            G.size, sum[T_BUILD], max[T_BUILD], sum[T_BUILD_WALL], rounds, sum[T_MERGE],
            max[T_MERGE], sum[T_WRITE], max[T_WRITE], w[W_ROUNDS], w[W_CLOSE]);
}

int mv__write_compressed(void)
{
  struct mv__ct_set set = {0};
  double t[T_PARTS] = {0}, w[W_PARTS], t0 = cpu_s(), w0 = clock_s(CLOCK_MONOTONIC);
  int err = build_own(&set);
  t[T_BUILD] = cpu_s() - t0;
  t[T_BUILD_WALL] = clock_s(CLOCK_MONOTONIC) - w0;  /* reading the raw file may wait */
  w0 += t[T_BUILD_WALL];
  for (int step = 1; step < G.size; step *= 2) {
    if (G.rank % (2 * step) == step) {
      send_set(&set, err, G.rank - step, t);
      break;
    }
    if (G.rank + step < G.size)
      err = recv_merge(&set, err, G.rank + step, t);
  }
  double w1 = clock_s(CLOCK_MONOTONIC);
  t0 = cpu_s();
  if (G.rank == 0 && !err)
    err = write_root(&set);
  t[T_WRITE] = cpu_s() - t0;
  mv__ct_set_release(&set);
  /* rank 0's outcome to all; an Allreduce, not a Bcast: at 1024 SMPI ranks SMPI's default
   * rooted collectives take seconds of wall time (finalize.c) */
  int mine = G.rank == 0 && err != 0, bad = 0;
  PMPI_Allreduce(&mine, &bad, 1, MPI_INT, MPI_MAX, G.tool_comm);
  w[W_ROUNDS] = w1 - w0, w[W_CLOSE] = clock_s(CLOCK_MONOTONIC) - w1;
  if (G.times)
    say_times(t, w);
  return bad ? -1 : 0;
}
