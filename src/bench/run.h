/* State of one mpivet-bench launch shared by the measurement loop (measure.c), the output
 * (output.c) and main.c: communicator, clock model, per-batch arrays and the row sink. */
#ifndef MV_BENCH_RUN_H
#define MV_BENCH_RUN_H

#include <stdio.h>

#include "bench.h"
#include "mpivet/results.h"

#define BENCH_BATCH 256   /* repetitions per window batch (arrays below) */

struct bench_batch {
  double loc[BENCH_BATCH], gend[BENCH_BATCH], gstart[BENCH_BATCH];
  int valid[BENCH_BATCH];
};

/* What meta.json says about one job. */
struct bench_job {
  const struct bench_op *op;
  int64_t msize;
  int reps, invalid;
  double window;
  int checked, equal;      /* mock-up result check done / passed */
};

struct bench_run {
  const struct bench_opts *o;
  MPI_Comm comm;
  int rank, size, ppn;
  int oversubscribed;                       /* more ranks on this node than cores */
  int pinned;                               /* this rank bound itself to one core */
  int local_rank;                           /* rank among the ranks of this node */
  struct bench_clock clk;
  char library[MV_NAME_MAX];
  char library_full[512];
  uint64_t seed;
  char *cache;                              /* --clear-cache buffer */
  double loc[BENCH_BATCH], gend[BENCH_BATCH], gstart[BENCH_BATCH];
  int valid[BENCH_BATCH];
  struct bench_batch reduced;               /* root */
  struct mv_results_writer *w;              /* root */
  double sync_seconds, sync_total;          /* first sync (last arrival to last end), all syncs */
  double sync_spread;                       /* first sync: first to last rank's arrival */
  double *residuals;                        /* root, size p: after the first sync */
  double residual_max;
  struct bench_job *jobs;
  int njobs;
};

/* Placement (place.c): pin one rank per core when the launcher did not bind (sets pinned and
 * local_rank; collective). When ranks share cores, bench_place_begin puts rank 0 alone on the
 * node's first core and the others on the rest, returning the context for bench_place_rank
 * (first = 1: the first core, 0: the rest) and bench_place_end (restores the launcher's mask);
 * NULL when not placed. */
void bench_pin_rank(struct bench_run *r, int on_node);
void *bench_place_begin(const struct bench_run *r);
void bench_place_rank(void *ctx, int first);
void bench_place_end(void *ctx);

int bench_measure_time(struct bench_run *r, const struct bench_op *op, struct bench_buf *b,
                       struct bench_job *job);
int bench_measure_memory(struct bench_run *r, const struct bench_op *op, struct bench_buf *b,
                         struct bench_job *job);

/* Root: library name and version, ppn, output open/close, rows, meta.json. */
void bench_library(struct bench_run *r);
int bench_count_ppn(MPI_Comm comm);
int bench_out_open(struct bench_run *r);
void bench_out_row(struct bench_run *r, const struct bench_op *op, int64_t msize,
                   const char *metric, int rep, double value, int valid);
int bench_out_close(struct bench_run *r);
int bench_meta_write(const struct bench_run *r);

#endif
