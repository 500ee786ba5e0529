/* Segmented PMNF models (model.h, mv_model_fit_segments): the series' points sorted by x, a
 * segment fit callback that models each range with the one-parameter modeler and prices it by
 * its relative residuals, and mv_stats_segreg to choose the breakpoints and their number. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/model.h"
#include "mpivet/stats.h"
#include "internal.h"

#define MAX_SEGMENTS 3

struct segctx {
  size_t n;
  const struct mv_fit_options *o;
  double *x, *y;                /* sorted coordinates and the measure at each */
  size_t *nv;
  const double **v;
};

/* Point indices in increasing x (insertion sort: a series has tens of points). */
static size_t *order_by_x(const struct mv_series *s)
{
  size_t *idx = malloc((s->npoints ? s->npoints : 1) * sizeof *idx);
  if (!idx)
    return NULL;
  for (size_t i = 0; i < s->npoints; i++) {
    size_t j = i;
    for (; j > 0 && s->coords[idx[j - 1]] > s->coords[i]; j--)
      idx[j] = idx[j - 1];
    idx[j] = i;
  }
  return idx;
}

/* The model of points [from, to): the modeler from 3 points, the line through 2, a constant. */
static int model_range(const struct segctx *c, size_t from, size_t to, struct mv_function *fn)
{
  size_t m = to - from;
  if (m >= 3) {
    struct mv_model mm;
    int rc = mv_model_fit_1p(c->x + from, c->nv + from, c->v + from, m, "p", c->o, &mm);
    *fn = mm.fn;
    return rc;
  }
  memset(fn, 0, sizeof *fn);
  fn->nparams = 1;
  fn->constant = c->y[from];
  if (m == 2 && c->x[from + 1] != c->x[from]) {
    double b = (c->y[from + 1] - c->y[from]) / (c->x[from + 1] - c->x[from]);
    fn->constant = c->y[from] - b * c->x[from];
    fn->nterms = 1;
    fn->terms[0] = (struct mv_term){b, 1, {{0, 1, 0, 0}}};
  }
  return 0;
}

static double rel_rss(const struct segctx *c, size_t from, size_t to, const struct mv_function *fn)
{
  double r = 0;
  for (size_t i = from; i < to; i++) {
    double e = (c->y[i] - mv_function_eval(fn, &c->x[i])) / (c->y[i] != 0 ? fabs(c->y[i]) : 1.0);
    r += e * e;
  }
  return r;
}

static int segfit(void *ctx, size_t from, size_t to, double *rss, int *nparams)
{
  const struct segctx *c = ctx;
  /* A regime shows itself at 3 process counts at least, or is one point at an end of the
   * range (the data only enter it there); two points would be a line through a jump. */
  if (to - from == 2 || (to - from == 1 && from != 0 && to != c->n))
    return MV_ENUMERIC;
  struct mv_function fn;
  int rc = model_range(c, from, to, &fn);
  if (rc)
    return rc == MV_ENOMEM ? rc : MV_ENUMERIC;
  *rss = rel_rss(c, from, to, &fn);
  *nparams = 1 + fn.nterms;
  return 0;
}

static double smape(const struct segctx *c, size_t from, size_t to, const struct mv_function *fn)
{
  double s = 0;
  for (size_t i = from; i < to; i++) {
    double f = mv_function_eval(fn, &c->x[i]), den = fabs(c->y[i]) + fabs(f);
    s += den > 0 ? 2 * fabs(c->y[i] - f) / den : 0;
  }
  return 100 * s / (double)(to - from);
}

/* Deviations are taken from each point's first repetition, so identical repetitions (SMPI)
 * give exactly 0, not the rounding of their mean (about 1e-16, which passed for a noise level
 * and made a 2 % misfit 1e14 times it: spurious "regime change ... 1.1x" on smooth series). */
double mv__series_noise_rel(const struct mv_series *s)
{
  double sum = 0;
  size_t npts = 0;
  for (size_t i = 0; i < s->npoints; i++) {
    size_t k = s->nvalues[i];
    if (k < 2)
      continue;
    const double *v = s->values[i];
    double d = 0, v2 = 0;
    for (size_t r = 0; r < k; r++)
      d += (v[r] - v[0]) / (double)k;
    for (size_t r = 0; r < k; r++)
      v2 += (v[r] - v[0] - d) * (v[r] - v[0] - d) / (double)(k - 1);
    double m = v[0] + d;
    if (v2 > 0 && m != 0) {
      sum += v2 / (m * m) / (double)k;
      npts++;
    }
  }
  return npts ? sqrt(sum / (double)npts) : 0.0;
}

/* The step at the break between segments a and b (point ranges of c): how far the measured
 * value on one side is from the other side's model, |ln(y / f)|, seen from the side whose model
 * was fitted on 2 points or more (the larger of the two when both were: at a kink the point
 * on the switch lies on both models, the next one only on its own). A model of 2 or 3 points
 * (0 or 1 residual degree of freedom) extrapolates by chance: when only one side has
 * SIDE_POINTS or more, that side judges; when neither has, both must see the step (the default
 * check's Allgather at 0.2 % noise: 16..64 | 128..512, p = 128 exactly on the left model, p = 64
 * 1.2x off the right one's p^(1/3) log2(p)^2 through 3 points; tests/unit/test-model-fidelity.c). */
