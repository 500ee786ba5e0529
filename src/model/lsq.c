/* Small weighted least-squares solver for the model fits: a handful of columns, a few to a
 * few hundred points. Gram-Schmidt twice keeps noise-free fits exact to ~1e-12. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpivet/error.h"

#define STACK_DOUBLES 1024

static double dot(const double *a, const double *b, size_t n)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* Orthonormalise the k columns of q (each n long) in place; r is k x k upper triangular. */
static int orthonormalise(double *q, double *r, size_t n, size_t k)
{
  for (size_t j = 0; j < k; j++) {
    double *v = q + j * n;
    double norm0 = sqrt(dot(v, v, n));
    if (!(norm0 > 0.0) || !isfinite(norm0))
      return MV_ENUMERIC;
    for (size_t pass = 0; pass < 2; pass++)
      for (size_t l = 0; l < j; l++) {
        double c = dot(q + l * n, v, n);
        if (pass == 0)
          r[l * k + j] = c;
        else
          r[l * k + j] += c;
        for (size_t i = 0; i < n; i++)
          v[i] -= c * q[l * n + i];
      }
    double norm = sqrt(dot(v, v, n));
    if (norm <= 1e-11 * norm0)
      return MV_ENUMERIC;
    r[j * k + j] = norm;
    for (size_t i = 0; i < n; i++)
      v[i] /= norm;
  }
  return 0;
}

static int solve(size_t n, size_t k, const double *const *cols, const double *y, const double *sw,
                 double *coef, double *wrss, double *hat, double *q)
{
  double r[64], qty[8];
  if (k > 8)
    return MV_EINVAL;
  for (size_t j = 0; j < k; j++)
    for (size_t i = 0; i < n; i++)
      q[j * n + i] = cols[j][i] * (sw ? sw[i] : 1.0);
  int rc = orthonormalise(q, r, n, k);
  if (rc)
    return rc;
  for (size_t j = 0; j < k; j++) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
      s += q[j * n + i] * y[i] * (sw ? sw[i] : 1.0);
    qty[j] = s;
  }
  for (size_t jj = k; jj-- > 0;) {
    double s = qty[jj];
    for (size_t l = jj + 1; l < k; l++)
      s -= r[jj * k + l] * coef[l];
    coef[jj] = s / r[jj * k + jj];
  }
  double ss = 0.0;
  for (size_t i = 0; i < n; i++) {
    double f = 0.0;
    for (size_t j = 0; j < k; j++)
      f += coef[j] * cols[j][i];
    double e = (y[i] - f) * (sw ? sw[i] : 1.0);
    ss += e * e;
    if (hat) {
      double h = 0.0;
      for (size_t j = 0; j < k; j++)
        h += q[j * n + i] * q[j * n + i];
      hat[i] = h;
    }
  }
  *wrss = ss;
  return 0;
}

int mv__lsq(size_t n, size_t k, const double *const *cols, const double *y, const double *sw,
            double *coef, double *wrss, double *hat)
{
  if (k == 0 || n < k)
    return MV_ENUMERIC;
  double stack[STACK_DOUBLES];
  double *q = n * k <= STACK_DOUBLES ? stack : malloc(n * k * sizeof *q);
  if (!q)
    return MV_ENOMEM;
  int rc = solve(n, k, cols, y, sw, coef, wrss, hat, q);
  if (q != stack)
    free(q);
  return rc;
}

double mv__loo_wrss(size_t n, size_t k, const double *const *cols, const double *y,
                    const double *sw, const double *coef, const double *hat)
{
  double s = 0.0;
  for (size_t i = 0; i < n; i++) {
    if (hat[i] > 1.0 - 1e-9)
      return NAN;
    double f = 0.0;
    for (size_t j = 0; j < k; j++)
      f += coef[j] * cols[j][i];
    double e = (y[i] - f) * (sw ? sw[i] : 1.0) / (1.0 - hat[i]);
    s += e * e;
  }
  return s;
}
