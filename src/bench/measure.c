/* The measurement loop of one (op, msize) job (Listing 1 of the scalability-validation paper):
 * warm-up, repetitions started in windows on the global clock (or after a barrier), per
 * repetition the maximum over ranks of (end - start) or global end - window start, validity
 * kept, batches until a fixed count or the RSE / 95% CI criterion holds (an adaptive window
 * widens after a batch with late ranks); memory ops too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "run.h"

#define LEAD_S 1e-3          /* first window after the start time is broadcast */
#define MIN_WINDOW_S 2e-5
#define WINDOWS_PER_BATCH 10 /* a late rank (descheduled) spoils at most the rest of its batch */
#define WIDEN_INVALID 2      /* an adaptive window doubles after a batch with this many late */
#define WIDEN_MAX 64         /* ... up to this factor over the warm-up estimate */

/* 95% two-sided Student t quantiles for 1..30 degrees of freedom, then the normal one. */
static double t975(int df)
{
  static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                             2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
                             2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
                             2.048, 2.045, 2.042};
  return df < 1 ? INFINITY : df <= 30 ? t[df - 1] : 1.960;
}

/* Root: 1 when the valid values so far satisfy the stopping rule. */
static int precise_enough(const struct bench_opts *o, const double *v, const int *valid, int n)
{
  double sum = 0, sq = 0;
  int k = 0;
  for (int i = 0; i < n; i++)
    if (valid[i]) {
      sum += v[i];
      k++;
    }
  if (k < 2)
    return 0;
  double mean = sum / k;
  for (int i = 0; i < n; i++)
    if (valid[i])
      sq += (v[i] - mean) * (v[i] - mean);
  double se = sqrt(sq / (k - 1)) / sqrt(k);
  if (mean <= 0)
    return 1;
  if (o->rse > 0 && se / mean > o->rse)
    return 0;
  if (o->ci > 0 && t975(k - 1) * se / mean > o->ci)
    return 0;
  return 1;
}

static void clear_cache(struct bench_run *r)
{
  if (!r->cache)
    return;
  for (int64_t i = 0; i < r->o->clear_cache; i += 64)
    r->cache[i] = (char)(r->cache[i] + 1);
}

/* Warm-up calls; returns the window length: the given one, or twice the slowest rank's mean. */
static double warm_up(struct bench_run *r, const struct bench_op *op, struct bench_buf *b)
{
  double sum = 0, wmax = 0;
  for (int i = 0; i < r->o->warmup; i++) {
    MPI_Barrier(r->comm);
    clear_cache(r);
    double t0 = bench_now();
    op->run(b);
    sum += bench_now() - t0;
  }
  double mean = r->o->warmup ? sum / r->o->warmup : 0;
  MPI_Allreduce(&mean, &wmax, 1, MPI_DOUBLE, MPI_MAX, r->comm);
  if (r->o->window > 0)
    return r->o->window;
  double w = 2 * wmax + (r->o->clear_cache ? 2 * wmax : 0);
  return w > MIN_WINDOW_S ? w : MIN_WINDOW_S;
}

/* One batch of n repetitions; fills per-repetition arrays (reduced onto root). */
static void batch(struct bench_run *r, const struct bench_op *op, struct bench_buf *b,
                  double window, int n, struct bench_batch *out)
{
  int barrier = strcmp(r->o->start, "barrier") == 0;
  double t0 = 0;
  if (!barrier) {
    if (r->rank == 0)
      t0 = bench_clock_global(&r->clk, bench_now()) + LEAD_S + window;
    MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, r->comm);
  }
  for (int i = 0; i < n; i++) {
    clear_cache(r);
    int late = 0;
    if (barrier) {
      MPI_Barrier(r->comm);
    } else {
      double target = bench_clock_local(&r->clk, t0 + i * window);
      late = bench_now() > target;
      bench_wait_until(target, r->oversubscribed);
    }
    double s = bench_now();
    op->run(b);
    double e = bench_now();
    r->loc[i] = e - s;
    r->gend[i] = bench_clock_global(&r->clk, e);
    r->gstart[i] = barrier ? bench_clock_global(&r->clk, s) : t0 + i * window;
    r->valid[i] = !late;
  }
  MPI_Reduce(r->loc, out->loc, n, MPI_DOUBLE, MPI_MAX, 0, r->comm);
  MPI_Reduce(r->gend, out->gend, n, MPI_DOUBLE, MPI_MAX, 0, r->comm);
  MPI_Reduce(r->gstart, out->gstart, n, MPI_DOUBLE, MPI_MIN, 0, r->comm);
  MPI_Reduce(r->valid, out->valid, n, MPI_INT, MPI_MIN, 0, r->comm);
}

