/* Unit tests of the descriptive statistics, intervals, quantile functions, p-value adjustment,
 * stars and least squares of src/stats. Reference values come from R 4.2.2; the exact R
 * expression stands next to each value. */
#include "test.h"

#include "mpivet/error.h"
#include "mpivet/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const double X7[] = {2.5, 3.1, 4.7, 1.2, 8.9, 3.3, 5.0};

static void test_descriptive(void) {
  /* R: x <- c(2.5, 3.1, 4.7, 1.2, 8.9, 3.3, 5.0); mean(x); sd(x); sd(x)/sqrt(7); sd(x)/abs(mean(x)) */
  ASSERT_DOUBLE_REL(mv_stats_mean(X7, 7), 4.1, 1e-14);
  ASSERT_DOUBLE_REL(mv_stats_sd(X7, 7), 2.4772296354328289, 1e-13);
  ASSERT_DOUBLE_REL(mv_stats_se(X7, 7), 0.93630479367920927, 1e-13);
  ASSERT_DOUBLE_REL(mv_stats_cv(X7, 7), 0.60420235010556811, 1e-13);
  ASSERT_DOUBLE_REL(mv_stats_rse(X7, 7), 0.93630479367920927 / 4.1, 1e-13);
  double one = 7.5;
  ASSERT_DOUBLE_NEAR(mv_stats_sd(&one, 1), 0.0, 0.0);
  ASSERT_DOUBLE_NEAR(mv_stats_mean(&one, 1), 7.5, 0.0);
  ASSERT_TRUE(isnan(mv_stats_mean(X7, 0)));
}

static void test_quantile(void) {
  double s[] = {1.2, 2.5, 3.1, 3.3, 4.7, 5.0, 8.9};   /* sort(x) */
  static const struct { double prob, want; } q[] = {
    /* R: quantile(x, c(0, 0.1, 0.25, 0.5, 0.9, 0.975, 1)) (type 7) */
    {0.0, 1.2}, {0.1, 1.98}, {0.25, 2.7999999999999998}, {0.5, 3.2999999999999998},
    {0.9, 6.5600000000000014}, {0.975, 8.3149999999999977}, {1.0, 8.9},
  };
  for (size_t i = 0; i < N_OF(q); i++)
    ASSERT_DOUBLE_NEAR(mv_stats_quantile_sorted(s, 7, q[i].prob), q[i].want, 1e-12);
  ASSERT_TRUE(isnan(mv_stats_quantile_sorted(s, 7, 1.5)));
  ASSERT_DOUBLE_NEAR(mv_stats_quantile_sorted(s, 1, 0.3), 1.2, 0.0);

  double x6[] = {2.5, 3.1, 4.7, 1.2, 8.9, 3.3};
  int err = -1;
  /* R: median(c(2.5, 3.1, 4.7, 1.2, 8.9, 3.3)) = 3.2 */
  ASSERT_DOUBLE_NEAR(mv_stats_median(x6, 6, &err), 3.2, 1e-14);
  ASSERT_INT_EQ(err, 0);
  ASSERT_DOUBLE_NEAR(x6[0], 2.5, 0.0);   /* left unchanged */
  ASSERT_DOUBLE_NEAR(mv_stats_median_inplace(x6, 6), 3.2, 1e-14);
  ASSERT_DOUBLE_NEAR(x6[0], 1.2, 0.0);   /* sorted in place */

  /* R: mean(c(1000, 0.5, 64, 1, 2, 4, 8, 16, 32, 128), trim = 0.1) = 31.875 (one value off each
   * end); trim = 0.25: floor(2.5) = 2 off each end, mean(c(2, 4, 8, 16, 32, 64)) = 21 */
  double t10[] = {1000, 0.5, 64, 1, 2, 4, 8, 16, 32, 128};
  ASSERT_DOUBLE_NEAR(mv_stats_trimmed_mean_inplace(t10, 10, 0.1), 31.875, 1e-12);
  ASSERT_DOUBLE_NEAR(t10[0], 0.5, 0.0);   /* sorted in place */
  ASSERT_DOUBLE_NEAR(mv_stats_trimmed_mean_inplace(t10, 10, 0.25), 21.0, 1e-12);
  ASSERT_DOUBLE_NEAR(mv_stats_trimmed_mean_inplace(t10, 10, 0.0), 125.55, 1e-12);  /* mean(x) */
  ASSERT_TRUE(isnan(mv_stats_trimmed_mean_inplace(t10, 10, 0.5)));
  ASSERT_TRUE(isnan(mv_stats_trimmed_mean_inplace(t10, 0, 0.1)));
}

