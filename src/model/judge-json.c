/* The words and the JSON of a judgement ("mpivet judgement", docs/formats.md): one writer for
 * `mpivet model --json` and report.json, so that both say the same thing the same way. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/json.h"
#include "mpivet/judge.h"
#include "mpivet/units.h"

static const char *const status_names[MV_JUDGE_NSTATUS] = {
  "exact", "approximate", "mismatch", "not modeled", "not measured", NULL,
  "too few points to judge"};

const char *mv_judge_status_name(enum mv_judge_status s)
{
  return (unsigned)s < MV_JUDGE_NSTATUS ? status_names[s] : NULL;
}

int mv_judgement_modeled(const struct mv_judgement *j)
{
  return j->status <= MV_JUDGE_MISMATCH || j->status == MV_JUDGE_MODELED ||
         j->status == MV_JUDGE_TOO_FEW;
}

int mv_judgement_undecided(const struct mv_judgement *j)
{
  return !mv_judgement_modeled(j) || j->status == MV_JUDGE_TOO_FEW;
}

int mv_judgement_failed(const struct mv_judgement *j)
{
  return j->expected && j->status != MV_JUDGE_EXACT && j->status != MV_JUDGE_APPROX;
}

/* Sizes name series, so a label is exact: the largest binary unit that divides the size
 * (65536 -> "64 KiB", 1048576 -> "1 MiB"), bytes otherwise ("1500 B", "800 B"); the unit names
 * are mv_units_format's. */
void mv_judge_size_label(int sized, const struct mv_msize_spec *s, char *buf, size_t size)
{
  long long v = (long long)s->bytes, unit = 1;
  if (!sized) {
    snprintf(buf, size, "%s", "");
    return;
  }
  while (unit < (1LL << 30) && v >= unit * 1024 && v % (unit * 1024) == 0)
    unit *= 1024;
  char name[MV_UNITS_SIZE];   /* "1 KiB" -> " KiB": the unit mv_units_format names */
  mv_units_format(MV_UNIT_BYTES, (double)unit, name, sizeof name);
  snprintf(buf, size, "%lld%s%s", v / unit, strchr(name, ' '),
           s->per_process ? " per process" : "");
}

const char *mv_judgement_unit(const struct mv_judgement *j)
{
  switch (mv_units_of_metric(j->metric)) {
  case MV_UNIT_SECONDS: return "s";
  case MV_UNIT_BYTES: return "B";
  default: return NULL;
  }
}

int mv_judgement_model_text(const struct mv_judgement *j, const struct mv_function *fn, char *buf,
                            size_t size)
{
  const char *unit = mv_judgement_unit(j);
  int n = mv_function_format(fn, buf, size);
  if (n > 0 && unit && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, " [%s]", unit);
  return n;
}

static void write_function(struct mv_json *json, const struct mv_function *f)
{
  char buf[1024];
  mv_function_format(f, buf, sizeof buf);
  mv_json_kv_string(json, "model", buf);
  mv_json_kv_number(json, "constant", f->constant);
  mv_json_key(json, "terms");
  mv_json_array_begin(json);
  for (int t = 0; t < f->nterms; t++) {
    mv_json_object_begin(json);
    mv_json_kv_number(json, "coefficient", f->terms[t].coef);
    mv_json_key(json, "factors");
    mv_json_array_begin(json);
    for (int k = 0; k < f->terms[t].nfactors; k++) {
      const struct mv_factor *fa = &f->terms[t].f[k];
      mv_json_object_begin(json);
      mv_json_kv_string(json, "param", f->params[fa->param]);
      mv_json_kv_number(json, "poly", fa->poly);
      mv_json_kv_number(json, "log", fa->log);
      if (fa->exp2 != 0)
        mv_json_kv_number(json, "exp2", fa->exp2);
      mv_json_object_end(json);
    }
    mv_json_array_end(json);
    mv_json_object_end(json);
  }
  mv_json_array_end(json);
}