int bench_measure_time(struct bench_run *r, const struct bench_op *op, struct bench_buf *b,
                       struct bench_job *job)
{
  int global = strcmp(r->o->timing, "global") == 0;
  int adaptive = r->o->rse > 0 || r->o->ci > 0;
  int total = adaptive ? r->o->max_reps : r->o->reps;
  double *v = calloc((size_t)total, sizeof(double));
  int *valid = calloc((size_t)total, sizeof(int));
  if (!v || !valid) {
    free(v);
    free(valid);
    return -1;
  }
  job->window = warm_up(r, op, b);
  double widest = job->window * WIDEN_MAX;
  int done = 0, more = 1;
  while (more) {
    int n = done == 0 ? r->o->reps : (r->o->reps > 10 ? r->o->reps / 2 : 5), late = 0;
    if (n > total - done)
      n = total - done;
    if (n > BENCH_BATCH)
      n = BENCH_BATCH;
    if (strcmp(r->o->start, "window") == 0 && n > WINDOWS_PER_BATCH)
      n = WINDOWS_PER_BATCH;
    batch(r, op, b, job->window, n, &r->reduced);
    if (r->rank == 0) {
      for (int i = 0; i < n; i++) {
        v[done + i] = global ? r->reduced.gend[i] - r->reduced.gstart[i] : r->reduced.loc[i];
        valid[done + i] = r->reduced.valid[i];
        late += !valid[done + i];
        bench_out_row(r, op, b->msize, "time_s", done + i, v[done + i], valid[done + i]);
      }
      job->invalid += late;
      more = done + n < total && !(adaptive && precise_enough(r->o, v, valid, done + n));
    }
    done += n;
    /* An adaptive window that keeps starting ranks late (a too short warm-up estimate, ranks
     * sharing cores) widens for the next batches; the rows keep each repetition's validity. */
    double next[2] = {more, late >= WIDEN_INVALID && r->o->window == 0 && job->window * 2 <= widest
                              ? job->window * 2 : job->window};
    MPI_Bcast(next, 2, MPI_DOUBLE, 0, r->comm);
    more = next[0] != 0;
    job->window = next[1];
  }
  job->reps = done;
  if (r->rank == 0 && 2 * job->invalid > done)
    fprintf(stderr, "mpivet-bench: %s (%s) %lld B: %d of %d repetitions started late (valid=0)%s\n",
            op->op, op->impl, (long long)b->msize, job->invalid, done,
            r->oversubscribed ? "; ranks share cores: --start barrier may suit better" : "");
  free(v);
  free(valid);
  return 0;
}

int bench_measure_memory(struct bench_run *r, const struct bench_op *op, struct bench_buf *b,
                         struct bench_job *job)
{
  double secs, smax;
  int64_t bytes, pss, mine[2], most[2];
  for (int i = 0; i < r->o->warmup; i++)
    bench_memop_measure(op, b, &secs, &bytes, &pss);
  for (int rep = 0; rep < r->o->reps; rep++) {
    MPI_Barrier(r->comm);
    bench_memop_measure(op, b, &secs, &bytes, &pss);
    mine[0] = bytes;
    mine[1] = pss;
    MPI_Reduce(&secs, &smax, 1, MPI_DOUBLE, MPI_MAX, 0, r->comm);
    MPI_Reduce(mine, most, 2, MPI_INT64_T, MPI_MAX, 0, r->comm);
    if (r->rank != 0)
      continue;
    bench_out_row(r, op, b->msize, "time_s", rep, smax, 1);
    if (most[0] >= 0)
      bench_out_row(r, op, b->msize, "mem_bytes", rep, (double)most[0], 1);
    if (most[1] >= 0)
      bench_out_row(r, op, b->msize, "rss_bytes", rep, (double)most[1], 1);
  }
  job->reps = r->o->reps;
  return 0;
}
