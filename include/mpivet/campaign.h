/* Experiment campaigns: a plan of launches (process counts x separate launches, each measuring
 * ops x msizes) run in a seeded random order, with resumable state in the campaign folder
 * (plan, journal of finished launches, results.csv appended and flushed per launch) and meta.json.
 * The launch itself is a callback, so engines (mpirun, srun, smpi) and tests plug in. */
#ifndef MPIVET_CAMPAIGN_H
#define MPIVET_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>
#include "mpivet/error.h"
#include "mpivet/sizelist.h"
#include "mpivet/results.h"

#define MV_CAMPAIGN_PATH_MAX 4096

/* One MPI job at nprocs for launch index run: every op x msize of the plan, or, when an op is
 * measured at one size only ("MPI_Gather@800p"), one launch per message size with the ops of
 * that size. */
struct mv_launch_item {
  int index;      /* position in the canonical plan (nprocs-major, then run, then size) */
  int nprocs;
  int run;
  int msize;      /* index into plan.msizes of the one size it measures; -1: every size */
};

struct mv_plan {
  int *nprocs;              /* ascending process counts */
  size_t n_nprocs;
  char **ops;               /* "MPI_Bcast", "MPI_Bcast:impl", "MPI_Gather@800p" (one size only) */
  size_t n_ops;
  int64_t *msizes;          /* bytes: a total volume, or per process when msize_pp[i] */
  unsigned char *msize_pp;  /* [n_msizes] 1: msizes[i] is per process ("800p") */
  size_t n_msizes;
  size_t cap_nprocs_, cap_ops_, cap_msizes_, cap_pp_;   /* allocated (mv_grow) */
  int runs;                 /* separate launches per process count */
  int reps;                 /* repetitions inside a launch */
  /* Launches of per-process sizes (each such size has launches of its own when the plan mixes
   * sizes): pp_single 1 = one call, no warm-up (exact under SMPI, which is deterministic);
   * pp_np_max > 0 = only at process counts up to it (their cost grows like p^2 or worse). */
  int pp_single;
  int pp_np_max;
  uint64_t seed;            /* order of the launches; recorded for reproduction */
  struct mv_launch_item *items;   /* execution order (shuffled) */
  size_t n_items;
};

void mv_plan_init(struct mv_plan *p);
void mv_plan_release(struct mv_plan *p);
/* "16,32,64" or "16:1024" (powers of two from A to B, both included). */
int mv_plan_parse_nprocs(struct mv_plan *p, const char *spec);
/* Comma-separated list of names, e.g. "MPI_Bcast,MPI_Reduce". */
int mv_plan_parse_ops(struct mv_plan *p, const char *list);
/* Comma-separated list of sizes: byte counts (total volume) or "800p" (bytes per process). */
int mv_plan_parse_msizes(struct mv_plan *p, const char *list);
/* Build items for every (nprocs, run[, size]) and shuffle them with p->seed (Fisher-Yates,
 * splitmix64). Sizes named by "op@size" and missing from msizes are added first. */
int mv_plan_build(struct mv_plan *p);
/* The launches of one run at nprocs (item index counted from 0), at most cap of them written;
 * returns how many there are. */
size_t mv_plan_launches_at(const struct mv_plan *p, int nprocs, int run,
                           struct mv_launch_item *out, size_t cap);
/* The size spec of msizes[i]. */
struct mv_msize_spec mv_plan_msize(const struct mv_plan *p, size_t i);
/* "800,800p" */
int mv_plan_format_msizes(const struct mv_plan *p, char *buf, size_t size);

/* What one launch runs: its ops (without "@size") and message sizes resolved to total volumes
 * at the launch's nprocs, as mpivet-bench takes them, and the name of its folder. */
#define MV_LAUNCH_MSIZES_MAX 64
struct mv_launch_jobs {
  char ops[4096];                          /* comma-separated */
  char msizes[1024];                       /* comma-separated totals */
  int64_t totals[MV_LAUNCH_MSIZES_MAX];
  size_t n_totals;
  /* the totals at which the launch's ops may call Bcast, Reduce or Allreduce (none when every op
   * is one that never does: Barrier, Gather, Scatter, Allgather, Alltoall and their v-forms);
   * what mv_campaign_smpi_args needs to decide whether those algorithms can be named */
  int64_t coll_totals[MV_LAUNCH_MSIZES_MAX];
  size_t n_coll_totals;
  int reps;
  int warmup;                              /* -1: the engine's default */
  char name[64];                           /* "np512-run0", or "np512-run0-800p" per size */
};
int mv_plan_launch_jobs(const struct mv_plan *p, const struct mv_launch_item *item,
                        struct mv_launch_jobs *out);

/* Cost model of one launch item in seconds, per engine ("smpi", "mpirun", "srun"). */
double mv_plan_item_cost(const struct mv_plan *p, const char *engine,
                         const struct mv_launch_item *item);
/* Cost of the launches of one run at nprocs (every size), nprocs in the plan or not. */
double mv_plan_launch_cost(const struct mv_plan *p, const char *engine, int nprocs);
/* Sum over the items not yet done (done may be NULL = none done). */
double mv_plan_cost(const struct mv_plan *p, const char *engine, const unsigned char *done);
/* Trim runs, then reps, then the largest process counts until the cost fits budget_s.
 * Writes what was changed into note. MV_ERANGE when even the smallest plan does not fit. */
