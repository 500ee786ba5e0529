/* Cost model of a campaign, printed before it starts and used to honour --budget. SMPI: host
 * time per simulated message (which grows with the number of simulated ranks) times the
 * messages of each job: the op's calls (warm-up + repetitions) plus the bench's own collectives
 * per job (result check, warm-up barrier, start broadcast, reductions of the timings), plus a
 * data term for large per-rank volumes (800 B per process up to 1024 ranks). Real MPI: a time
 * per call, and the stalls of oversubscribed local ranks. Calibrated on this project's 2-core
 * machine (docs/check.md, "Cost"). Each launch item is costed with the ops and message sizes it
 * runs (mv_plan_launch_jobs: totals at its nprocs, one call for per-process sizes if so planned). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/bench.h"
#include "mpivet/campaign.h"
#include "mpivet/error.h"

/* Per engine (and MPI for mpirun): seconds per launch, per rank at start-up, per unit of work;
 * warm-up calls; for a local mpirun with more ranks than cores, seconds per job at twice as many
 * ranks as cores and the exponent of the ratio (MPICH polls: a descheduled rank stalls every
 * ping-pong of the clock synchronisation; Open MPI yields). */
static const struct {
  const char *engine;
  double launch_s, rank_s, unit_s;
  int real;          /* 1: unit_s per call (real MPI); 0: per simulated message */
  int warmup;
  double oversub_s, oversub_exp;
} engines[] = {
  {"smpi", 0.05, 2e-4, 5.5e-6, 0, 1, 0, 0},
  {"mpirun", 0.3, 0.01, 2e-4, 1, 5, 0.015, 1.0},          /* Open MPI 4.1 */
  {"mpirun/mpich", 0.1, 0.01, 2e-4, 1, 5, 0.86, 2.4},     /* MPICH 4.0 */
  {"srun", 3.0, 0.01, 5e-5, 1, 5, 0, 0},
};
#define N_ENGINES (sizeof engines / sizeof engines[0])

/* SMPI's host time per message grows with the simulated ranks: 7.7 us at 128 ranks, 10.7 us at
 * 512, 15.5 us at 1024 (measured on the default suite); unit_s * (1 + p / 512) follows it. */
#define SMPI_RANK_SCALE 512.0
/* SMPI's host time of a call with total volume T bytes at p ranks also grows like T p^2: the
 * default suite's launch of Gather, Allgather and Alltoall at 800 B per process (T = 800 p, one
 * call each, tree algorithms named) took 1.03, 5.9 and 59.7 s of CPU at 256, 512 and 1024
 * ranks: 1.8e-11, 1.6e-11 and 2.3e-11 s per byte and rank^2 beyond the message term. Negligible
 * at 800 B in total (0.02 s per call at 1024 ranks). */
#define SMPI_DATA_S 2e-11

