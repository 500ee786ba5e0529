/* The one judging pipeline (mpivet/judge.h): each series of a kernel set gets its expectation
 * (mv_expect_find), a model (the expectation-driven fit when one applies), a verdict and its
 * notes; expectations without data become NOT_MEASURED judgements; then every rule of the
 * expectation file is evaluated on the modeled lhs series of each size. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/judge.h"
#include "internal.h"

#define MAX_PP 64

void mv_judge_options_init(struct mv_judge_options *o)
{
  memset(o, 0, sizeof *o);
  mv_fit_options_init(&o->fit);
}

void mv_judgements_init(struct mv_judgements *js)
{
  memset(js, 0, sizeof *js);
  mv_kernels_init(&js->ks);
}

void mv_judgements_release(struct mv_judgements *js)
{
  mv_kernels_release(&js->ks);
  free(js->j);
  free(js->rules);
  mv_judgements_init(js);
}

int mv_judge_load_dataset(struct mv_judgements *js, const struct mv_dataset *ds, int with_msize,
                          const struct mv_expect_file *ef, const int64_t *pp, size_t npp)
{
  struct mv_msize_spec sizes[MAX_PP];
  size_t n = 0;
  for (size_t i = 0; ef && i < ef->n + ef->nrules; i++) {  /* msize=...p lines claim their rows */
    int given = i < ef->n ? ef->items[i].msize_given : ef->rules[i - ef->n].msize_given;
    const struct mv_msize_spec *s = i < ef->n ? &ef->items[i].msize : &ef->rules[i - ef->n].msize;
    if (given && s->per_process && n < MAX_PP)
      sizes[n++] = *s;
  }
  for (size_t i = 0; i < npp && n < MAX_PP; i++)   /* then the campaign's sizes per process */
    if (pp[i] > 0)
      sizes[n++] = (struct mv_msize_spec){pp[i], 1};
  return mv_kernels_from_dataset(&js->ks, ds, with_msize, sizes, n);
}

/* The next judgement, zeroed; slots below zeroed are known zero (a fresh calloc). */
static struct mv_judgement *judgement_add(struct mv_judgements *js, size_t zeroed)
{
  if (mv_grow(&js->j, &js->cap_, js->n + 1, sizeof *js->j, 16) < 0)
    return NULL;
  struct mv_judgement *j = &js->j[js->n++];
  if (js->n > zeroed)
    memset(j, 0, sizeof *j);
  j->kernel = SIZE_MAX;
  return j;
}

static void note_add(struct mv_judgement *j, const char *text)
{
  size_t len = strlen(j->note);
  snprintf(j->note + len, sizeof j->note - len, "%s%s", len ? "; " : "", text);
}

/* mv_model_fit_note on the locations (the fit's measure) of a one-parameter series; returns
 * 1 when the fit is poor. */
static int note_poor_fit(struct mv_judgement *j, const struct mv_series *s,
                         const struct mv_fit_options *fo)
{
  char text[MV_JUDGE_TEXT];
  double *y = malloc((s->npoints ? s->npoints : 1) * sizeof *y);
  int poor = 0;
  if (!y)
    return 0;
  for (size_t i = 0; i < s->npoints; i++)
    y[i] = mv_measure_apply(fo->measure, s->values[i], s->nvalues[i]);
  if ((poor = mv_model_fit_note(&j->model, s->coords, y, s->npoints, text, sizeof text)))
    note_add(j, text);
  free(y);
  return poor;
}

static const enum mv_judge_status status_of_match[] = {
  [MV_MATCH_NONE] = MV_JUDGE_MISMATCH, [MV_MATCH_APPROX] = MV_JUDGE_APPROX,
  [MV_MATCH_EXACT] = MV_JUDGE_EXACT};