int mv_plan_fit_budget(struct mv_plan *p, const char *engine, double budget_s,
                       char *note, size_t notesize);

/* A seeded generator shared by plan shuffling and the synthetic launcher of the tests. */
uint64_t mv_rand_next(uint64_t *state);
/* Uniform integer in [0, n) without modulo bias. */
uint64_t mv_rand_below(uint64_t *state, uint64_t n);
/* Uniform double in [0, 1). */
double mv_rand_uniform(uint64_t *state);

/* ---- campaign folder ---- */

#define MV_CAMPAIGN_KEYS_MAX 32

struct mv_campaign {
  char dir[MV_CAMPAIGN_PATH_MAX];
  struct mv_plan plan;
  size_t nkeys;                          /* options the command stores (engine, mpi, ...) */
  char *keys[MV_CAMPAIGN_KEYS_MAX];
  char *values[MV_CAMPAIGN_KEYS_MAX];
  unsigned char *done;                   /* [plan.n_items], by canonical index */
  size_t n_done;
  long long results_size;                /* bytes of results.csv that belong to done launches */
  struct mv_error error;                 /* why the last call failed */
};

void mv_campaign_init(struct mv_campaign *c);
void mv_campaign_release(struct mv_campaign *c);
/* Store an option (copied; replaces an earlier value). */
int mv_campaign_set(struct mv_campaign *c, const char *key, const char *value);
/* The stored value or NULL. */
const char *mv_campaign_get(const struct mv_campaign *c, const char *key);

/* Create dir (and parents) and write campaign.plan atomically; the plan must be built.
 * MV_EINVAL when dir already holds a campaign (use resume). */
int mv_campaign_create(struct mv_campaign *c, const char *dir);
/* Rewrite campaign.plan with the current options (only before the first launch). */
int mv_campaign_save(struct mv_campaign *c);
/* Read dir/campaign.plan and the journal; truncate results.csv to the rows of finished
 * launches so that an interrupted launch is rerun without duplicates. */
int mv_campaign_resume(struct mv_campaign *c, const char *dir);
/* Path of a file inside the campaign folder. */
int mv_campaign_path(const struct mv_campaign *c, const char *name, char *buf, size_t size);

/* Rows of one launch, collected before they are committed. */
struct mv_rowbuf {
  struct mv_row *rows;
  size_t n, cap;
};
void mv_rowbuf_init(struct mv_rowbuf *b);
void mv_rowbuf_release(struct mv_rowbuf *b);
int mv_rowbuf_push(struct mv_rowbuf *b, const struct mv_row *row);
/* A row sink (results.h) appending to b. */
struct mv_row_sink mv_rowbuf_sink(struct mv_rowbuf *b);

/* Runs one launch; appends its rows to out, each with run = item->run. err says why on
 * failure. */
typedef int (*mv_launch_fn)(void *ctx, const struct mv_campaign *c,
                            const struct mv_launch_item *item, struct mv_rowbuf *out,
                            struct mv_error *err);
/* Called after each committed launch (may be NULL). */
typedef void (*mv_campaign_progress_fn)(void *ctx, const struct mv_campaign *c,
                                        const struct mv_launch_item *item);

/* Run every launch not yet done, in plan order: rows appended to results.csv as the launch
 * gave them (parsed once, never read back) and flushed,
 * then the launch recorded in the journal. Stops at the first failing launch (its rows are
 * not kept) and returns its error; c->error holds the message. */
int mv_campaign_run(struct mv_campaign *c, mv_launch_fn launch, void *launch_ctx,
                    mv_campaign_progress_fn progress, void *progress_ctx);

/* The mv_launch_fn that runs mpivet-bench through the launch engines (launch.h), with the
 * options stored in the campaign: engine, mpi, ppn, hosts, platform, timeout (seconds). */
int mv_campaign_bench_launch(void *ctx, const struct mv_campaign *c,
                             const struct mv_launch_item *item, struct mv_rowbuf *out,
                             struct mv_error *err);

/* SMPI options (smpirun --cfg=...) for mpivet-bench launches measuring the given message sizes
 * with ppn ranks per host (0: one): no privatization, blocking sends, and for small messages on
 * one rank per host the flat algorithms SMPI's MPICH selector would pick, named so that its
 * O(p^2) SMP detection is skipped. Fills out (static strings, NULL-terminated when there is
 * room) and returns the count. `mpivet check` passes them as mv_launch_spec.launcher_args. */
size_t mv_campaign_smpi_args(const int64_t *msizes, size_t n_msizes, int ppn, const char **out,
                             size_t cap);

/* ---- meta.json ---- */

struct mv_meta {
  const char *library;         /* "Open MPI 4.1.4", "SMPI 3.32" */
  const char *engine;
  const char *platform_file;   /* SMPI platform XML, copied into the folder (may be NULL) */
  const char *command_line;    /* the mpivet command as typed (may be NULL) */
};
/* Write dir/meta.json: library, engine, hostnames, cores, MPI-tuning environment variables,
 * mpivet version and git revision, seed and plan, platform file (copied as platform.xml). */
int mv_campaign_write_meta(const struct mv_campaign *c, const struct mv_meta *m);
/* 1 when an environment variable name tunes an MPI library or launcher (OMPI_, MPICH_, ...). */
int mv_meta_env_is_mpi(const char *name);

#endif
