/* Unit tests of the two-sample tests of src/stats: Wilcoxon rank-sum (exact and normal, ties,
 * unequal sizes, each alternative, n = 1) and two-sample Kolmogorov-Smirnov (exact with and
 * without ties, asymptotic). Reference values from R 4.2.2, with the R expression next to each. */
#include <math.h>

#include "test.h"

#include "mpivet/error.h"
#include "mpivet/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* R: x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
 *    y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 3.14)   (no ties, 9 vs 7) */
static const double X[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
static const double Y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 3.14};
/* R: xt <- c(1.1, 2.2, 2.2, 3); yt <- c(2.2, 4, 5)   (ties across samples) */
static const double XT[] = {1.1, 2.2, 2.2, 3};
static const double YT[] = {2.2, 4, 5};

struct case_ {
  const double *x; size_t nx; const double *y; size_t ny;
  enum mv_alternative alt; enum mv_test_method method; int correct;
  double stat, p; int exact;
};

static void check_ranksum(const struct case_ *c, size_t n) {
  for (size_t i = 0; i < n; i++) {
    struct mv_test_result r;
    ASSERT_INT_EQ(mv_stats_ranksum(c[i].x, c[i].nx, c[i].y, c[i].ny, c[i].alt, c[i].method,
                                   c[i].correct, &r), 0);
    ASSERT_DOUBLE_NEAR(r.statistic, c[i].stat, 1e-9);
    ASSERT_DOUBLE_REL(r.p_value, c[i].p, 1e-9);
    ASSERT_INT_EQ(r.exact, c[i].exact);
    if (mv_test_failures)
      fprintf(stderr, "  (ranksum case %zu)\n", i);
  }
}

static void test_ranksum_small(void) {
  static const double one[] = {5}, three[] = {1, 2, 3}, a[] = {3}, b[] = {1};
  const struct case_ c[] = {
    /* R: wilcox.test(x, y, alternative=A)[c("statistic", "p.value")] for A = two.sided, greater, less */
    {X, 9, Y, 7, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, 42, 0.29912587412587416, 1},
    {X, 9, Y, 7, MV_ALT_GREATER, MV_TEST_AUTO, 1, 42, 0.14956293706293708, 1},
    {X, 9, Y, 7, MV_ALT_LESS, MV_TEST_AUTO, 1, 42, 0.87386363636363629, 1},
    /* R: wilcox.test(x, y, alternative=A, exact=FALSE, correct=TRUE) */
    {X, 9, Y, 7, MV_ALT_TWO_SIDED, MV_TEST_NORMAL, 1, 42, 0.28982196982861336, 0},
    {X, 9, Y, 7, MV_ALT_GREATER, MV_TEST_NORMAL, 1, 42, 0.14491098491430668, 0},
    {X, 9, Y, 7, MV_ALT_LESS, MV_TEST_NORMAL, 1, 42, 0.8778616280883671, 0},
    /* R: wilcox.test(x, y, alternative=A, exact=FALSE, correct=FALSE) */
    {X, 9, Y, 7, MV_ALT_TWO_SIDED, MV_TEST_NORMAL, 0, 42, 0.26637992334248256, 0},
    {X, 9, Y, 7, MV_ALT_GREATER, MV_TEST_NORMAL, 0, 42, 0.13318996167124128, 0},
    {X, 9, Y, 7, MV_ALT_LESS, MV_TEST_NORMAL, 0, 42, 0.86681003832875869, 0},
    /* R: wilcox.test(5, c(1,2,3), alternative=A) */
    {one, 1, three, 3, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, 3, 0.5, 1},
    {one, 1, three, 3, MV_ALT_GREATER, MV_TEST_AUTO, 1, 3, 0.25, 1},
    {one, 1, three, 3, MV_ALT_LESS, MV_TEST_AUTO, 1, 3, 1, 1},
    /* R: wilcox.test(5, c(1,2,3), exact=FALSE)$p.value */
    {one, 1, three, 3, MV_ALT_TWO_SIDED, MV_TEST_NORMAL, 1, 3, 0.37109336952269756, 0},
    /* R: wilcox.test(3, 1, alternative=A) */
    {a, 1, b, 1, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, 1, 1, 1},
    {a, 1, b, 1, MV_ALT_GREATER, MV_TEST_AUTO, 1, 1, 0.5, 1},
    {a, 1, b, 1, MV_ALT_LESS, MV_TEST_AUTO, 1, 1, 1, 1},
  };
  check_ranksum(c, N_OF(c));
}

