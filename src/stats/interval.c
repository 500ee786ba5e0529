/* Confidence intervals (Student t for the mean, binomial order statistics for the median)
 * and the quantile functions of the t, F and normal distributions (GSL gsl_cdf_*_Pinv).
 * Arguments are checked first so that GSL's error handler (which aborts) is never reached. */
#include "mpivet/stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "mpivet/error.h"

static int prob_ok(double p) { return p >= 0.0 && p <= 1.0; }

double mv_stats_t_quantile(double p, double df) {
  if (!prob_ok(p) || !(df > 0.0))
    return NAN;
  return gsl_cdf_tdist_Pinv(p, df);
}

double mv_stats_f_quantile(double p, double df1, double df2) {
  if (!prob_ok(p) || !(df1 > 0.0) || !(df2 > 0.0))
    return NAN;
  if (p == 1.0)
    return INFINITY;
  return gsl_cdf_fdist_Pinv(p, df1, df2);
}

double mv_stats_normal_quantile(double p) {
  if (!prob_ok(p))
    return NAN;
  return gsl_cdf_ugaussian_Pinv(p);
}

int mv_stats_ci_mean(const double *x, size_t n, double level, struct mv_interval *ci) {
  if (n < 2 || !(level > 0.0 && level < 1.0))
    return MV_EINVAL;
  double m = mv_stats_mean(x, n);
  double half = mv_stats_t_quantile(0.5 + level / 2.0, (double)(n - 1)) * mv_stats_se(x, n);
  ci->lo = m - half;
  ci->hi = m + half;
  return 0;
}

/* The interval [x_(k), x_(n+1-k)] (1-based order statistics) covers the median with
 * probability 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2). Take the largest k whose coverage
 * is still >= level: the narrowest interval that keeps the promised level. */
int mv_stats_ci_median_sorted(const double *sorted, size_t n, double level, struct mv_interval *ci) {
  if (n == 0 || !(level > 0.0 && level < 1.0))
    return MV_EINVAL;
  double tail = (1.0 - level) / 2.0;
  size_t k = 0;
  while (k < n / 2 && gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n) <= tail)
    k++;
  if (k == 0)
    return MV_ERANGE;
  ci->lo = sorted[k - 1];
  ci->hi = sorted[n - k];
  return 0;
}