static void test_tukey(void) {
  double tk[] = {10, 11, 12, 11.5, 10.5, 30, 11.2, 2};
  double sorted[] = {2, 10, 10.5, 11, 11.2, 11.5, 12, 30};
  struct mv_fences f;
  mv_stats_tukey_sorted(sorted, 8, 1.5, &f);
  /* R: tk <- c(10, 11, 12, 11.5, 10.5, 30, 11.2, 2); quantile(tk, c(.25,.75)); IQR(tk) */
  ASSERT_DOUBLE_NEAR(f.q1, 10.375, 1e-12);
  ASSERT_DOUBLE_NEAR(f.q3, 11.625, 1e-12);
  ASSERT_DOUBLE_NEAR(f.iqr, 1.25, 1e-12);
  ASSERT_DOUBLE_NEAR(f.lo, 8.5, 1e-12);
  ASSERT_DOUBLE_NEAR(f.hi, 13.5, 1e-12);
  /* R: tk[tk >= 8.5 & tk <= 13.5] has 6 values, 10 .. 12 */
  size_t kept = mv_stats_tukey_filter(tk, 8, 1.5);
  ASSERT_INT_EQ(kept, 6);
  ASSERT_DOUBLE_NEAR(tk[0], 10, 0.0);
  ASSERT_DOUBLE_NEAR(tk[5], 12, 0.0);
}

static void test_ci(void) {
  struct mv_interval ci;
  /* R: t.test(x, conf.level=0.95)$conf.int */
  ASSERT_INT_EQ(mv_stats_ci_mean(X7, 7, 0.95, &ci), 0);
  ASSERT_DOUBLE_NEAR(ci.lo, 1.8089447040624973, 1e-10);
  ASSERT_DOUBLE_NEAR(ci.hi, 6.3910552959375018, 1e-10);
  /* R: t.test(x, conf.level=0.90)$conf.int */
  ASSERT_INT_EQ(mv_stats_ci_mean(X7, 7, 0.90, &ci), 0);
  ASSERT_DOUBLE_NEAR(ci.lo, 2.2805909883706112, 1e-10);
  ASSERT_DOUBLE_NEAR(ci.hi, 5.919409011629388, 1e-10);
  ASSERT_INT_EQ(mv_stats_ci_mean(X7, 1, 0.95, &ci), MV_EINVAL);

  /* sort(c(7.1, 3.2, 9.9, 4.4, 5.5, 1.0, 8.3, 6.6, 2.7, 10.4)) */
  double z10[] = {1.0, 2.7, 3.2, 4.4, 5.5, 6.6, 7.1, 8.3, 9.9, 10.4};
  /* R: k <- qbinom(0.025, 10, 0.5); sort(z10)[c(k, 10-k+1)]  (k = 2: 2.7, 9.9) */
  ASSERT_INT_EQ(mv_stats_ci_median_sorted(z10, 10, 0.95, &ci), 0);
  ASSERT_DOUBLE_NEAR(ci.lo, 2.7, 0.0);
  ASSERT_DOUBLE_NEAR(ci.hi, 9.9, 0.0);
  /* R: k <- qbinom(0.005, 10, 0.5); sort(z10)[c(k, 10-k+1)]  (k = 1: 1, 10.4) */
  ASSERT_INT_EQ(mv_stats_ci_median_sorted(z10, 10, 0.99, &ci), 0);
  ASSERT_DOUBLE_NEAR(ci.lo, 1.0, 0.0);
  ASSERT_DOUBLE_NEAR(ci.hi, 10.4, 0.0);
  /* n = 5: 2 * pbinom(0, 5, 0.5) = 0.0625 > 0.05, no order statistic is wide enough */
  ASSERT_INT_EQ(mv_stats_ci_median_sorted(z10, 5, 0.95, &ci), MV_ERANGE);
  /* n = 6: 2 * pbinom(0, 6, 0.5) = 0.03125 <= 0.05: [x_(1), x_(6)] */
  ASSERT_INT_EQ(mv_stats_ci_median_sorted(z10, 6, 0.95, &ci), 0);
  ASSERT_DOUBLE_NEAR(ci.lo, 1.0, 0.0);
  ASSERT_DOUBLE_NEAR(ci.hi, 6.6, 0.0);
}

