/* Kernel models of the calibration, the thesis' families (chapter 4): the duration of a BLAS call
 * as a polynomial in its dimensions M, N, K, fitted by least squares (GSL through mv_stats_ols):
 * M-0 = a MNK, M-1 = a MNK + b, M-2 = every product of at most one power of each dimension; noise
 * N-0 = none, N-1 = Gaussian with constant sigma, N-2 = Gaussian whose sigma is a polynomial of the
 * same terms, fitted to |residual| * sqrt(pi/2) (the mean of |e| for e ~ N(0, sigma^2) is
 * sigma sqrt(2/pi)). The host flop rate is that of dgemm's M-0 model: 2 MNK flops per call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/stats.h"

/* Terms used by each family, as a mask over mnk, mn, mk, nk, m, n, k, 1. */
static const unsigned family_terms[3] = {0x01, 0x81, 0xff};
/* dtrsm has k = m: nk equals mn and k equals m, so those two terms go. */
#define DTRSM_TERMS 0xb7u

static unsigned terms_of(const struct mv_kernel_model *km)
{
  return family_terms[km->family] & (km->op == MV_CALIB_DTRSM ? DTRSM_TERMS : 0xffu);
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

double mv_kernel_sd(const struct mv_kernel_model *km, int m, int n, int k)
{
  return km->noise == 0 ? 0 : km->noise == 1 ? km->sd[MV_KERNEL_TERMS - 1]
                                             : fmax(poly(km->sd, m, n, k), 0);
}

/* Least squares of y on the masked terms, relative to the measured durations (every row divided
 * by its duration: small calls matter as much as large ones), columns scaled for conditioning. */
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
    double t[MV_KERNEL_TERMS], w = 1.0 / fmax(s[r].seconds, 1e-9);
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

static void quality(struct mv_kernel_model *km, const struct mv_calib_sample *s, size_t n)
{
  double mean = 0, ss = 0, rss = 0, *rel = malloc((n + 1) * sizeof *rel);
  for (size_t i = 0; i < n; i++)
    mean += s[i].seconds / (double)n;
  for (size_t i = 0; i < n; i++) {
    double e = s[i].seconds - poly(km->coef, s[i].m, s[i].n, s[i].k);
    rss += e * e;
    ss += (s[i].seconds - mean) * (s[i].seconds - mean);
    if (rel)
      rel[i] = fabs(e) / fmax(s[i].seconds, 1e-12);
  }
  km->r2 = ss > 0 ? 1 - rss / ss : 1;
  km->median_rel_err = rel ? mv_stats_median_inplace(rel, n) : NAN;
  free(rel);
}

static int fit_noise(struct mv_kernel_model *km, const struct mv_calib_sample *s, size_t n)
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
    int p = __builtin_popcount(terms_of(km));
    km->sd[MV_KERNEL_TERMS - 1] = n > (size_t)p ? sqrt(ss / (double)(n - (size_t)p)) : 0;
  } else if (km->noise == 2) {
    for (size_t i = 0; i < n; i++)
      res[i] *= sqrt(M_PI / 2);
    rc = masked_ols(s, res, n, terms_of(km), km->sd);
  }
  free(res);
  return rc;
}

int mv_kernel_fit(const struct mv_calib_data *d, enum mv_calib_op op, int family, int noise,
                  int host, struct mv_kernel_model *km)
{
  if (family < 0 || family > 2 || noise < 0 || noise > 2 || op >= MV_CALIB_NOPS)
    return MV_EINVAL;
  size_t n = 0;
  struct mv_calib_sample *s = malloc((d->n[op] + 1) * sizeof *s);
  double *y = malloc((d->n[op] + 1) * sizeof *y);
  if (!s || !y) {
    free(s);
    free(y);
    return MV_ENOMEM;
  }
  for (size_t i = 0; i < d->n[op]; i++)
    if (host < 0 || d->s[op][i].host == host) {
      s[n] = d->s[op][i];
      y[n++] = d->s[op][i].seconds;
    }
  *km = (struct mv_kernel_model){.op = op, .family = family, .noise = noise, .host = host, .n = n};
  int rc = n < 2u * MV_KERNEL_TERMS ? MV_ENUMERIC : masked_ols(s, y, n, terms_of(km), km->coef);
  if (!rc) {
    quality(km, s, n);
    rc = fit_noise(km, s, n);
  }
  free(s);
  free(y);
  return rc;
}

int mv_calib_fit_kernels(const struct mv_calib_data *d, struct mv_calibration *c)
{
  static const enum mv_calib_op ops[] = {MV_CALIB_DGEMM, MV_CALIB_DTRSM};
  c->nkernels = 0;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    if (d->n[ops[i]] == 0)
      continue;
    int rc = mv_kernel_fit(d, ops[i], c->family, c->noise, -1, &c->kernels[c->nkernels]);
    if (rc)
      return rc;
    c->nkernels++;
  }
  struct mv_kernel_model m0;
  if (d->n[MV_CALIB_DGEMM] && mv_kernel_fit(d, MV_CALIB_DGEMM, 0, 0, -1, &m0) == 0 && m0.coef[0] > 0)
    c->flops = 2.0 / m0.coef[0];
  return 0;
}
