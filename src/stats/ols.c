/* Ordinary least squares through GSL's SVD solver (gsl_multifit_linear_tsvd). A design whose
 * (column-scaled) singular values fall below a relative tolerance is rank deficient and refused,
 * as R's lm would alias a coefficient rather than return an arbitrary one. */
#include "mpivet/stats.h"

#include <math.h>

#include <gsl/gsl_multifit.h>

#include "mpivet/error.h"

/* Relative singular-value tolerance; R's lm uses 1e-7 in its pivoted QR. */
#define RANK_TOL 1e-7

struct ols_work {
  gsl_matrix *X, *cov;
  gsl_vector *y, *c;
  gsl_multifit_linear_workspace *w;
};

static void ols_release(struct ols_work *o) {
  gsl_matrix_free(o->X);
  gsl_matrix_free(o->cov);
  gsl_vector_free(o->y);
  gsl_vector_free(o->c);
  if (o->w)
    gsl_multifit_linear_free(o->w);
}

static int ols_alloc(struct ols_work *o, size_t n, size_t k) {
  o->X = gsl_matrix_alloc(n, k);
  o->cov = gsl_matrix_alloc(k, k);
  o->y = gsl_vector_alloc(n);
  o->c = gsl_vector_alloc(k);
  o->w = gsl_multifit_linear_alloc(n, k);
  return o->X && o->cov && o->y && o->c && o->w ? 0 : MV_ENOMEM;
}

static int finite_all(const double *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return 0;
  return 1;
}

int mv_stats_ols(const double *X, const double *y, size_t n, size_t k,
                 double *coef, double *residuals, double *rss) {
  if (k == 0 || n < k)
    return MV_ENUMERIC;
  if (!finite_all(X, n * k) || !finite_all(y, n))
    return MV_EINVAL;
  struct ols_work o = {0};
  int rc = ols_alloc(&o, n, k);
  if (rc) {
    ols_release(&o);
    return rc;
  }
  for (size_t i = 0; i < n; i++) {
    gsl_vector_set(o.y, i, y[i]);
    for (size_t j = 0; j < k; j++)
      gsl_matrix_set(o.X, i, j, X[i * k + j]);
  }
  double chisq;
  size_t rank;
  gsl_multifit_linear_tsvd(o.X, o.y, RANK_TOL, o.c, o.cov, &chisq, &rank, o.w);
  if (rank < k) {
    ols_release(&o);
    return MV_ENUMERIC;
  }
  for (size_t j = 0; j < k; j++)
    coef[j] = gsl_vector_get(o.c, j);
  if (residuals) {
    gsl_vector_view r = gsl_vector_view_array(residuals, n);
    gsl_multifit_linear_residuals(o.X, o.y, o.c, &r.vector);
  }
  if (rss)
    *rss = chisq;
  ols_release(&o);
  return 0;
}
