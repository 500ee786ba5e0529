/* Non-regression statistics: per point a one-sided rank-sum test of NEW against OLD scaled by
 * (1 + tolerance) on launch medians (repetitions when a side has too few launches), then per
 * kernel a PMNF fit of both sides, flagged when the new leading term outgrows the old one and
 * the new/old ratio grows by more than the tolerance from the smallest to the largest p. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/expect.h"
#include "mpivet/model.h"
#include "mpivet/regress.h"
#include "mpivet/units.h"

void mv_regress_options_init(struct mv_regress_options *o)
{
  o->tolerance = 0.05;
  o->alpha = 0.05;
  o->tukey_k = 1.5;
  o->min_launches = 4;
  o->correction = MV_CORR_NONE;
  o->growth = 1;
}

void mv_regress_report_init(struct mv_regress_report *r)
{
  memset(r, 0, sizeof *r);
}

void mv_regress_report_release(struct mv_regress_report *r)
{
  free(r->cases);
  mv_regress_report_init(r);
}

static struct mv_regress_case *new_case(struct mv_regress_report *r, const struct mv_group *g,
                                        enum mv_regress_kind kind)
{
  if (mv_grow(&r->cases, &r->cap_, r->n + 1, sizeof *r->cases, 16) < 0)
    return NULL;
  struct mv_regress_case *c = &r->cases[r->n++];
  memset(c, 0, sizeof *c);
  c->kind = kind;
  snprintf(c->op, sizeof c->op, "%s", g->op);
  snprintf(c->impl, sizeof c->impl, "%s", g->impl);
  snprintf(c->metric, sizeof c->metric, "%s", g->metric);
  c->msize = g->msize;
  c->nprocs = kind == MV_REGRESS_POINT ? g->nprocs : 0;
  c->p_value = c->p_adjusted = NAN;
  return c;
}

/* Launch medians of g into out (capacity g->n), or its repetitions when per_launch is 0. */
static int samples(const struct mv_group *g, int per_launch, double tukey_k, double *out)
{
  if (!per_launch) {
    memcpy(out, g->values, g->n * sizeof *out);
    return (int)g->n;
  }
  return mv_group_launch_medians(g, tukey_k, out, g->n);
}

/* Launch medians equal up to rounding (SMPI's clock is a sum of doubles), as in guidelines. */
static int flat(const double *v, int n)
{
  for (int i = 1; i < n; i++)
    if (!(fabs(v[i] - v[0]) <= 1e-9 * fabs(v[0])))
      return 0;
  return n >= 2;
}

/* Deterministic data carry no launch-to-launch information (the rule guidelines applies): a
 * deterministic engine on both sides, or identical launch medians in >= 2 launches on each side. */
static int deterministic(const struct mv_group *gn, const struct mv_group *go, const double *x,
                         int nx, const double *y, int ny)
{
  const struct mv_engine_facts *fn = mv_engine_facts(gn->engine), *fo = mv_engine_facts(go->engine);
  if (fn && fn->deterministic && fo && fo->deterministic)
    return 1;
  return flat(x, nx) && flat(y, ny);
}

/* "median 5.2 µs vs baseline 4 µs": both medians in the metric's unit (mpivet/units.h). */
static const char *medians_text(const struct mv_regress_case *c, char *buf, size_t size)
{
  char now[MV_UNITS_SIZE], was[MV_UNITS_SIZE];
  enum mv_unit_kind unit = mv_units_of_metric(c->metric);
  snprintf(buf, size, "median %s vs baseline %s", mv_units_format(unit, c->median_new, now,
           sizeof now), mv_units_format(unit, c->median_old, was, sizeof was));
  return buf;
}

/* Fill x, y with launch medians, or repetitions when a side has fewer than min_launches
 * launches; *det tells whether the launch medians were deterministic. */