static long cores(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

/* The op's growth class and collectives per call (mpivet/bench.h; unknown names: trees). */
static void growth_of(const char *op, enum mv_op_growth *g, double *calls)
{
  const struct mv_op_info *info = mv_bench_op_info_n(op, strcspn(op, ":,@"));
  *g = info ? info->growth : MV_OP_GROWTH_P;
  *calls = info ? info->calls : 1;
}

static double messages(enum mv_op_growth g, int p)
{
  double lg = p > 1 ? log2((double)p) : 1.0;
  switch (g) {
  case MV_OP_GROWTH_P2: return (double)p * (p - 1);
  case MV_OP_GROWTH_PLOGP: return p * lg;
  default: return p;
  }
}

/* "mpirun/mpich" when listed, else "mpirun"; unknown engines cost like the first entry. */
static size_t engine_index(const char *engine)
{
  size_t e = 0, len = engine ? strlen(engine) : 0;
  for (size_t i = 0; i < N_ENGINES; i++)
    if (engine && strcmp(engines[i].engine, engine) == 0)
      return i;
  for (size_t i = 0; i < N_ENGINES; i++)
    if (len && strncmp(engines[i].engine, engine, strcspn(engine, "/")) == 0 &&
        engines[i].engine[strcspn(engine, "/")] == '\0')
      e = i;
  return e;
}

double mv_plan_item_cost(const struct mv_plan *p, const char *engine,
                         const struct mv_launch_item *item)
{
  size_t e = engine_index(engine);
  struct mv_launch_jobs jobs;
  if (mv_plan_launch_jobs(p, item, &jobs))
    return 0;
  int np = item->nprocs;
  double calls = (double)jobs.reps + (jobs.warmup >= 0 ? jobs.warmup : engines[e].warmup);
  /* the bench's own collectives per job: 3 of p log p messages, 6 of p */
  double job = engines[e].real ? 4.0 : 3 * messages(MV_OP_GROWTH_PLOGP, np) + 6 * messages(MV_OP_GROWTH_P, np);
  double work = 0, data = 0, nops = 0;
  for (const char *op = jobs.ops; *op; op += strcspn(op, ",") + (op[strcspn(op, ",")] == ',')) {
    enum mv_op_growth g;
    double n;
    growth_of(op, &g, &n);
    double unit = engines[e].real ? n : n * messages(g, np);
    nops++;
    for (size_t k = 0; k < jobs.n_totals; k++) {
      work += job + unit * calls;
      data += engines[e].real ? 0 : n * calls * (double)jobs.totals[k] * np * np;
    }
  }
  double unit_s = engines[e].unit_s * (engines[e].real ? 1.0 : 1.0 + np / SMPI_RANK_SCALE);
  double njobs = nops * (double)(jobs.n_totals ? jobs.n_totals : 1);
  double over = (double)np / (double)cores();
  double stall = over > 1 && engines[e].oversub_s > 0
                     ? njobs * engines[e].oversub_s * pow(over / 2, engines[e].oversub_exp) : 0;
  return engines[e].launch_s + engines[e].rank_s * np + unit_s * work + SMPI_DATA_S * data +
         stall;
}

double mv_plan_launch_cost(const struct mv_plan *p, const char *engine, int nprocs)
{
  struct mv_launch_item items[MV_LAUNCH_MSIZES_MAX];
  size_t n = mv_plan_launches_at(p, nprocs, 0, items, MV_LAUNCH_MSIZES_MAX);
  double total = 0;
  for (size_t i = 0; i < n && i < MV_LAUNCH_MSIZES_MAX; i++)
    total += mv_plan_item_cost(p, engine, &items[i]);
  return total;
}

double mv_plan_cost(const struct mv_plan *p, const char *engine, const unsigned char *done)
{
  double total = 0;
  for (size_t i = 0; i < p->n_items; i++)
    if (!done || !done[p->items[i].index])
      total += mv_plan_item_cost(p, engine, &p->items[i]);
  return total;
}

/* The largest process count with a per-process launch below the current one, keeping at least
 * three (a model needs them); 0 when there is none to drop. */
static int pp_trim(const struct mv_plan *p)
{
  int pp = 0;
  for (size_t j = 0; j < p->n_msizes; j++)
    pp |= p->msize_pp && p->msize_pp[j];
  size_t top = p->n_nprocs;   /* process counts [0, top) have per-process launches */
  while (top > 0 && p->pp_np_max > 0 && p->nprocs[top - 1] > p->pp_np_max)
    top--;
  return pp && top > 3 ? p->nprocs[top - 2] : 0;
}

int mv_plan_fit_budget(struct mv_plan *p, const char *engine, double budget_s,
                       char *note, size_t notesize)
{
  int runs0 = p->runs, reps0 = p->reps, pp0 = p->pp_np_max;
  size_t np0 = p->n_nprocs;
  int rc = 0;
  if (note && notesize)
    note[0] = '\0';
  while (rc == 0 && mv_plan_cost(p, engine, NULL) > budget_s) {
    int pp = pp_trim(p);
    if (p->runs > 3)
      p->runs--;
    else if (p->reps > 5)
      p->reps = p->reps * 2 / 3 > 5 ? p->reps * 2 / 3 : 5;
    else if (pp)   /* per-process sizes cost like p^3 under SMPI: their largest p goes first */
      p->pp_np_max = pp;
    else if (p->n_nprocs > 3)
      p->n_nprocs--;
    else
      return MV_ERANGE;
    rc = mv_plan_build(p);
  }
  char pps[64] = "";
  if (p->pp_np_max != pp0)
    snprintf(pps, sizeof pps, ", per-process sizes up to np %d", p->pp_np_max);
  if (rc == 0 && note && (p->runs != runs0 || p->reps != reps0 || p->n_nprocs != np0 || pps[0]))
    snprintf(note, notesize, "trimmed to fit the budget: runs %d -> %d, reps %d -> %d, "
             "largest process count %d -> %d%s", runs0, p->runs, reps0, p->reps,
             p->nprocs[np0 - 1], p->nprocs[p->n_nprocs - 1], pps);
  return rc;
}
