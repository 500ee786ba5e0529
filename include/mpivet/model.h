/* Empirical performance models in the performance model normal form (PMNF):
 * f(x) = c0 + sum_k c_k * prod_l x_l^(i_kl) * log2(x_l)^(j_kl) [* 2^(e_kl * x_l)].
 * Fits one- and multi-parameter models to repeated measurements (docs/model.md). The API below
 * is stable: `mpivet model` and `mpivet check` both build on it. */
#ifndef MPIVET_MODEL_H
#define MPIVET_MODEL_H

#include <stddef.h>

#define MV_MODEL_MAX_PARAMS 4
#define MV_MODEL_MAX_TERMS 8
#define MV_PARAM_NAME_MAX 32

/* One factor of a term: x^poly * log2(x)^log * 2^(exp2 * x) for parameter `param`. */
struct mv_factor {
  int param;          /* index into mv_function.params */
  double poly;
  double log;
  double exp2;
};

struct mv_term {
  double coef;
  int nfactors;       /* 0..MV_MODEL_MAX_PARAMS, at most one factor per parameter */
  struct mv_factor f[MV_MODEL_MAX_PARAMS];
};

/* c0 + sum of terms over named parameters. Also used for big-O expressions (coefficients 1). */
struct mv_function {
  int nparams;
  char params[MV_MODEL_MAX_PARAMS][MV_PARAM_NAME_MAX];
  double constant;
  int nterms;
  struct mv_term terms[MV_MODEL_MAX_TERMS];
};

/* Measurements of one kernel: npoints coordinates (row-major, nparams each) with their
 * repetitions. Build with mv_series_init / mv_series_add; release with mv_series_release. */
struct mv_series {
  int nparams;
  char params[MV_MODEL_MAX_PARAMS][MV_PARAM_NAME_MAX];
  size_t npoints;
  double *coords;     /* [npoints * nparams] */
  size_t *nvalues;    /* [npoints] */
  double **values;    /* [npoints][nvalues[i]] */
  size_t cap_;
};

/* Which location summarises the repetitions of one point (the paper uses the first quartile). */
enum mv_measure { MV_MEASURE_MEDIAN = 0, MV_MEASURE_MEAN, MV_MEASURE_MIN, MV_MEASURE_Q1 };

/* How hypotheses are chosen. ROBUST (default): relative weighted least squares on the
 * Hodges-Lehmann location of each point's repetitions, the lowest residual per term count with
 * log factors and negative constants priced as parameters, more terms only when an F test
 * against the noise the repetitions show says so; the chosen hypothesis is then fitted on the
 * measure. SMAPE: Extra-P's rule, kept to measure against: unweighted least squares on the
 * measure, lowest leave-one-out SMAPE. */
enum mv_select { MV_SELECT_ROBUST = 0, MV_SELECT_SMAPE = 1 };

struct mv_fit_options {
  enum mv_measure measure;
  enum mv_select select;
  int max_terms;                /* 1 or 2 terms for one parameter (default 2) */
  double alpha;                 /* significance of the F tests (default 0.001) */
  const struct mv_term *space;  /* one-parameter building blocks (coef ignored, factor param 0); */
  size_t nspace;                /* NULL: mv_model_default_space() */
};

struct mv_model {
  struct mv_function fn;
  size_t npoints;
  double ar2;         /* adjusted R^2 on the point locations; NAN for a constant model */
  double r2;
  double smape;       /* symmetric mean absolute percentage error of the fit, in percent */
  double cv_smape;    /* leave-one-out cross-validated SMAPE, in percent (NAN if n too small) */
  double rss;         /* unweighted residual sum of squares on the locations */
  int decreasing;     /* one parameter: the series falls (strong scaling), so the model's terms
                       * have negative coefficients below a positive constant */
};

void mv_series_init(struct mv_series *s, int nparams, const char *const *names);
void mv_series_release(struct mv_series *s);
/* Append one value at a point (created when absent; exact coordinate match). */
int mv_series_add(struct mv_series *s, const double *coords, double value);

/* "median", "mean", "min", "q1" <-> enum; parse returns MV_EINVAL for anything else. */
int mv_measure_parse(const char *s, enum mv_measure *out);
const char *mv_measure_name(enum mv_measure m);
/* Location of n values (copied, not changed); NAN when n == 0. */
double mv_measure_apply(enum mv_measure m, const double *v, size_t n);

void mv_fit_options_init(struct mv_fit_options *o);
/* Extra-P 4.2.5's default one-parameter search space (its 42 building blocks: poly exponents
 * 0, 1/4, 1/3, 1/2, 2/3, 3/4, 4/5, 1, 5/4, 4/3, 3/2, 5/3, 7/4, 2, 9/4, 7/3, 5/2, 8/3, 11/4, 3,
 * log2 powers 0-2 on some of them; the constant excluded). The array is static; *n gets its
 * length. */
const struct mv_term *mv_model_default_space(size_t *n);

/* Fit the best model to a series (any number of parameters up to MV_MODEL_MAX_PARAMS; two or
 * more go through the multi-parameter modeler). Needs at least 3 distinct points per
 * parameter. Returns 0, MV_EINVAL or MV_ENUMERIC. */
int mv_model_fit_series(const struct mv_series *s, const struct mv_fit_options *o,
                        struct mv_model *out);