/* The fit statistics of a segment's model on its own points (the measure at each). */
static void segment_model(const struct mv_series *s, const struct mv_model_segment *g,
                          const struct mv_fit_options *fo, struct mv_model *m)
{
  double x[256], y[256];
  size_t n = 0;
  memset(m, 0, sizeof *m);
  m->fn = g->fn;
  for (size_t i = 0; i < s->npoints && n < 256; i++)
    if (s->coords[i] >= g->from && s->coords[i] <= g->to) {
      x[n] = s->coords[i];
      y[n++] = mv_measure_apply(fo->measure, s->values[i], s->nvalues[i]);
    }
  mv__model_stats(m, x, 1, y, n);
  m->cv_smape = NAN;
}

/* The measure at x (NAN when x was not measured). */
static double measured_at(const struct mv_series *s, const struct mv_fit_options *fo, double x)
{
  for (size_t i = 0; i < s->npoints; i++)
    if (s->coords[i] == x)
      return mv_measure_apply(fo->measure, s->values[i], s->nvalues[i]);
  return NAN;
}

/* ", recursive doubling -> ring (SMPI's MPICH selector)" when a known selector changes its
 * algorithm between process counts pa and pb of a sized series; "" otherwise. */
static void switch_algorithms(const struct mv_judgement *j, double pa, double pb, char *buf, size_t size)
{
  const char *sel = NULL, *from, *to;
  long long ta = j->size.per_process ? j->size.bytes * (long long)pa : j->size.bytes;
  long long tb = j->size.per_process ? j->size.bytes * (long long)pb : j->size.bytes;
  buf[0] = '\0';
  if (!j->sized || !(from = mv__selector_algorithm(j->library, j->function, ta, (long long)pa, &sel)) ||
      !(to = mv__selector_algorithm(j->library, j->function, tb, (long long)pb, &sel)) || !strcmp(from, to))
    return;
  snprintf(buf, size, ", %s -> %s (%s)", from, to, sel);
}

/* Per switch: "regime change between p = 512 and 1024: p = 1024 is 32.6x p = 512 (19.4x the
 * p = 16..512 model)": the measured step and the first regime's prediction. */
static void note_switches(struct mv_judgement *j, const struct mv_series *s, const struct mv_fit_options *fo)
{
  j->note[0] = '\0';
  for (size_t k = 0; k + 1 < j->nsegments; k++) {
    const struct mv_model_segment *a = &j->segments[k], *b = &j->segments[k + 1];
    double yb = measured_at(s, fo, b->from), ya = measured_at(s, fo, a->to);
    double fa = mv_function_eval(&a->fn, &b->from);
    char text[2 * MV_JUDGE_TEXT], algo[MV_JUDGE_TEXT];   /* note_add cuts to the note's size */
    const char *p = s->params[0];
    switch_algorithms(j, a->to, b->from, algo, sizeof algo);
    /* a long algorithm name may be cut: note_add cuts to the note's size anyway */
    if (snprintf(text, sizeof text, "regime change between %s = %g and %g%s: %s = %g is %.3gx %s = %g "
                 "(%.3gx the %s = %g..%g model)", p, a->to, b->from, algo, p, b->from, yb / ya, p,
                 a->to, yb / fa, p, a->from, a->to) < 0)
      continue;
    note_add(j, text);
  }
}

/* One function misses the points by more than MISFIT_NOISE times the noise their repetitions
 * show (RMS of relative residuals): a regime change may hide under a fit that is not "poor". */
#define MISFIT_NOISE 3.0
static int misfit_beyond_noise(const struct mv_judgement *j, const struct mv_series *s,
                               const struct mv_fit_options *fo)
{
  double noise = mv__series_noise_rel(s), sum = 0;
  if (!(noise > 0) || s->npoints < 6)
    return 0;
  for (size_t i = 0; i < s->npoints; i++) {
    double y = mv_measure_apply(fo->measure, s->values[i], s->nvalues[i]);
    double r = y != 0 ? (y - mv_function_eval(&j->model.fn, &s->coords[i])) / y : 0;
    sum += r * r;
  }
  return sqrt(sum / (double)s->npoints) > MISFIT_NOISE * noise;
}

