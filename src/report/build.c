/* Building a report from a data set and an expectation file, as the paper's workflow does:
 * per expectation and message size (a fixed total, or a size per process whose rows have
 * msize = bytes x nprocs), a PMNF model over p in the expectation-driven search space, its
 * verdict (match, divergence), points and curves to plot; then the cross-function rules,
 * each on functions of one size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/expect.h"
#include "mpivet/model.h"
#include "mpivet/report.h"
#include "mpivet/stats.h"

#define NCURVE 48
#define MAX_POINTS 64

/* A group belongs to a callpath: an impl id names a mock-up or variant, an op its default. */
static int group_is(const struct mv_group *g, const char *callpath, const char *metric)
{
  if (strcmp(metric, "*") != 0 && strcmp(g->metric, metric) != 0)
    return 0;
  return strcmp(g->impl, "default") == 0 ? strcmp(g->op, callpath) == 0
                                          : strcmp(g->impl, callpath) == 0;
}

static void label_of(const char *callpath, char *buf, size_t size)
{
  static const struct { const char *impl, *label; } named[] = {
    {"bcast_as_binomial", "Bcast (BT)"},
    {"allreduce_as_reduce_bcast", "Allreduce (Reduce+Bcast)"},
    {"allgather_as_gather_bcast", "Allgather (Gather+Bcast)"},
  };
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strcmp(callpath, named[i].impl) == 0) {
      snprintf(buf, size, "%s", named[i].label);
      return;
    }
  snprintf(buf, size, "%s", strncmp(callpath, "MPI_", 4) == 0 ? callpath + 4 : callpath);
}

static void point_of(const struct mv_group *g, struct mv_report_point *pt)
{
  double *v = malloc(g->n * sizeof *v);
  memset(pt, 0, sizeof *pt);
  pt->x = g->nprocs;
  pt->n = g->n;
  if (!v)
    return;
  memcpy(v, g->values, g->n * sizeof *v);
  pt->median = mv_stats_median_inplace(v, g->n);   /* sorts v */
  pt->q1 = mv_stats_quantile_sorted(v, g->n, 0.25);
  pt->q3 = mv_stats_quantile_sorted(v, g->n, 0.75);
  pt->min = v[0];
  pt->max = v[g->n - 1];
  free(v);
}

/* Sample f at x, scaled so that it passes through (x0, y0). */
static double anchored(const struct mv_function *f, double x, double x0, double y0)
{
  double a = mv_function_eval(f, &x0), b = mv_function_eval(f, &x);
  return a > 0 && isfinite(a) && isfinite(b) ? y0 * b / a : NAN;
}

static int make_curves(struct mv_report_fn *fn, const struct mv_expectation *e,
                       const struct mv_verdict *v)
{
  double x0 = fn->points[0].x, x1 = fn->points[fn->npoints - 1].x;
  double *mem = calloc(5 * NCURVE, sizeof *mem);
  if (!mem)
    return MV_ENOMEM;
  fn->ncurve = NCURVE;
  fn->cx = mem;
  fn->fit = mem + NCURVE;
  fn->expect = mem + 2 * NCURVE;
  fn->band_lo = mem + 3 * NCURVE;
  fn->band_hi = mem + 4 * NCURVE;
  double y0 = mv_function_eval(&fn->fitted, &x0);
  if (!(y0 > 0))
    y0 = fn->points[0].median;
  for (int i = 0; i < NCURVE; i++) {
    double x = x0 * pow(x1 / x0, (double)i / (NCURVE - 1));
    fn->cx[i] = x;
    fn->fit[i] = mv_function_eval(&fn->fitted, &x);
    fn->expect[i] = anchored(&e->expect, x, x0, y0);
    fn->band_lo[i] = anchored(&v->lower, x, x0, y0);
    fn->band_hi[i] = anchored(&v->upper, x, x0, y0);
  }
  return 0;
}

static const enum mv_report_status status_of_match[] = {
  [MV_MATCH_NONE] = MV_REPORT_MISMATCH, [MV_MATCH_APPROX] = MV_REPORT_APPROX,
  [MV_MATCH_EXACT] = MV_REPORT_MATCH};