/* The smallest p of the exact one-sided test: R wilcox.test(4:6, 1:3, "greater")$p.value = 0.05
 * = 1/choose(6, 3); 1/choose(8, 4) = 1/70; 1/choose(7, 2) = 1/21. It must equal the p-value of
 * two fully separated samples, and min_n the first n with 1/choose(2n, n) < alpha. */
static void test_ranksum_min_p(void) {
  ASSERT_DOUBLE_REL(mv_stats_ranksum_min_p(3, 3), 0.05, 1e-12);
  ASSERT_DOUBLE_REL(mv_stats_ranksum_min_p(4, 4), 1.0 / 70, 1e-12);
  ASSERT_DOUBLE_REL(mv_stats_ranksum_min_p(2, 5), 1.0 / 21, 1e-12);
  ASSERT_DOUBLE_REL(mv_stats_ranksum_min_p(1, 1), 0.5, 1e-12);
  static const double hi[] = {10, 11, 12, 13, 14}, lo[] = {1, 2};
  struct mv_test_result r;
  ASSERT_INT_EQ(mv_stats_ranksum(hi, 5, lo, 2, MV_ALT_GREATER, MV_TEST_EXACT, 1, &r), 0);
  ASSERT_DOUBLE_REL(r.p_value, mv_stats_ranksum_min_p(5, 2), 1e-12);
  ASSERT_INT_EQ(mv_stats_ranksum_min_n(0.05), 4);
  ASSERT_INT_EQ(mv_stats_ranksum_min_n(0.01), 5);   /* 1/70 >= 0.01 > 1/252 */
  ASSERT_INT_EQ(mv_stats_ranksum_min_n(0.1), 3);    /* 1/6 >= 0.1 > 1/20 */
}

static void test_ranksum_ties(void) {
  const struct case_ c[] = {
    /* R: wilcox.test(xt, yt, alternative=A)  (ties: normal, tie-corrected, correct=TRUE) */
    {XT, 4, YT, 3, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, 2, 0.19908985214820457, 0},
    {XT, 4, YT, 3, MV_ALT_GREATER, MV_TEST_AUTO, 1, 2, 0.95063567605258759, 0},
    {XT, 4, YT, 3, MV_ALT_LESS, MV_TEST_AUTO, 1, 2, 0.099544926074102286, 0},
    /* R: wilcox.test(xt, yt, alternative=A, correct=FALSE) */
    {XT, 4, YT, 3, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 0, 2, 0.14221324193639251, 0},
    {XT, 4, YT, 3, MV_ALT_GREATER, MV_TEST_AUTO, 0, 2, 0.92889337903180369, 0},
    {XT, 4, YT, 3, MV_ALT_LESS, MV_TEST_AUTO, 0, 2, 0.071106620968196255, 0},
    /* exact requested with ties: R warns and uses the normal approximation, same p */
    {XT, 4, YT, 3, MV_ALT_LESS, MV_TEST_EXACT, 1, 2, 0.099544926074102286, 0},
  };
  check_ranksum(c, N_OF(c));
  struct mv_test_result r;
  ASSERT_INT_EQ(mv_stats_ranksum(XT, 4, YT, 3, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, &r), 0);
  ASSERT_INT_EQ(r.ties, 1);
  /* R: wilcox.test(c(1,1), c(1,1,1), exact=FALSE): W = 3, p-value NaN (zero variance) */
  static const double ones[] = {1, 1, 1};
  ASSERT_INT_EQ(mv_stats_ranksum(ones, 2, ones, 3, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, &r), 0);
  ASSERT_DOUBLE_NEAR(r.statistic, 3, 0);
  ASSERT_TRUE(isnan(r.p_value));
}