/* A series one function fits poorly but segments fit well: each segment of 3 points or more
 * is judged against e; the worst verdict (the longest segment's among equals) and its model
 * stand for the series, and the note says where the regimes change and by how much. */
static void judge_segments(struct mv_judgement *j, const struct mv_series *s,
                           const struct mv_expectation *e, const struct mv_fit_options *fo)
{
  size_t n = 0, pick = SIZE_MAX;
  struct mv_model_segment seg[MV_MODEL_MAX_SEGMENTS];
  struct mv_verdict v, best = {0};
  if (mv_model_fit_segments(s, fo, seg, &n) != 0 || n < 2)
    return;
  for (size_t k = 0; k < n; k++) {
    if (seg[k].npoints < MV_JUDGE_MIN_POINTS || (e && mv_expect_evaluate(e, &seg[k].fn, &v)))
      continue;
    int worse = pick == SIZE_MAX || (e && v.match < best.match) ||
                ((!e || v.match == best.match) && seg[k].npoints > seg[pick].npoints);
    if (worse) {
      pick = k;
      best = v;
    }
  }
  if (pick == SIZE_MAX)
    return;
  j->nsegments = n;
  memcpy(j->segments, seg, n * sizeof *seg);
  j->whole = j->model;
  segment_model(s, &seg[pick], fo, &j->model);
  if (e) {
    j->verdict = best;
    j->status = status_of_match[best.match];
  }
  note_switches(j, s, fo);
}

/* Lack of fit cannot be tested: one parameter, MV_JUDGE_MIN_POINTS process counts and no
 * spread among the repetitions of any (deterministic SMPI data, or one value each). */
static int untestable(const struct mv_series *s)
{
  if (s->nparams != 1 || s->npoints > MV_JUDGE_MIN_POINTS)
    return 0;
  for (size_t i = 0; i < s->npoints; i++)
    for (size_t r = 1; r < s->nvalues[i]; r++)
      if (s->values[i][r] != s->values[i][0])
        return 0;
  return 1;
}

/* A mismatch on points that cannot test a fit is no verdict: too few points to judge. */
static void too_few(struct mv_judgement *j, const struct mv_series *s)
{
  char text[MV_JUDGE_TEXT];
  if (j->status != MV_JUDGE_MISMATCH || !untestable(s))
    return;
  j->status = MV_JUDGE_TOO_FEW;
  snprintf(text, sizeof text, "too few points to judge: %zu process counts with identical "
           "repetitions leave no degree of freedom to test a fit; measure %d or more",
           s->npoints, MV_JUDGE_MIN_POINTS + 1);
  note_add(j, text);
}

/* Model and verdict of one series against e (NULL: none applies). */
static void model_series(struct mv_judgement *j, const struct mv_series *s,
                         const struct mv_expectation *e, const struct mv_fit_options *fo)
{
  int rc;
  if (s->nparams == 1 && s->npoints < MV_JUDGE_MIN_POINTS) {
    j->status = MV_JUDGE_NOT_MODELED;
    snprintf(j->note, sizeof j->note, "%zu process count%s measured; a model needs %d",
             s->npoints, s->npoints == 1 ? "" : "s", MV_JUDGE_MIN_POINTS);
    return;
  }
  if (e && s->nparams == 1)
    rc = mv_expect_fit(&e->expect, s->coords, s->nvalues, (const double *const *)s->values,
                       s->npoints, s->params[0], fo, &j->model, &j->widened);
  else
    rc = mv_model_fit_series(s, fo, &j->model);
  if (rc == 0 && e)
    rc = mv_expect_evaluate(e, &j->model.fn, &j->verdict);
  if (rc) {
    j->status = MV_JUDGE_NOT_MODELED;
    snprintf(j->note, sizeof j->note, "model fit failed: %s", mv_strerror(rc));
    return;
  }
  j->status = e ? status_of_match[j->verdict.match] : MV_JUDGE_MODELED;
  if (j->widened)
    note_add(j, "fitted beyond the expectation's search space (its terms missed the data by "
                "more than 1 %)");
  if (j->model.decreasing)
    note_add(j, "falling series (strong scaling): modeled with negative powers of the parameter "
                "or negative coefficients");
  if (s->nparams == 1 && (note_poor_fit(j, s, fo) || misfit_beyond_noise(j, s, fo)))
    judge_segments(j, s, e, fo);
  too_few(j, s);
}

