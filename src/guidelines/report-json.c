/* JSON guideline report for machines: {"violations": [...], "summary": {...}}, embedded in
 * report.json, or a document of its own with the JSON head for `mpivet guidelines --json`. The first keys
 * of a violation are those of the contract (type, op, mockup, msize, msize_small,
 * p_value, slowdown, stars); the rest add context ("test": ranksum, ks, or deterministic when
 * the slowdown alone decided). NaN (split, deterministic: no test) is written as null. */
#include <math.h>

#include "mpivet/guidelines.h"

static void write_violation(const struct mv_gl_report *rep, const struct mv_gl_check *ck,
                            struct mv_json *j)
{
  const struct mv_gl_config_summary *cs = &rep->configs[ck->config];
  mv_json_object_begin(j);
  mv_json_kv_string(j, "type", mv_gl_type_name(ck->type));
  mv_json_kv_string(j, "op", ck->op);
  mv_json_kv_string(j, "mockup", ck->type == MV_GL_PATTERN ? ck->mockup : NULL);
  mv_json_kv_int(j, "msize", ck->msize);
  mv_json_key(j, "msize_small");
  if (ck->msize_small >= 0)
    mv_json_int(j, ck->msize_small);
  else
    mv_json_null(j);
  mv_json_kv_number(j, "p_value", ck->p_value);
  mv_json_kv_number(j, "slowdown", ck->slowdown);
  mv_json_kv_string(j, "stars", isnan(ck->p_value) ? NULL : mv_stats_stars(ck->p_value));
  mv_json_kv_string(j, "test", ck->type == MV_GL_SPLIT ? NULL
                              : ck->deterministic ? "deterministic"
                                                  : mv_gl_test_name(rep->options.test));
  mv_json_kv_string(j, "guideline", ck->guideline);
  mv_json_kv_string(j, "library", cs->library);
  mv_json_kv_string(j, "engine", cs->engine);
  mv_json_kv_int(j, "nprocs", cs->nprocs);
  mv_json_kv_number(j, "p_raw", ck->p_raw);
  mv_json_kv_number(j, "statistic", ck->statistic);
  mv_json_kv_number(j, "median", ck->median);
  mv_json_kv_number(j, "bound", ck->median_ref);
  mv_json_kv_int(j, "n", (long long)ck->n);
  mv_json_kv_int(j, "n_ref", (long long)ck->n_ref);
  if (ck->type == MV_GL_SPLIT)
    mv_json_kv_int(j, "k", ck->k);
  mv_json_object_end(j);
}

static void write_counts(const struct mv_gl_config_summary *cs, enum mv_gl_type t,
                         struct mv_json *j)
{
  mv_json_key(j, mv_gl_type_name(t));
  mv_json_object_begin(j);
  mv_json_kv_int(j, "violated", (long long)cs->violated[t]);
  mv_json_kv_int(j, "evaluated", (long long)cs->evaluated[t]);
  mv_json_object_end(j);
}

static void write_config(const struct mv_gl_config_summary *cs, struct mv_json *j)
{
  mv_json_object_begin(j);
  mv_json_kv_string(j, "library", cs->library);
  mv_json_kv_string(j, "engine", cs->engine);
  mv_json_kv_int(j, "nprocs", cs->nprocs);
  mv_json_kv_int(j, "launches", cs->launches);
  mv_json_kv_int(j, "tests", (long long)cs->tests);
  mv_json_kv_int(j, "deterministic", (long long)cs->deterministic);
  mv_json_kv_int(j, "untested", (long long)cs->untested);
  mv_json_kv_int(j, "undecidable", (long long)cs->undecidable);
  for (int t = MV_GL_MONOTONY; t <= MV_GL_PATTERN; t++)
    write_counts(cs, (enum mv_gl_type)t, j);
  mv_json_object_end(j);
}

static void write_summary(const struct mv_gl_report *rep, struct mv_json *j)
{
  const struct mv_gl_options *o = &rep->options;
  mv_json_object_begin(j);
  mv_json_kv_int(j, "violations", (long long)rep->nviolations);
  mv_json_kv_int(j, "undecidable", (long long)rep->nundecidable);
  mv_json_kv_int(j, "decided", (long long)rep->ndecided);
  mv_json_kv_number(j, "alpha", o->alpha);
  mv_json_kv_string(j, "per", mv_gl_per_name(o->per));
  mv_json_kv_string(j, "test", mv_gl_test_name(o->test));
  mv_json_kv_string(j, "correction", mv_gl_correction_name(o->correction));
  mv_json_kv_string(j, "correction_family", "configuration");
  mv_json_kv_number(j, "split_tolerance", o->split_tolerance);
  mv_json_kv_number(j, "min_slowdown", o->min_slowdown);
  mv_json_kv_string(j, "deterministic", mv_gl_det_name(o->deterministic));
  mv_json_kv_number(j, "tukey_k", o->tukey_k);
  mv_json_kv_string(j, "metric", o->metric);
  mv_json_key(j, "configurations");
  mv_json_array_begin(j);
  for (size_t k = 0; k < rep->nconfigs; k++)
    write_config(&rep->configs[k], j);
  mv_json_array_end(j);
  mv_json_object_end(j);
}

/* The two keys, written into an object the caller opened. */
static void write_members(const struct mv_gl_report *rep, struct mv_json *j)
{
  mv_json_key(j, "violations");
  mv_json_array_begin(j);
  for (size_t i = 0; i < rep->nchecks; i++)
    if (rep->checks[i].violated)
      write_violation(rep, &rep->checks[i], j);
  mv_json_array_end(j);
  mv_json_key(j, "summary");
  write_summary(rep, j);
}

void mv_gl_write_json(const struct mv_gl_report *rep, struct mv_json *j)
{
  mv_json_object_begin(j);
  write_members(rep, j);
  mv_json_object_end(j);
}

int mv_gl_write_json_document(const struct mv_gl_report *rep, FILE *fp)
{
  struct mv_json j;
  mv_json_document_begin(&j, fp, 1, MV_JSON_GUIDELINES);
  write_members(rep, &j);
  mv_json_object_end(&j);
  return mv_json_finish(&j);
}
