/* Self-consistent MPI performance guidelines (PGMPI, Hunold et al.): the guideline catalog
 * (share/mpivet/guidelines.catalog), verdicts computed from a results.csv data set with sound
 * statistics (one-sided rank-sum or KS tests, multiple-testing correction), and the reports. */
#ifndef MPIVET_GUIDELINES_H
#define MPIVET_GUIDELINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mpivet/dataset.h"
#include "mpivet/json.h"
#include "mpivet/results.h"
#include "mpivet/stats.h"

#define MV_GL_ID_MAX 16
#define MV_GL_MAX_OPS 32

/* ---- catalog ---- */
enum mv_gl_type { MV_GL_MONOTONY = 0, MV_GL_SPLIT = 1, MV_GL_PATTERN = 2 };

struct mv_guideline {
  char id[MV_GL_ID_MAX];                 /* "GL12" */
  enum mv_gl_type type;
  int line;                              /* line in the catalog file */
  size_t nops;                           /* monotony/split: functions checked; pattern: 1 */
  char ops[MV_GL_MAX_OPS][MV_NAME_MAX];  /* pattern: ops[0] is the specialised function */
  char mockup[MV_NAME_MAX];              /* pattern: impl id of the mock-up in results.csv */
  char parts[MV_NAME_MAX];               /* pattern: "MPI_Reduce+MPI_Bcast" */
};

struct mv_catalog {
  size_t n;
  struct mv_guideline *items;
  size_t cap_;                           /* allocated items (mv_grow) */
};

void mv_catalog_init(struct mv_catalog *cat);
void mv_catalog_release(struct mv_catalog *cat);
/* Parse catalog text (len bytes, need not be NUL-terminated); name is used in errors, which go to
 * e ("name:line:column", "expected ..."). */
int mv_catalog_parse(struct mv_catalog *cat, const char *text, size_t len, const char *name,
                     struct mv_error *e);
/* Read and parse a catalog file; NULL loads the installed share/mpivet/guidelines.catalog. */
int mv_catalog_load(struct mv_catalog *cat, const char *path, struct mv_error *e);
/* Number of guidelines of a type. */
size_t mv_catalog_count(const struct mv_catalog *cat, enum mv_gl_type type);
/* "MPI_Allreduce <= Reduce+Bcast" for a pattern guideline, the function name otherwise. */
void mv_guideline_label(const struct mv_guideline *gl, char *buf, size_t size);

/* ---- options ---- */
enum mv_gl_per { MV_GL_PER_LAUNCH = 0, MV_GL_PER_RAW = 1 };
enum mv_gl_test { MV_GL_TEST_RANKSUM = 0, MV_GL_TEST_KS = 1 };
/* Deterministic data (a simulator such as SMPI gives identical timings in every launch): a
 * rank-sum test on R tied launch medians cannot reach significance, so the comparison is
 * decided on the slowdown alone (slowdown > min_slowdown). auto: when the engine is smpi or
 * both sides have >= 2 launches whose medians are all identical (relative spread <= 1e-9);
 * on: always; off: never. */
enum mv_gl_det { MV_GL_DET_AUTO = 0, MV_GL_DET_ON = 1, MV_GL_DET_OFF = 2 };

struct mv_gl_options {
  double alpha;                   /* significance level, default 0.05 */
  enum mv_gl_per per;             /* test the R launch medians (default) or raw repetitions */
  enum mv_gl_test test;           /* rank-sum (default) or Kolmogorov-Smirnov */
  enum mv_test_method method;     /* rank-sum: MV_TEST_AUTO (R's default) or EXACT/NORMAL */
  enum mv_correction correction;  /* family = the tests of one configuration; default BH */
  double tukey_k;                 /* Tukey fence factor before the medians; 0 = no filter */
  double split_tolerance;         /* split-robustness tolerance, default 0.05 */
  double min_slowdown;            /* a significant test is a violation only when the slowdown
                                     exceeds this, default 1.01 (1 = PGMPI); deterministic
                                     comparisons are violations when the slowdown exceeds it */
  enum mv_gl_det deterministic;   /* default auto */
  char metric[MV_NAME_MAX];       /* "time_s" */
};

void mv_gl_options_init(struct mv_gl_options *opt);
/* Names used in reports and on the command line: "launch"/"raw", "ranksum"/"ks",
 * "none"/"holm"/"bh", "auto"/"on"/"off". Parsers return 0 or MV_EINVAL. */
