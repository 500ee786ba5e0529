/* Fitting a function that has an expectation: the paper's expectation-driven search space
 * (section 2.3), so that data which cannot tell two nearby models apart are described as the
 * expectation says, widened by Extra-P's default space when that narrow fit misses the data. */
#include <stddef.h>
#include <string.h>

#include "mpivet/expect.h"
#include "mpivet/model.h"

/* The narrow fit is kept when it is within this SMAPE (percent) of the data, or when the wide
 * fit does not at least divide its error by MV_WIDEN_RATIO. */
#define MV_WIDEN_SMAPE_MIN 1.0
#define MV_WIDEN_RATIO 2.0
#define MV_SPACE_MAX 256

/* narrow[0..n) followed by the default space's terms it lacks (not the constant). */
static size_t widen(const struct mv_term *narrow, size_t n, struct mv_term *out, size_t cap)
{
  size_t nd, k = n < cap ? n : cap;
  const struct mv_term *def = mv_model_default_space(&nd);
  const struct mv_term one = {1, 0, {{0}}};
  memcpy(out, narrow, k * sizeof *out);
  for (size_t i = 0; i < nd && k < cap; i++) {
    int dup = mv_term_compare(&def[i], &one) == 0;
    for (size_t j = 0; j < k && !dup; j++)
      dup = mv_term_compare(&def[i], &out[j]) == 0;
    if (!dup)
      out[k++] = def[i];
  }
  return k;
}

int mv_expect_fit(const struct mv_function *expect, const double *x, const size_t *nvalues,
                  const double *const *values, size_t n, const char *param,
                  const struct mv_fit_options *fo, struct mv_model *out, int *widened)
{
  struct mv_term narrow[MV_SPACE_MAX], wide[MV_SPACE_MAX];
  struct mv_fit_options o = *fo;
  struct mv_model m_narrow, m_wide;
  size_t nn = 0;
  *widened = 0;
  if (expect->nparams != 1 ||
      mv_expect_search_space(expect, 2, narrow, MV_SPACE_MAX, &nn) != 0 || nn == 0)
    return mv_model_fit_1p(x, nvalues, values, n, param, fo, out);  /* Extra-P's space */
  o.space = narrow;
  o.nspace = nn;
  int rc = mv_model_fit_1p(x, nvalues, values, n, param, &o, &m_narrow);
  if (rc == 0 && !(m_narrow.smape > MV_WIDEN_SMAPE_MIN)) {
    *out = m_narrow;
    return 0;
  }
  o.space = wide;
  o.nspace = widen(narrow, nn, wide, MV_SPACE_MAX);
  int rcw = mv_model_fit_1p(x, nvalues, values, n, param, &o, &m_wide);
  if (rcw == 0 && (rc != 0 || m_wide.smape * MV_WIDEN_RATIO < m_narrow.smape)) {
    *out = m_wide;
    *widened = 1;
    return 0;
  }
  if (rc == 0)
    *out = m_narrow;
  return rc;
}
