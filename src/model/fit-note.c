/* How badly a one-parameter model misses its points, in words for reports: a fit more than
 * MV_MODEL_POOR_SMAPE off names the point furthest from it (an algorithm switch at the largest
 * process count reads "p = 1024 is 171x the model"). Shared by `mpivet check` and `mpivet model`. */
#include <math.h>
#include <stdio.h>

#include "mpivet/model.h"

int mv_model_fit_note(const struct mv_model *m, const double *x, const double *y, size_t n,
                      char *buf, size_t size)
{
  size_t worst = n;
  double worst_ratio = 1.0;
  for (size_t i = 0; i < n; i++) {
    double f = mv_function_eval(&m->fn, &x[i]), r = y[i] / f;
    if (f > 0 && r > 0 && fabs(log(r)) > fabs(log(worst_ratio)))
      worst = i, worst_ratio = r;
  }
  if (!(m->smape > MV_MODEL_POOR_SMAPE) || worst == n)
    return 0;
  snprintf(buf, size, "poor fit (SMAPE %.2g %%): %s = %g is %.3gx the model", m->smape,
           m->fn.nparams == 1 ? m->fn.params[0] : "p", x[worst], worst_ratio);
  return 1;
}
