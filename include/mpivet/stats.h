/* Statistics used by every verdict: descriptive statistics, robust location, confidence
 * intervals, rank-sum and Kolmogorov-Smirnov tests, t/F quantiles and least squares.
 * GSL provides the distributions, sorting and linear algebra; results match R (see tests). */
#ifndef MPIVET_STATS_H
#define MPIVET_STATS_H

#include <stddef.h>

/* ---- descriptive (x unchanged unless said; n >= 1 unless said) ---- */
double mv_stats_mean(const double *x, size_t n);
double mv_stats_sd(const double *x, size_t n);             /* sample sd, n-1; 0 when n < 2 */
double mv_stats_se(const double *x, size_t n);             /* sd / sqrt(n) */
double mv_stats_rse(const double *x, size_t n);            /* se / |mean| */
double mv_stats_cv(const double *x, size_t n);             /* sd / |mean| */
/* Quantile of SORTED data, type 7 of Hyndman & Fan (R's default, numpy's linear). */
double mv_stats_quantile_sorted(const double *sorted, size_t n, double prob);
/* Sorts x in place, then returns the median. */
double mv_stats_median_inplace(double *x, size_t n);
/* Median of x without changing it (copies; returns MV_ENOMEM through *err when non-NULL). */
double mv_stats_median(const double *x, size_t n, int *err);
/* Sorts x in place, then returns the mean of what is left once floor(trim * n) values are dropped
 * at each end (R's mean(x, trim = trim)); 0 <= trim < 0.5. */
double mv_stats_trimmed_mean_inplace(double *x, size_t n, double trim);

/* Tukey fences of sorted data: [q1 - k*iqr, q3 + k*iqr] (k = 1.5 usual). */
struct mv_fences { double q1, q3, iqr, lo, hi; };
void mv_stats_tukey_sorted(const double *sorted, size_t n, double k, struct mv_fences *f);
/* Keep the values inside the fences: sorts x in place, moves the kept values to the front and
 * returns their count. */
size_t mv_stats_tukey_filter(double *x, size_t n, double k);

/* ---- confidence intervals (level e.g. 0.95) ---- */
struct mv_interval { double lo, hi; };
/* Student t interval of the mean; n >= 2. */
int mv_stats_ci_mean(const double *x, size_t n, double level, struct mv_interval *ci);
/* Distribution-free interval of the median from binomial order statistics (sorted data);
 * returns MV_ERANGE when n is too small for the level. */
int mv_stats_ci_median_sorted(const double *sorted, size_t n, double level, struct mv_interval *ci);

/* ---- distributions ---- */
double mv_stats_t_quantile(double p, double df);           /* inverse CDF of Student t */
double mv_stats_f_quantile(double p, double df1, double df2);
double mv_stats_normal_quantile(double p);

/* ---- two-sample tests ---- */
enum mv_alternative {
  MV_ALT_TWO_SIDED = 0,
  MV_ALT_GREATER = 1,   /* x tends to be larger than y (x is slower) */
  MV_ALT_LESS = 2
};
enum mv_test_method {
  MV_TEST_AUTO = 0,     /* exact when n_x, n_y < 50 and no ties (as R), normal otherwise */
  MV_TEST_EXACT = 1,
  MV_TEST_NORMAL = 2    /* normal approximation with continuity and tie correction */
};
struct mv_test_result {
  double statistic;     /* W = U of x (R's wilcox.test W), or D for KS */
  double p_value;
  double z;             /* normal approximation z, 0 when exact */
  int exact;            /* 1 when the exact distribution was used */
  int ties;             /* 1 when ties were found */
};
/* Wilcoxon rank-sum / Mann-Whitney U, as R's wilcox.test(x, y, alternative, exact, correct).
 * correct: continuity correction in the normal approximation. n_x, n_y >= 1, no NaN (else
 * MV_EINVAL). MV_TEST_EXACT falls back to the normal approximation when there are ties (as R)
 * or when n_x + n_y is too large to count (N min(n_x,n_y) n_x n_y > 4e8); res->exact tells.
 * When every value is tied the variance is 0 and p is NaN, as in R. */
int mv_stats_ranksum(const double *x, size_t nx, const double *y, size_t ny,
                     enum mv_alternative alt, enum mv_test_method method, int correct,
                     struct mv_test_result *res);
/* The smallest one-sided p-value the exact rank-sum null distribution holds for n_x and n_y
 * observations: 1 / C(n_x + n_y, n_x), when every x lies above every y (R: wilcox.test(1:3 + 10,
 * 1:3, "greater")$p.value = 0.05). A comparison with min_p >= alpha can never be significant. */
double mv_stats_ranksum_min_p(size_t nx, size_t ny);
/* The smallest n such that n against n observations can give p < alpha (4 at 0.05: 1/70). */
int mv_stats_ranksum_min_n(double alpha);
/* Two-sample Kolmogorov-Smirnov, as R's ks.test(x, y, alternative) with psmirnov (R 4.2.2-patched
 * and 4.3+): exact when n_x n_y < 10000 (any alternative, ties respected), asymptotic otherwise.
 * For MV_ALT_GREATER the statistic is D^+ as R defines.
 * Beware: in R's ks.test, "greater" means the CDF of x lies ABOVE that of y, i.e. x tends to be
 * SMALLER; this is the opposite direction of mv_stats_ranksum's MV_ALT_GREATER.
 * NaN in x or y gives MV_EINVAL. */