static void test_ranksum_large(void) {
  /* R: xl <- sin(1:60) * 10 + (1:60) / 7; yl <- cos(1:45) * 9 + 1.5   (no ties) */
  double xl[60], yl[45], xs[30], ys[40];
  for (int i = 1; i <= 60; i++)
    xl[i - 1] = sin(i) * 10 + i / 7.0;
  for (int i = 1; i <= 45; i++)
    yl[i - 1] = cos(i) * 9 + 1.5;
  /* R: xs <- (1:30) * 1.01 + 10; ys <- (1:40) * 0.73 */
  for (int i = 1; i <= 30; i++)
    xs[i - 1] = i * 1.01 + 10;
  for (int i = 1; i <= 40; i++)
    ys[i - 1] = i * 0.73;
  const struct case_ c[] = {
    /* R: wilcox.test(xl, yl, alternative=A)  (n.x = 60 >= 50: normal) */
    {xl, 60, yl, 45, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, 1686, 0.029822286297798668, 0},
    {xl, 60, yl, 45, MV_ALT_GREATER, MV_TEST_AUTO, 1, 1686, 0.014911143148899334, 0},
    {xl, 60, yl, 45, MV_ALT_LESS, MV_TEST_AUTO, 1, 1686, 0.98533111801803197, 0},
    /* R: wilcox.test(xl, yl, alternative=A, exact=TRUE) */
    {xl, 60, yl, 45, MV_ALT_TWO_SIDED, MV_TEST_EXACT, 1, 1686, 0.029398810325403632, 1},
    {xl, 60, yl, 45, MV_ALT_GREATER, MV_TEST_EXACT, 1, 1686, 0.014699405162701816, 1},
    {xl, 60, yl, 45, MV_ALT_LESS, MV_TEST_EXACT, 1, 1686, 0.98554395351097424, 1},
    /* R: wilcox.test(ys, xs, alternative="less"); wilcox.test(xs, ys)  (far tail, exact) */
    {ys, 40, xs, 30, MV_ALT_LESS, MV_TEST_AUTO, 1, 246, 6.6330733265171679e-06, 1},
    {xs, 30, ys, 40, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, 954, 1.3266146653034336e-05, 1},
  };
  check_ranksum(c, N_OF(c));
}

/* The exact distribution against brute force: every 4-subset of the ranks 1..11. */
static void test_ranksum_exact_enumeration(void) {
  double count[29] = {0}, total = 0;   /* U = 0 .. 4*7 */
  for (int a = 1; a <= 11; a++)
    for (int b = a + 1; b <= 11; b++)
      for (int c = b + 1; c <= 11; c++)
        for (int d = c + 1; d <= 11; d++) {
          count[a + b + c + d - 10]++;
          total++;
        }
  double x[4], y[7];
  for (int u = 0; u <= 28; u += 3) {
    /* choose x's ranks so that U = u: ranks 1,2,3 plus rank 4 + u if u <= 7, etc. */
    int rank[4] = {1, 2, 3, 4}, left = u;
    for (int j = 3; j >= 0 && left > 0; j--) {
      int room = 7 + j + 1 - rank[j], step = left < room ? left : room;
      rank[j] += step;
      left -= step;
    }
    int nx = 0, ny = 0;
    for (int v = 1; v <= 11; v++) {
      int in_x = 0;
      for (int j = 0; j < 4; j++)
        in_x |= rank[j] == v;
      if (in_x)
        x[nx++] = v;
      else
        y[ny++] = v;
    }
    double le = 0;
    for (int w = 0; w <= u; w++)
      le += count[w];
    struct mv_test_result r;
    ASSERT_INT_EQ(mv_stats_ranksum(x, 4, y, 7, MV_ALT_LESS, MV_TEST_AUTO, 1, &r), 0);
    ASSERT_DOUBLE_NEAR(r.statistic, u, 0);
    ASSERT_DOUBLE_NEAR(r.p_value, le / total, 1e-15);
  }
}

