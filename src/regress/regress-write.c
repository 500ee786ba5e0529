/* Writers of a non-regression report: a plain text table, JSON, and JUnit XML so that CI
 * systems (GitLab, Jenkins, GitHub test reporters) show each case as one test. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/xml.h"
#include "mpivet/json.h"
#include "mpivet/regress.h"
#include "mpivet/units.h"

static const char *const status_names[] = {"pass", "slower", "worse-growth", "skipped",
                                           "undecidable"};

void mv_regress_case_name(const struct mv_regress_case *c, char *buf, size_t size)
{
  char impl[MV_NAME_MAX + 2] = "", msize[MV_UNITS_SIZE];
  if (strcmp(c->impl, "default") != 0)
    snprintf(impl, sizeof impl, "[%s]", c->impl);
  mv_units_format(MV_UNIT_BYTES, (double)c->msize, msize, sizeof msize);
  if (c->kind == MV_REGRESS_POINT)
    snprintf(buf, size, "%s%s %s msize=%s np=%d", c->op, impl, c->metric, msize, c->nprocs);
  else
    snprintf(buf, size, "%s%s %s msize=%s growth", c->op, impl, c->metric, msize);
}

int mv_regress_write_text(const struct mv_regress_report *r, FILE *fp)
{
  fprintf(fp, "non-regression: %zu cases, %zu regressions, %zu undecidable, %zu skipped "
              "(tolerance %.3g, alpha %.3g)\n\n", r->n, r->n_failed, r->n_undecidable,
          r->n_skipped, r->tolerance, r->alpha);
  fprintf(fp, "%-13s %-52s %10s %8s  %s\n", "status", "case", "ratio", "p", "detail");
  for (size_t i = 0; i < r->n; i++) {
    const struct mv_regress_case *c = &r->cases[i];
    char name[400];
    mv_regress_case_name(c, name, sizeof name);
    fprintf(fp, "%-13s %-52s %10.4f %8.3g  %s\n", status_names[c->status], name, c->ratio,
            c->p_adjusted, c->message);
  }
  return ferror(fp) ? MV_EIO : 0;
}

int mv_regress_write_json(const struct mv_regress_report *r, FILE *fp)
{
  struct mv_json j;
  mv_json_document_begin(&j, fp, 1, MV_JSON_REGRESS);
  mv_json_kv_number(&j, "tolerance", r->tolerance);
  mv_json_kv_number(&j, "alpha", r->alpha);
  mv_json_kv_int(&j, "cases", (long long)r->n);
  mv_json_kv_int(&j, "regressions", (long long)r->n_failed);
  mv_json_kv_int(&j, "undecidable", (long long)r->n_undecidable);
  mv_json_kv_int(&j, "skipped", (long long)r->n_skipped);
  mv_json_key(&j, "results");
  mv_json_array_begin(&j);
  for (size_t i = 0; i < r->n; i++) {
    const struct mv_regress_case *c = &r->cases[i];
    mv_json_object_begin(&j);
    mv_json_kv_string(&j, "kind", c->kind == MV_REGRESS_POINT ? "point" : "growth");
    mv_json_kv_string(&j, "status", status_names[c->status]);
    mv_json_kv_string(&j, "op", c->op);
    mv_json_kv_string(&j, "impl", c->impl);
    mv_json_kv_string(&j, "metric", c->metric);
    mv_json_kv_int(&j, "msize", c->msize);
    if (c->kind == MV_REGRESS_POINT) {
      mv_json_kv_int(&j, "nprocs", c->nprocs);
      mv_json_kv_int(&j, "n_new", (long long)c->n_new);
      mv_json_kv_int(&j, "n_old", (long long)c->n_old);
      mv_json_kv_string(&j, "samples", c->per_launch ? "launch medians" : "repetitions");
      mv_json_kv_int(&j, "deterministic", c->deterministic);
      mv_json_kv_number(&j, "median_new", c->median_new);
      mv_json_kv_number(&j, "median_old", c->median_old);
      mv_json_kv_number(&j, "p_value", c->p_value);
      mv_json_kv_number(&j, "p_adjusted", c->p_adjusted);
    } else {
      mv_json_kv_string(&j, "model_new", c->model_new);
      mv_json_kv_string(&j, "model_old", c->model_old);
    }
    mv_json_kv_number(&j, "ratio", c->ratio);
    mv_json_kv_string(&j, "message", c->message);
    mv_json_object_end(&j);
  }
  mv_json_array_end(&j);
  mv_json_object_end(&j);
  return mv_json_finish(&j);
}

int mv_regress_write_junit(const struct mv_regress_report *r, const char *suite, FILE *fp)
{
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", fp);
  mv_xml_escape(fp, suite);
  fprintf(fp, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", r->n,
          r->n_failed + r->n_undecidable, r->n_skipped);
  for (size_t i = 0; i < r->n; i++) {
    const struct mv_regress_case *c = &r->cases[i];
    char name[400];
    mv_regress_case_name(c, name, sizeof name);
    fputs("    <testcase classname=\"", fp);
    mv_xml_escape(fp, suite);
    fputc('.', fp);
    mv_xml_escape(fp, c->op);
    fputs("\" name=\"", fp);
    mv_xml_escape(fp, name);
    fputs("\">", fp);
    if (c->status == MV_REGRESS_SKIPPED) {
      fputs("<skipped message=\"", fp);
      mv_xml_escape(fp, c->message);
      fputs("\"/>", fp);
    } else if (c->status != MV_REGRESS_PASS) {
      fprintf(fp, "<failure type=\"%s\" message=\"", status_names[c->status]);
      mv_xml_escape(fp, c->message);
      fputs("\">", fp);
      mv_xml_escape(fp, c->message);
      fputs("</failure>", fp);
    } else {
      fputs("<system-out>", fp);
      mv_xml_escape(fp, c->message);
      fputs("</system-out>", fp);
    }
    fputs("</testcase>\n", fp);
  }
  fputs("  </testsuite>\n</testsuites>\n", fp);
  return ferror(fp) ? MV_EIO : 0;
}