static void write_segments(struct mv_json *json, const struct mv_judgement *j)
{
  mv_json_key(json, "segments");
  mv_json_array_begin(json);
  for (size_t i = 0; i < j->nsegments; i++) {
    mv_json_object_begin(json);
    mv_json_kv_number(json, "from", j->segments[i].from);
    mv_json_kv_number(json, "to", j->segments[i].to);
    write_function(json, &j->segments[i].fn);
    mv_json_object_end(json);
  }
  mv_json_array_end(json);
  /* the one function the segments replace: what a one-function modeler (Extra-P's default)
   * answers for the same series, and how far off it is */
  mv_json_key(json, "whole_range");
  mv_json_object_begin(json);
  write_function(json, &j->whole.fn);
  mv_json_kv_number(json, "smape", j->whole.smape);
  mv_json_object_end(json);
}

static void write_size(struct mv_json *json, int sized, const struct mv_msize_spec *s)
{
  char label[64];
  if (sized)
    mv_json_kv_int(json, "msize", s->bytes);
  else
    mv_json_kv_string(json, "msize", NULL);
  mv_json_key(json, "per_process");
  if (sized)
    mv_json_bool(json, s->per_process);
  else
    mv_json_null(json);
  mv_judge_size_label(sized, s, label, sizeof label);
  mv_json_kv_string(json, "size", sized ? label : NULL);
}

/* The model's members, null when there is none. */
static void write_model(struct mv_json *json, const struct mv_judgement *j)
{
  char buf[512];
  struct mv_function lead;
  if (!mv_judgement_modeled(j)) {
    static const char *const keys[] = {"model", "constant", "terms", "leading_order",
                                       "adjusted_r2", "smape"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      mv_json_kv_string(json, keys[i], NULL);
    return;
  }
  write_function(json, &j->model.fn);
  if (j->expected)
    lead = j->verdict.lead;
  else
    mv_function_leading(&j->model.fn, &lead);
  mv_bigo_format(&lead, buf, sizeof buf);
  mv_json_kv_string(json, "leading_order", buf);
  mv_json_kv_number(json, "adjusted_r2", j->model.ar2);
  mv_json_kv_number(json, "smape", j->model.smape);
}

void mv_judgement_write_json(struct mv_json *json, const struct mv_judgement *j)
{
  char buf[512];
  mv_json_kv_string(json, "function", j->function);
  mv_json_kv_string(json, "metric", j->metric);
  mv_json_kv_string(json, "unit", mv_judgement_unit(j));
  mv_json_kv_string(json, "library", j->library);
  write_size(json, j->sized, &j->size);
  if (j->expected)
    mv_bigo_format(&j->expect, buf, sizeof buf);
  mv_json_kv_string(json, "expectation", j->expected ? buf : NULL);
  write_model(json, j);
  int judged = j->expected && j->status <= MV_JUDGE_MISMATCH;
  if (judged)
    mv_bigo_format(&j->verdict.divergence, buf, sizeof buf);
  mv_json_kv_string(json, "divergence", judged ? buf : NULL);
  mv_json_kv_string(json, "match", mv_judge_status_name(j->status));
  mv_json_key(json, "widened");
  mv_json_bool(json, j->widened);
  if (j->nsegments)
    write_segments(json, j);
  mv_json_kv_string(json, "note", j->note[0] ? j->note : NULL);
}

void mv_rule_judgement_write_json(struct mv_json *json, const struct mv_rule_judgement *r)
{
  char detail[MV_JUDGE_TEXT];
  mv_json_kv_string(json, "rule", r->text);
  mv_json_kv_string(json, "metric", r->metric);
  write_size(json, r->sized, &r->size);
  mv_json_kv_string(json, "status", mv_rule_judgement_status(r));
  mv_json_key(json, "failed");
  mv_json_bool(json, r->failed);
  mv_json_kv_number(json, "crossover", r->evaluated ? r->v.crossover : (double)NAN);
  mv_rule_judgement_detail(r, detail, sizeof detail);
  mv_json_kv_string(json, "detail", detail);
}
