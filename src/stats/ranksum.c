/* Wilcoxon rank-sum / Mann-Whitney U test, matching R's wilcox.test(x, y, alternative, exact,
 * correct): W = (sum of the midranks of x) - nx(nx+1)/2; exact null distribution counted by
 * dynamic programming when there are no ties, normal approximation with tie-corrected variance
 * and continuity correction otherwise. */
#include "mpivet/stats.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "internal.h"
#include "mpivet/error.h"

/* R's default for exact = NULL: exact when both samples are below this size. */
#define EXACT_AUTO_LIMIT 50
/* Work bound (N * m * m*n additions) of an explicitly requested exact distribution; beyond
 * it the normal approximation is used and res->exact says so. */
#define EXACT_WORK_LIMIT 4e8

struct ranks {
  double w;          /* W statistic of x */
  double tie_sum;    /* sum over tie runs of t^3 - t */
};

static int rank_x(const double *x, size_t nx, const double *y, size_t ny, struct ranks *r) {
  struct mv__obs *o;
  int rc = mv__stats_pool(x, nx, y, ny, &o);
  if (rc)
    return rc;
  size_t n = nx + ny;
  double sum = 0.0;
  r->tie_sum = 0.0;
  for (size_t i = 0; i < n;) {
    size_t j = mv__stats_tie_end(o, n, i);
    double t = (double)(j - i), midrank = (double)(i + 1 + j) / 2.0;
    for (size_t k = i; k < j; k++)
      if (o[k].from_x)
        sum += midrank;
    r->tie_sum += t * t * t - t;
    i = j;
  }
  free(o);
  r->w = sum - (double)nx * (double)(nx + 1) / 2.0;
  return 0;
}

/* freq[u] = number of m-subsets of the ranks 1..m+n whose U (= rank sum - m(m+1)/2) is u,
 * u = 0..m*n. Adding rank i to a subset of size j-1 raises its U by i - j; values above m*n
 * can never come back down, so they are dropped. Only additions: no cancellation. */
static double *u_frequencies(size_t m, size_t n) {
  size_t umax = m * n, width = umax + 1;
  double *c = calloc((m + 1) * width, sizeof *c);
  if (!c)
    return NULL;
  c[0] = 1.0;
  for (size_t i = 1; i <= m + n; i++) {
    size_t jmax = i < m ? i : m;
    for (size_t j = jmax; j >= 1; j--) {
      size_t shift = i - j;
      double *to = c + j * width, *from = c + (j - 1) * width;
      for (size_t u = umax + 1; u-- > shift;)
        to[u] += from[u - shift];
    }
  }
  double *freq = malloc(width * sizeof *freq);
  if (freq)
    for (size_t u = 0; u <= umax; u++)
      freq[u] = c[m * width + u];
  free(c);
  return freq;
}

/* P(U <= w) and P(U >= w) of the exact null distribution; w is an integer. */
static int exact_tails(size_t nx, size_t ny, double w, double *lower, double *upper) {
  size_t m = nx < ny ? nx : ny, n = nx < ny ? ny : nx;
  double *f = u_frequencies(m, n);
  if (!f)
    return MV_ENOMEM;
  double total = 0.0, lo = 0.0, hi = 0.0;
  for (size_t u = 0; u <= m * n; u++) {
    total += f[u];
    if ((double)u <= w)
      lo += f[u];
    if ((double)u >= w)
      hi += f[u];
  }
  free(f);
  *lower = lo / total;
  *upper = hi / total;
  return 0;
}

static int exact_p(size_t nx, size_t ny, double w, enum mv_alternative alt, double *p) {
  double lower, upper;
  int rc = exact_tails(nx, ny, w, &lower, &upper);
  if (rc)
    return rc;
  if (alt == MV_ALT_GREATER)
    *p = upper;
  else if (alt == MV_ALT_LESS)
    *p = lower;
  else    /* as R: the tail on the side of W relative to the centre m*n/2, doubled */
    *p = fmin(1.0, 2.0 * (w > (double)nx * (double)ny / 2.0 ? upper : lower));
  return 0;
}

static void normal_p(size_t nx, size_t ny, const struct ranks *r, enum mv_alternative alt,
                     int correct, struct mv_test_result *res) {
  double m = (double)nx, n = (double)ny, z = r->w - m * n / 2.0;
  double sigma = sqrt(m * n / 12.0 * ((m + n + 1.0) - r->tie_sum / ((m + n) * (m + n - 1.0))));
  double cc = 0.0;   /* R: 0.5 * sign(z) two-sided, +0.5 greater, -0.5 less */
  if (correct)
    cc = alt == MV_ALT_GREATER ? 0.5 : alt == MV_ALT_LESS ? -0.5 : 0.5 * ((z > 0) - (z < 0));
  z = (z - cc) / sigma;   /* NaN when every value is tied (sigma 0), as in R */
  res->z = z;
  if (alt == MV_ALT_GREATER)
    res->p_value = gsl_cdf_ugaussian_Q(z);
  else if (alt == MV_ALT_LESS)
    res->p_value = gsl_cdf_ugaussian_P(z);
  else
    res->p_value = 2.0 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
}

static int use_exact(size_t nx, size_t ny, int ties, enum mv_test_method method) {
  if (ties || method == MV_TEST_NORMAL)
    return 0;   /* R too falls back to the normal approximation when there are ties */
  if (method == MV_TEST_AUTO)
    return nx < EXACT_AUTO_LIMIT && ny < EXACT_AUTO_LIMIT;
  double m = (double)(nx < ny ? nx : ny);
  return (double)(nx + ny) * m * (double)nx * (double)ny <= EXACT_WORK_LIMIT;
}

int mv_stats_ranksum(const double *x, size_t nx, const double *y, size_t ny,
                     enum mv_alternative alt, enum mv_test_method method, int correct,
                     struct mv_test_result *res) {
  struct ranks r;
  int rc = rank_x(x, nx, y, ny, &r);
  if (rc)
    return rc;
  res->statistic = r.w;
  res->ties = r.tie_sum > 0.0;
  res->exact = use_exact(nx, ny, res->ties, method);
  res->z = 0.0;
  if (res->exact)
    return exact_p(nx, ny, r.w, alt, &res->p_value);
  normal_p(nx, ny, &r, alt, correct, res);
  return 0;
}

double mv_stats_ranksum_min_p(size_t nx, size_t ny)
{
  /* C(nx + ny, k) built up one factor at a time: exact in doubles while below 2^53. */
  size_t k = nx < ny ? nx : ny, n = nx + ny;
  double c = 1.0;
  for (size_t i = 1; i <= k; i++)
    c = c * (double)(n - k + i) / (double)i;
  return 1.0 / c;
}

int mv_stats_ranksum_min_n(double alpha)
{
  int n = 1;
  while (n < 1000 && !(mv_stats_ranksum_min_p((size_t)n, (size_t)n) < alpha))
    n++;
  return n;
}
