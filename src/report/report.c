/* The report structure: functions and rules, the overall verdict, and writing the three report
 * files of a campaign folder atomically (util/atomic.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/atomic.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/report.h"
#include "internal.h"

void mv_report_init(struct mv_report *r)
{
  memset(r, 0, sizeof *r);
}

void mv_report_fn_release(struct mv_report_fn *fn)
{
  free(fn->points);
  free(fn->cx);   /* one block holds every curve */
  fn->points = NULL;
  fn->cx = fn->fit = fn->expect = fn->band_lo = fn->band_hi = NULL;
  fn->npoints = fn->ncurve = 0;
}

void mv_report_release(struct mv_report *r)
{
  for (size_t i = 0; i < r->nfns; i++)
    mv_report_fn_release(&r->fns[i]);
  free(r->fns);
  free(r->rules);
  mv_report_init(r);
}

int mv_report_add_fn(struct mv_report *r, const struct mv_report_fn *fn)
{
  if (mv_grow(&r->fns, &r->cap_fns_, r->nfns + 1, sizeof *r->fns, 16) < 0)
    return MV_ENOMEM;
  r->fns[r->nfns++] = *fn;
  r->n_mismatch += fn->j.status == MV_JUDGE_MISMATCH;
  r->n_incomplete += mv_judgement_undecided(&fn->j);
  return 0;
}

int mv_report_add_rule(struct mv_report *r, const struct mv_rule_judgement *rule)
{
  if (mv_grow(&r->rules, &r->cap_rules_, r->nrules + 1, sizeof *r->rules, 8) < 0)
    return MV_ENOMEM;
  r->rules[r->nrules++] = *rule;
  r->n_rules_failed += rule->failed != 0;
  return 0;
}

int mv_report_failed(const struct mv_report *r)
{
  return r->n_mismatch > 0 || r->n_rules_failed > 0 || r->n_gl_violations > 0;
}

const char *mv_report_verdict(const struct mv_report *r)
{
  return mv_report_failed(r) ? "FAIL" : r->n_incomplete ? "INCOMPLETE" : "PASS";
}

typedef int (*writer_fn)(const struct mv_report *, FILE *);

static int write_one(const struct mv_report *r, const char *dir, const char *name, writer_fn fn)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct mv_atomic_file f;
  int rc = mv_atomic_open(&f, path);
  if (rc < 0)
    return MV_EIO;
  rc = fn(r, f.fp);
  if (rc) {
    mv_atomic_abort(&f);
    return rc;
  }
  return mv_atomic_commit(&f);
}

int mv_report_write_all(const struct mv_report *r, const char *dir)
{
  static const struct { const char *name; writer_fn fn; } files[] = {
    {"report.txt", mv_report_write_text},
    {"report.json", mv_report_write_json},
    {"report.html", mv_report_write_html},
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    int rc = write_one(r, dir, files[i].name, files[i].fn);
    if (rc)
      return rc;
  }
  return 0;
}

void mv__fn_texts(const struct mv_report_fn *f, struct mv__fn_texts *t)
{
  const struct mv_judgement *j = &f->j;
  int modeled = mv_judgement_modeled(j), judged = modeled && j->expected;
  strcpy(t->expectation, "-");
  if (j->expected)
    mv_bigo_format(&j->expect, t->expectation, sizeof t->expectation);
  t->model[0] = '\0';
  if (modeled)
    mv_judgement_model_text(j, &j->model.fn, t->model, sizeof t->model);
  strcpy(t->lead, "-");
  strcpy(t->divergence, "-");
  if (judged) {
    mv_bigo_format(&j->verdict.lead, t->lead, sizeof t->lead);
    mv_bigo_format(&j->verdict.divergence, t->divergence, sizeof t->divergence);
  }
  strcpy(t->ar2, "-");
  if (modeled && !isnan(j->model.ar2))
    snprintf(t->ar2, sizeof t->ar2, "%.2f", j->model.ar2);
}