static int pick_samples(struct mv_regress_case *c, const struct mv_group *gn,
                        const struct mv_group *go, const struct mv_regress_options *o,
                        double *x, double *y, int *nx, int *ny, int *det)
{
  for (int per_launch = 1; per_launch >= 0; per_launch--) {
    *nx = samples(gn, per_launch, o->tukey_k, x);
    *ny = samples(go, per_launch, o->tukey_k, y);
    if (*nx < 0 || *ny < 0)
      return *nx < 0 ? *nx : *ny;
    c->per_launch = per_launch;
    if (per_launch)
      *det = deterministic(gn, go, x, *nx, y, *ny);
    if (*det || (*nx >= o->min_launches && *ny >= o->min_launches))
      break;
  }
  return *nx < 1 || *ny < 1 ? MV_ENUMERIC : 0;
}

static int test_point(struct mv_regress_case *c, const struct mv_group *gn, const struct mv_group *go,
                      const struct mv_regress_options *o)
{
  double *x = malloc((gn->n + 1) * sizeof *x), *y = malloc((go->n + 1) * sizeof *y);
  int nx = 0, ny = 0, det = 0;
  int rc = x && y ? pick_samples(c, gn, go, o, x, y, &nx, &ny, &det) : MV_ENOMEM;
  if (rc == 0) {
    c->n_new = (size_t)nx;
    c->n_old = (size_t)ny;
    c->deterministic = det;
    c->median_new = mv_stats_median_inplace(x, (size_t)nx);
    c->median_old = mv_stats_median_inplace(y, (size_t)ny);
    c->ratio = c->median_old != 0 ? c->median_new / c->median_old : NAN;
  }
  if (rc == 0 && !det && mv_stats_ranksum_min_p((size_t)nx, (size_t)ny) >= o->alpha) {
    c->status = MV_REGRESS_UNDECIDABLE;
    char med[2 * MV_UNITS_SIZE + 32];
    snprintf(c->message, sizeof c->message, "undecidable with %d/%d %s (needs at least %d per "
             "side at alpha %g, or deterministic data): %s (x%.3f)",
             nx, ny, c->per_launch ? "launch medians" : "repetitions",
             mv_stats_ranksum_min_n(o->alpha), o->alpha, medians_text(c, med, sizeof med), c->ratio);
  } else if (rc == 0 && !det) {
    for (int i = 0; i < ny; i++)
      y[i] *= 1.0 + o->tolerance;
    struct mv_test_result t;
    rc = mv_stats_ranksum(x, (size_t)nx, y, (size_t)ny, MV_ALT_GREATER, MV_TEST_AUTO, 1, &t);
    if (rc == 0)
      c->p_value = c->p_adjusted = t.p_value;
  }
  free(x);
  free(y);
  return rc;
}

/* A deterministic case: slower exactly when the median ratio exceeds 1 + tolerance. */
static void decide_deterministic(struct mv_regress_case *c, const struct mv_regress_options *o)
{
  int slower = c->ratio > 1.0 + o->tolerance;
  char med[2 * MV_UNITS_SIZE + 32];
  c->status = slower ? MV_REGRESS_SLOWER : MV_REGRESS_PASS;
  snprintf(c->message, sizeof c->message, "%s: %s (x%.3f, tolerance "
           "x%.3f) over %zu/%zu %s, deterministic data (no test)", slower ? "slower than baseline"
           : "not slower than baseline", medians_text(c, med, sizeof med), c->ratio,
           1.0 + o->tolerance, c->n_new, c->n_old, c->per_launch ? "launch medians" : "repetitions");
}

