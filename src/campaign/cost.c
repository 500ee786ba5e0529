/* Cost model of a campaign, printed before it starts and used to honour --budget: a fixed
 * start-up cost per launch plus, per measured call, the number of messages the collective
 * needs (simulated by SMPI one by one) or a per-call time on real MPI. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/campaign.h"
#include "mpivet/error.h"

/* Message count classes of the usual algorithms at small sizes. */
enum growth { G_P, G_PLOGP, G_P2 };

static const struct {
  const char *op;
  enum growth g;
} op_growth[] = {
  {"MPI_Alltoall", G_P2}, {"MPI_Alltoallv", G_P2}, {"MPI_Allreduce", G_PLOGP},
  {"MPI_Allgather", G_PLOGP}, {"MPI_Reduce_scatter", G_PLOGP}, {"MPI_Barrier", G_PLOGP},
  {"MPI_Scan", G_PLOGP},
};

/* Per engine: seconds per launch, per rank at start-up, per simulated message or real call,
 * and warm-up/synchronisation calls added to the repetitions. Calibrated on a 2-core machine. */
static const struct {
  const char *engine;
  double launch_s, rank_s, unit_s;
  int real;          /* 1: unit_s per call (real MPI), 0: per simulated message */
} engines[] = {
  {"smpi", 0.15, 2e-3, 6e-7, 0},
  {"mpirun", 0.8, 0.05, 2e-4, 1},
  {"srun", 3.0, 0.01, 5e-5, 1},
};

static enum growth growth_of(const char *op)
{
  size_t len = strcspn(op, ":");
  for (size_t i = 0; i < sizeof op_growth / sizeof op_growth[0]; i++)
    if (strlen(op_growth[i].op) == len && strncmp(op_growth[i].op, op, len) == 0)
      return op_growth[i].g;
  return G_P;
}

static double messages(enum growth g, int p)
{
  double lg = p > 1 ? log2((double)p) : 1.0;
  switch (g) {
  case G_P2: return (double)p * (p - 1);
  case G_PLOGP: return 2.0 * p * lg;
  default: return 2.0 * p;
  }
}

double mv_plan_launch_cost(const struct mv_plan *p, const char *engine, int nprocs)
{
  size_t e = 0;
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    if (engine && strcmp(engines[i].engine, engine) == 0)
      e = i;
  double calls = (double)p->reps + 5.0;   /* warm-up and clock synchronisation */
  double work = 0;
  for (size_t i = 0; i < p->n_ops; i++) {
    double unit = engines[e].real ? 1.0 : messages(growth_of(p->ops[i]), nprocs);
    work += unit * calls * (double)(p->n_msizes ? p->n_msizes : 1);
  }
  return engines[e].launch_s + engines[e].rank_s * nprocs + engines[e].unit_s * work;
}

double mv_plan_cost(const struct mv_plan *p, const char *engine, const unsigned char *done)
{
  double total = 0;
  for (size_t i = 0; i < p->n_items; i++)
    if (!done || !done[p->items[i].index])
      total += mv_plan_launch_cost(p, engine, p->items[i].nprocs);
  return total;
}

int mv_plan_fit_budget(struct mv_plan *p, const char *engine, double budget_s,
                       char *note, size_t notesize)
{
  int runs0 = p->runs, reps0 = p->reps;
  size_t np0 = p->n_nprocs;
  int rc = 0;
  if (note && notesize)
    note[0] = '\0';
  while (rc == 0 && mv_plan_cost(p, engine, NULL) > budget_s) {
    if (p->runs > 3)
      p->runs--;
    else if (p->reps > 5)
      p->reps = p->reps * 2 / 3 > 5 ? p->reps * 2 / 3 : 5;
    else if (p->n_nprocs > 3)
      p->n_nprocs--;
    else
      return MV_ERANGE;
    rc = mv_plan_build(p);
  }
  if (rc == 0 && note && (p->runs != runs0 || p->reps != reps0 || p->n_nprocs != np0))
    snprintf(note, notesize, "trimmed to fit the budget: runs %d -> %d, reps %d -> %d, "
             "largest process count %d -> %d", runs0, p->runs, reps0, p->reps,
             p->nprocs[np0 - 1], p->nprocs[p->n_nprocs - 1]);
  return rc;
}
