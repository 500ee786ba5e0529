/* Kernel models of the calibration, the thesis' families (chapter 4): the duration of a BLAS call
 * as a polynomial in its dimensions M, N, K, fitted by least squares (GSL through mv_stats_ols):
 * M-0 = a MNK, M-1 = a MNK + b, M-2 = every product of at most one power of each dimension; noise
 * N-0 = none, N-1 = Gaussian with constant sigma, N-2 = Gaussian whose sigma is a polynomial of the
 * same terms, fitted to |residual| * sqrt(pi/2) (the mean of |e| for e ~ N(0, sigma^2) is
 * sigma sqrt(2/pi)). The host flop rate is that of dgemm's M-0 model: 2 MNK flops per call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/stats.h"
#include "kernel-model.h"

/* Terms used by each family, as a mask over mnk, mn, mk, nk, m, n, k, 1, by kernel shape (the
 * shapes of mpivet/calib.h): m x n x k uses them all; triangular (k = m) drops nk and k, equal
 * to mn and m; m x n (k = 1) keeps mn, m, n, 1; vectors (n = k = 1) keep m and 1. */
static const unsigned family_terms[5][3] = {
  [1] = {0x10, 0x90, 0x90}, [2] = {0x02, 0x82, 0xb2}, [3] = {0x01, 0x81, 0xff},
  [4] = {0x01, 0x81, 0xb7}};

static unsigned terms_of(const struct mv_kernel_model *km)
{
  return family_terms[mv_calib_op_shape(km->op)][km->family];
}

void mv_kernel_terms(int m, int n, int k, double *t)
{
  double M = m, N = n, K = k;
  double v[MV_KERNEL_TERMS] = {M * N * K, M * N, M * K, N * K, M, N, K, 1};
  memcpy(t, v, sizeof v);
}

static double poly(const double *coef, int m, int n, int k)
{
  double t[MV_KERNEL_TERMS], y = 0;
  mv_kernel_terms(m, n, k, t);
  for (int i = 0; i < MV_KERNEL_TERMS; i++)
    y += coef[i] * t[i];
  return y;
}

double mv_kernel_predict(const struct mv_kernel_model *km, int m, int n, int k)
{
  return fmax(poly(km->coef, m, n, k), 0);
}

/* The dimensions (bit 0: m, 1: n, 2: k) of each term mnk, mn, mk, nk, m, n, k, 1. */
static const unsigned term_dims[MV_KERNEL_TERMS] = {7, 3, 5, 6, 1, 2, 4, 0};

static int dim_of(const struct mv_calib_sample *s, unsigned d) { return d == 0 ? s->m : d == 1 ? s->n : s->k; }

/* Distinct values of dimension d among the samples, counted up to 3. */
static int distinct(const struct mv_calib_sample *s, size_t n, unsigned d)
{
  int v[2], nv = 0;
  for (size_t i = 0; i < n && nv < 3; i++) {
    int x = dim_of(&s[i], d), seen = 0;
    for (int j = 0; j < nv; j++)
      seen |= v[j] == x;
    if (!seen && nv < 2)
      v[nv] = x;
    nv += !seen;
  }
  return nv;
}

/* The mask without the terms that the samples cannot tell apart: when a dimension takes fewer
 * than min_values values (HPL swaps NB rows but for one last panel), a term with it is nearly
 * proportional to the same term without it. */
static unsigned identifiable(unsigned mask, const struct mv_calib_sample *s, size_t n, int min_values)
{
  for (unsigned d = 0; d < 3; d++) {
    if (distinct(s, n, d) >= min_values)
      continue;
    for (int t = 0; t < MV_KERNEL_TERMS; t++)
      for (int u = 0; u < MV_KERNEL_TERMS; u++)
        if ((mask >> t & 1) && (term_dims[t] >> d & 1) && (mask >> u & 1) &&
            term_dims[u] == (term_dims[t] & ~(1u << d)))
          mask &= ~(1u << t);
  }
  return mask;
}