static int compare_points(struct mv_dataset *cur, struct mv_dataset *base,
                          const struct mv_regress_options *o, struct mv_regress_report *r)
{
  for (size_t i = 0; i < cur->ngroups; i++) {
    const struct mv_group *gn = &cur->groups[i];
    const struct mv_group *go = mv_dataset_find(base, NULL, gn->op, gn->impl, gn->metric,
                                                gn->msize, gn->nprocs);
    struct mv_regress_case *c = new_case(r, gn, MV_REGRESS_POINT);
    if (!c)
      return MV_ENOMEM;
    if (!go || go->n == 0 || gn->n == 0) {
      c->status = MV_REGRESS_SKIPPED;
      snprintf(c->message, sizeof c->message, "no %s in the baseline", go ? "valid values" : "case");
      continue;
    }
    int rc = test_point(c, gn, go, o);
    if (rc)
      return rc;
    if (c->deterministic)
      decide_deterministic(c, o);
    else if (c->status == MV_REGRESS_PASS && isnan(c->p_value)) {
      char med[2 * MV_UNITS_SIZE + 32];
      c->status = MV_REGRESS_UNDECIDABLE;  /* every value tied: the test has no variance */
      snprintf(c->message, sizeof c->message, "undecidable: every value of both sides is the "
               "same after scaling by the tolerance (%s)", medians_text(c, med, sizeof med));
    }
  }
  return 0;
}

/* Adjust the point p-values together, then decide each point. */
static int decide_points(struct mv_regress_report *r, const struct mv_regress_options *o)
{
  double *p = malloc((r->n + 1) * sizeof *p);
  size_t *idx = malloc((r->n + 1) * sizeof *idx);
  size_t m = 0;
  if (!p || !idx) {
    free(p);
    free(idx);
    return MV_ENOMEM;
  }
  for (size_t i = 0; i < r->n; i++)
    if (!isnan(r->cases[i].p_value)) {
      idx[m] = i;
      p[m++] = r->cases[i].p_value;
    }
  int rc = m ? mv_stats_p_adjust(p, m, o->correction) : 0;
  for (size_t k = 0; rc == 0 && k < m; k++) {
    struct mv_regress_case *c = &r->cases[idx[k]];
    c->p_adjusted = p[k];
    int slower = p[k] < o->alpha;
    c->status = slower ? MV_REGRESS_SLOWER : MV_REGRESS_PASS;
    char med[2 * MV_UNITS_SIZE + 32];
    snprintf(c->message, sizeof c->message,
             "%s: %s (x%.3f), p=%.3g%s over %zu/%zu %s", slower ?
             "slower than baseline" : "not slower than baseline", medians_text(c, med, sizeof med),
             c->ratio, p[k], o->correction ? " adjusted" : "", c->n_new, c->n_old,
             c->per_launch ? "launch medians" : "repetitions");
  }
  free(p);
  free(idx);
  return rc;
}

/* Groups of ds with the same (op, impl, metric, msize) as g, by increasing nprocs. */
static size_t kernel_groups(const struct mv_dataset *ds, const struct mv_group *g,
                            const struct mv_group **out, size_t cap)
{
  size_t n = 0;
  for (size_t i = 0; i < ds->ngroups && n < cap; i++) {
    const struct mv_group *h = &ds->groups[i];
    if (h->msize == g->msize && h->n > 0 && strcmp(h->op, g->op) == 0 &&
        strcmp(h->impl, g->impl) == 0 && strcmp(h->metric, g->metric) == 0)
      n = mv_groups_insert_by_nprocs(out, n, h);
  }
  return n;
}

/* Fit one side; lead gets the leading-order terms. */
static int fit_side(const struct mv_group *const *gs, size_t n, struct mv_function *lead)
{
  double x[64];
  size_t nv[64];
  const double *vals[64];
  mv_groups_points(gs, n, x, nv, vals);
  struct mv_fit_options fo;
  mv_fit_options_init(&fo);
  struct mv_model m;
  int rc = mv_model_fit_1p(x, nv, vals, n, "p", &fo, &m);
  if (rc == 0)
    mv_function_leading(&m.fn, lead);
  return rc;
}

/* 1 when some leading term of a outgrows every leading term of b. */
static int outgrows(const struct mv_function *a, const struct mv_function *b)
{
  for (int i = 0; i < a->nterms; i++) {
    int all = 1;
    for (int k = 0; k < b->nterms && all; k++)
      all = mv_term_compare(&a->terms[i], &b->terms[k]) == 1;
    if (all)
      return 1;
  }
  return a->nterms > 0 && b->nterms == 0;
}