static void test_distributions(void) {
  /* R: qt(0.975, 5); qt(0.995, 1); qt(0.05, 30); qt(0.9, 2.5) */
  ASSERT_DOUBLE_REL(mv_stats_t_quantile(0.975, 5), 2.5705818356363137, 1e-10);
  ASSERT_DOUBLE_REL(mv_stats_t_quantile(0.995, 1), 63.656741162871526, 1e-10);
  ASSERT_DOUBLE_REL(mv_stats_t_quantile(0.05, 30), -1.697260886593958, 1e-10);
  ASSERT_DOUBLE_REL(mv_stats_t_quantile(0.9, 2.5), 1.7302509288071761, 1e-10);
  /* R: qf(0.95, 3, 12); qf(0.99, 1, 100); qf(0.5, 7, 4) */
  ASSERT_DOUBLE_REL(mv_stats_f_quantile(0.95, 3, 12), 3.4902948194976036, 1e-10);
  ASSERT_DOUBLE_REL(mv_stats_f_quantile(0.99, 1, 100), 6.8953010305780271, 1e-10);
  ASSERT_DOUBLE_REL(mv_stats_f_quantile(0.5, 7, 4), 1.0796884586259727, 1e-10);
  /* R: qnorm(0.975); qnorm(1e-10); qnorm(0.5) */
  ASSERT_DOUBLE_REL(mv_stats_normal_quantile(0.975), 1.9599639845400536, 1e-12);
  ASSERT_DOUBLE_REL(mv_stats_normal_quantile(1e-10), -6.3613409024040557, 1e-10);
  ASSERT_DOUBLE_NEAR(mv_stats_normal_quantile(0.5), 0.0, 1e-15);
  /* bad arguments give NaN instead of reaching GSL's aborting error handler */
  ASSERT_TRUE(isnan(mv_stats_t_quantile(1.5, 3)));
  ASSERT_TRUE(isnan(mv_stats_f_quantile(0.5, 0, 3)));
  ASSERT_TRUE(isnan(mv_stats_normal_quantile(-0.1)));
}

static void test_p_adjust(void) {
  /* R: p <- c(0.01, 0.04, 0.03, 0.005, 0.2, NA, 0.04); p.adjust(p, "holm"); p.adjust(p, "BH") */
  static const double holm[] = {0.05, 0.12, 0.12, 0.03, 0.2, NAN, 0.12};
  static const double bh[] = {0.03, 0.048, 0.048, 0.03, 0.2, NAN, 0.048};
  double p[2][7] = {{0.01, 0.04, 0.03, 0.005, 0.2, NAN, 0.04}, {0.01, 0.04, 0.03, 0.005, 0.2, NAN, 0.04}};
  ASSERT_INT_EQ(mv_stats_p_adjust(p[0], 7, MV_CORR_HOLM), 0);
  ASSERT_INT_EQ(mv_stats_p_adjust(p[1], 7, MV_CORR_BH), 0);
  for (size_t i = 0; i < 7; i++) {
    if (i == 5) {
      ASSERT_TRUE(isnan(p[0][i]) && isnan(p[1][i]));
      continue;
    }
    ASSERT_DOUBLE_NEAR(p[0][i], holm[i], 1e-15);
    ASSERT_DOUBLE_NEAR(p[1][i], bh[i], 1e-15);
  }
  double q[] = {0.3, 0.9};
  ASSERT_INT_EQ(mv_stats_p_adjust(q, 2, MV_CORR_HOLM), 0);   /* R: p.adjust(c(0.3, 0.9), "holm") = 0.6 0.9 */
  ASSERT_DOUBLE_NEAR(q[0], 0.6, 1e-15);
  ASSERT_DOUBLE_NEAR(q[1], 0.9, 1e-15);
}

static void test_stars(void) {
  /* R: symnum(c(0.0009, 0.001, 0.01, 0.05, 0.1, 0.5), corr = FALSE, na = FALSE,
   *    cutpoints = c(0, 0.001, 0.01, 0.05, 0.1, 1), symbols = c("***", "**", "*", ".", " "))
   *    gives *** *** ** * . (blank): the intervals are closed on the right. */
  ASSERT_STR_EQ(mv_stats_stars(0.0009), "***");
  ASSERT_STR_EQ(mv_stats_stars(0.001), "***");
  ASSERT_STR_EQ(mv_stats_stars(0.01), "**");
  ASSERT_STR_EQ(mv_stats_stars(0.05), "*");
  ASSERT_STR_EQ(mv_stats_stars(0.1), ".");
  ASSERT_STR_EQ(mv_stats_stars(0.5), "");
  ASSERT_STR_EQ(mv_stats_stars(NAN), "");
}