int mv_stats_ks(const double *x, size_t nx, const double *y, size_t ny,
                enum mv_alternative alt, struct mv_test_result *res);

/* ---- multiple testing ---- */
enum mv_correction { MV_CORR_NONE = 0, MV_CORR_HOLM = 1, MV_CORR_BH = 2 };
/* Adjust p-values in place, as R's p.adjust(p, "holm" | "BH"). */
int mv_stats_p_adjust(double *p, size_t n, enum mv_correction method);
/* "***" p<=0.001, "**" p<=0.01, "*" p<=0.05, "." p<=0.1, "" otherwise (R's symnum
 * convention: intervals closed on the right). */
const char *mv_stats_stars(double p);

/* ---- least squares ---- */
/* Ordinary least squares y = X b: X is row-major n x k. Fills coef[k]; residuals[n] and
 * rss may be NULL. Returns MV_ENUMERIC when X is rank deficient or n < k. */
int mv_stats_ols(const double *X, const double *y, size_t n, size_t k,
                 double *coef, double *residuals, double *rss);

/* Bayesian information criterion of a least-squares fit with Gaussian residuals:
 * n ln(max(rss, rss_floor) / n) + nparams ln(n); rss_floor stands for the residual of an exact
 * fit (so that exact fits tie and the penalty decides). The one formula of the segmented
 * regression below, the kernel ranges (src/sim) and the few-points test (src/model). */
double mv_stats_bic(double rss, double rss_floor, size_t n, double nparams);

/* ---- segmented regression (breakpoints over sorted x) ----
 * Splits points sorted by x into 1..max_segments consecutive segments, each fitted by a
 * caller's function, as in Bai & Perron (2003): for every number of segments k the breakpoints
 * minimising the total residual sum of squares are found exactly by dynamic programming over
 * the distinct x values (all points sharing one x stay in one segment; a break lies between two
 * consecutive distinct x); then k is chosen by the Bayesian information criterion
 *   BIC(k) = n ln(max(RSS_k, floor) / n) + (sum of the segments' parameters + k - 1) ln(n)
 * (each breakpoint counts as one parameter; n = number of points). floor = n (rel_floor y_scale)^2
 * stands for the noise of an exact fit (rounding with the default 1e-9; a caller whose data
 * are never exact may say what residual is as good as none), so that exact fits tie and the
 * penalty then prefers fewer segments (ties go to the smaller k).
 * The fit callback sees the half-open index range [from, to) of the caller's sorted points
 * (its own data through ctx: lines, PMNF models, weighted or not). It returns 0 and sets *rss and
 * *nparams (parameters it estimated), MV_ENUMERIC when that range cannot be fitted (the
 * segment is then not admissible), or another negative MV_E* that aborts the search.
 * Cost: one fit per admissible range, O(m^2) for m distinct x (m <= MV_SEGREG_MAX_X). */
#define MV_SEGREG_MAX_SEGMENTS 8
#define MV_SEGREG_MAX_X 2048
typedef int (*mv_segfit_fn)(void *ctx, size_t from, size_t to, double *rss, int *nparams);
struct mv_segreg_options {
  size_t min_x;           /* distinct x values per segment, >= 1 (a line needs 2, PMNF 3) */
  size_t max_segments;    /* 1..MV_SEGREG_MAX_SEGMENTS */
  double y_scale;         /* typical |y| as the callback weighs it (1 for relative residuals) */
  double rel_floor;       /* residual per point, relative to y_scale, that counts as exact */
};
struct mv_segment { size_t from, to; double rss; int nparams; };  /* [from, to) of the points */
struct mv_segreg {
  size_t nsegments;
  struct mv_segment seg[MV_SEGREG_MAX_SEGMENTS];
  double rss, bic;
  double bic_by_k[MV_SEGREG_MAX_SEGMENTS + 1];  /* [k]: best BIC with k segments, NAN if none */
};
void mv_segreg_options_init(struct mv_segreg_options *o);   /* min_x 2, max_segments 3, rel_floor 1e-9 */
/* x: n values sorted ascending (MV_EINVAL otherwise or for NaN). MV_ENUMERIC when not even one
 * segment is admissible; MV_ERANGE for more than MV_SEGREG_MAX_X distinct x. */
int mv_stats_segreg(const double *x, size_t n, const struct mv_segreg_options *o,
                    mv_segfit_fn fit, void *ctx, struct mv_segreg *out);
/* The least-squares line y = a + b x of n points: returns the number of parameters estimated
 * (2; 1 when all x are equal: b = 0, a = mean) or MV_ENUMERIC for n = 0. */
int mv_stats_line(const double *x, const double *y, size_t n, double *a, double *b, double *rss);
/* Ready-made segment callback: mv_stats_line over ctx's points [from, to). */
struct mv_segline_ctx { const double *x, *y; };
int mv_stats_segfit_line(void *ctx, size_t from, size_t to, double *rss, int *nparams);

#endif