/* Appends to fn's note how badly m misses its points, if it does (mv_model_fit_note). */
static void note_poor_fit(struct mv_report_fn *fn, const struct mv_model *m)
{
  double x[MAX_POINTS], y[MAX_POINTS];
  char text[MV_REPORT_TEXT];
  size_t n = fn->npoints < MAX_POINTS ? fn->npoints : MAX_POINTS;
  for (size_t i = 0; i < n; i++)
    x[i] = fn->points[i].x, y[i] = fn->points[i].median;
  if (!mv_model_fit_note(m, x, y, n, text, sizeof text))
    return;
  size_t len = strlen(fn->note);
  snprintf(fn->note + len, sizeof fn->note - len, "%s%s", len ? "; " : "", text);
}

/* Fit and judge one (expectation, metric, msize) whose groups are gs (ascending nprocs). */
static int model_fn(struct mv_report_fn *fn, const struct mv_expectation *e,
                    const struct mv_group *const *gs, size_t n)
{
  double x[MAX_POINTS];
  size_t nv[MAX_POINTS];
  const double *vals[MAX_POINTS];
  mv_groups_points(gs, n, x, nv, vals);
  struct mv_fit_options fo;
  mv_fit_options_init(&fo);
  struct mv_model m;
  struct mv_verdict v;
  int widened;
  int rc = mv_expect_fit(&e->expect, x, nv, vals, n, "p", &fo, &m, &widened);
  if (rc == 0)
    rc = mv_expect_evaluate(e, &m.fn, &v);
  if (rc) {
    fn->status = MV_REPORT_NOT_MODELED;
    snprintf(fn->note, sizeof fn->note, "model fit failed: %s", mv_strerror(rc));
    return 0;
  }
  fn->fitted = m.fn;
  fn->ar2 = m.ar2;
  if (widened)
    snprintf(fn->note, sizeof fn->note, "fitted beyond the expectation's search space (its "
             "terms missed the data by more than 1 %%)");
  note_poor_fit(fn, &m);
  fn->status = status_of_match[v.match];
  mv_function_format(&m.fn, fn->model, sizeof fn->model);
  mv_bigo_format(&v.lead, fn->lead, sizeof fn->lead);
  mv_bigo_format(&v.divergence, fn->divergence, sizeof fn->divergence);
  return make_curves(fn, e, &v);
}

/* The size of a function of the report. */
static struct mv_msize_spec size_of_fn(const struct mv_report_fn *f)
{
  return (struct mv_msize_spec){f->msize, f->per_process};
}

/* Groups of ds for (callpath, metric, size), by increasing nprocs. */
static size_t collect(struct mv_dataset *ds, const char *callpath, const char *metric,
                      const struct mv_msize_spec *size, const struct mv_group **out)
{
  size_t n = 0;
  for (size_t i = 0; i < ds->ngroups && n < MAX_POINTS; i++) {
    const struct mv_group *g = &ds->groups[i];
    if (!mv_msize_spec_has(size, g->msize, g->nprocs) || g->n == 0 || !group_is(g, callpath, metric))
      continue;
    n = mv_groups_insert_by_nprocs(out, n, g);
  }
  return n;
}

