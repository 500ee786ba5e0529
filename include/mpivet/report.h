/* The validation report of a campaign: per function the fitted model next to its expectation
 * (the scalability-validation paper's Tables 4 and 5: model, adjusted R^2, divergence, match),
 * the cross-function rules, the guideline summary at the largest process count, and the points
 * and curves to plot. Written as report.txt, report.json and one self-contained report.html. */
#ifndef MPIVET_REPORT_H
#define MPIVET_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mpivet/dataset.h"
#include "mpivet/expect.h"
#include "mpivet/guidelines.h"
#include "mpivet/judge.h"

#define MV_REPORT_TEXT 256
#define MV_REPORT_INFO 512   /* a header line */

/* A measured point: location and spread of the repetitions at one process count. */
struct mv_report_point {
  double x;               /* nprocs */
  double median, q1, q3, min, max;
  size_t n;
};

/* A function of the report: the judgement of one expectation at one size (mpivet/judge.h:
 * NOT_MODELED and NOT_MEASURED are no pass, the verdict is then INCOMPLETE), its column title,
 * its measured points and the curves to plot. */
struct mv_report_fn {
  struct mv_judgement j;               /* function, metric, size, expectation, model, verdict, note */
  char label[MV_JUDGE_NAME];           /* column title: "Bcast", "Bcast (BT)" */
  char size[48];                       /* "800 B", "800 B per process" (mv_judge_size_label) */
  int rule_warning;                    /* a cross-function rule with this function failed */
  size_t npoints;
  struct mv_report_point *points;
  /* curves sampled at ncurve x values (NAN where undefined): fitted model, expectation
   * anchored at the first measured point, and the deviation band E/D .. E*D around it */
  size_t ncurve;
  double *cx, *fit, *expect, *band_lo, *band_hi;
};

struct mv_report {
  char title[MV_REPORT_TEXT];
  char library[MV_NAME_MAX];
  char engine[MV_NAME_MAX];
  char info[4][MV_REPORT_INFO];        /* free lines for the header (platform, seed, ...) */
  size_t nfns;
  struct mv_report_fn *fns;
  size_t nrules;
  struct mv_rule_judgement *rules;     /* lhs: index into fns, SIZE_MAX when not in the report */
  size_t cap_fns_, cap_rules_;         /* allocated (mv_grow) */
  /* guideline verdicts at gl_nprocs (NULL when not evaluated); not owned */
  const struct mv_gl_report *gl;
  const struct mv_catalog *catalog;
  int gl_nprocs;
  size_t n_mismatch, n_rules_failed, n_gl_violations;
  size_t n_incomplete;                 /* functions not modeled or not measured */
  /* in: sizes per process the campaign measured (bytes), so that an expectation without
   * msize= models each such series as one function, as it does for msize=...p lines */
  int64_t pp_sizes[16];
  size_t n_pp_sizes;
};

void mv_report_init(struct mv_report *r);
void mv_report_release(struct mv_report *r);

/* Append a function (copied except the arrays, which the report takes over) or a rule. */
int mv_report_add_fn(struct mv_report *r, const struct mv_report_fn *fn);
int mv_report_add_rule(struct mv_report *r, const struct mv_rule_judgement *rule);
/* Release the arrays of a function that was not added. */
void mv_report_fn_release(struct mv_report_fn *fn);

/* Build the functions and rules from a data set and an expectation file with mv_judge (every
 * expectation, also those without rows, in the file's order, msize= lines first), with the
 * points and curves to plot. An expectation with msize=S judges the series of that size (800:
 * msize 800; 800p: msize 800 x nprocs); one without judges every size measured: each
 * per-process series (r->pp_sizes and the msize=...p lines of ef) as one, every other total. */
int mv_report_build(struct mv_report *r, struct mv_dataset *ds, const struct mv_expect_file *ef);

/* 1 when any verdict failed: a mismatch, a failed rule or a guideline violation. */
int mv_report_failed(const struct mv_report *r);
/* "FAIL" when a verdict failed, else "INCOMPLETE" when an expectation could not be judged (not
 * measured or not modeled), else "PASS". */
const char *mv_report_verdict(const struct mv_report *r);

int mv_report_write_text(const struct mv_report *r, FILE *fp);
int mv_report_write_json(const struct mv_report *r, FILE *fp);
/* One HTML page, no external resources: a summary table and an inline SVG plot per function. */
int mv_report_write_html(const struct mv_report *r, FILE *fp);
/* report.txt, report.json and report.html into dir (each written to a temporary, renamed). */
int mv_report_write_all(const struct mv_report *r, const char *dir);

/* ---- the analysis of a campaign, as `mpivet check` runs it ---- */
struct mv_check_analysis {
  struct mv_dataset ds;          /* every row */
  struct mv_dataset top;         /* rows at the largest process count */
  struct mv_expect_file expect;
  struct mv_catalog catalog;
  struct mv_gl_report gl;
  struct mv_report report;
  int skip_memory;               /* in: drop mem_bytes/rss_bytes expectations (engine cannot measure) */
  int64_t pp_sizes[16];          /* in: sizes per process of the campaign (report.pp_sizes) */
  size_t n_pp_sizes;
  size_t n_skipped;              /* out: how many were dropped */
};
void mv_check_analysis_init(struct mv_check_analysis *a);
void mv_check_analysis_release(struct mv_check_analysis *a);
/* Load results.csv and the expectation file, build the report and evaluate the guideline
 * catalog (NULL: the installed one) at the largest process count. e gets the reason of a
 * failure. */
int mv_check_analyze(struct mv_check_analysis *a, const char *results, const char *expect,
                     const char *catalog, struct mv_error *e);

#endif
