/* mpivet-bench: the MPI benchmark program. Builds the (op, msize) jobs, shuffles them with a
 * recorded seed, synchronises clocks before each job, checks mock-ups against their collective,
 * measures, and writes results rows and meta JSON from rank 0 (or, with --check-clock, only
 * the residual clock offsets). Exit 0, 2 on bad options, 1 on a failed check or output error,
 * 3 when the MPI world does not have the requested number of ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpivet/bench.h"
#include "mpivet/world.h"
#include "run.h"

static uint64_t splitmix(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void add_job(struct bench_run *r, const struct bench_op *e, int64_t msize, int cap)
{
  if (!e->sized)
    msize = 0;
  for (int i = 0; i < r->njobs; i++)
    if (r->jobs[i].op == e && r->jobs[i].msize == msize)
      return;
  if (r->njobs < cap)
    r->jobs[r->njobs++] = (struct bench_job){.op = e, .msize = msize};
}

/* Every requested entry (or group member) times every size; then a seeded Fisher-Yates. */
static int build_jobs(struct bench_run *r)
{
  int cap = 0;
  while (bench_op_entry(cap))
    cap++;
  cap *= r->o->nmsizes;
  r->jobs = calloc((size_t)cap, sizeof *r->jobs);
  if (!r->jobs)
    return -1;
  for (int k = 0; k < r->o->nops; k++) {
    const struct bench_op *e, *one = bench_op_find(r->o->ops[k]);
    for (int i = 0; (e = bench_op_entry(i)) != NULL; i++)
      if (one ? e == one : bench_group_has(r->o->ops[k], e) == 1)
        for (int m = 0; m < r->o->nmsizes; m++)
          add_job(r, e, r->o->msizes[m], cap);
  }
  uint64_t s = r->seed;
  for (int i = r->njobs - 1; i > 0; i--) {
    int j = (int)(splitmix(&s) % (uint64_t)(i + 1));
    struct bench_job t = r->jobs[i];
    r->jobs[i] = r->jobs[j];
    r->jobs[j] = t;
  }
  return 0;
}

/* Test hook: MPIVET_BENCH_CLOCK_SKEW=RANK:SECONDS shifts that rank's global clock after each
 * sync, a deliberately wrong offset that --check-clock must report. */
static void inject_skew(struct bench_run *r)
{
  const char *s = getenv("MPIVET_BENCH_CLOCK_SKEW");
  int rank;
  double skew;
  if (s && sscanf(s, "%d:%lf", &rank, &skew) == 2 && rank == r->rank)
    r->clk.offset += skew;
}

/* Synchronise clocks; returns the time it took: from the last rank's arrival to the last rank's
 * end, both read on the synchronised clock (ranks arrive spread by what ran before: MPICH ranks
 * leave a spinning collective up to 16 ms apart on this 2-core machine, docs/bench.md). The
 * spread of the arrivals goes to *spread. */
static double sync_clocks(struct bench_run *r, double *spread)
{
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  struct bench_sync_env env = {r->oversubscribed, 0, NULL, NULL};
  if (r->oversubscribed)
    env.max_pairs = cores > 3 ? (int)(cores / 2) : 1;
  double t0 = bench_now(), g[3];   /* last arrival, -first arrival, last end (global) */
  env.ctx = bench_place_begin(r);
  env.place = env.ctx ? bench_place_rank : NULL;
  bench_idle_barrier(r->comm, r->oversubscribed);
  bench_sync_find(r->o->sync)->sync(r->comm, &env, &r->clk);
  g[2] = bench_clock_global(&r->clk, bench_now());
  g[0] = bench_clock_global(&r->clk, t0);
  g[1] = -g[0];
  inject_skew(r);
  bench_idle_max(r->comm, g, 3, r->oversubscribed);
  bench_place_end(env.ctx);
  *spread = g[0] + g[1];
  return g[2] - g[0];
}

static void measure_residuals(struct bench_run *r)
{
  void *placed = bench_place_begin(r);
  bench_clock_residuals(r->comm, &r->clk, r->oversubscribed, r->oversubscribed && !placed,
                        r->residuals);
  bench_place_end(placed);
  r->residual_max = 0;
  for (int i = 0; r->rank == 0 && i < r->size; i++)
    if (r->residuals[i] > r->residual_max || -r->residuals[i] > r->residual_max)
      r->residual_max = r->residuals[i] < 0 ? -r->residuals[i] : r->residuals[i];
}

static int run_job(struct bench_run *r, struct bench_job *job)
{
  struct bench_buf b;
  int ok = bench_buf_init(&b, r->comm, job->msize) == 0, all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, r->comm);
  if (!all)
    return -1;
#ifndef MV_SMPI
  /* Real clocks drift: resynchronise per job. SMPI ranks share one simulated clock, and an O(p)
   * sync per job would dominate the simulation time at scale. */
  double spread;
  r->sync_total += sync_clocks(r, &spread);
#endif
  if (job->op->kind == BENCH_MEMORY) {
    bench_measure_memory(r, job->op, &b, job);
  } else {
    if (strcmp(job->op->impl, "default") != 0) {
      job->checked = 1;
      job->equal = bench_op_check(job->op, &b);
    }
    if (!job->checked || job->equal)
      bench_measure_time(r, job->op, &b, job);
  }
  bench_buf_release(&b);
  return job->checked && !job->equal ? 1 : 0;
}

