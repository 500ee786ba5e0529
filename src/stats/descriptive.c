/* Descriptive statistics: mean, spread, type-7 quantiles, median and Tukey fences.
 * GSL does the arithmetic (its quantile is Hyndman & Fan type 7, R's default); this file adds
 * the conventions of mpivet (sd of one value is 0, NaN for empty input). */
#include "mpivet/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "mpivet/error.h"

double mv_stats_mean(const double *x, size_t n) {
  return n ? gsl_stats_mean(x, 1, n) : NAN;
}

double mv_stats_sd(const double *x, size_t n) {
  if (n == 0)
    return NAN;
  return n < 2 ? 0.0 : gsl_stats_sd(x, 1, n);
}

double mv_stats_se(const double *x, size_t n) {
  return n ? mv_stats_sd(x, n) / sqrt((double)n) : NAN;
}

double mv_stats_rse(const double *x, size_t n) {
  return mv_stats_se(x, n) / fabs(mv_stats_mean(x, n));
}

double mv_stats_cv(const double *x, size_t n) {
  return mv_stats_sd(x, n) / fabs(mv_stats_mean(x, n));
}

double mv_stats_quantile_sorted(const double *sorted, size_t n, double prob) {
  if (n == 0 || !(prob >= 0.0 && prob <= 1.0))
    return NAN;
  return gsl_stats_quantile_from_sorted_data(sorted, 1, n, prob);
}

double mv_stats_median_inplace(double *x, size_t n) {
  if (n == 0)
    return NAN;
  gsl_sort(x, 1, n);
  return gsl_stats_median_from_sorted_data(x, 1, n);
}

double mv_stats_trimmed_mean_inplace(double *x, size_t n, double trim) {
  if (n == 0 || !(trim >= 0.0 && trim < 0.5))
    return NAN;
  gsl_sort(x, 1, n);
  return gsl_stats_trmean_from_sorted_data(trim, x, 1, n);
}

double mv_stats_median(const double *x, size_t n, int *err) {
  if (err)
    *err = 0;
  if (n == 0)
    return NAN;
  double *copy = malloc(n * sizeof *copy);
  if (!copy) {
    if (err)
      *err = MV_ENOMEM;
    return NAN;
  }
  memcpy(copy, x, n * sizeof *copy);
  double m = mv_stats_median_inplace(copy, n);
  free(copy);
  return m;
}

void mv_stats_tukey_sorted(const double *sorted, size_t n, double k, struct mv_fences *f) {
  f->q1 = mv_stats_quantile_sorted(sorted, n, 0.25);
  f->q3 = mv_stats_quantile_sorted(sorted, n, 0.75);
  f->iqr = f->q3 - f->q1;
  f->lo = f->q1 - k * f->iqr;
  f->hi = f->q3 + k * f->iqr;
}

size_t mv_stats_tukey_filter(double *x, size_t n, double k) {
  if (n == 0)
    return 0;
  gsl_sort(x, 1, n);
  struct mv_fences f;
  mv_stats_tukey_sorted(x, n, k, &f);
  /* Sorted data: the kept values form one run [first, last). */
  size_t first = 0, last = n;
  while (first < n && x[first] < f.lo)
    first++;
  while (last > first && x[last - 1] > f.hi)
    last--;
  memmove(x, x + first, (last - first) * sizeof *x);
  return last - first;
}
