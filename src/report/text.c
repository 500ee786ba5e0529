/* report.txt: the paper's Table 4 layout for runtime (functions as columns; rows Expectation,
 * Model, adjusted R^2, divergence, Match) and Table 5 layout for memory (full models, one block
 * per function), then the cross-function rules, the guideline summary and the verdict. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/report.h"
#include "internal.h"

#define COLS 5      /* functions per block of the runtime table */
#define COLW 22

static const char *const status_mark[MV_JUDGE_NSTATUS] = {"✓", "≈", "✗", "-", "?", "-", "…"};
static const char *const status_word[MV_JUDGE_NSTATUS] = {"match", "approximate", "mismatch",
                                                          "not modeled", "not measured", "modeled",
                                                          "too few points to judge"};

/* Print s padded to width display columns (UTF-8 aware: continuation bytes take no column). */
static void padded(FILE *fp, const char *s, int width)
{
  int cols = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    cols += (*p & 0xC0) != 0x80;
  fputs(s, fp);
  for (; cols < width; cols++)
    fputc(' ', fp);
}

static void cell(const struct mv_report_fn *f, int row, char *buf, size_t size)
{
  struct mv__fn_texts t;
  mv__fn_texts(f, &t);
  switch (row) {
  case 0: snprintf(buf, size, "%s", t.expectation); break;
  case 1: snprintf(buf, size, "%s", t.lead); break;
  case 2: snprintf(buf, size, "%s", t.ar2); break;
  case 3: snprintf(buf, size, "%s", t.divergence); break;
  default:
    snprintf(buf, size, "%s%s", status_mark[f->j.status], f->rule_warning ? " ⚠" : "");
  }
}

static void runtime_block(FILE *fp, const struct mv_report_fn *const *fs, size_t n)
{
  static const char *const rows[] = {"Expectation", "Model", "adj. R^2", "δ(p)", "Match"};
  padded(fp, "", 13);
  for (size_t i = 0; i < n; i++)
    padded(fp, fs[i]->label, COLW);
  fputc('\n', fp);
  for (int row = 0; row < 5; row++) {
    padded(fp, rows[row], 13);
    for (size_t i = 0; i < n; i++) {
      char buf[MV_REPORT_TEXT];
      cell(fs[i], row, buf, sizeof buf);
      padded(fp, buf, COLW);
    }
    fputc('\n', fp);
  }
  fputc('\n', fp);
}

/* Table 4: time_s functions of one message size (that of first), COLS per block. */
static void runtime_table(FILE *fp, const struct mv_report *r, const struct mv_report_fn *first)
{
  const struct mv_report_fn *block[COLS];
  size_t n = 0;
  fprintf(fp, "Runtime models (time_s, message size %s) alongside their expectations\n\n",
          first->size);
  for (size_t i = 0; i < r->nfns; i++) {
    const struct mv_report_fn *f = &r->fns[i];
    if (strcmp(f->j.metric, "time_s") != 0 || strcmp(f->size, first->size) != 0)
      continue;
    block[n++] = f;
    if (n == COLS) {
      runtime_block(fp, block, n);
      n = 0;
    }
  }
  if (n)
    runtime_block(fp, block, n);
}

/* Table 5: every other metric, one block per function with the full model. */
static void memory_table(FILE *fp, const struct mv_report *r)
{
  int header = 0;
  for (size_t i = 0; i < r->nfns; i++) {
    const struct mv_report_fn *f = &r->fns[i];
    if (strcmp(f->j.metric, "time_s") == 0)
      continue;
    if (!header++)
      fputs("Memory models alongside their expectations\n\n", fp);
    struct mv__fn_texts t;
    mv__fn_texts(f, &t);
    fprintf(fp, "%s [%s, %s]  Expectation: %s\n", f->label, f->j.metric, f->size, t.expectation);
    fprintf(fp, "  Model      %s\n  adj. R^2   %s\n  δ(p)       %s\n  Match      %s %s%s\n\n",
            t.model[0] ? t.model : "-", t.ar2, t.divergence, status_mark[f->j.status],
            status_word[f->j.status], f->rule_warning ? " ⚠" : "");
  }
}

