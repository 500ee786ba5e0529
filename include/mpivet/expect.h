/* Expectations in big-O notation and their validation against fitted models, after the
 * scalability-validation paper (sections 2.3 and 2.4): function classes, the expectation-driven
 * search space, deviation limits, exact/approximate/no match, divergence, cross-function rules
 * and the expectation file format (ARCHITECTURE.md section 3, docs/model.md). */
#ifndef MPIVET_EXPECT_H
#define MPIVET_EXPECT_H

#include <stddef.h>
#include <stdint.h>
#include "mpivet/error.h"
#include "mpivet/model.h"
#include "mpivet/sizelist.h"

#define MV_EXPECT_NAME_MAX 128
#define MV_RULE_MAX_RHS 8

/* The paper's function classes: F1 = log^i x, F2 = x^i, F3 = 2^(i x). */
enum mv_fclass { MV_FCLASS_LOG = 1, MV_FCLASS_POLY = 2, MV_FCLASS_EXP = 3 };

enum mv_match { MV_MATCH_NONE = 0, MV_MATCH_APPROX = 1, MV_MATCH_EXACT = 2 };

/* ---- big-O expressions ---- */
/* Parse "O(p log p)", "O(p^(5/4) log^2 p)", "O(2^(p/2))", "O(1)", "p^(1/2)" (the O( ) is
 * optional), sums, products, "/" by a single term, sqrt(x), log(x), log2(x)^k. Parameters are
 * identifiers; coefficients are dropped. On error returns MV_EPARSE with *errcol the 0-based
 * offset of the problem in text and msg "expected ..., got ...". */
int mv_bigo_parse(const char *text, size_t len, struct mv_function *out, size_t *errcol,
                  char *msg, size_t msgsize);
/* The same with only the names in params (NULL-terminated) as parameters: any other name is an
 * error ("expected a parameter (p, msize), ..., got 'foo'"). A name directly followed by '('
 * other than log, log2, ln, lg, sqrt is an unknown function in both. */
int mv_bigo_parse_in(const char *text, size_t len, const char *const *params,
                     struct mv_function *out, size_t *errcol, char *msg, size_t msgsize);
/* "O(p^(1/2)/log p)": numerator and denominator factors, "O(1)" for a constant. */
int mv_bigo_format(const struct mv_function *f, char *buf, size_t size);

/* The leading-order terms of f (coefficients set to 1): the terms no other term outgrows;
 * "1" alone when f is constant. */
void mv_function_leading(const struct mv_function *f, struct mv_function *out);
/* Asymptotic comparison of two terms of the same function space: -1, 0, 1, or 2 when
 * incomparable (different parameters grow in opposite directions). */
int mv_term_compare(const struct mv_term *a, const struct mv_term *b);
/* Class and leading exponent of a single-parameter term (constant: F1, exponent 0). */
enum mv_fclass mv_term_class(const struct mv_term *t, double *exponent);

/* ---- expectation-driven search space (section 2.3) ---- */
/* Terms between B_l = 1 and B_u = E^2: big ticks from E's class, `steps` halvings (default 2),
 * then small ticks: every term below B_u times the next lower class with exponent 1.
 * Single-parameter expectations only; terms are written in growth order. */
int mv_expect_search_space(const struct mv_function *expect, int steps, struct mv_term *out,
                           size_t cap, size_t *n);
/* "{1, log p, p^(1/4), ...}" */
int mv_search_space_format(const struct mv_function *expect, const struct mv_term *terms,
                           size_t n, char *buf, size_t size);
/* Default deviation D(x): E's leading exponent halved within its class. */
int mv_expect_default_deviation(const struct mv_function *expect, struct mv_function *out);

/* ---- expectation files ---- */
struct mv_expectation {
  char callpath[MV_EXPECT_NAME_MAX];
  char metric[MV_EXPECT_NAME_MAX];    /* "*" when the line gives none */
  struct mv_function expect;
  struct mv_function deviation;       /* given, or the default */
  int deviation_given;
  struct mv_msize_spec msize;         /* msize=800 / msize=800p: the rows it applies to */
  int msize_given;                    /* 0: one function per measured size */
  int line;
};

