/* Judging measurements against expectations, the one pipeline `mpivet model`, `mpivet check` and
 * the report share: series (mv_kernels) -> model (the expectation-driven fit) -> verdict (match,
 * divergence) -> notes (too few points, poor fit, widened search space) -> rule verdicts. A
 * judgement is self-contained (no pointer into its inputs) and written to JSON by one writer
 * whose vocabulary docs/formats.md documents ("mpivet judgement"). */
#ifndef MPIVET_JUDGE_H
#define MPIVET_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "mpivet/expect.h"
#include "mpivet/model.h"

struct mv_json;
struct mv_dataset;

#define MV_JUDGE_NAME 264
#define MV_JUDGE_TEXT 256
#define MV_JUDGE_MAX_SEGMENTS MV_MODEL_MAX_SEGMENTS
/* A model needs this many distinct process counts (one parameter). */
#define MV_JUDGE_MIN_POINTS 3

/* EXACT, APPROX, MISMATCH: modeled and compared with its expectation; MODELED: modeled, no
 * expectation applies; NOT_MODELED: too few points or the fit failed; NOT_MEASURED: an
 * expectation no series has; TOO_FEW: modeled, but the model differs from the expectation on
 * points that cannot test a fit (3 process counts, identical repetitions: no degree of freedom
 * left), so neither a match nor a mismatch. Only the first three are verdicts; NOT_* and
 * TOO_FEW never pass. */
enum mv_judge_status { MV_JUDGE_EXACT = 0, MV_JUDGE_APPROX = 1, MV_JUDGE_MISMATCH = 2,
                       MV_JUDGE_NOT_MODELED = 3, MV_JUDGE_NOT_MEASURED = 4, MV_JUDGE_MODELED = 5,
                       MV_JUDGE_TOO_FEW = 6 };
#define MV_JUDGE_NSTATUS 7


struct mv_judgement {
  char function[MV_JUDGE_NAME];   /* the series: op, or the impl id of a mock-up/variant */
  char metric[MV_EXPECT_NAME_MAX];
  char library[MV_EXPECT_NAME_MAX];   /* "" for Extra-P input */
  int sized;                      /* the series has one size (size below) */
  struct mv_msize_spec size;      /* total bytes, or bytes per process */
  int only_size;                  /* the only series of its function: no size label needed */
  size_t kernel;                  /* index of its series in the judged mv_kernels; SIZE_MAX: none */
  size_t npoints;                 /* distinct coordinates measured */
  int expected;                   /* an expectation applies: */
  struct mv_function expect;      /*   its big-O */
  int expect_line;                /*   its line in the expectation file */
  enum mv_judge_status status;
  struct mv_model model;          /* valid unless NOT_MODELED/NOT_MEASURED */
  int widened;                    /* the fit left the expectation's search space */
  struct mv_verdict verdict;      /* valid for EXACT, APPROX, MISMATCH */
  size_t nsegments;               /* regime changes: 0 = one model for the whole range */
  struct mv_model_segment segments[MV_JUDGE_MAX_SEGMENTS];
  struct mv_model whole;          /* with segments: the one function over the whole range that
                                   * they replace (model above is then a segment's) */
  char note[MV_JUDGE_TEXT];       /* why not modeled, poor fit, widened; "" when none */
};

/* A rule on one lhs judgement (same metric, size and library on both sides). */
struct mv_rule_judgement {
  char text[MV_JUDGE_TEXT];       /* "MPI_Allreduce <= MPI_Reduce + MPI_Bcast" */
  size_t lhs;                     /* index of the lhs judgement */
  char metric[MV_EXPECT_NAME_MAX];/* the lhs judgement's metric, size and parameter */
  int sized;
  struct mv_msize_spec size;
  char param[MV_PARAM_NAME_MAX];
  int evaluated;                  /* 0: a rhs function has no model (missing) */
  char missing[MV_EXPECT_NAME_MAX];
  struct mv_rule_verdict v;       /* when evaluated */
  int failed;                     /* evaluated and mv_rule_failed */
};

struct mv_judge_options {
  struct mv_fit_options fit;
  int unmeasured;                 /* add NOT_MEASURED judgements for expectations without data */
};

struct mv_judgements {
  struct mv_kernels ks;           /* the series; fill with mv_kernels_from_* before mv_judge */
  size_t n;
  struct mv_judgement *j;
  size_t nrules;
  struct mv_rule_judgement *rules;
  size_t cap_, rcap_;
};

void mv_judge_options_init(struct mv_judge_options *o);
void mv_judgements_init(struct mv_judgements *js);
void mv_judgements_release(struct mv_judgements *js);

/* Fill js->ks from a sorted data set with the one size rule (mv_kernels_from_dataset): the
 * per-process sizes are the msize=...p lines of ef (may be NULL) and pp[0..npp) (bytes). */
int mv_judge_load_dataset(struct mv_judgements *js, const struct mv_dataset *ds, int with_msize,
                          const struct mv_expect_file *ef, const int64_t *pp, size_t npp);
/* A modeled expectation the data could not decide (TOO_FEW), or no model at all. */
int mv_judgement_undecided(const struct mv_judgement *j);
/* Judge every series of js->ks (in order) against ef (may be NULL), then the rules of ef.
 * Returns 0 or MV_ENOMEM; a failed fit is a NOT_MODELED judgement, not an error. */
int mv_judge(struct mv_judgements *js, const struct mv_expect_file *ef,
             const struct mv_judge_options *o);

/* A model exists: EXACT, APPROX, MISMATCH, MODELED or TOO_FEW. */
int mv_judgement_modeled(const struct mv_judgement *j);
/* The match word: "exact", "approximate", "mismatch", "not modeled", "not measured", "too few
 * points to judge"; NULL for MODELED (no expectation). */
const char *mv_judge_status_name(enum mv_judge_status s);
/* 1 when an expectation was not met or could not be judged (mismatch, not modeled/measured,
 * too few points). */
int mv_judgement_failed(const struct mv_judgement *j);
/* fn (j's model or one of its segments) as text with the unit of j's metric, in which its
 * coefficients are: "1.2e-06 + 3e-07 * log2(p) [s]", "[B]" for bytes, no unit for other metrics.
 * Returns what mv_function_format returns. */
int mv_judgement_model_text(const struct mv_judgement *j, const struct mv_function *fn, char *buf,
                            size_t size);
/* "s", "B", or NULL for a metric without a unit (mv_units_of_metric). */
const char *mv_judgement_unit(const struct mv_judgement *j);
/* "800 B" or "800 B per process"; "" when not sized. */
void mv_judge_size_label(int sized, const struct mv_msize_spec *s, char *buf, size_t size);
/* The rule's detail: "leading order O(p) vs O(log p); lhs exceeds rhs from p = 64" or
 * "no model for MPI_Bcast". */
void mv_rule_judgement_detail(const struct mv_rule_judgement *r, char *buf, size_t size);
/* Status word of a rule: mv_rule_status_name, or "not evaluated". */
const char *mv_rule_judgement_status(const struct mv_rule_judgement *r);

/* The judgement's members into an open JSON object (docs/formats.md, "mpivet judgement"). */
void mv_judgement_write_json(struct mv_json *json, const struct mv_judgement *j);
/* A rule's members into an open JSON object. */
void mv_rule_judgement_write_json(struct mv_json *json, const struct mv_rule_judgement *r);

#endif
