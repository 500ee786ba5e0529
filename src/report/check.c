/* The analysis step of `mpivet check`: results.csv and an expectation file in, a report out
 * (models, verdicts, rules) with the PGMPI guideline verdicts at the largest process count. */
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/report.h"

void mv_check_analysis_init(struct mv_check_analysis *a)
{
  memset(a, 0, sizeof *a);
  mv_dataset_init(&a->ds);
  mv_dataset_init(&a->top);
  mv_expect_file_init(&a->expect);
  mv_catalog_init(&a->catalog);
  mv_gl_report_init(&a->gl);
  mv_report_init(&a->report);
}

void mv_check_analysis_release(struct mv_check_analysis *a)
{
  mv_dataset_release(&a->ds);
  mv_dataset_release(&a->top);
  mv_expect_file_release(&a->expect);
  mv_catalog_release(&a->catalog);
  mv_gl_report_release(&a->gl);
  mv_report_release(&a->report);
}

/* The groups at the largest process count of a->ds, for the guideline checks: copied from
 * the data set already loaded (results.csv is parsed once). */
static int load_top(struct mv_check_analysis *a)
{
  int top = 0, rc = 0;
  for (size_t i = 0; i < a->ds.ngroups; i++)
    if (a->ds.groups[i].nprocs > top)
      top = a->ds.groups[i].nprocs;
  for (size_t i = 0; i < a->ds.ngroups && rc == 0; i++) {
    const struct mv_group *g = &a->ds.groups[i];
    struct mv_row row;
    if (g->nprocs != top)
      continue;
    mv_row_init(&row);
    snprintf(row.library, sizeof row.library, "%s", g->library);
    snprintf(row.engine, sizeof row.engine, "%s", g->engine);
    snprintf(row.op, sizeof row.op, "%s", g->op);
    snprintf(row.impl, sizeof row.impl, "%s", g->impl);
    snprintf(row.metric, sizeof row.metric, "%s", g->metric);
    row.msize = g->msize;
    row.nprocs = g->nprocs;
    for (size_t k = 0; k < g->n && rc == 0; k++) {
      row.value = g->values[k];
      row.run = g->runs[k];
      rc = mv_dataset_add(&a->top, &row);
    }
    row.valid = 0;
    for (size_t k = 0; k < g->n_invalid && rc == 0; k++)
      rc = mv_dataset_add(&a->top, &row);
  }
  a->report.gl_nprocs = top;
  return rc;
}

static int guidelines(struct mv_check_analysis *a, const char *catalog, struct mv_error *e)
{
  int rc = mv_catalog_load(&a->catalog, catalog, e);
  if (rc)
    return rc;
  if ((rc = load_top(a)))
    return rc;
  struct mv_gl_options opt;
  mv_gl_options_init(&opt);
  if ((rc = mv_gl_evaluate(&a->catalog, &a->top, &opt, &a->gl)))
    return rc;
  a->report.gl = &a->gl;
  a->report.catalog = &a->catalog;
  a->report.n_gl_violations = a->gl.nviolations;
  return 0;
}

static int memory_metric(const char *metric)
{
  return strcmp(metric, "mem_bytes") == 0 || strcmp(metric, "rss_bytes") == 0;
}

/* Drop the memory expectations (and rules on memory metrics) of an engine that cannot measure
 * memory per rank: they are neither met nor failed, and the report says so. */
static size_t drop_memory(struct mv_expect_file *f)
{
  size_t kept = 0, nrules = 0;
  for (size_t i = 0; i < f->n; i++)
    if (!memory_metric(f->items[i].metric))
      f->items[kept++] = f->items[i];
  for (size_t i = 0; i < f->nrules; i++)
    if (!memory_metric(f->rules[i].metric))
      f->rules[nrules++] = f->rules[i];
  size_t dropped = f->n - kept + f->nrules - nrules;
  f->n = kept;
  f->nrules = nrules;
  return dropped;
}

int mv_check_analyze(struct mv_check_analysis *a, const char *results, const char *expect,
                     const char *catalog, struct mv_error *e)
{
  mv_error_clear(e);
  int rc = mv_dataset_load(&a->ds, results, e);
  if (rc || (rc = mv_expect_parse_file(&a->expect, expect, e)))
    return rc;
  if (a->skip_memory)
    a->n_skipped = drop_memory(&a->expect);
  memcpy(a->report.pp_sizes, a->pp_sizes, sizeof a->pp_sizes);
  a->report.n_pp_sizes = a->n_pp_sizes;
  if ((rc = mv_report_build(&a->report, &a->ds, &a->expect)))
    return mv_error_set(e, rc, NULL, 0, 0, "building the report: %s", mv_strerror(rc));
  rc = guidelines(a, catalog, e);
  if (rc && e && !e->code)
    mv_error_set(e, rc, NULL, 0, 0, "guidelines: %s", mv_strerror(rc));
  return rc;
}
