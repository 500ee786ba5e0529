/* Performance non-regression: new results against a baseline. Per (op, impl, metric, msize,
 * nprocs) a one-sided Wilcoxon rank-sum test on launch medians asks whether NEW is slower than
 * OLD * (1 + tolerance) (on deterministic data, SMPI or identical launches, the median ratio
 * alone; a case too small for any test at alpha is "undecidable", never a pass); per (op, impl,
 * metric, msize) a model-based check asks whether the growth class in p worsened. Reports as text, JSON and JUnit XML (one testcase per case). */
#ifndef MPIVET_REGRESS_H
#define MPIVET_REGRESS_H

#include <stdint.h>
#include <stdio.h>
#include "mpivet/dataset.h"
#include "mpivet/stats.h"

struct mv_regress_options {
  double tolerance;             /* relative slack, default 0.05 */
  double alpha;                 /* significance of each test, default 0.05 */
  double tukey_k;               /* outlier fences inside a launch, default 1.5 (0: off) */
  int min_launches;             /* fewer launches on a side: test all repetitions, default 4 */
  enum mv_correction correction;/* across the point cases, default none */
  int growth;                   /* 1: also the model-based growth check (default) */
};

enum mv_regress_kind { MV_REGRESS_POINT = 0, MV_REGRESS_GROWTH = 1 };

enum mv_regress_status {
  MV_REGRESS_PASS = 0,
  MV_REGRESS_SLOWER = 1,        /* significantly slower than baseline * (1 + tol) */
  MV_REGRESS_WORSE_GROWTH = 2,  /* growth class worsened and visible at the measured scale */
  MV_REGRESS_SKIPPED = 3,       /* no baseline for this case, or too few points to model */
  MV_REGRESS_UNDECIDABLE = 4    /* too few samples for any test at alpha: never a pass */
};

struct mv_regress_case {
  enum mv_regress_kind kind;
  enum mv_regress_status status;
  char op[MV_NAME_MAX];
  char impl[MV_NAME_MAX];
  char metric[MV_NAME_MAX];
  int64_t msize;
  int nprocs;                   /* point cases; 0 for growth cases */
  size_t n_new, n_old;          /* samples tested (launch medians or repetitions) */
  int per_launch;               /* 1: launch medians, 0: repetitions */
  int deterministic;            /* 1: decided on the ratio alone (SMPI, or identical launches) */
  double median_new, median_old, ratio;
  double p_value, p_adjusted;   /* NAN when not tested */
  char model_new[160], model_old[160];   /* growth cases: leading terms */
  char message[512];
};

struct mv_regress_report {
  size_t n;
  struct mv_regress_case *cases;
  size_t cap_;                    /* allocated cases (mv_grow) */
  size_t n_failed, n_skipped, n_undecidable;
  double tolerance, alpha;
};

void mv_regress_options_init(struct mv_regress_options *o);
void mv_regress_report_init(struct mv_regress_report *r);
void mv_regress_report_release(struct mv_regress_report *r);

/* Compare every case of cur with base. Groups are matched by (op, impl, metric, msize, nprocs)
 * whatever the library and engine. */
int mv_regress_compare(struct mv_dataset *cur, struct mv_dataset *base,
                       const struct mv_regress_options *o, struct mv_regress_report *r);

/* "MPI_Bcast msize=800 np=64" or "MPI_Bcast[impl] time_s msize=800 growth". */
void mv_regress_case_name(const struct mv_regress_case *c, char *buf, size_t size);

int mv_regress_write_text(const struct mv_regress_report *r, FILE *fp);
int mv_regress_write_json(const struct mv_regress_report *r, FILE *fp);
/* JUnit XML: one <testsuite name=suite>, one <testcase> per case, <failure> for a regression,
 * <skipped/> for a skipped case. */
int mv_regress_write_junit(const struct mv_regress_report *r, const char *suite, FILE *fp);

#endif