static void check_ks(const double *x, size_t nx, const double *y, size_t ny, enum mv_alternative alt,
                     double stat, double p, double ptol, int exact) {
  struct mv_test_result r;
  ASSERT_INT_EQ(mv_stats_ks(x, nx, y, ny, alt, &r), 0);
  ASSERT_DOUBLE_NEAR(r.statistic, stat, 1e-12);
  ASSERT_DOUBLE_NEAR(r.p_value, p, ptol);
  ASSERT_INT_EQ(r.exact, exact);
}

static void test_ks_small(void) {
  /* R: ks.test(x, y, alternative=A)[c("statistic", "p.value")]  (n.x n.y < 10000: exact) */
  check_ks(X, 9, Y, 7, MV_ALT_TWO_SIDED, 0.60317460317460314, 0.078671328671332974, 1e-12, 1);
  check_ks(X, 9, Y, 7, MV_ALT_GREATER, 0.14285714285714285, 0.77893356643356748, 1e-12, 1);
  check_ks(X, 9, Y, 7, MV_ALT_LESS, 0.60317460317460314, 0.039335664335668818, 1e-12, 1);
  double xs[30], ys[40];
  for (int i = 1; i <= 30; i++)
    xs[i - 1] = i * 1.01 + 10;
  for (int i = 1; i <= 40; i++)
    ys[i - 1] = i * 0.73;
  /* R: ks.test((1:30) * 1.01 + 10, (1:40) * 0.73) */
  check_ks(xs, 30, ys, 40, MV_ALT_TWO_SIDED, 0.39166666666666672, 0.0077005510918353171, 1e-12, 1);
  /* R: ks.test(0.5, c(1,2,3), alternative=A); ks.test(2.5, c(1,2,3)) */
  static const double half[] = {0.5}, mid[] = {2.5}, three[] = {1, 2, 3};
  check_ks(half, 1, three, 3, MV_ALT_TWO_SIDED, 1, 0.5, 1e-12, 1);
  check_ks(half, 1, three, 3, MV_ALT_GREATER, 1, 0.25, 1e-12, 1);
  check_ks(half, 1, three, 3, MV_ALT_LESS, 0, 1, 1e-12, 1);
  check_ks(mid, 1, three, 3, MV_ALT_TWO_SIDED, 0.66666666666666663, 1, 1e-12, 1);
}

static void test_ks_ties(void) {
  static const double xt[] = {1, 2, 2, 3, 4, 5}, yt[] = {2, 3, 3, 6, 7};
  /* R: ks.test(c(1,2,2,3,4,5), c(2,3,3,6,7), alternative=A)  (exact, tie runs respected) */
  check_ks(xt, 6, yt, 5, MV_ALT_TWO_SIDED, 0.4, 0.53246753246753442, 1e-12, 1);
  check_ks(xt, 6, yt, 5, MV_ALT_GREATER, 0.4, 0.28354978354978655, 1e-12, 1);
  check_ks(xt, 6, yt, 5, MV_ALT_LESS, 0, 1, 1e-12, 1);
  struct mv_test_result r;
  ASSERT_INT_EQ(mv_stats_ks(xt, 6, yt, 5, MV_ALT_TWO_SIDED, &r), 0);
  ASSERT_INT_EQ(r.ties, 1);

  /* R: x <- round(qnorm(ppoints(120)), 1); y <- round(qnorm(ppoints(100)) + 0.3, 1)
   *    ks.test(x, y, alternative=A)  (n.x n.y = 12000: asymptotic, D at tie-run ends) */
  double xr[120], yr[100];
  for (int i = 0; i < 120; i++)
    xr[i] = round(mv_stats_normal_quantile((i + 0.5) / 120) * 10) / 10;
  for (int i = 0; i < 100; i++)
    yr[i] = round((mv_stats_normal_quantile((i + 0.5) / 100) + 0.3) * 10) / 10;
  /* R's pkstwo keeps one term of the theta series (p 0.37789299915154306); the full series,
   * R: t <- sqrt(120*100/220) * 0.12333333333333332;
   *    1 - sqrt(2*pi)/t * sum(exp(-(2*(1:20)-1)^2 * pi^2 / (8 * t^2))) */
  check_ks(xr, 120, yr, 100, MV_ALT_TWO_SIDED, 0.12333333333333332, 0.37788875545480993, 1e-12, 0);
  check_ks(xr, 120, yr, 100, MV_ALT_TWO_SIDED, 0.12333333333333332, 0.37789299915154306, 2e-5, 0);
  check_ks(xr, 120, yr, 100, MV_ALT_GREATER, 0.12333333333333332, 0.19025425077401514, 1e-12, 0);
  check_ks(xr, 120, yr, 100, MV_ALT_LESS, 0.001666666666666667, 0.99969701560601454, 1e-12, 0);
}

