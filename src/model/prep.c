/* Per-point preparation shared by the one- and multi-parameter modelers: the location measure
 * of the repetitions, the Hodges-Lehmann location the robust selection ranks on, relative
 * weights, the pure-error variance that repetitions reveal, the term-count selection rule, and
 * fit statistics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/stats.h"

#define STACK_VALUES 256
#define HL_MAX 64           /* repetitions beyond this: HL of HL_MAX evenly spaced order stats */
/* Variance of the Hodges-Lehmann location over that of the mean (normal data, asymptotic). */
#define HL_VAR_FACTOR (3.14159265358979324 / 3.0)

static const char *const measure_names[] = {"median", "mean", "min", "q1"};

int mv_measure_parse(const char *s, enum mv_measure *out)
{
  for (size_t i = 0; i < sizeof measure_names / sizeof measure_names[0]; i++)
    if (s && strcmp(s, measure_names[i]) == 0) {
      *out = (enum mv_measure)i;
      return 0;
    }
  return MV_EINVAL;
}

const char *mv_measure_name(enum mv_measure m)
{
  return (unsigned)m < sizeof measure_names / sizeof measure_names[0] ? measure_names[m] : "?";
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double mv_measure_apply(enum mv_measure m, const double *v, size_t n)
{
  if (n == 0)
    return NAN;
  if (m == MV_MEASURE_MEAN)
    return mv_stats_mean(v, n);
  double stack[STACK_VALUES];
  double *s = n <= STACK_VALUES ? stack : malloc(n * sizeof *s);
  if (!s)
    return NAN;
  memcpy(s, v, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_double);
  double r = m == MV_MEASURE_MIN ? s[0]
             : mv_stats_quantile_sorted(s, n, m == MV_MEASURE_Q1 ? 0.25 : 0.5);
  if (s != stack)
    free(s);
  return r;
}

void mv_fit_options_init(struct mv_fit_options *o)
{
  memset(o, 0, sizeof *o);
  o->measure = MV_MEASURE_MEDIAN;
  o->select = MV_SELECT_ROBUST;
  o->max_terms = 2;
  o->alpha = 0.001;
}

/* Median of the pairwise means v_i/2 + v_j/2, i <= j: as robust as the median to one outlier in
 * five, nearly as efficient as the mean (docs/model.md). */
static double hodges_lehmann(const double *v, size_t r)
{
  double s[HL_MAX], w[HL_MAX * (HL_MAX + 1) / 2];
  size_t m = r < HL_MAX ? r : HL_MAX, k = 0;
  if (r <= HL_MAX) {
    memcpy(s, v, r * sizeof *s);
  } else {
    double *t = malloc(r * sizeof *t);
    if (!t)
      return NAN;
    memcpy(t, v, r * sizeof *t);
    qsort(t, r, sizeof *t, cmp_double);
    for (size_t i = 0; i < m; i++)
      s[i] = t[i * (r - 1) / (m - 1)];
    free(t);
  }
  for (size_t i = 0; i < m; i++)
    for (size_t j = i; j < m; j++)
      w[k++] = s[i] / 2 + s[j] / 2;
  return mv_stats_median_inplace(w, k);
}

static double mean_abs(const double *y, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += fabs(y[i]);
  return s / (double)n;
}

int mv__prep_init(struct mv__prep *p, const size_t *nvalues, const double *const *values,
                  size_t n, const struct mv_fit_options *o)
{
  memset(p, 0, sizeof *p);
  p->n = n;
  p->y = malloc(3 * n * sizeof *p->y);
  if (!p->y)
    return MV_ENOMEM;
  p->ys = p->y + n;
  p->sw = p->ys + n;
  int robust = o->select != MV_SELECT_SMAPE;
  for (size_t i = 0; i < n; i++) {
    if (nvalues[i] == 0)
      return MV_EINVAL;
    p->y[i] = mv_measure_apply(o->measure, values[i], nvalues[i]);
    p->ys[i] = robust ? hodges_lehmann(values[i], nvalues[i]) : p->y[i];
    if (!isfinite(p->y[i]) || !isfinite(p->ys[i]))
      return MV_EINVAL;
  }
  double scale = mean_abs(p->ys, n);
  double num = 0.0, df = 0.0;
  for (size_t i = 0; i < n; i++) {
    double ay = fabs(p->ys[i]) > 1e-12 * scale ? fabs(p->ys[i]) : scale;
    p->sw[i] = !robust || ay == 0.0 ? 1.0 : 1.0 / ay;
    size_t r = nvalues[i];
    if (r < 2)
      continue;
    double sd = mv_stats_sd(values[i], r) * p->sw[i];
    num += (double)(r - 1) * sd * sd * HL_VAR_FACTOR / (double)r;
    df += (double)(r - 1);
  }
  p->pe_df = df;
  p->pe_var = df > 0 ? num / df : 0.0;
  return 0;
}

void mv__prep_release(struct mv__prep *p)
{
  free(p->y);
  p->y = p->ys = p->sw = NULL;
}

int mv__lack_of_fit(const struct mv__prep *p, double rss, double rdf, double alpha)
{
  if (!(rdf >= 1.0) || isnan(rss) || rss <= 1e-20 * (double)p->n)
    return 0;
  if (p->pe_df < 1.0 || !(p->pe_var > 0.0))
    return 1;
  return rss / rdf / p->pe_var > mv_stats_f_quantile(1.0 - alpha, rdf, p->pe_df);
}

double mv__noise_var(const struct mv__prep *p, double rss, double rdf, double alpha, double *df)
{
  *df = rdf + p->pe_df;
  double s2 = *df > 0.0 ? (rss + p->pe_df * p->pe_var) / *df : NAN;
  if (rdf >= 1.0 && rss / rdf > s2 && (alpha >= 1.0 || mv__lack_of_fit(p, rss, rdf, alpha))) {
    s2 = rss / rdf;
    *df = rdf;
  }
  return s2;
}

/* With fewer residual degrees of freedom than this, a residual variance says nothing (the F
 * quantile at alpha = 0.001 with 1 or 2 df is 4e5 or 1e3): the constant-or-one-term decision
 * then rests on the repetitions' pure error alone, or on BIC when there are no repetitions. */
#define FEW_DF 3

/* Constant (level 0) or one term (level 1) from few points: never "cannot test" as "reject". */
static int few_points_term(const struct mv__prep *p, double rss0, double rss1, double alpha)
{
  if (!(rss1 < rss0))
    return 0;
  if (p->pe_df >= 1.0) {
    /* Deterministic repetitions (SMPI) have no pure error: any real change is a change. */
    if (!(p->pe_var > 1e-24))
      return rss0 - rss1 > 1e-12 * rss0;
    return (rss0 - rss1) / p->pe_var > mv_stats_f_quantile(1.0 - alpha, 1.0, p->pe_df);
  }
  return mv_stats_bic(rss1, 1e-300, p->n, 2) < mv_stats_bic(rss0, 1e-300, p->n, 1);
}

int mv__choose_level(const struct mv__prep *p, const double *rss, const double *cv,
                     int nlevels, double alpha)
{
  double tiny = 1e-20 * (double)p->n;
  int cur = 0;
  for (int l = 1; l < nlevels; l++) {
    if (rss[cur] <= tiny)
      break;
    if (isnan(rss[l]))
      continue;
    if (rss[l] <= tiny) {
      cur = l;
      continue;
    }
    if (l == 1 && (double)p->n - 2.0 < FEW_DF) {
      if (!few_points_term(p, rss[0], rss[1], alpha))
        break;
      cur = l;
      continue;
    }
    double df, s2 = mv__noise_var(p, rss[l], (double)p->n - (double)(l + 1), alpha, &df);
    if (df < 1.0)
      break;
    double f = (rss[cur] - rss[l]) / (double)(l - cur) / s2;
    double crit = mv_stats_f_quantile(1.0 - alpha, (double)(l - cur), df);
    int cv_ok = l < 2 || isnan(cv[l]) || isnan(cv[cur]) || cv[l] < cv[cur];
    if (f > crit && cv_ok)
      cur = l;   /* else a larger level may still beat cur: it is tested against cur */
  }
  return cur;
}

void mv__model_stats(struct mv_model *out, const double *coords, int nparams, const double *y,
                     size_t n)
{
  double mean = 0.0;
  for (size_t i = 0; i < n; i++)
    mean += y[i] / (double)n;
  double rss = 0.0, tss = 0.0, sm = 0.0;
  for (size_t i = 0; i < n; i++) {
    double f = mv_function_eval(&out->fn, coords + i * (size_t)nparams);
    rss += (y[i] - f) * (y[i] - f);
    tss += (y[i] - mean) * (y[i] - mean);
    double den = fabs(y[i]) + fabs(f);
    sm += den > 0 ? 2.0 * fabs(y[i] - f) / den : 0.0;
  }
  int k = out->fn.nterms;
  out->npoints = n;
  out->rss = rss;
  out->smape = 100.0 * sm / (double)n;
  out->r2 = tss > 0 ? 1.0 - rss / tss : (rss == 0 ? 1.0 : NAN);
  out->ar2 = k == 0 || n <= (size_t)k + 1 ? NAN
             : 1.0 - (1.0 - out->r2) * (double)(n - 1) / (double)(n - (size_t)k - 1);
}

void mv_series_init(struct mv_series *s, int nparams, const char *const *names)
{
  memset(s, 0, sizeof *s);
  s->nparams = nparams > MV_MODEL_MAX_PARAMS ? MV_MODEL_MAX_PARAMS : nparams;
  for (int i = 0; i < s->nparams; i++)
    snprintf(s->params[i], sizeof s->params[i], "%s", names[i]);
}

void mv_series_release(struct mv_series *s)
{
  for (size_t i = 0; i < s->npoints; i++)
    free(s->values[i]);
  free(s->coords);
  free(s->nvalues);
  free(s->values);
  memset(s, 0, sizeof *s);
}

/* The three per-point arrays share one capacity, cap_. */
static int series_grow(struct mv_series *s)
{
  size_t need = s->npoints + 1, cc = s->cap_, cn = s->cap_, cv = s->cap_;
  if (mv_grow(&s->coords, &cc, need, (size_t)s->nparams * sizeof *s->coords, 8) ||
      mv_grow(&s->nvalues, &cn, need, sizeof *s->nvalues, 8) ||
      mv_grow(&s->values, &cv, need, sizeof *s->values, 8))
    return MV_ENOMEM;
  s->cap_ = cc;
  return 0;
}

int mv_series_add(struct mv_series *s, const double *coords, double value)
{
  size_t np = (size_t)s->nparams, i;
  for (i = 0; i < s->npoints; i++)
    if (memcmp(s->coords + i * np, coords, np * sizeof *coords) == 0)
      break;
  if (i == s->npoints) {
    if (s->npoints == s->cap_ && series_grow(s))
      return MV_ENOMEM;
    memcpy(s->coords + i * np, coords, np * sizeof *coords);
    s->nvalues[i] = 0;
    s->values[i] = NULL;
    s->npoints++;
  }
  size_t k = s->nvalues[i];
  if (mv_grow_implied(&s->values[i], k, k + 1, sizeof *s->values[i]))
    return MV_ENOMEM;
  s->values[i][k] = value;
  s->nvalues[i] = k + 1;
  return 0;
}
