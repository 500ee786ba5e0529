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

#define MV_REPORT_TEXT 256
#define MV_REPORT_INFO 512   /* a header line */

/* A measured point: location and spread of the repetitions at one process count. */
struct mv_report_point {
  double x;               /* nprocs */
  double median, q1, q3, min, max;
  size_t n;
};

/* NOT_MODELED: measured at too few process counts or the fit failed; NOT_MEASURED: no row at
 * all (e.g. memory under SMPI). Neither is a pass: the verdict is then INCOMPLETE. */
enum mv_report_status { MV_REPORT_MATCH = 0, MV_REPORT_APPROX = 1, MV_REPORT_MISMATCH = 2,
                        MV_REPORT_NOT_MODELED = 3, MV_REPORT_NOT_MEASURED = 4 };
#define MV_REPORT_NSTATUS 5
/* A fitted model exists (match, approximate or mismatch). */
#define MV_REPORT_MODELED(f) ((f)->status < MV_REPORT_NOT_MODELED)

struct mv_report_fn {
  char callpath[MV_EXPECT_NAME_MAX];   /* MPI_Bcast, or an impl id such as bcast_as_binomial */
  char label[MV_EXPECT_NAME_MAX];      /* column title: "Bcast", "Bcast (BT)" */
  char metric[MV_NAME_MAX];
  int64_t msize;                       /* bytes: the total, or per process */
  int per_process;                     /* rows with msize == bytes x nprocs ("800p") */
  char size[48];                       /* "800 B", "800 B per process" */
  char expectation[MV_REPORT_TEXT];    /* "O(log p)" */
  char model[MV_REPORT_TEXT];          /* full model "1.2e-06 + 3e-07 * log2(p)^(1)" */
  char lead[MV_REPORT_TEXT];           /* "O(log p)" */
  char divergence[MV_REPORT_TEXT];     /* "O(1)" */
  double ar2;                          /* NAN for a constant model */
  enum mv_report_status status;
  int rule_warning;                    /* a cross-function rule with this function failed */
  char note[MV_REPORT_TEXT];           /* why not modeled, etc. */
  struct mv_function fitted;           /* the model (valid unless NOT_MODELED) */
  size_t npoints;
  struct mv_report_point *points;
  /* curves sampled at ncurve x values (NAN where undefined): fitted model, expectation
   * anchored at the first measured point, and the deviation band E/D .. E*D around it */
  size_t ncurve;
  double *cx, *fit, *expect, *band_lo, *band_hi;
};

struct mv_report_rule {
  char text[MV_REPORT_TEXT];           /* "MPI_Allreduce <= MPI_Reduce + MPI_Bcast" */
  char metric[MV_NAME_MAX];
  int64_t msize;                       /* the functions' size, as in mv_report_fn */
  int per_process;
  char size[48];
  char status[64];                     /* mv_rule_status_name, or "not evaluated" */
  int failed;
  char detail[MV_REPORT_TEXT];
};

struct mv_report {
  char title[MV_REPORT_TEXT];
  char library[MV_NAME_MAX];
  char engine[MV_NAME_MAX];
  char info[4][MV_REPORT_INFO];        /* free lines for the header (platform, seed, ...) */
  size_t nfns;
  struct mv_report_fn *fns;
  size_t nrules;
  struct mv_report_rule *rules;
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
int mv_report_add_rule(struct mv_report *r, const struct mv_report_rule *rule);
/* Release the arrays of a function that was not added. */
void mv_report_fn_release(struct mv_report_fn *fn);

/* Build the functions and rules from a data set and an expectation file: per expectation and
 * message size, a PMNF model over nprocs in the expectation-driven search space, its verdict
 * and curves; then each rule on the fitted models of one size. An expectation with msize=S
 * models the rows of that size (800: msize 800; 800p: msize 800 x nprocs) as one function;
 * one without models every size measured: each per-process series (r->pp_sizes and the
 * msize=...p lines of ef) as one function, every other total as one. */
int mv_report_build(struct mv_report *r, struct mv_dataset *ds, const struct mv_expect_file *ef);

/* "800 B" or "800 B per process". */
void mv_report_size_label(int64_t bytes, int per_process, char *buf, size_t size);

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
  char error[1024];
};
void mv_check_analysis_init(struct mv_check_analysis *a);
void mv_check_analysis_release(struct mv_check_analysis *a);
/* Load results.csv and the expectation file, build the report and evaluate the guideline
 * catalog (NULL: the installed one) at the largest process count. a->error on failure. */
int mv_check_analyze(struct mv_check_analysis *a, const char *results, const char *expect,
                     const char *catalog);

#endif