/* Least squares of y on the masked terms, every row divided by the square root of its measured
 * duration (variance proportional to the duration: relative weights, 1/duration, fitted the
 * many small calls and left HPL's total dtrsm time 15 % short, absolute ones ignore the small
 * calls), columns scaled for conditioning. */
static int masked_ols(const struct mv_calib_sample *s, const double *y0, size_t n, unsigned mask,
                      double *coef)
{
  int cols[MV_KERNEL_TERMS], p = 0;
  for (int i = 0; i < MV_KERNEL_TERMS; i++)
    if (mask & (1u << i))
      cols[p++] = i;
  double *X = malloc(n * (size_t)p * sizeof *X), scale[MV_KERNEL_TERMS] = {0}, c[MV_KERNEL_TERMS];
  double *y = malloc((n + 1) * sizeof *y);
  if (!X || !y) {
    free(X);
    free(y);
    return MV_ENOMEM;
  }
  for (size_t r = 0; r < n; r++) {
    double t[MV_KERNEL_TERMS], w = 1.0 / sqrt(fmax(s[r].seconds, 1e-9));
    mv_kernel_terms(s[r].m, s[r].n, s[r].k, t);
    y[r] = y0[r] * w;
    for (int j = 0; j < p; j++) {
      X[r * (size_t)p + (size_t)j] = t[cols[j]] * w;
      scale[j] = fmax(scale[j], t[cols[j]]);
    }
  }
  for (size_t r = 0; r < n; r++)
    for (int j = 0; j < p; j++)
      X[r * (size_t)p + (size_t)j] /= scale[j] > 0 ? scale[j] : 1;
  int rc = mv_stats_ols(X, y, n, (size_t)p, c, NULL, NULL);
  memset(coef, 0, MV_KERNEL_TERMS * sizeof *coef);
  for (int j = 0; !rc && j < p; j++)
    coef[cols[j]] = c[j] / (scale[j] > 0 ? scale[j] : 1);
  free(X);
  free(y);
  return rc;
}

/* A family the samples cannot identify (rank deficient) is tried with the dimensions of fewer
 * than 3 values dropped, then falls back to the family below; the model says which it has. */
static int fit_identifiable(struct mv_kernel_model *km, const struct mv_calib_sample *s,
                            const double *y, size_t n, unsigned *mask)
{
  int rc = MV_ENUMERIC;
  for (; km->family >= 0; km->family--)
    for (int min_values = 2; min_values <= 3; min_values++) {
      *mask = identifiable(terms_of(km), s, n, min_values);
      rc = n < 2u * (unsigned)__builtin_popcount(*mask) ? MV_ENUMERIC : masked_ols(s, y, n, *mask, km->coef);
      if (rc != MV_ENUMERIC)
        return rc;
    }
  km->family = 0;
  return rc;
}

/* A call that took more than 5 times its prediction and 100 us longer was descheduled (Linux's
 * real-time throttling stops every task for 50 ms a second, another real-time task ran): such
 * samples are dropped (km->stalls) before the one refit; returns the samples kept, compacted. */
static size_t drop_stalls(struct mv_kernel_model *km, struct mv_calib_sample *s, double *y, size_t n)
{
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    double p = fmax(poly(km->coef, s[i].m, s[i].n, s[i].k), 0);
    if (y[i] - p > 4 * p + 1e-4)
      continue;
    s[kept] = s[i];
    y[kept++] = y[i];
  }
  km->stalls = n - kept;
  return kept;
}

static void quality(struct mv_kernel_model *km, const struct mv_calib_sample *s, size_t n)
{
  double mean = 0, ss = 0, rss = 0, sum = 0, pred = 0, *rel = malloc((n + 1) * sizeof *rel);
  for (size_t i = 0; i < n; i++)
    mean += s[i].seconds / (double)n;
  for (size_t i = 0; i < n; i++) {
    double p = poly(km->coef, s[i].m, s[i].n, s[i].k), e = s[i].seconds - p;
    rss += e * e;
    ss += (s[i].seconds - mean) * (s[i].seconds - mean);
    sum += s[i].seconds;
    pred += fmax(p, 0);
    if (rel)
      rel[i] = fabs(e) / fmax(s[i].seconds, 1e-12);
  }
  km->n = n;
  km->r2 = ss > 0 ? 1 - rss / ss : 1;
  km->sum_ratio = sum > 0 ? pred / sum : NAN;
  km->median_rel_err = rel ? mv_stats_median_inplace(rel, n) : NAN;
  free(rel);
}

