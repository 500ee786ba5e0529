/* The report of a campaign from its data set and expectation file: the judgements of
 * mv_judge (series -> model -> verdict -> notes -> rules), one function per expectation and
 * size in the file's order, with the measured points and the curves to plot. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/bench.h"
#include "mpivet/error.h"
#include "mpivet/expect.h"
#include "mpivet/judge.h"
#include "mpivet/model.h"
#include "mpivet/report.h"
#include "mpivet/stats.h"

#define NCURVE 48

/* The column title: the operations table's label (mpivet/bench.h), else the name without MPI_. */
static void label_of(const char *callpath, char *buf, size_t size)
{
  const struct mv_op_info *info = mv_bench_op_info(callpath);
  const char *name = info ? info->label : strncmp(callpath, "MPI_", 4) == 0 ? callpath + 4
                                                                           : callpath;
  size_t n = strnlen(name, size - 1);
  memcpy(buf, name, n);
  buf[n] = '\0';
}

/* Location and spread of the values of one point. */
static void point_of(double x, const double *values, size_t n, struct mv_report_point *pt)
{
  double *v = malloc((n ? n : 1) * sizeof *v);
  memset(pt, 0, sizeof *pt);
  pt->x = x;
  pt->n = n;
  if (!v || n == 0) {
    free(v);
    return;
  }
  memcpy(v, values, n * sizeof *v);
  pt->median = mv_stats_median_inplace(v, n);   /* sorts v */
  pt->q1 = mv_stats_quantile_sorted(v, n, 0.25);
  pt->q3 = mv_stats_quantile_sorted(v, n, 0.75);
  pt->min = v[0];
  pt->max = v[n - 1];
  free(v);
}

/* The points of a one-parameter series, by increasing x. */
static int points_of(struct mv_report_fn *fn, const struct mv_series *s)
{
  fn->points = calloc(s->npoints ? s->npoints : 1, sizeof *fn->points);
  if (!fn->points)
    return MV_ENOMEM;
  for (size_t i = 0; i < s->npoints; i++) {
    size_t k = fn->npoints++;
    for (; k > 0 && fn->points[k - 1].x > s->coords[i * s->nparams]; k--)
      fn->points[k] = fn->points[k - 1];
    point_of(s->coords[i * s->nparams], s->values[i], s->nvalues[i], &fn->points[k]);
  }
  return 0;
}

/* Sample f at x, scaled so that it passes through (x0, y0). */
static double anchored(const struct mv_function *f, double x, double x0, double y0)
{
  double a = mv_function_eval(f, &x0), b = mv_function_eval(f, &x);
  return a > 0 && isfinite(a) && isfinite(b) ? y0 * b / a : NAN;
}

/* The model at x: the one function, or the regime's when the series has segments. */
static const struct mv_function *regime_at(const struct mv_judgement *j, double x)
{
  for (size_t k = 0; k < j->nsegments; k++)
    if (x <= j->segments[k].to || k + 1 == j->nsegments)
      return &j->segments[k].fn;
  return &j->model.fn;
}

static int make_curves(struct mv_report_fn *fn)
{
  const struct mv_verdict *v = &fn->j.verdict;
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
  double y0 = mv_function_eval(regime_at(&fn->j, x0), &x0);
  if (!(y0 > 0))
    y0 = fn->points[0].median;
  for (int i = 0; i < NCURVE; i++) {
    double x = x0 * pow(x1 / x0, (double)i / (NCURVE - 1));
    fn->cx[i] = x;
    fn->fit[i] = mv_function_eval(regime_at(&fn->j, x), &x);
    fn->expect[i] = anchored(&fn->j.expect, x, x0, y0);
    fn->band_lo[i] = anchored(&v->lower, x, x0, y0);
    fn->band_hi[i] = anchored(&v->upper, x, x0, y0);
  }
  return 0;
}

/* The report's function for judgement k of js. */
static int add_function(struct mv_report *r, const struct mv_judgements *js, size_t k)
{
  struct mv_report_fn fn;
  memset(&fn, 0, sizeof fn);
  fn.j = js->j[k];
  label_of(fn.j.function, fn.label, sizeof fn.label);
  mv_judge_size_label(fn.j.sized, &fn.j.size, fn.size, sizeof fn.size);
  int rc = fn.j.kernel == SIZE_MAX ? (fn.points = calloc(1, sizeof *fn.points)) ? 0 : MV_ENOMEM
                                   : points_of(&fn, &js->ks.k[fn.j.kernel].series);
  if (rc == 0 && fn.npoints && (fn.j.status <= MV_JUDGE_MISMATCH ||
                                   fn.j.status == MV_JUDGE_TOO_FEW))
    rc = make_curves(&fn);
  if (rc == 0)
    rc = mv_report_add_fn(r, &fn);
  if (rc)
    mv_report_fn_release(&fn);
  return rc;
}

/* The functions in the expectation file's order, lines with msize= first (they claim their
 * rows); each rule judgement marks its lhs function when it failed. */
static int add_all(struct mv_report *r, const struct mv_judgements *js,
                   const struct mv_expect_file *ef)
{
  size_t *fn_of = malloc((js->n ? js->n : 1) * sizeof *fn_of);
  int rc = fn_of ? 0 : MV_ENOMEM;
  for (size_t k = 0; k < js->n && rc == 0; k++)
    fn_of[k] = SIZE_MAX;
  for (int pass = 1; pass >= 0; pass--)
    for (size_t i = 0; i < ef->n; i++)
      for (size_t k = 0; k < js->n && rc == 0; k++)
        if (!ef->items[i].msize_given == !pass && js->j[k].expected &&
            js->j[k].expect_line == ef->items[i].line) {
          fn_of[k] = r->nfns;
          rc = add_function(r, js, k);
        }
  for (size_t i = 0; i < js->nrules && rc == 0; i++) {
    struct mv_rule_judgement rule = js->rules[i];
    rule.lhs = fn_of[rule.lhs];
    if (rule.failed && rule.lhs != SIZE_MAX)
      r->fns[rule.lhs].rule_warning = 1;
    rc = mv_report_add_rule(r, &rule);
  }
  free(fn_of);
  return rc;
}

int mv_report_build(struct mv_report *r, struct mv_dataset *ds, const struct mv_expect_file *ef)
{
  mv_dataset_sort(ds);
  if (ds->ngroups) {
    snprintf(r->library, sizeof r->library, "%s", ds->groups[0].library);
    snprintf(r->engine, sizeof r->engine, "%s", ds->groups[0].engine);
  }
  struct mv_judgements js;
  struct mv_judge_options o;
  mv_judgements_init(&js);
  mv_judge_options_init(&o);
  o.unmeasured = 1;
  int rc = mv_judge_load_dataset(&js, ds, 0, ef, r->pp_sizes, r->n_pp_sizes);
  if (rc == 0)
    rc = mv_judge(&js, ef, &o);
  if (rc == 0)
    rc = add_all(r, &js, ef);
  mv_judgements_release(&js);
  return rc;
}