#define SIDE_POINTS 4
static double step_at(const struct segctx *c, const struct mv_segment *a, const struct mv_segment *b,
                      const struct mv_model_segment *sa, const struct mv_model_segment *sb)
{
  size_t ia = a->to - 1, ib = b->from;
  double fwd = fabs(log(c->y[ib] / mv_function_eval(&sa->fn, &c->x[ib])));
  double bwd = fabs(log(c->y[ia] / mv_function_eval(&sb->fn, &c->x[ia])));
  fwd = isnan(fwd) ? INFINITY : fwd;
  bwd = isnan(bwd) ? INFINITY : bwd;
  size_t na = a->to - a->from, nb = b->to - b->from;
  if (na < SIDE_POINTS && nb >= SIDE_POINTS)
    return bwd;
  if (nb < SIDE_POINTS && na >= SIDE_POINTS)
    return fwd;
  if (na < 2)
    return bwd;
  if (nb < 2)
    return fwd;
  return na < SIDE_POINTS ? fmin(fwd, bwd) : fmax(fwd, bwd);
}

/* Every break of r changes the cost by more than min_step (relative). */
static int steps_meaningful(const struct segctx *c, const struct mv_segreg *r,
                            const struct mv_model_segment *seg, double min_step)
{
  for (size_t k = 0; k + 1 < r->nsegments; k++)
    if (!(step_at(c, &r->seg[k], &r->seg[k + 1], &seg[k], &seg[k + 1]) > log1p(min_step)))
      return 0;
  return 1;
}

/* The segments of r as models; 0 segments when one of 3 points or more fits poorly. */
static int fill(const struct segctx *c, const struct mv_segreg *r, struct mv_model_segment *seg,
                size_t *nseg, const char *param)
{
  for (size_t k = 0; k < r->nsegments; k++) {
    const struct mv_segment *g = &r->seg[k];
    struct mv_model_segment *o = &seg[k];
    int rc = model_range(c, g->from, g->to, &o->fn);
    if (rc)
      return rc;
    snprintf(o->fn.params[0], sizeof o->fn.params[0], "%s", param);
    o->from = c->x[g->from];
    o->to = c->x[g->to - 1];
    o->npoints = g->to - g->from;
    o->smape = smape(c, g->from, g->to, &o->fn);
    if (o->npoints >= 3 && o->smape > MV_MODEL_POOR_SMAPE)
      return 0;
  }
  *nseg = r->nsegments;
  return 0;
}

int mv_model_fit_segments(const struct mv_series *s, const struct mv_fit_options *o,
                          struct mv_model_segment *seg, size_t *nseg)
{
  *nseg = 0;
  if (s->nparams != 1)
    return MV_EINVAL;
  size_t n = s->npoints, *idx = order_by_x(s);
  struct segctx c = {n, o, malloc(2 * (n + 1) * sizeof(double)), NULL,
                     malloc((n + 1) * sizeof(size_t)), malloc((n + 1) * sizeof(double *))};
  int rc = idx && c.x && c.nv && c.v ? 0 : MV_ENOMEM;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    c.y = c.x + n;
    c.x[i] = s->coords[idx[i]];
    c.nv[i] = s->nvalues[idx[i]];
    c.v[i] = s->values[idx[i]];
    c.y[i] = mv_measure_apply(o->measure, c.v[i], c.nv[i]);
  }
  if (rc == 0 && n >= 4) {
    struct mv_segreg_options so;
    struct mv_segreg r;
    mv_segreg_options_init(&so);
    so.min_x = 1;
    so.max_segments = MAX_SEGMENTS;
    so.y_scale = 1.0;
    /* residuals within the noise the repetitions show (at most 5 %) count as exact */
    double noise = mv__series_noise_rel(s);
    so.rel_floor = noise > 0 ? fmin(MV_SEGMENT_EXACT_REL, 2.0 * noise) : MV_SEGMENT_EXACT_REL;
    double min_step = fmax(MV_SEGMENT_MIN_STEP, 4.0 * noise);
    /* BIC's segmentation, with fewer segments while one of its breaks is no real step */
    for (size_t k = MAX_SEGMENTS; rc == 0 && k >= 2; k--) {
      so.max_segments = k;
      rc = mv_stats_segreg(c.x, n, &so, segfit, &c, &r);
      if (rc == MV_ENUMERIC)
        rc = 0;
      if (rc || r.nsegments < 2)
        break;
      rc = fill(&c, &r, seg, nseg, s->params[0]);
      if (rc || *nseg == 0 || steps_meaningful(&c, &r, seg, min_step))
        break;
      *nseg = 0;
      k = r.nsegments;
    }
  }
  free(idx);
  free(c.x);
  free(c.nv);
  free(c.v);
  return rc;
}
