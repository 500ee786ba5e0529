/* Internal helpers of the model component: weighted least squares, per-point preparation
 * (locations, weights, pure error from repetitions) and the term-count selection rule. */
#ifndef MV_MODEL_INTERNAL_H
#define MV_MODEL_INTERNAL_H

#include <stddef.h>
#include "mpivet/model.h"

/* Weighted least squares min sum (sw_i * (y_i - sum_j c_j cols[j][i]))^2 by modified
 * Gram-Schmidt with reorthogonalisation. sw NULL means 1. hat (may be NULL) gets the leverage
 * of each point. wrss gets the weighted residual sum of squares. MV_ENUMERIC when rank
 * deficient or n < k. */
int mv__lsq(size_t n, size_t k, const double *const *cols, const double *y, const double *sw,
            double *coef, double *wrss, double *hat);

/* Point locations, relative weights and the pooled pure-error variance of the weighted
 * residuals, estimated from the spread of the repetitions. The robust rule selects hypotheses
 * on ys and fits the chosen one on y. */
struct mv__prep {
  size_t n;
  double *y;        /* location per point: the measure */
  double *ys;       /* selection location: Hodges-Lehmann (ROBUST) or y (SMAPE) */
  double *sw;       /* sqrt weight per point: 1/|ys| (ROBUST) or 1 (SMAPE) */
  double pe_var;    /* pure-error variance of sw*(ys - f), 0 when unknown */
  double pe_df;     /* its degrees of freedom (0 without repetitions) */
};
int mv__prep_init(struct mv__prep *p, const size_t *nvalues, const double *const *values,
                  size_t n, const struct mv_fit_options *o);
void mv__prep_release(struct mv__prep *p);

/* A fit's residual (rss over rdf degrees of freedom) shows significant lack of fit at level alpha
 * against the pure error (F test); without a pure error any nonzero residual does (1). */
int mv__lack_of_fit(const struct mv__prep *p, double rss, double rdf, double alpha);

/* Variance of one weighted residual for tests and Occam prices: the pure error pooled with a
 * fit's residual (rss over rdf degrees of freedom), but the residual variance alone when that
 * is larger and shows lack of fit at level alpha (repetitions of one launch understate the
 * noise when launches differ); alpha >= 1: whenever it is larger. *df gets the degrees of
 * freedom of the estimate used. */
double mv__noise_var(const struct mv__prep *p, double rss, double rdf, double alpha, double *df);

/* Best weighted RSS per level (level l = l terms plus the constant); NAN when a level has no
 * admissible hypothesis. cv[l] is its leave-one-out weighted error (NAN = unknown). Returns the
 * chosen level: the smallest level l above the current one that improves on it significantly
 * (F test at o->alpha with the noise variance of mv__noise_var) and, from level 2 on, also
 * lowers the cross-validated error becomes current; a level that does not is skipped, not the
 * end of the climb (one term of two parameters may explain little where a sum explains all). */
int mv__choose_level(const struct mv__prep *p, const double *rss, const double *cv,
                     int nlevels, double alpha);

/* Leave-one-out prediction errors from a weighted fit: sum over points of
 * (residual / (1 - h_ii))^2 in weighted space; NAN when some h_ii is ~1. */
double mv__loo_wrss(size_t n, size_t k, const double *const *cols, const double *y,
                    const double *sw, const double *coef, const double *hat);

/* Fill fit statistics (r2, ar2, smape, rss) of out from its function at the points. */
void mv__model_stats(struct mv_model *out, const double *coords, int nparams, const double *y,
                     size_t n);

/* mv_model_fit_1p that also reports, in top[0..ntop-1], the indices in the search space of the
 * ntop one-term hypotheses with the lowest residual (-1 when fewer exist). */
/* The relative standard error of a point's location the repetitions show (pooled over the points
 * with 2 or more distinct repetitions: sample variance / mean^2 / count); 0 when none shows
 * any (deterministic data, one value per point). */
double mv__series_noise_rel(const struct mv_series *s);
int mv__fit_1p_ex(const double *x, const size_t *nvalues, const double *const *values, size_t n,
                  const char *param, const struct mv_fit_options *o, struct mv_model *out,
                  int *top, size_t ntop);

/* The rules of ef on the judgements of js (judge-rules.c), appended to js->rules. */
struct mv_judgements;
struct mv_expect_file;
int mv__judge_rules(struct mv_judgements *js, const struct mv_expect_file *ef);

/* The algorithm a known library's selector picks for op at p processes and total bytes ("ring",
 * "recursive doubling"), and in *selector who decides ("SMPI's MPICH selector"); NULL when
 * mpivet knows no rule for that library and op (selector.c). */
const char *mv__selector_algorithm(const char *library, const char *op, long long total,
                                   long long p, const char **selector);

#endif
