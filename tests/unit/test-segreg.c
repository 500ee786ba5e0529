/* Unit tests of the segmented regression of src/stats/segreg.c: known breaks (exact and noisy,
 * least-squares values computed independently with exact rational arithmetic in Python's
 * fractions module, quoted below), a single line that must stay one segment, repeated x that
 * must never be split, the DP against an exhaustive search, and the error contract. */
#include "test.h"

#include "mpivet/error.h"
#include "mpivet/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const double X10[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

static int run_lines(const double *x, const double *y, size_t n, size_t kmax, double scale,
                     struct mv_segreg *out) {
  struct mv_segline_ctx c = {x, y};
  struct mv_segreg_options o;
  mv_segreg_options_init(&o);
  o.max_segments = kmax;
  o.y_scale = scale;
  return mv_stats_segreg(x, n, &o, mv_stats_segfit_line, &c, out);
}

static void test_exact_break(void) {
  /* y = 1 + 2x up to x = 5, then 30 - x: the break lies between x = 5 and x = 6. */
  double y[10];
  for (size_t i = 0; i < 10; i++)
    y[i] = X10[i] <= 5 ? 1 + 2 * X10[i] : 30 - X10[i];
  struct mv_segreg r;
  ASSERT_INT_EQ(run_lines(X10, y, 10, 3, 15.0, &r), 0);
  ASSERT_INT_EQ(r.nsegments, 2);
  ASSERT_INT_EQ(r.seg[0].from, 0);
  ASSERT_INT_EQ(r.seg[0].to, 5);
  ASSERT_INT_EQ(r.seg[1].from, 5);
  ASSERT_INT_EQ(r.seg[1].to, 10);
  ASSERT_DOUBLE_NEAR(r.rss, 0.0, 1e-20);
  double a, b, rss;
  ASSERT_INT_EQ(mv_stats_line(X10 + 5, y + 5, 5, &a, &b, &rss), 2);
  ASSERT_DOUBLE_NEAR(a, 30.0, 1e-12);
  ASSERT_DOUBLE_NEAR(b, -1.0, 1e-12);
  /* 3 segments reduce nothing and cost 3 more parameters. */
  ASSERT_TRUE(r.bic_by_k[3] > r.bic_by_k[2]);
}

static void test_noisy_break(void) {
  /* The same lines plus noise +.3 -.2 +.1 -.3 +.2 -.1 +.2 -.3 +.1 +.25. Python fractions:
   * halves: a 1.11 b 1.97 RSS 0.259 and a 29.55 b -0.94 RSS 0.172; one line RSS 136.4861818;
   * BIC(1) = 30.741553, BIC(2) = 10 ln(0.431 / 10) + 5 ln 10 = -19.929397. */
  static const double y[] = {3.3, 4.8, 7.1, 8.7, 11.2, 23.9, 23.2, 21.7, 21.1, 20.25};
  struct mv_segreg r;
  ASSERT_INT_EQ(run_lines(X10, y, 10, 3, 15.0, &r), 0);
  ASSERT_INT_EQ(r.nsegments, 2);
  ASSERT_INT_EQ(r.seg[0].to, 5);
  ASSERT_DOUBLE_NEAR(r.seg[0].rss, 0.259, 1e-12);
  ASSERT_DOUBLE_NEAR(r.seg[1].rss, 0.172, 1e-12);
  ASSERT_DOUBLE_NEAR(r.bic_by_k[1], 30.74155303004231, 1e-9);
  ASSERT_DOUBLE_NEAR(r.bic_by_k[2], -19.92939735375412, 1e-9);
  ASSERT_DOUBLE_NEAR(r.bic, -19.92939735375412, 1e-9);
  double a, b, rss;
  ASSERT_INT_EQ(mv_stats_line(X10, y, 5, &a, &b, &rss), 2);
  ASSERT_DOUBLE_NEAR(a, 1.11, 1e-12);
  ASSERT_DOUBLE_NEAR(b, 1.97, 1e-12);
}

static void test_one_segment_wins(void) {
  /* One noisy line: every split lowers the RSS a little, never enough to pay for 3 more
   * parameters. An exact line stays one segment thanks to the rounding floor. */
  static const double e[] = {.3, -.2, .1, -.3, .2, -.1, .2, -.3, .1, .25};
  double y[10], exact[10];
  for (size_t i = 0; i < 10; i++) {
    exact[i] = 0.1 + 0.7 * X10[i];
    y[i] = exact[i] + e[i];
  }
  struct mv_segreg r;
  ASSERT_INT_EQ(run_lines(X10, y, 10, 3, 4.0, &r), 0);
  ASSERT_INT_EQ(r.nsegments, 1);
  ASSERT_INT_EQ(r.seg[0].to, 10);
  ASSERT_INT_EQ(run_lines(X10, exact, 10, 3, 4.0, &r), 0);
  ASSERT_INT_EQ(r.nsegments, 1);
}