static int add_function(struct mv_report *r, struct mv_dataset *ds, const struct mv_expectation *e,
                        const char *metric, const struct mv_msize_spec *size)
{
  const struct mv_group *gs[MAX_POINTS];
  size_t n = collect(ds, e->callpath, metric, size, gs);
  struct mv_report_fn fn;
  memset(&fn, 0, sizeof fn);
  snprintf(fn.callpath, sizeof fn.callpath, "%s", e->callpath);
  label_of(e->callpath, fn.label, sizeof fn.label);
  snprintf(fn.metric, sizeof fn.metric, "%s", metric);
  fn.msize = size->bytes;
  fn.per_process = size->per_process;
  mv_report_size_label(fn.msize, fn.per_process, fn.size, sizeof fn.size);
  fn.ar2 = NAN;
  mv_bigo_format(&e->expect, fn.expectation, sizeof fn.expectation);
  fn.points = calloc(n ? n : 1, sizeof *fn.points);
  if (!fn.points)
    return MV_ENOMEM;
  fn.npoints = n;
  for (size_t i = 0; i < n; i++)
    point_of(gs[i], &fn.points[i]);
  int rc = 0;
  if (n == 0) {
    fn.status = MV_REPORT_NOT_MEASURED;
    snprintf(fn.note, sizeof fn.note, "no %s rows in the results", metric);
  } else if (n < 3) {
    fn.status = MV_REPORT_NOT_MODELED;
    snprintf(fn.note, sizeof fn.note, "%zu process counts measured; a model needs 3", n);
  } else {
    rc = model_fn(&fn, e, gs, n);
  }
  if (rc == 0)
    rc = mv_report_add_fn(r, &fn);
  if (rc)
    mv_report_fn_release(&fn);
  return rc;
}

/* The per-process series a row belongs to when no msize= says: one the campaign measured or
 * an msize=...p line names, at this row's nprocs; otherwise the row's own total. */
static struct mv_msize_spec size_of_group(const struct mv_report *r,
                                          const struct mv_expect_file *ef,
                                          const struct mv_group *g)
{
  struct mv_msize_spec s = {0, 1};
  for (size_t i = 0; i < r->n_pp_sizes; i++)
    if ((s.bytes = r->pp_sizes[i]) > 0 && mv_msize_spec_has(&s, g->msize, g->nprocs))
      return s;
  for (size_t i = 0; i < ef->n; i++)
    if (ef->items[i].msize_given && ef->items[i].msize.per_process &&
        mv_msize_spec_has(&ef->items[i].msize, g->msize, g->nprocs))
      return ef->items[i].msize;
  s.bytes = g->msize;
  s.per_process = 0;
  return s;
}

static int has_fn(const struct mv_report *r, const char *callpath, const char *metric,
                  const struct mv_msize_spec *size)
{
  for (size_t k = 0; k < r->nfns; k++) {
    struct mv_msize_spec fs = size_of_fn(&r->fns[k]);
    if (mv_msize_spec_equal(&fs, size) && strcmp(r->fns[k].metric, metric) == 0 &&
        strcmp(r->fns[k].callpath, callpath) == 0)
      return 1;
  }
  return 0;
}

/* Every (metric, size) measured for an expectation (only its own size with msize=); one
 * NOT_MEASURED entry when none is. */
static int add_expectation(struct mv_report *r, struct mv_dataset *ds,
                           const struct mv_expect_file *ef, const struct mv_expectation *e)
{
  int found = 0, rc = 0;
  for (size_t i = 0; i < ds->ngroups && rc == 0; i++) {
    const struct mv_group *g = &ds->groups[i];
    if (!group_is(g, e->callpath, e->metric) || (e->msize_given && !mv_msize_spec_has(&e->msize, g->msize, g->nprocs)))
      continue;
    struct mv_msize_spec size = e->msize_given ? e->msize : size_of_group(r, ef, g);
    found = 1;
    if (!has_fn(r, e->callpath, g->metric, &size))
      rc = add_function(r, ds, e, g->metric, &size);
  }
  struct mv_msize_spec none = {0, 0};
  if (rc == 0 && !found)
    rc = add_function(r, ds, e, strcmp(e->metric, "*") ? e->metric : "time_s",
                      e->msize_given ? &e->msize : &none);
  return rc;
}

static struct mv_report_fn *find_fn(struct mv_report *r, const char *callpath, const char *metric,
                                    const struct mv_msize_spec *size)
{
  for (size_t i = 0; i < r->nfns; i++) {
    struct mv_msize_spec fs = size_of_fn(&r->fns[i]);
    if (mv_msize_spec_equal(&fs, size) && strcmp(r->fns[i].callpath, callpath) == 0 &&
        strcmp(r->fns[i].metric, metric) == 0 && MV_REPORT_MODELED(&r->fns[i]))
      return &r->fns[i];
  }
  return NULL;
}