static void details(FILE *fp, const struct mv_report *r)
{
  fputs("Models in full\n\n", fp);
  for (size_t i = 0; i < r->nfns; i++) {
    const struct mv_report_fn *f = &r->fns[i];
    struct mv__fn_texts t;
    mv__fn_texts(f, &t);
    fprintf(fp, "  %-28s %-9s %-19s %-12s %s%s%s\n", f->j.function, f->j.metric, f->size,
            status_word[f->j.status], t.model, f->j.note[0] ? "  " : "", f->j.note);
    for (size_t k = 0; k < f->j.nsegments; k++) {
      char model[MV_REPORT_TEXT];
      const struct mv_model_segment *g = &f->j.segments[k];
      mv_judgement_model_text(&f->j, &g->fn, model, sizeof model);
      fprintf(fp, "  %-28s segment p = %g..%g: %s\n", "", g->from, g->to, model);
    }
  }
  fputc('\n', fp);
}

static void rules(FILE *fp, const struct mv_report *r)
{
  if (!r->nrules)
    return;
  fputs("Cross-function rules (leading-order terms)\n\n", fp);
  for (size_t i = 0; i < r->nrules; i++) {
    const struct mv_rule_judgement *x = &r->rules[i];
    char size[64], detail[MV_JUDGE_TEXT];
    mv_judge_size_label(x->sized, &x->size, size, sizeof size);
    mv_rule_judgement_detail(x, detail, sizeof detail);
    fprintf(fp, "  %s %s  [%s, %s]: %s; %s\n", x->failed ? "⚠" : " ", x->text, x->metric,
            size, mv_rule_judgement_status(x), detail);
  }
  fputc('\n', fp);
}

static void summary(FILE *fp, const struct mv_report *r)
{
  size_t count[MV_JUDGE_NSTATUS] = {0};
  for (size_t i = 0; i < r->nfns; i++)
    count[r->fns[i].j.status]++;
  fprintf(fp, "Summary: %zu functions: %zu match, %zu approximate, %zu mismatch, %zu not modeled, "
              "%zu not measured, %zu too few points to judge; %zu/%zu rules failed; %zu guideline "
              "violations\n", r->nfns, count[0], count[1], count[2], count[3], count[4],
          count[MV_JUDGE_TOO_FEW], r->n_rules_failed, r->nrules, r->n_gl_violations);
  fprintf(fp, "Verdict: %s", mv_report_verdict(r));
  if (r->n_incomplete)
    fprintf(fp, " (%zu expectation%s not judged: no model or too few points, no verdict)", r->n_incomplete,
            r->n_incomplete == 1 ? "" : "s");
  fputs("\nLegend: ✓ exact match, ≈ approximate (within the deviation limits), ✗ mismatch, "
        "⚠ a cross-function rule fails, - not modeled, ? not measured, … too few points to judge\n",
        fp);
}

int mv_report_write_text(const struct mv_report *r, FILE *fp)
{
  fprintf(fp, "%s\n", r->title[0] ? r->title : "mpivet check report");
  fprintf(fp, "library: %s   engine: %s\n", r->library, r->engine);
  for (int i = 0; i < 4; i++)
    if (r->info[i][0])
      fprintf(fp, "%s\n", r->info[i]);
  fputc('\n', fp);
  for (size_t i = 0; i < r->nfns; i++) {   /* one runtime table per message size, first seen */
    int first = strcmp(r->fns[i].j.metric, "time_s") == 0;
    for (size_t k = 0; k < i && first; k++)
      first = !(strcmp(r->fns[k].j.metric, "time_s") == 0 &&
                strcmp(r->fns[k].size, r->fns[i].size) == 0);
    if (first)
      runtime_table(fp, r, &r->fns[i]);
  }
  memory_table(fp, r);
  rules(fp, r);
  details(fp, r);
  if (r->gl && r->catalog) {
    fprintf(fp, "Guidelines (PGMPI) at p = %d\n\n", r->gl_nprocs);
    if (mv_gl_write_text(r->gl, r->catalog, fp))
      return MV_EIO;
    fputc('\n', fp);
  }
  summary(fp, r);
  return ferror(fp) ? MV_EIO : 0;
}