struct mv_rule {
  char lhs[MV_EXPECT_NAME_MAX];
  int nrhs;
  char rhs[MV_RULE_MAX_RHS][MV_EXPECT_NAME_MAX];
  char metric[MV_EXPECT_NAME_MAX];    /* "*" = every metric all functions share */
  struct mv_msize_spec msize;         /* msize=...: only functions of that size */
  int msize_given;                    /* 0: every size the functions share */
  int line;
};

struct mv_expect_file {
  size_t n;
  struct mv_expectation *items;
  size_t nrules;
  struct mv_rule *rules;
  /* The parameter names expressions may use (NULL-terminated), set before parsing when the
   * data have others (an Extra-P file); NULL: mv_expect_default_params, p and msize. */
  const char *const *params;
  size_t cap_items_, cap_rules_;   /* private: allocated lengths (mv_grow) */
};

/* The parameters of results.csv data: process count and message size. */
extern const char *const mv_expect_default_params[];

void mv_expect_file_init(struct mv_expect_file *f);
void mv_expect_file_release(struct mv_expect_file *f);
/* Parse text; name is used in errors "name:line:column: expected ..., got ...". A UTF-8
 * byte-order mark is skipped; two expectations for one function, metric and size are an error. */
int mv_expect_parse(struct mv_expect_file *f, const char *name, const char *text, size_t len,
                    struct mv_error *e);
int mv_expect_parse_file(struct mv_expect_file *f, const char *path, struct mv_error *e);
/* The expectation for (callpath, metric) at size: the first line with that msize=, else the
 * first line without msize= (also for size NULL: a series without a fixed size), or NULL. */
const struct mv_expectation *mv_expect_find(const struct mv_expect_file *f, const char *callpath,
                                            const char *metric, const struct mv_msize_spec *size);

/* Fit a one-parameter series (as mv_model_fit_1p; fo's space is ignored) for a function with
 * expectation `expect`: in the expectation-driven search space (steps 2), so that data which
 * cannot tell nearby models apart get the model the expectation suggests; when that fit is
 * more than 1 % (SMAPE) off the data, also with Extra-P's default terms added, kept when it
 * at least halves the error (*widened = 1): a behaviour far from the expectation (linear
 * where O(log p) was expected) is then modeled as what it is. Multi-parameter expectations:
 * Extra-P's space. Returns 0 or the fit's error. */
int mv_expect_fit(const struct mv_function *expect, const double *x, const size_t *nvalues,
                  const double *const *values, size_t n, const char *param,
                  const struct mv_fit_options *fo, struct mv_model *out, int *widened);

/* ---- validation (section 2.4) ---- */
struct mv_verdict {
  enum mv_match match;
  struct mv_function lead;        /* leading-order terms of the model, in the expectation's params */
  struct mv_function divergence;  /* lead(G) / lead(E) */
  struct mv_function lower, upper;/* deviation limits E/D and E*D */
};
/* Compare a fitted model with an expectation. Parameters are matched by name; when both have
 * one parameter they are matched whatever their names. Factors of other parameters count as
 * constants. Returns 0 or MV_EINVAL. */
int mv_expect_evaluate(const struct mv_expectation *e, const struct mv_function *model,
                       struct mv_verdict *v);
const char *mv_match_name(enum mv_match m);   /* "exact", "approximate", "none" */

enum mv_rule_status {
  MV_RULE_HOLDS = 0,        /* leading order and measured scale agree with the rule */
  MV_RULE_HOLDS_ORDER = 1,  /* leading order holds; values at the measured scale break it */
  MV_RULE_BREAKS_LATER = 2, /* the paper's warning: holds when measured, predicted to break */
  MV_RULE_VIOLATED = 3      /* grows faster and already violated at the measured scale */
};
struct mv_rule_verdict {
  enum mv_rule_status status;
  struct mv_function lhs_lead, rhs_lead;
  double crossover;         /* first x (power of two) where lhs > sum rhs, NAN if none found */
};
/* Evaluate lhs <= rhs[0] + ... on leading-order terms, and on the models at the measured
 * coordinates xs (npts rows of the lhs model's parameters). Single-parameter crossover search
 * up to 2^40. Failed = BREAKS_LATER or VIOLATED. */
int mv_rule_evaluate(const struct mv_function *lhs, const struct mv_function *const *rhs,
                     size_t nrhs, const double *xs, size_t npts, struct mv_rule_verdict *v);
const char *mv_rule_status_name(enum mv_rule_status s);
int mv_rule_failed(enum mv_rule_status s);

#endif
