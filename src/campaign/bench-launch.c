/* The launch callback of a campaign that runs mpivet-bench through the launch engines: the
 * engine, MPI flavor, ppn, platform, srun options and timeout come from the options stored in
 * the campaign (so a resumed campaign launches exactly as before); each launch works in its
 * own folder launches/np<N>-run<R>/ and its rows go from the launch's own CSV into the
 * campaign's row buffer, parsed once, with run = the launch's run. Under SMPI the launch gets
 * the simulation settings of mv_campaign_smpi_args (fast, exact). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpivet/campaign.h"
#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/launch.h"
#include "mpivet/results.h"

/* The launch's command line next to its log (best effort: it only documents the launch). */
static void save_command(const char *dir, int run, const char *command)
{
  char path[MV_CAMPAIGN_PATH_MAX + 96];
  snprintf(path, sizeof path, "%s/run-%d.command", dir, run);
  FILE *fp = fopen(path, "w");
  if (fp) {
    fprintf(fp, "%s\n", command);
    fclose(fp);
  }
}

/* SMPI's MPICH selector calls Comm::init_smp on a communicator's first Bcast, Reduce or
 * Allreduce: a ring allgather of p^2 messages (34 s of host time at 1024 ranks, per launch).
 * On one rank per host it then picks, for small messages, exactly these flat algorithms
 * (MPICH's short-message thresholds; checked equal in simulated time at 64 and 128 ranks), so
 * they are named directly; for larger messages or several ranks per host the selector decides. */
static const struct {
  const char *arg;
  int64_t below;       /* every message size of the plan is smaller than this */
} smpi_algorithms[] = {
  {"--cfg=smpi/barrier:ompi_bruck", INT64_MAX},       /* MPICH: dissemination */
  {"--cfg=smpi/bcast:binomial_tree", 12288},          /* MPIR_CVAR_BCAST_SHORT_MSG_SIZE */
  {"--cfg=smpi/reduce:binomial", 2048},               /* MPIR_CVAR_REDUCE_SHORT_MSG_SIZE */
  {"--cfg=smpi/allreduce:rdb", 2048},                 /* MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE */
};
#define N_SMPI_ALGORITHMS (sizeof smpi_algorithms / sizeof smpi_algorithms[0])

size_t mv_campaign_smpi_args(const int64_t *msizes, size_t n_msizes, int ppn, const char **out,
                             size_t cap)
{
  /* Ranks share no mutable state in mpivet-bench: no per-rank copy of the binary (saves the
   * file copies and memory); blocking sends leave when the previous one arrived, so a node's
   * sends in a tree go out one after another instead of sharing its link (eager sends all
   * start at once and split the bandwidth: a binomial Bcast then costs more per round). */
  static const char *const fixed[] = {"--cfg=smpi/privatization:no",
                                      "--cfg=smpi/send-is-detached-thresh:0"};
  int64_t largest = 0;
  size_t n = 0;
  for (size_t i = 0; i < n_msizes; i++)
    largest = msizes[i] > largest ? msizes[i] : largest;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < cap; i++)
    out[n++] = fixed[i];
  for (size_t i = 0; ppn <= 1 && i < N_SMPI_ALGORITHMS && n < cap; i++)
    if (largest < smpi_algorithms[i].below)
      out[n++] = smpi_algorithms[i].arg;
  if (n < cap)
    out[n] = NULL;
  return n;
}

int mv_campaign_bench_launch(void *ctx, const struct mv_campaign *c,
                             const struct mv_launch_item *item, struct mv_rowbuf *out,
                             struct mv_error *err)
{
  (void)ctx;
  const struct mv_plan *p = &c->plan;
  char reps[32], seed[32], dir[MV_CAMPAIGN_PATH_MAX + 64];
  struct mv_launch_jobs jobs;   /* ops and sizes of this launch, totals at its nprocs */
  if (mv_plan_launch_jobs(p, item, &jobs))
    return MV_ERANGE;
  snprintf(reps, sizeof reps, "%d", jobs.reps);
  /* the bench's job order: reproducible per launch, different between launches */
  uint64_t state = p->seed + (uint64_t)item->index;
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)(mv_rand_next(&state) % 1000000007u + 1));
  snprintf(dir, sizeof dir, "%.*s/launches/%s", MV_CAMPAIGN_PATH_MAX - 16, c->dir, jobs.name);
  char parent[MV_CAMPAIGN_PATH_MAX + 16];
  snprintf(parent, sizeof parent, "%s/launches", c->dir);
  if ((mkdir(parent, 0777) && errno != EEXIST) || (mkdir(dir, 0777) && errno != EEXIST)) {
    return mv_error_set(err, MV_EIO, dir, 0, 0, "cannot create: %s", strerror(errno));
  }
  const char *ppn = mv_campaign_get(c, "ppn"), *timeout = mv_campaign_get(c, "timeout");
  const char *engine = mv_campaign_get(c, "engine"), *smpi[8] = {NULL};
  const struct mv_engine_facts *facts = mv_engine_facts(engine);
  int sim = facts && facts->simulated, det = facts && facts->deterministic;
  /* deterministic (SMPI): one warm-up call only sizes the start window (none when the plan
   * makes one call per job: jobs.warmup 0) */
  char warmup[16];
  snprintf(warmup, sizeof warmup, "%d", jobs.warmup >= 0 ? jobs.warmup : 1);
  const char *args[] = {"--ops", jobs.ops, "--msizes", jobs.msizes, "--reps", reps, "--seed", seed,
                        det || jobs.warmup >= 0 ? "--warmup" : NULL, warmup, NULL};
  if (sim)
    mv_campaign_smpi_args(jobs.coll_totals, jobs.n_coll_totals, ppn ? atoi(ppn) : 0, smpi,
                          sizeof smpi / sizeof smpi[0]);
  const char *nodes = mv_campaign_get(c, "nodes");
  struct mv_launch_spec spec = {
    .engine = engine, .mpi = mv_campaign_get(c, "mpi"),
    .np = item->nprocs, .ppn = ppn ? atoi(ppn) : 0, .hosts = mv_campaign_get(c, "hosts"),
    .nodes = nodes ? atoi(nodes) : 0, .partition = mv_campaign_get(c, "partition"),
    .time_limit = mv_campaign_get(c, "time_limit"), .pmi = mv_campaign_get(c, "pmi"),
    .platform = mv_campaign_get(c, "platform"), .args = args, .launcher_args = smpi,
    .workdir = dir, .timeout_s = timeout ? atof(timeout) : 0};
  struct mv_row_sink sink = mv_rowbuf_sink(out);
  struct mv_launch_result res;
  int rc = mv_launch_bench(&spec, item->run, &sink, &res);
  if (res.command[0])
    save_command(dir, item->run, res.command);
  if (rc)
    mv_error_set(err, rc, NULL, 0, 0, "%s%s%s%s; see %s", mv_strerror(rc),
                 res.timed_out ? " (timed out)" : "", res.error.what[0] ? ": " : "", res.error.what,
                 res.log);
  return rc;
}