const char *mv_gl_per_name(enum mv_gl_per per);
const char *mv_gl_test_name(enum mv_gl_test test);
const char *mv_gl_correction_name(enum mv_correction c);
int mv_gl_parse_per(const char *s, enum mv_gl_per *out);
int mv_gl_parse_test(const char *s, enum mv_gl_test *out);
int mv_gl_parse_correction(const char *s, enum mv_correction *out);
const char *mv_gl_det_name(enum mv_gl_det det);
int mv_gl_parse_det(const char *s, enum mv_gl_det *out);
const char *mv_gl_type_name(enum mv_gl_type type);   /* "monotony", "split", "pattern" */

/* ---- verdicts ---- */
/* One comparison. pattern: op(msize) <= mockup(msize); monotony: op(msize_small) <= op(msize)
 * for adjacent sizes; split: op(msize) <= k * op(msize_small) (only violations are kept, and
 * per msize only the largest violating msize_small). */
struct mv_gl_check {
  enum mv_gl_type type;
  char guideline[MV_GL_ID_MAX];
  char op[MV_NAME_MAX];
  char mockup[MV_NAME_MAX];       /* pattern only, "" otherwise */
  size_t config;                  /* index into report->configs */
  int64_t msize;                  /* the message size (monotony/split: the larger one) */
  int64_t msize_small;            /* monotony/split: the smaller size; -1 for pattern */
  int k;                          /* split: ceil(msize / msize_small); 0 otherwise */
  size_t n, n_ref;                /* sample sizes (launches or repetitions) */
  double median;                  /* location of the side that should be faster */
  double median_ref;              /* its bound: mock-up, larger size, or k * smaller size */
  double slowdown;                /* median / median_ref */
  double statistic;               /* W (rank-sum) or D (KS); NaN for split and deterministic */
  double p_raw;                   /* unadjusted p-value; NaN for split and deterministic */
  double p_value;                 /* adjusted p-value; NaN for split and deterministic */
  int deterministic;              /* decided on the slowdown alone, without a test */
  int undecidable;                /* too few values for the test to reach alpha: no verdict */
  int violated;
};

struct mv_gl_config_summary {
  char library[MV_NAME_MAX];
  char engine[MV_NAME_MAX];
  int nprocs;
  int launches;                   /* largest number of launches seen in a group */
  size_t tests;                   /* statistical tests in the family (pattern + monotony) */
  size_t deterministic;           /* pattern + monotony comparisons decided on the slowdown */
  size_t untested;                /* comparisons skipped: no value on a side */
  size_t undecidable;             /* comparisons whose test cannot reach alpha (too few values) */
  /* functions (monotony, split) or guidelines (pattern) with >= 1 violation / evaluated */
  size_t violated[3], evaluated[3];
};

struct mv_gl_report {
  struct mv_gl_options options;
  size_t nchecks, nconfigs;
  struct mv_gl_check *checks;
  struct mv_gl_config_summary *configs;
  size_t cap_checks_, cap_configs_;
  size_t nviolations;
  size_t nundecidable;            /* over every configuration */
  size_t ndecided;                /* pattern and monotony comparisons decided (test or slowdown) */
};

void mv_gl_report_init(struct mv_gl_report *rep);
void mv_gl_report_release(struct mv_gl_report *rep);
/* Evaluate every catalog guideline on ds (sorted in place) for each configuration
 * (library, engine, nprocs) found with metric opt->metric. */
int mv_gl_evaluate(const struct mv_catalog *cat, struct mv_dataset *ds,
                   const struct mv_gl_options *opt, struct mv_gl_report *rep);

/* ---- reports ---- */
/* Text: settings, summaries (x/9 monotony, x/9 split, x/15 pattern), violations, the
 * guideline x message-size grid per configuration and, with several configurations, the
 * pattern guideline x configuration matrix. Returns MV_EIO on a stream error. */
int mv_gl_write_text(const struct mv_gl_report *rep, const struct mv_catalog *cat, FILE *fp);
/* JSON value {"violations": [...], "summary": {...}} written into j (embeddable). */
void mv_gl_write_json(const struct mv_gl_report *rep, struct mv_json *j);
/* The same keys as a document of its own on fp, after the JSON head ("format":
 * "mpivet-guidelines", "version"); returns MV_EIO on a stream error. */
int mv_gl_write_json_document(const struct mv_gl_report *rep, FILE *fp);

#endif
