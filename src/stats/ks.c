/* Two-sample Kolmogorov-Smirnov test, matching R 4.2's ks.test(x, y, alternative): exact
 * two-sided p-value by counting lattice paths when n_x n_y < 10000 and there are no ties,
 * Kolmogorov's limiting distribution otherwise; one-sided p = exp(-2 n_x n_y/(n_x+n_y) D^2). */
#include "mpivet/stats.h"

#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "mpivet/error.h"

#define EXACT_LIMIT 10000.0   /* R: exact <- (n.x * n.y < 10000) */

/* Largest F_x - F_y and F_y - F_x over the pooled sample, in units of 1/(nx ny), looked at
 * only after each run of tied values (as R does). */
static int ks_extremes(const double *x, size_t nx, const double *y, size_t ny,
                       long long *dplus, long long *dminus, int *ties) {
  struct mv__obs *o;
  int rc = mv__stats_pool(x, nx, y, ny, &o);
  if (rc)
    return rc;
  size_t n = nx + ny;
  long long s = 0;
  *dplus = *dminus = 0;
  *ties = 0;
  for (size_t i = 0; i < n;) {
    size_t j = mv__stats_tie_end(o, n, i);
    *ties |= j - i > 1;
    for (size_t k = i; k < j; k++)
      s += o[k].from_x ? (long long)ny : -(long long)nx;
    if (s > *dplus)
      *dplus = s;
    if (-s > *dminus)
      *dminus = -s;
    i = j;
  }
  free(o);
  return 0;
}

/* P(D < K/(m n)) under the null: the share of monotone lattice paths from (0,0) to (m,n) that
 * keep |i n - j m| < K. u[j] holds (paths to (i,j) inside the band) / C(i+j, j), which obeys
 * u(i,j) = (i u(i-1,j) + j u(i,j-1)) / (i+j) and stays in [0,1]. */
static double smirnov_below(size_t m, size_t n, long long k) {
  double *u = malloc((n + 1) * sizeof *u);
  if (!u)
    return NAN;
  for (size_t i = 0; i <= m; i++)
    for (size_t j = 0; j <= n; j++) {
      long long gap = (long long)i * (long long)n - (long long)j * (long long)m;
      if (llabs(gap) >= k)
        u[j] = 0.0;
      else if (i + j == 0)
        u[j] = 1.0;
      else
        u[j] = ((double)i * u[j] + (j ? (double)j * u[j - 1] : 0.0)) / (double)(i + j);
    }
  double p = u[n];
  free(u);
  return p;
}

/* 1 - K(t), K the Kolmogorov distribution function. For small t the Jacobi theta form
 * K(t) = sqrt(2 pi)/t sum_{k odd} exp(-k^2 pi^2 / (8 t^2)) converges fast; for larger t the
 * alternating series 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 t^2) gives the tail directly. */
static double kolmogorov_upper(double t) {
  if (!(t > 0.0))
    return 1.0;
  double sum = 0.0;
  if (t < 1.0) {
    for (int k = 1; k < 64; k += 2) {
      double term = exp(-(double)k * k * M_PI * M_PI / (8.0 * t * t));
      sum += term;
      if (term <= 1e-17 * sum)
        break;
    }
    return 1.0 - sqrt(2.0 * M_PI) / t * sum;
  }
  for (int k = 1; k < 64; k++) {
    double term = exp(-2.0 * (double)k * k * t * t);
    sum += (k % 2 ? 2.0 : -2.0) * term;
    if (term <= 1e-17 * fabs(sum))
      break;
  }
  return sum;
}

int mv_stats_ks(const double *x, size_t nx, const double *y, size_t ny,
                enum mv_alternative alt, struct mv_test_result *res) {
  long long dplus, dminus;
  int ties;
  int rc = ks_extremes(x, nx, y, ny, &dplus, &dminus, &ties);
  if (rc)
    return rc;
  long long k = alt == MV_ALT_GREATER ? dplus : alt == MV_ALT_LESS ? dminus
                : (dplus > dminus ? dplus : dminus);
  double mn = (double)nx * (double)ny, neff = mn / (double)(nx + ny);
  double d = (double)k / mn, p;
  res->statistic = d;
  res->z = 0.0;
  res->ties = ties;
  res->exact = alt == MV_ALT_TWO_SIDED && mn < EXACT_LIMIT && !ties;
  if (res->exact) {
    double below = smirnov_below(nx, ny, k);
    if (isnan(below))
      return MV_ENOMEM;
    p = 1.0 - below;
  } else if (alt == MV_ALT_TWO_SIDED) {
    p = kolmogorov_upper(sqrt(neff) * d);
  } else {
    p = exp(-2.0 * neff * d * d);
  }
  res->p_value = fmin(1.0, fmax(0.0, p));
  return 0;
}