/* A rule for one modeled lhs function: the rhs must be modeled at the same metric and size. */
static int eval_rule(struct mv_report *r, const struct mv_rule *rule, struct mv_report_fn *lhs)
{
  struct mv_report_rule rr;
  memset(&rr, 0, sizeof rr);
  int len = snprintf(rr.text, sizeof rr.text, "%s <=", rule->lhs);
  const struct mv_function *rhs[MV_RULE_MAX_RHS];
  const char *missing = NULL;
  struct mv_msize_spec size = size_of_fn(lhs);
  for (int i = 0; i < rule->nrhs; i++) {
    const struct mv_report_fn *f = find_fn(r, rule->rhs[i], lhs->metric, &size);
    rhs[i] = f ? &f->fitted : NULL;
    if (!f && !missing)
      missing = rule->rhs[i];
    if (len > 0 && (size_t)len < sizeof rr.text)
      len += snprintf(rr.text + len, sizeof rr.text - (size_t)len, "%s %s", i ? " +" : "",
                      rule->rhs[i]);
  }
  snprintf(rr.metric, sizeof rr.metric, "%s", lhs->metric);
  rr.msize = lhs->msize;
  rr.per_process = lhs->per_process;
  snprintf(rr.size, sizeof rr.size, "%s", lhs->size);
  if (missing) {
    snprintf(rr.status, sizeof rr.status, "not evaluated");
    snprintf(rr.detail, sizeof rr.detail, "no model for %s", missing);
    return mv_report_add_rule(r, &rr);
  }
  double xs[MAX_POINTS];
  for (size_t i = 0; i < lhs->npoints; i++)
    xs[i] = lhs->points[i].x;
  struct mv_rule_verdict v;
  int rc = mv_rule_evaluate(&lhs->fitted, rhs, (size_t)rule->nrhs, xs, lhs->npoints, &v);
  if (rc)
    return rc;
  snprintf(rr.status, sizeof rr.status, "%s", mv_rule_status_name(v.status));
  rr.failed = mv_rule_failed(v.status);
  lhs->rule_warning |= rr.failed;
  char a[96], b[96];
  mv_bigo_format(&v.lhs_lead, a, sizeof a);
  mv_bigo_format(&v.rhs_lead, b, sizeof b);
  snprintf(rr.detail, sizeof rr.detail, "leading order %s vs %s%s", a, b,
           isnan(v.crossover) ? "" : "; lhs exceeds rhs from p =");
  if (!isnan(v.crossover))
    snprintf(rr.detail + strlen(rr.detail), sizeof rr.detail - strlen(rr.detail), " %g",
             v.crossover);
  return mv_report_add_rule(r, &rr);
}

int mv_report_build(struct mv_report *r, struct mv_dataset *ds, const struct mv_expect_file *ef)
{
  mv_dataset_sort(ds);
  if (ds->ngroups) {
    snprintf(r->library, sizeof r->library, "%s", ds->groups[0].library);
    snprintf(r->engine, sizeof r->engine, "%s", ds->groups[0].engine);
  }
  int rc = 0;
  for (int pass = 1; pass >= 0; pass--)   /* lines with msize= first: they claim their rows */
    for (size_t i = 0; i < ef->n && rc == 0; i++)
      if (!ef->items[i].msize_given == !pass)
        rc = add_expectation(r, ds, ef, &ef->items[i]);
  for (size_t k = 0; k < ef->nrules && rc == 0; k++) {
    const struct mv_rule *rule = &ef->rules[k];
    size_t nfns = r->nfns;   /* rules never add functions */
    for (size_t i = 0; i < nfns && rc == 0; i++) {
      struct mv_report_fn *f = &r->fns[i];
      struct mv_msize_spec fs = size_of_fn(f);
      if (MV_REPORT_MODELED(f) && strcmp(f->callpath, rule->lhs) == 0 &&
          (strcmp(rule->metric, "*") == 0 || strcmp(rule->metric, f->metric) == 0) &&
          (!rule->msize_given || mv_msize_spec_equal(&rule->msize, &fs)))
        rc = eval_rule(r, rule, f);
    }
  }
  return rc;
}
