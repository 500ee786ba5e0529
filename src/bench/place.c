/* Where the ranks of mpivet-bench run on their node: one rank per core pinned when the launcher
 * did not bind (MPICH's hydra by default), and, when ranks share cores, the ranks of each clock
 * sync ping-pong pair on different cores for the duration of a sync (launcher's mask restored
 * after). Nothing under SMPI, whose ranks are simulated. */
#define _GNU_SOURCE  /* sched_setaffinity, CPU_SET */
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "run.h"

/* Unbound ranks that spin get moved onto one core by other load and then alternate once per
 * time slice (MPICH syncs of 0.4-1.7 s at np 2, docs/bench.md): pin each to its own core, as
 * Open MPI does itself. Also records the rank's index on its node. */
void bench_pin_rank(struct bench_run *r, int on_node)
{
#ifndef MV_SMPI
  MPI_Comm node;
  cpu_set_t set;
  int local, cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  MPI_Comm_split_type(r->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  r->local_rank = local;
  if (on_node > cores || sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < cores)
    return;
  for (int cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &set) && k++ == local) {
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      r->pinned = sched_setaffinity(0, sizeof set, &set) == 0;
      return;
    }
#else
  (void)r;
  (void)on_node;
#endif
}

struct placement {
  cpu_set_t saved;
  int first_cpu;
};

void bench_place_rank(void *ctx, int first)
{
  const struct placement *p = ctx;
  cpu_set_t set = p->saved;
  if (first) {
    CPU_ZERO(&set);
    CPU_SET(p->first_cpu, &set);
  } else {
    CPU_CLR(p->first_cpu, &set);
  }
  sched_setaffinity(0, sizeof set, &set);
}

void *bench_place_begin(const struct bench_run *r)
{
  struct placement *p = r->oversubscribed ? malloc(sizeof *p) : NULL;
  if (!p)
    return NULL;
  if (sched_getaffinity(0, sizeof p->saved, &p->saved) != 0 || CPU_COUNT(&p->saved) < 2) {
    free(p);
    return NULL;
  }
  for (p->first_cpu = 0; !CPU_ISSET(p->first_cpu, &p->saved); p->first_cpu++)
    ;
  bench_place_rank(p, r->local_rank == 0);
  return p;
}

void bench_place_end(void *ctx)
{
  struct placement *p = ctx;
  if (p)
    sched_setaffinity(0, sizeof p->saved, &p->saved);
  free(p);
}