static int fit_noise(struct mv_kernel_model *km, const struct mv_calib_sample *s, size_t n,
                     unsigned mask)
{
  double *res = malloc((n + 1) * sizeof *res), ss = 0;
  if (!res)
    return MV_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    res[i] = fabs(s[i].seconds - poly(km->coef, s[i].m, s[i].n, s[i].k));
    ss += res[i] * res[i];
  }
  int rc = 0;
  memset(km->sd, 0, sizeof km->sd);
  if (km->noise == 1) {
    int p = __builtin_popcount(mask);
    km->sd[MV_KERNEL_TERMS - 1] = n > (size_t)p ? sqrt(ss / (double)(n - (size_t)p)) : 0;
  } else if (km->noise == 2) {
    for (size_t i = 0; i < n; i++)
      res[i] *= sqrt(M_PI / 2);
    rc = masked_ols(s, res, n, mask, km->sd);
  }
  free(res);
  return rc;
}

int mv__kernel_samples(const struct mv_calib_data *d, enum mv_calib_op op, int host,
                       struct mv_calib_sample **s, double **y, size_t *n)
{
  *n = 0;
  *s = malloc((d->n[op] + 1) * sizeof **s);
  *y = malloc((d->n[op] + 1) * sizeof **y);
  if (!*s || !*y) {
    free(*s);
    free(*y);
    return MV_ENOMEM;
  }
  for (size_t i = 0; i < d->n[op]; i++)
    if ((host < 0 || d->s[op][i].host == host) && d->s[op][i].m > 0 && d->s[op][i].n > 0) {
      (*s)[*n] = d->s[op][i];
      (*y)[(*n)++] = d->s[op][i].seconds;
    }
  return 0;
}

int mv__kernel_fit_samples(struct mv_kernel_model *km, struct mv_calib_sample *s, double *y, size_t n)
{
  int family = km->family;
  unsigned mask = 0;
  km->n = n;
  int rc = fit_identifiable(km, s, y, n, &mask);
  if (!rc && (n = drop_stalls(km, s, y, n)) < km->n) {
    km->family = family;
    rc = fit_identifiable(km, s, y, n, &mask);
  }
  if (!rc) {
    quality(km, s, n);
    rc = fit_noise(km, s, n, mask);
  }
  /* A simulation adds the calls up: the polynomial is rescaled so that its total over the
   * calibration calls is the measured one (sum_ratio keeps the fit's own bias). */
  for (int t = 0; !rc && km->sum_ratio > 0 && t < MV_KERNEL_TERMS; t++) {
    km->coef[t] /= km->sum_ratio;
    km->sd[t] /= km->sum_ratio;
  }
  return rc;
}

int mv_kernel_fit(const struct mv_calib_data *d, enum mv_calib_op op, int family, int noise,
                  int host, struct mv_kernel_model *km)
{
  if (family < 0 || family > 2 || noise < 0 || noise > 2 || op >= MV_CALIB_NOPS ||
      !mv_calib_op_shape(op) || host >= d->nhosts)
    return MV_EINVAL;
  struct mv_calib_sample *s;
  double *y;
  size_t n;
  int rc = mv__kernel_samples(d, op, host, &s, &y, &n);
  if (rc)
    return rc;
  *km = (struct mv_kernel_model){.op = op, .family = family, .noise = noise, .host = host, .n = n};
  if (host >= 0)
    snprintf(km->host_name, sizeof km->host_name, "%s", d->hosts[host]);
  rc = mv__kernel_fit_samples(km, s, y, n);
  free(s);
  free(y);
  return rc;
}
