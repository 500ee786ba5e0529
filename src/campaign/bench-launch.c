/* The launch callback of a campaign that runs mpivet-bench through the launch engines: the
 * engine, MPI flavor, ppn, platform and timeout come from the options stored in the campaign
 * (so a resumed campaign launches exactly as before); each launch works in its own folder
 * launches/np<N>-run<R>/ and its rows are read back from the launch's own CSV. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpivet/campaign.h"
#include "mpivet/error.h"
#include "mpivet/launch.h"
#include "mpivet/results.h"

static int read_rows(const char *csv, struct mv_rowbuf *out, char *err, size_t errsize)
{
  struct mv_results_reader *r;
  struct mv_row row;
  int rc = mv_results_reader_open(&r, csv);
  if (rc) {
    snprintf(err, errsize, "%s: cannot read the launch's rows (%s)", csv, mv_strerror(rc));
    return rc;
  }
  while ((rc = mv_results_reader_next(r, &row)) == 1)
    if ((rc = mv_rowbuf_push(out, &row)) != 0)
      break;
  if (rc < 0)
    snprintf(err, errsize, "%s", mv_results_reader_error(r));
  mv_results_reader_close(r);
  return rc < 0 ? rc : 0;
}

static int join(char *buf, size_t size, char *const *items, size_t n)
{
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    int k = snprintf(buf + len, size - len, "%s%s", i ? "," : "", items[i]);
    if (k < 0 || (size_t)k >= size - len)
      return MV_ERANGE;
    len += (size_t)k;
  }
  return 0;
}

int mv_campaign_bench_launch(void *ctx, const struct mv_campaign *c,
                             const struct mv_launch_item *item, struct mv_rowbuf *out, char *err,
                             size_t errsize)
{
  (void)ctx;
  const struct mv_plan *p = &c->plan;
  char ops[4096], msizes[1024], reps[32], seed[32], dir[MV_CAMPAIGN_PATH_MAX + 64];
  char *sizes[256];
  size_t ns = p->n_msizes < 256 ? p->n_msizes : 256;
  char sizebuf[256][24];
  for (size_t i = 0; i < ns; i++) {
    snprintf(sizebuf[i], sizeof sizebuf[i], "%lld", (long long)p->msizes[i]);
    sizes[i] = sizebuf[i];
  }
  if (join(ops, sizeof ops, p->ops, p->n_ops) || join(msizes, sizeof msizes, sizes, ns))
    return MV_ERANGE;
  snprintf(reps, sizeof reps, "%d", p->reps);
  /* the bench's job order: reproducible per launch, different between launches */
  uint64_t state = p->seed + (uint64_t)item->index;
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)(mv_rand_next(&state) % 1000000007u + 1));
  snprintf(dir, sizeof dir, "%s/launches/np%d-run%d", c->dir, item->nprocs, item->run);
  char parent[MV_CAMPAIGN_PATH_MAX + 16];
  snprintf(parent, sizeof parent, "%s/launches", c->dir);
  if ((mkdir(parent, 0777) && errno != EEXIST) || (mkdir(dir, 0777) && errno != EEXIST)) {
    snprintf(err, errsize, "%s: cannot create: %s", dir, strerror(errno));
    return MV_EIO;
  }
  const char *args[] = {"--ops", ops, "--msizes", msizes, "--reps", reps, "--seed", seed, NULL};
  const char *ppn = mv_campaign_get(c, "ppn"), *timeout = mv_campaign_get(c, "timeout");
  struct mv_launch_spec spec = {
    .engine = mv_campaign_get(c, "engine"), .mpi = mv_campaign_get(c, "mpi"),
    .np = item->nprocs, .ppn = ppn ? atoi(ppn) : 0, .hosts = mv_campaign_get(c, "hosts"),
    .platform = mv_campaign_get(c, "platform"), .args = args, .workdir = dir,
    .timeout_s = timeout ? atof(timeout) : 0};
  FILE *devnull = fopen("/dev/null", "w");
  struct mv_results_writer *w = NULL;
  int rc = devnull ? mv_results_writer_open_stream(&w, devnull) : MV_EIO;
  struct mv_launch_result res;
  if (rc == 0)
    rc = mv_launch_bench(&spec, item->run, w, &res);
  if (w)
    mv_results_writer_close(w, 1);
  if (devnull)
    fclose(devnull);
  if (rc) {
    snprintf(err, errsize, "%s%s; see %s", mv_strerror(rc), res.timed_out ? " (timed out)" : "",
             res.log);
    return rc;
  }
  return read_rows(res.csv, out, err, errsize);
}
