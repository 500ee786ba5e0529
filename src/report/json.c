/* report.json: the same content as report.txt for machines — per function its judgement
 * (expectation, model, adjusted R^2, divergence, match, note) and measured points; the rules;
 * the guideline verdicts. */
#include <stdio.h>
#include <string.h>

#include "mpivet/json.h"
#include "mpivet/judge.h"
#include "mpivet/report.h"

static void write_points(struct mv_json *j, const struct mv_report_fn *f)
{
  mv_json_key(j, "points");
  mv_json_array_begin(j);
  for (size_t i = 0; i < f->npoints; i++) {
    const struct mv_report_point *p = &f->points[i];
    mv_json_object_begin(j);
    mv_json_kv_number(j, "nprocs", p->x);
    mv_json_kv_int(j, "n", (long long)p->n);
    mv_json_kv_number(j, "median", p->median);
    mv_json_kv_number(j, "q1", p->q1);
    mv_json_kv_number(j, "q3", p->q3);
    mv_json_kv_number(j, "min", p->min);
    mv_json_kv_number(j, "max", p->max);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

/* A function: the judgement (mpivet/judge.h, one vocabulary with `mpivet model --json`), then
 * what the report adds: its column title, the rule warning and the measured points. */
static void write_fn(struct mv_json *j, const struct mv_report_fn *f)
{
  mv_json_object_begin(j);
  mv_judgement_write_json(j, &f->j);
  mv_json_kv_string(j, "label", f->label);
  mv_json_key(j, "rule_warning");
  mv_json_bool(j, f->rule_warning);
  write_points(j, f);
  mv_json_object_end(j);
}

static void write_rules(struct mv_json *j, const struct mv_report *r)
{
  mv_json_key(j, "rules");
  mv_json_array_begin(j);
  for (size_t i = 0; i < r->nrules; i++) {
    mv_json_object_begin(j);
    mv_rule_judgement_write_json(j, &r->rules[i]);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

int mv_report_write_json(const struct mv_report *r, FILE *fp)
{
  struct mv_json j;
  mv_json_document_begin(&j, fp, 1, MV_JSON_REPORT);
  mv_json_kv_string(&j, "title", r->title);
  mv_json_kv_string(&j, "library", r->library);
  mv_json_kv_string(&j, "engine", r->engine);
  mv_json_key(&j, "info");
  mv_json_array_begin(&j);
  for (int i = 0; i < 4; i++)
    if (r->info[i][0])
      mv_json_string(&j, r->info[i]);
  mv_json_array_end(&j);
  mv_json_kv_string(&j, "verdict", mv_report_failed(r) ? "fail" : r->n_incomplete ? "incomplete"
                                                                                : "pass");
  mv_json_kv_int(&j, "mismatches", (long long)r->n_mismatch);
  mv_json_kv_int(&j, "rules_failed", (long long)r->n_rules_failed);
  mv_json_kv_int(&j, "guideline_violations", (long long)r->n_gl_violations);
  mv_json_kv_int(&j, "not_judged", (long long)r->n_incomplete);
  mv_json_key(&j, "functions");
  mv_json_array_begin(&j);
  for (size_t i = 0; i < r->nfns; i++)
    write_fn(&j, &r->fns[i]);
  mv_json_array_end(&j);
  write_rules(&j, r);
  if (r->gl) {
    mv_json_kv_int(&j, "guidelines_nprocs", r->gl_nprocs);
    mv_json_key(&j, "guidelines");
    mv_gl_write_json(r->gl, &j);
  }
  mv_json_object_end(&j);
  return mv_json_finish(&j);
}
