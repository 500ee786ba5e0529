/* report.json: the same content as report.txt for machines — per function the expectation,
 * model, adjusted R^2, divergence, match and measured points; the rules; the guideline verdicts. */
#include <stdio.h>
#include <string.h>

#include "mpivet/json.h"
#include "mpivet/report.h"

static const char *const status_names[MV_REPORT_NSTATUS] = {"exact", "approximate", "mismatch",
                                                            "not modeled", "not measured"};

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

static void write_fn(struct mv_json *j, const struct mv_report_fn *f)
{
  mv_json_object_begin(j);
  mv_json_kv_string(j, "function", f->callpath);
  mv_json_kv_string(j, "label", f->label);
  mv_json_kv_string(j, "metric", f->metric);
  mv_json_kv_int(j, "msize", f->msize);
  mv_json_key(j, "per_process");
  mv_json_bool(j, f->per_process);
  mv_json_kv_string(j, "size", f->size);
  mv_json_kv_string(j, "expectation", f->expectation);
  int modeled = MV_REPORT_MODELED(f);
  mv_json_kv_string(j, "model", modeled ? f->model : NULL);
  mv_json_kv_string(j, "leading_order", modeled ? f->lead : NULL);
  mv_json_kv_number(j, "adjusted_r2", f->ar2);
  mv_json_kv_string(j, "divergence", modeled ? f->divergence : NULL);
  mv_json_kv_string(j, "match", status_names[f->status]);
  mv_json_key(j, "rule_warning");
  mv_json_bool(j, f->rule_warning);
  mv_json_kv_string(j, "note", f->note[0] ? f->note : NULL);
  write_points(j, f);
  mv_json_object_end(j);
}

static void write_rules(struct mv_json *j, const struct mv_report *r)
{
  mv_json_key(j, "rules");
  mv_json_array_begin(j);
  for (size_t i = 0; i < r->nrules; i++) {
    const struct mv_report_rule *x = &r->rules[i];
    mv_json_object_begin(j);
    mv_json_kv_string(j, "rule", x->text);
    mv_json_kv_string(j, "metric", x->metric);
    mv_json_kv_int(j, "msize", x->msize);
    mv_json_key(j, "per_process");
    mv_json_bool(j, x->per_process);
    mv_json_kv_string(j, "size", x->size);
    mv_json_kv_string(j, "status", x->status);
    mv_json_key(j, "failed");
    mv_json_bool(j, x->failed);
    mv_json_kv_string(j, "detail", x->detail);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

int mv_report_write_json(const struct mv_report *r, FILE *fp)
{
  struct mv_json j;
  mv_json_init(&j, fp, 1);
  mv_json_object_begin(&j);
  mv_json_kv_string(&j, "format", "mpivet-report 1");
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