static void test_ols(void) {
  double X[20], y[] = {2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8, 16.1, 18.0, 20.2};
  for (int i = 0; i < 10; i++) {
    X[2 * i] = 1.0;
    X[2 * i + 1] = i + 1;
  }
  double b[2], r[10], rss;
  ASSERT_INT_EQ(mv_stats_ols(X, y, 10, 2, b, r, &rss), 0);
  /* R: xr <- 1:10; yr <- c(2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8, 16.1, 18.0, 20.2);
   *    m <- lm(yr ~ xr); coef(m); sum(resid(m)^2); resid(m) */
  ASSERT_DOUBLE_NEAR(b[0], 2.2469334198890887e-15, 1e-12);
  ASSERT_DOUBLE_REL(b[1], 2.0072727272727269, 1e-12);
  ASSERT_DOUBLE_REL(rss, 0.21963636363636149, 1e-10);
  ASSERT_DOUBLE_NEAR(r[0], 0.092727272727268661, 1e-12);
  ASSERT_DOUBLE_NEAR(r[3], -0.2290909090909084, 1e-12);
  ASSERT_DOUBLE_NEAR(r[9], 0.12727272727272582, 1e-12);

  /* Columns of very different scale (1, p, p^3 for p = 2..1024) are still full rank. */
  static const double noise[] = {0.1, -0.2, 0.05, 0.3, -0.1, 0.2, -0.3, 0.1, 0.4, -0.2};
  double P[30], yy[10], c3[3];
  for (int i = 0; i < 10; i++) {
    double p = (double)(2 << i);
    P[3 * i] = 1.0;
    P[3 * i + 1] = p;
    P[3 * i + 2] = p * p * p;
    yy[i] = 3 + 0.5 * p + 2e-6 * p * p * p + noise[i];
  }
  ASSERT_INT_EQ(mv_stats_ols(P, yy, 10, 3, c3, NULL, &rss), 0);
  /* R: pp <- 2^(1:10); yy <- 3 + 0.5*pp + 2e-6*pp^3 + c(0.1,-0.2,0.05,0.3,-0.1,0.2,-0.3,0.1,0.4,-0.2)
   *    m2 <- lm(yy ~ pp + I(pp^3)); coef(m2); sum(resid(m2)^2) */
  ASSERT_DOUBLE_REL(c3[0], 2.9873130485985762, 1e-9);
  ASSERT_DOUBLE_REL(c3[1], 0.50076866897383032, 1e-9);
  ASSERT_DOUBLE_REL(c3[2], 1.9991070024608353e-06, 1e-8);
  ASSERT_DOUBLE_REL(rss, 0.35301835331039411, 1e-9);

  /* Exact fit y = 1 + 2x + 3x^2 (n = k: no residual). */
  double Q[9] = {1, 0, 0, 1, 1, 1, 1, 2, 4}, yq[3] = {1, 6, 17}, cq[3];
  ASSERT_INT_EQ(mv_stats_ols(Q, yq, 3, 3, cq, NULL, &rss), 0);
  ASSERT_DOUBLE_NEAR(cq[0], 1, 1e-12);
  ASSERT_DOUBLE_NEAR(cq[1], 2, 1e-12);
  ASSERT_DOUBLE_NEAR(cq[2], 3, 1e-12);
  ASSERT_DOUBLE_NEAR(rss, 0, 1e-20);

  /* Rank deficient: second column is twice the first (R's lm gives NA); n < k. */
  double D[8] = {1, 2, 2, 4, 3, 6, 4, 8}, yd[4] = {1, 2, 3, 4}, cd[2];
  ASSERT_INT_EQ(mv_stats_ols(D, yd, 4, 2, cd, NULL, NULL), MV_ENUMERIC);
  ASSERT_INT_EQ(mv_stats_ols(Q, yq, 2, 3, cq, NULL, NULL), MV_ENUMERIC);
}

int main(void) {
  RUN_TEST(test_descriptive);
  RUN_TEST(test_quantile);
  RUN_TEST(test_tukey);
  RUN_TEST(test_ci);
  RUN_TEST(test_distributions);
  RUN_TEST(test_p_adjust);
  RUN_TEST(test_stars);
  RUN_TEST(test_ols);
  return TEST_EXIT();
}