static void test_repeated_x(void) {
  /* Repetitions at each x: the break falls between distinct values, never inside a run. */
  static const double x[] = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6};
  static const double y[] = {1, 1.1, 2, 2.1, 3, 3.1, 20, 20.1, 21, 21.1, 22, 22.1};
  struct mv_segreg r;
  ASSERT_INT_EQ(run_lines(x, y, N_OF(x), 3, 10.0, &r), 0);
  ASSERT_INT_EQ(r.nsegments, 2);
  ASSERT_INT_EQ(r.seg[0].to, 6);
  ASSERT_INT_EQ(r.seg[1].from, 6);
}

/* Exhaustive search over every pair of breaks, to check the DP's 3-segment optimum. */
static double brute3(const double *x, const double *y, size_t n, size_t min_x) {
  double best = INFINITY, a, b, r1, r2, r3;
  for (size_t i = min_x; i + 2 * min_x <= n; i++)
    for (size_t j = i + min_x; j + min_x <= n; j++) {
      mv_stats_line(x, y, i, &a, &b, &r1);
      mv_stats_line(x + i, y + i, j - i, &a, &b, &r2);
      mv_stats_line(x + j, y + j, n - j, &a, &b, &r3);
      if (r1 + r2 + r3 < best)
        best = r1 + r2 + r3;
    }
  return best;
}

static void test_dp_matches_exhaustive(void) {
  double x[20], y[20];
  unsigned s = 12345;
  for (int trial = 0; trial < 5; trial++) {
    for (size_t i = 0; i < 20; i++) {
      s = s * 1103515245u + 12345u;   /* C's example rand() LCG */
      x[i] = (double)i;
      y[i] = (double)((s >> 16) % 1000) / 100.0;
    }
    struct mv_segline_ctx c = {x, y};
    struct mv_segreg_options o;
    mv_segreg_options_init(&o);
    o.max_segments = 3;
    o.min_x = 3;
    struct mv_segreg r;
    ASSERT_INT_EQ(mv_stats_segreg(x, 20, &o, mv_stats_segfit_line, &c, &r), 0);
    /* BIC(3) comes from the optimum: recompute it from the exhaustive RSS. */
    double want = 20 * log(brute3(x, y, 20, 3) / 20) + 8 * log(20.0);
    ASSERT_DOUBLE_NEAR(r.bic_by_k[3], want, 1e-9);
  }
}

static int fail_nomem(void *ctx, size_t from, size_t to, double *rss, int *np) {
  (void)ctx, (void)from, (void)to, (void)rss, (void)np;
  return MV_ENOMEM;
}

static void test_errors(void) {
  static const double unsorted[] = {1, 3, 2};
  static const double y[] = {1, 2, 3};
  struct mv_segreg r;
  ASSERT_INT_EQ(run_lines(unsorted, y, 3, 2, 1.0, &r), MV_EINVAL);
  ASSERT_INT_EQ(run_lines(X10, y, 3, 0, 1.0, &r), MV_EINVAL);
  ASSERT_INT_EQ(run_lines(X10, y, 3, MV_SEGREG_MAX_SEGMENTS + 1, 1.0, &r), MV_EINVAL);
  struct mv_segreg_options o;
  mv_segreg_options_init(&o);
  o.min_x = 4;   /* 3 distinct x cannot make one segment of 4 */
  struct mv_segline_ctx c = {X10, y};
  ASSERT_INT_EQ(mv_stats_segreg(X10, 3, &o, mv_stats_segfit_line, &c, &r), MV_ENUMERIC);
  o.min_x = 1;
  ASSERT_INT_EQ(mv_stats_segreg(X10, 3, &o, fail_nomem, NULL, &r), MV_ENOMEM);
}

int main(void) {
  RUN_TEST(test_exact_break);
  RUN_TEST(test_noisy_break);
  RUN_TEST(test_one_segment_wins);
  RUN_TEST(test_repeated_x);
  RUN_TEST(test_dp_matches_exhaustive);
  RUN_TEST(test_errors);
  return TEST_EXIT();
}