/* One parameter from plain arrays: values[i] has nvalues[i] repetitions at x[i]. */
int mv_model_fit_1p(const double *x, const size_t *nvalues, const double *const *values,
                    size_t n, const char *param, const struct mv_fit_options *o,
                    struct mv_model *out);

/* Value of a function at coords (one double per parameter). */
double mv_function_eval(const struct mv_function *f, const double *coords);
/* A fit further than this from its points (SMAPE, percent) is a poor one. */
#define MV_MODEL_POOR_SMAPE 10.0
/* For a one-parameter model m of the points (x[i], y[i]): when it is a poor fit, writes
 * "poor fit (SMAPE 84 %): p = 1024 is 171x the model" (the point furthest from it, as a ratio)
 * into buf and returns 1; else 0. */
int mv_model_fit_note(const struct mv_model *m, const double *x, const double *y, size_t n,
                      char *buf, size_t size);
/* Value of one term without its coefficient. */
double mv_term_eval(const struct mv_term *t, const double *coords);
/* Extra-P style text: "200 + 10 * p^(5/4) * log2(p)^(1)"; returns length or MV_ERANGE. */
int mv_function_format(const struct mv_function *f, char *buf, size_t size);
/* Exponent as text: "5/4", "1", "-1/2", or "%.6g" when no small fraction matches. */
void mv_exponent_format(double x, char *buf, size_t size);

/* ---- regime changes: segmented models of one parameter ---- */
#define MV_MODEL_MAX_SEGMENTS 8   /* = MV_SEGREG_MAX_SEGMENTS */
/* One regime of a segmented model: the model holds for from <= x <= to (the first parameter). */
struct mv_model_segment {
  double from, to;
  size_t npoints;
  struct mv_function fn;
  double smape;       /* of fn on the segment's points, percent */
};
/* Regime changes of a one-parameter series (an algorithm switch inside the MPI library, eager
 * to rendezvous, a cache edge): the series is split where mv_stats_segreg (BIC over the
 * RSS-optimal breakpoints, at most 3 segments) says one PMNF function per segment describes it
 * better, each segment modeled by mv_model_fit_1p with o. Residuals are relative and a segment
 * within twice the relative noise the repetitions show, at most MV_SEGMENT_EXACT_REL (5 %, half
 * the poor-fit SMAPE; 5 % when they show none), counts as exact. A segment needs 3
 * process counts, or is a single point at either end (a regime the data only enter there). Fills seg[0..*nseg) sorted by x and returns 0 with *nseg >= 2, or with *nseg = 0
 * when one function fits best or a segment of 3 or more points is itself a poor fit (its
 * SMAPE above MV_MODEL_POOR_SMAPE). MV_EINVAL for several parameters, MV_ENOMEM. */
#define MV_SEGMENT_EXACT_REL 0.05
/* A break is a regime change only where the cost steps by more than this (relative), and by more
 * than 4 times the relative noise of a location the repetitions show: each side's segment may
 * miss its points by MV_SEGMENT_EXACT_REL (twice the noise) and still count as exact, so a
 * smaller step is within what the two segments are allowed anyway. The step is the measured
 * value on one side of the break against the other side's model (from a side of 2 points or
 * more; the larger when both are). While BIC's best segmentation has a smaller step, the next
 * fewer number of segments is tried. */
#define MV_SEGMENT_MIN_STEP (2.0 * MV_SEGMENT_EXACT_REL)
int mv_model_fit_segments(const struct mv_series *s, const struct mv_fit_options *o,
                          struct mv_model_segment *seg, size_t *nseg);

/* ---- kernels: the series of an input file, ready to fit ---- */
struct mv_dataset;
struct mv_extrap;

/* One (callpath, metric) series. From results.csv the callpath is `op`, or the impl id when impl
 * is not "default" (as expectation files name mock-ups: bcast_as_binomial); parameters are "p"
 * (nprocs) and, with two parameters, "msize". */
struct mv_kernel {
  char callpath[2 * 128 + 2];
  char metric[128];
  char library[128];       /* "" for Extra-P input */
  long long msize;         /* the fixed size of a one-parameter series, -1 when none applies */
  int per_process;         /* msize is bytes per process ("800p": totals 800 x p) */
  int only_size;           /* the only series of its function: no size label needed */
  struct mv_series series;
};

struct mv_kernels {
  size_t n;
  struct mv_kernel *k;
  size_t cap_;
  int nlibraries;          /* distinct libraries (results.csv) */
  int nsizes;              /* most distinct sizes of one (library, callpath, metric) */
};

void mv_kernels_init(struct mv_kernels *ks);
void mv_kernels_release(struct mv_kernels *ks);
/* Series from a loaded (sorted) dataset: with_msize = 0 gives one series per message size
 * over p; 1 gives two-parameter series (p, msize) when several sizes exist. A size is a fixed
 * total (msize column) or a size per process (totals growing with p, as `mpivet check
 * --msizes 800p` measures): a row goes to a per-process series that pp[] names (the
 * expectation file's msize=...p), else to its total's series when that total was measured at
 * two process counts or more, else to its per-process size's series when that was. */
struct mv_msize_spec;
int mv_kernels_from_dataset(struct mv_kernels *ks, const struct mv_dataset *ds, int with_msize,
                            const struct mv_msize_spec *pp, size_t npp);
/* Series from an Extra-P experiment (all of its parameters). */
int mv_kernels_from_extrap(struct mv_kernels *ks, const struct mv_extrap *x);

#endif