/* --check-clock: residual offsets after a wait, as rows and a table on stderr. */
static void check_clock(struct bench_run *r)
{
  static const struct bench_op offset = {"clock_offset", "default", BENCH_TIME, 0, NULL, NULL};
  static const struct bench_op duration = {"clock_sync", "default", BENCH_TIME, 0, NULL, NULL};
  double t = bench_now() + r->o->check_wait;
  bench_wait_until(t, r->oversubscribed);
  measure_residuals(r);
  if (r->rank != 0)
    return;
  fprintf(stderr, "clock sync %s: %.3f ms (ranks arrived over %.3f ms); residual offsets after "
          "%.3g s (us):", r->o->sync, r->sync_seconds * 1e3, r->sync_spread * 1e3, r->o->check_wait);
  for (int i = 0; i < r->size; i++) {
    fprintf(stderr, " %.3f", r->residuals[i] * 1e6);
    bench_out_row(r, &offset, 0, "time_s", i, r->residuals[i], 1);
  }
  fprintf(stderr, "; max %.3f us\n", r->residual_max * 1e6);
  bench_out_row(r, &duration, 0, "time_s", 0, r->sync_seconds, 1);
}

static int setup(struct bench_run *r, const struct bench_opts *o)
{
  r->o = o;
  r->comm = MPI_COMM_WORLD;
  MPI_Comm_rank(r->comm, &r->rank);
  MPI_Comm_size(r->comm, &r->size);
  bench_library(r);
  int on_node = bench_count_ppn(r->comm);
  r->ppn = o->ppn > 0 ? o->ppn : on_node;
#ifndef MV_SMPI
  /* simulated ranks do not share cores: no idle waits, no yields under SMPI */
  r->oversubscribed = on_node > sysconf(_SC_NPROCESSORS_ONLN);
#endif
  bench_pin_rank(r, on_node);
  r->seed = o->seed ? o->seed : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
  MPI_Bcast(&r->seed, 1, MPI_UINT64_T, 0, r->comm);
  r->residuals = calloc((size_t)r->size, sizeof(double));
  r->cache = o->clear_cache ? calloc((size_t)o->clear_cache, 1) : NULL;
  int ok = r->residuals && (!o->clear_cache || r->cache) && build_jobs(r) == 0;
  if (ok && r->rank == 0)
    ok = bench_out_open(r) == 0;
  int all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, r->comm);
  return all ? 0 : -1;
}

static int bench(const struct bench_opts *o)
{
  struct bench_run *r = calloc(1, sizeof *r);  /* large: per-batch arrays */
  int failed = !r || setup(r, o) != 0;
  if (!failed) {
#ifdef MV_SMPI
    /* SMPI: every rank reads one simulated clock, so the identity model is exact; the O(p)
     * series of ping-pongs would cost host time at scale (1024 ranks) and measure nothing. */
    int simulated = 1;
#else
    int simulated = 0;
#endif
    r->clk.slope = 1.0;
    if (!simulated || o->check_clock)
      r->sync_seconds = sync_clocks(r, &r->sync_spread);
    r->sync_total = r->sync_seconds;
    if (o->check_clock) {
      check_clock(r);
    } else {
      if (!simulated)
        measure_residuals(r);
      if (r->rank == 0) {
        int64_t pss = bench_mem_pss();
        static const struct bench_op init = {"MPI_Init", "default", BENCH_MEMORY, 0, NULL, NULL};
        if (pss >= 0)
          bench_out_row(r, &init, 0, "rss_bytes", 0, (double)pss, 1);
      }
      for (int i = 0; i < r->njobs; i++)
        failed |= run_job(r, &r->jobs[i]);
    }
    if (r->rank == 0) {
      failed |= bench_out_close(r) != 0;
      failed |= o->meta && bench_meta_write(r) != 0;
    }
  }
  if (r) {
    free(r->residuals);
    free(r->cache);
    free(r->jobs);
  }
  free(r);
  return failed;
}

/* --list: the operation table (generated from mpivet/bench.h's MV_BENCH_OPS). */
static int list_ops(int rank)
{
  const struct bench_op *e;
  for (int i = 0; rank == 0 && (e = bench_op_entry(i)) != NULL; i++)
    printf("%-26s %-44s %s\n", e->op, e->impl, e->kind == BENCH_MEMORY ? "memory" : "time");
  return 0;
}

/* The world must be as large as requested (--np) or as the launcher says it started: a
 * launcher without a PMI connection starts singletons, each of which would measure a world of
 * one rank and record nprocs 1. Every world's rank 0 says so; exit 3, no row. */
static int check_world(const struct bench_opts *o, int rank)
{
  const char *var = NULL;
#ifdef MV_SMPI
  int size, want = o->np;  /* smpirun may run inside a Slurm step of one task */
#else
  int size, want = o->np ? o->np : mv_world_launched(&var);
#endif
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!want || size == want)
    return 0;
  char msg[512];
  if (rank == 0)
    fprintf(stderr, "mpivet-bench: %s\n", mv_world_mismatch(size, want, o->np ? NULL : var, msg,
                                                               sizeof msg));
  return 3;
}

int main(int argc, char **argv)
{
  struct bench_opts o;
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = bench_opts_parse(&o, argc, argv, rank);
  if (rc == 1)
    rc = 0;  /* --help */
  else if (rc == 0 && o.list)
    rc = list_ops(rank);
  else if (rc == 0 && !(rc = check_world(&o, rank)))
    rc = bench(&o);
  if (rank == 0)
    fflush(stdout);
  MPI_Finalize();
  return rc;
}