static void judge_kernel(struct mv_judgement *j, const struct mv_kernels *ks, size_t i,
                         const struct mv_expect_file *ef, const struct mv_fit_options *fo)
{
  const struct mv_kernel *k = &ks->k[i];
  snprintf(j->function, sizeof j->function, "%s", k->callpath);
  snprintf(j->metric, sizeof j->metric, "%s", k->metric);
  snprintf(j->library, sizeof j->library, "%s", k->library);
  j->sized = k->msize >= 0;
  j->size = (struct mv_msize_spec){j->sized ? k->msize : 0, k->per_process};
  j->only_size = k->only_size;
  j->kernel = i;
  j->npoints = k->series.npoints;
  const struct mv_expectation *e =
    ef ? mv_expect_find(ef, k->callpath, k->metric, j->sized ? &j->size : NULL) : NULL;
  if (e) {
    j->expected = 1;
    j->expect = e->expect;
    j->expect_line = e->line;
  }
  model_series(j, &k->series, e, fo);
}

/* 1 when some series is what e describes (its callpath, metric and, with msize=, size). */
static int measured(const struct mv_kernels *ks, const struct mv_expectation *e)
{
  for (size_t i = 0; i < ks->n; i++) {
    const struct mv_kernel *k = &ks->k[i];
    struct mv_msize_spec size = {k->msize, k->per_process};
    if (strcmp(k->callpath, e->callpath) == 0 &&
        (strcmp(e->metric, "*") == 0 || strcmp(e->metric, k->metric) == 0) &&
        (!e->msize_given || (k->msize >= 0 && mv_msize_spec_equal(&e->msize, &size))))
      return 1;
  }
  return 0;
}

static int add_unmeasured(struct mv_judgements *js, const struct mv_expectation *e, size_t zeroed)
{
  struct mv_judgement *j = judgement_add(js, zeroed);
  if (!j)
    return MV_ENOMEM;
  snprintf(j->function, sizeof j->function, "%s", e->callpath);
  snprintf(j->metric, sizeof j->metric, "%s", strcmp(e->metric, "*") ? e->metric : "time_s");
  j->sized = 1;
  j->size = e->msize_given ? e->msize : (struct mv_msize_spec){0, 0};
  j->expected = 1;
  j->expect = e->expect;
  j->expect_line = e->line;
  j->status = MV_JUDGE_NOT_MEASURED;
  snprintf(j->note, sizeof j->note, "no %s rows in the results", j->metric);
  return 0;
}

int mv_judge(struct mv_judgements *js, const struct mv_expect_file *ef,
             const struct mv_judge_options *o)
{
  /* A judgement is 19 KiB, mostly segment slots a series rarely fills: a fresh array comes from
   * calloc, whose pages are zero until written, instead of growing and memset (on 1000 kernels
   * the memset and the page faults it caused were 40 % of `mpivet model`'s time). */
  size_t zeroed = 0, want = js->ks.n + (ef && o->unmeasured ? ef->n : 0);
  if (!js->j && want > 0) {
    if (!(js->j = calloc(want, sizeof *js->j)))
      return MV_ENOMEM;
    js->cap_ = zeroed = want;
  }
  for (size_t i = 0; i < js->ks.n; i++) {
    struct mv_judgement *j = judgement_add(js, zeroed);
    if (!j)
      return MV_ENOMEM;
    judge_kernel(j, &js->ks, i, ef, &o->fit);
  }
  for (size_t i = 0; ef && o->unmeasured && i < ef->n; i++)
    if (!measured(&js->ks, &ef->items[i]) && add_unmeasured(js, &ef->items[i], zeroed))
      return MV_ENOMEM;
  return ef ? mv__judge_rules(js, ef) : 0;
}