/* Median ratio new/old at the smallest and largest process count both sides measured. */
static double ratio_growth(const struct mv_group *const *gn, size_t nn,
                           const struct mv_group *const *go, size_t no)
{
  double first = NAN, last = NAN;
  for (size_t i = 0; i < nn; i++)
    for (size_t k = 0; k < no; k++)
      if (gn[i]->nprocs == go[k]->nprocs) {
        double mo = mv_stats_median(go[k]->values, go[k]->n, NULL);
        double r = mo != 0 ? mv_stats_median(gn[i]->values, gn[i]->n, NULL) / mo : NAN;
        if (isnan(first))
          first = r;
        last = r;
      }
  return last / first;
}

static int growth_case(struct mv_regress_report *r, const struct mv_dataset *cur,
                       const struct mv_dataset *base, const struct mv_group *g,
                       const struct mv_regress_options *o)
{
  const struct mv_group *gn[64], *go[64];
  size_t nn = kernel_groups(cur, g, gn, 64), no = kernel_groups(base, g, go, 64);
  struct mv_regress_case *c = new_case(r, g, MV_REGRESS_GROWTH);
  if (!c)
    return MV_ENOMEM;
  struct mv_function ln, lo;
  if (nn < 3 || no < 3 || fit_side(gn, nn, &ln) || fit_side(go, no, &lo)) {
    c->status = MV_REGRESS_SKIPPED;
    snprintf(c->message, sizeof c->message, "too few process counts to model (%zu new, %zu "
             "baseline; 3 needed)", nn, no);
    return 0;
  }
  mv_bigo_format(&ln, c->model_new, sizeof c->model_new);
  mv_bigo_format(&lo, c->model_old, sizeof c->model_old);
  c->ratio = ratio_growth(gn, nn, go, no);
  int worse = outgrows(&ln, &lo) && c->ratio > 1.0 + o->tolerance;
  c->status = worse ? MV_REGRESS_WORSE_GROWTH : MV_REGRESS_PASS;
  snprintf(c->message, sizeof c->message, "%s: %s (baseline %s); new/old ratio grows x%.3f "
           "from the smallest to the largest p", worse ? "growth class worsened" :
           "growth class not worse", c->model_new, c->model_old, c->ratio);
  return 0;
}

static int seen_kernel(const struct mv_regress_report *r, const struct mv_group *g)
{
  for (size_t i = 0; i < r->n; i++) {
    const struct mv_regress_case *c = &r->cases[i];
    if (c->kind == MV_REGRESS_GROWTH && c->msize == g->msize && strcmp(c->op, g->op) == 0 &&
        strcmp(c->impl, g->impl) == 0 && strcmp(c->metric, g->metric) == 0)
      return 1;
  }
  return 0;
}

int mv_regress_compare(struct mv_dataset *cur, struct mv_dataset *base,
                       const struct mv_regress_options *o, struct mv_regress_report *r)
{
  mv_dataset_sort(cur);
  mv_dataset_sort(base);
  r->tolerance = o->tolerance;
  r->alpha = o->alpha;
  int rc = compare_points(cur, base, o, r);
  if (rc == 0)
    rc = decide_points(r, o);
  for (size_t i = 0; rc == 0 && o->growth && i < cur->ngroups; i++)
    if (!seen_kernel(r, &cur->groups[i]))
      rc = growth_case(r, cur, base, &cur->groups[i], o);
  r->n_failed = r->n_skipped = r->n_undecidable = 0;
  for (size_t i = 0; i < r->n; i++) {
    r->n_failed += r->cases[i].status == MV_REGRESS_SLOWER ||
                   r->cases[i].status == MV_REGRESS_WORSE_GROWTH;
    r->n_skipped += r->cases[i].status == MV_REGRESS_SKIPPED;
    r->n_undecidable += r->cases[i].status == MV_REGRESS_UNDECIDABLE;
  }
  return rc;
}