static void test_ks_asymptotic(void) {
  double xa[120], ya[100], yb[100], yc[100];
  /* R: xa <- qnorm(ppoints(120)); ya <- qnorm(ppoints(100)) + 0.3 (also + 0.05, + 0.6);
   * ppoints(n) = (1:n - 0.5) / n for n > 10 */
  for (int i = 0; i < 120; i++)
    xa[i] = mv_stats_normal_quantile((i + 0.5) / 120);
  for (int i = 0; i < 100; i++) {
    double q = mv_stats_normal_quantile((i + 0.5) / 100);
    ya[i] = q + 0.3;
    yb[i] = q + 0.05;
    yc[i] = q + 0.6;
  }
  /* sqrt(n.eff) D = 0.948 < 1, the theta series. R's pkstwo keeps one term there and gives
   * ks.test(xa, ya)$p.value = 0.33019992174440449; the full series
   * R: 1 - sqrt(2*pi)/t * sum(exp(-(2*(1:20)-1)^2 * pi^2 / (8 * t^2))) gives 0.3301885837214632 */
  check_ks(xa, 120, ya, 100, MV_ALT_TWO_SIDED, 0.12833333333333333, 0.3301885837214632, 1e-12, 0);
  check_ks(xa, 120, ya, 100, MV_ALT_TWO_SIDED, 0.12833333333333333, 0.33019992174440449, 2e-5, 0);
  /* R: ks.test(xa, ya, alternative="greater"); ... "less" */
  check_ks(xa, 120, ya, 100, MV_ALT_GREATER, 0.12833333333333333, 0.16585080386402962, 1e-12, 0);
  check_ks(xa, 120, ya, 100, MV_ALT_LESS, 0.001666666666666667, 0.99969701560601454, 1e-12, 0);
  /* R: ks.test(xa, yb)  (sqrt(n.eff) D = 0.209: p ~ 1) */
  check_ks(xa, 120, yb, 100, MV_ALT_TWO_SIDED, 0.028333333333333321, 0.99999999999304345, 1e-12, 0);
  /* R: ks.test(xa, yc)  (sqrt(n.eff) D = 1.797 > 1, the alternating series) */
  check_ks(xa, 120, yc, 100, MV_ALT_TWO_SIDED, 0.24333333333333332, 0.0031314887057216634, 1e-10, 0);
}

static void test_bad_input(void) {
  struct mv_test_result r;
  static const double nan1[] = {1, NAN};
  ASSERT_INT_EQ(mv_stats_ranksum(X, 0, Y, 7, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, &r), MV_EINVAL);
  ASSERT_INT_EQ(mv_stats_ranksum(nan1, 2, Y, 7, MV_ALT_TWO_SIDED, MV_TEST_AUTO, 1, &r), MV_EINVAL);
  ASSERT_INT_EQ(mv_stats_ks(X, 9, nan1, 2, MV_ALT_TWO_SIDED, &r), MV_EINVAL);
  ASSERT_INT_EQ(mv_stats_ks(X, 9, Y, 0, MV_ALT_TWO_SIDED, &r), MV_EINVAL);
}

int main(void) {
  RUN_TEST(test_ranksum_small);
  RUN_TEST(test_ranksum_min_p);
  RUN_TEST(test_ranksum_ties);
  RUN_TEST(test_ranksum_large);
  RUN_TEST(test_ranksum_exact_enumeration);
  RUN_TEST(test_ks_small);
  RUN_TEST(test_ks_ties);
  RUN_TEST(test_ks_asymptotic);
  RUN_TEST(test_bad_input);
  return TEST_EXIT();
}
