/* Plain-text guideline report: settings, the PGMPI summaries (x/9 monotony, x/9 split, x/15
 * pattern), the violation list, a guideline x message-size grid per configuration (PGMPI
 * Tables IV-XIII) and, with several configurations, the guideline x library matrix (Table III). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/guidelines.h"
#include "mpivet/units.h"

static const char type_letter[] = {'m', 's', 'p'};

static const char *correction_text(enum mv_correction c)
{
  static const char *const text[] = {"no multiple-testing correction",
                                     "Holm correction (family-wise error rate)",
                                     "Benjamini-Hochberg correction (false discovery rate)"};
  return c >= MV_CORR_NONE && c <= MV_CORR_BH ? text[c] : "?";
}

static void write_settings(const struct mv_gl_report *rep, FILE *fp)
{
  const struct mv_gl_options *o = &rep->options;
  fprintf(fp, "mpivet guidelines: one-sided %s test on %s, alpha %g, %s per configuration "
              "(family = its pattern and monotony tests); split-robustness on medians with "
              "%g%% tolerance",
          o->test == MV_GL_TEST_KS ? "Kolmogorov-Smirnov" : "Wilcoxon rank-sum",
          o->per == MV_GL_PER_RAW ? "raw repetitions" : "launch medians", o->alpha,
          correction_text(o->correction), 100 * o->split_tolerance);
  fprintf(fp, "; a significant test counts when the slowdown exceeds %g", o->min_slowdown);
  if (o->deterministic == MV_GL_DET_AUTO)
    fprintf(fp, "; deterministic data (engine smpi, or identical medians in >= 2 launches on "
                "both sides) are decided on the slowdown alone (> %g), without a test",
            o->min_slowdown);
  else if (o->deterministic == MV_GL_DET_ON)
    fprintf(fp, "; every comparison is decided on the slowdown alone (> %g), without a test "
                "(--deterministic on)", o->min_slowdown);
  if (o->tukey_k > 0)
    fprintf(fp, "; Tukey filter k=%g", o->tukey_k);
  fprintf(fp, "; metric %s\n", o->metric);
}

static const struct mv_guideline *find_guideline(const struct mv_catalog *cat, const char *id)
{
  for (size_t i = 0; i < cat->n; i++)
    if (strcmp(cat->items[i].id, id) == 0)
      return &cat->items[i];
  return NULL;
}

/* "MPI_Allreduce <= Reduce+Bcast" (pattern) or the function name (monotony, split). */
static void check_label(const struct mv_gl_check *ck, const struct mv_catalog *cat, char *buf,
                        size_t size)
{
  const struct mv_guideline *gl = find_guideline(cat, ck->guideline);
  if (ck->type == MV_GL_PATTERN && gl)
    mv_guideline_label(gl, buf, size);
  else if (ck->type == MV_GL_PATTERN)
    snprintf(buf, size, "%s <= %s", ck->op, ck->mockup);
  else
    snprintf(buf, size, "%s", ck->op);
}

static void config_name(const struct mv_gl_config_summary *cs, char *buf, size_t size)
{
  snprintf(buf, size, "%s (%s, %d processes)", cs->library[0] ? cs->library : "?", cs->engine,
           cs->nprocs);
}

static void write_summary(const struct mv_gl_config_summary *cs, const struct mv_catalog *cat,
                          FILE *fp)
{
  static const char *const unit[] = {"functions", "functions", "guidelines"};
  fprintf(fp, "summary (violated at any message size / evaluated):");
  for (int t = MV_GL_MONOTONY; t <= MV_GL_PATTERN; t++) {
    size_t in_cat = 0;
    for (size_t i = 0; i < cat->n; i++)
      if (cat->items[i].type == (enum mv_gl_type)t)
        in_cat += cat->items[i].nops * (t != MV_GL_PATTERN) + (t == MV_GL_PATTERN);
    fprintf(fp, "%s %s %zu/%zu", t ? "," : "", mv_gl_type_name((enum mv_gl_type)t),
            cs->violated[t], cs->evaluated[t]);
    if (cs->evaluated[t] != in_cat)
      fprintf(fp, " (%zu %s in the catalog)", in_cat, unit[t]);
  }
  fprintf(fp, "\n%zu tests, %zu deterministic comparisons (slowdown alone), %zu undecidable "
              "(too few values for the test), %zu skipped (no value on a side)\n", cs->tests,
          cs->deterministic, cs->undecidable, cs->untested);
}

/* Message sizes in B, KiB, ... (mpivet/units.h). */
static const char *size_text(int64_t msize, char *buf)
{
  return mv_units_format(MV_UNIT_BYTES, (double)msize, buf, MV_UNITS_SIZE);
}

/* Comparisons no test could decide: named one per line, with what would decide them. */
static void write_undecidable(const struct mv_gl_report *rep, size_t config,
                              const struct mv_catalog *cat, FILE *fp)
{
  const struct mv_gl_config_summary *cs = &rep->configs[config];
  const struct mv_gl_options *o = &rep->options;
  if (cs->undecidable == 0)
    return;
  int need = mv_stats_ranksum_min_n(o->alpha);
  fprintf(fp, "%zu comparison%s undecidable with R = %d launch%s (the one-sided %s test needs at "
              "least %d %s per side at alpha %g); to decide them: more launches (--runs %d), "
              "--per raw (test the repetitions), or --deterministic on (slowdown alone, for "
              "data without launch-to-launch noise):\n", cs->undecidable,
          cs->undecidable == 1 ? " is" : "s are", cs->launches, cs->launches == 1 ? "" : "es",
          o->test == MV_GL_TEST_KS ? "Kolmogorov-Smirnov" : "rank-sum", need,
          o->per == MV_GL_PER_RAW ? "values" : "launches", o->alpha, need);
  for (size_t i = 0; i < rep->nchecks; i++) {
    const struct mv_gl_check *ck = &rep->checks[i];
    if (ck->config != config || !ck->undecidable)
      continue;
    char label[2 * MV_NAME_MAX + 16];
    check_label(ck, cat, label, sizeof label);
    char size[MV_UNITS_SIZE];
    fprintf(fp, "  undecidable %-8s %-5s %-48s msize %s", mv_gl_type_name(ck->type),
            ck->guideline, label, size_text(ck->msize, size));
    if (ck->msize_small >= 0)
      fprintf(fp, " vs %s", size_text(ck->msize_small, size));
    fprintf(fp, ": %zu vs %zu %s, slowdown %.3f\n", ck->n, ck->n_ref,
            o->per == MV_GL_PER_RAW ? "values" : "launch medians", ck->slowdown);
  }
}

static void write_violation(const struct mv_gl_check *ck, const struct mv_catalog *cat,
                            const char *metric, FILE *fp)
{
  char label[2 * MV_NAME_MAX + 16], small[MV_UNITS_SIZE] = "-", big[MV_UNITS_SIZE];
  char median[MV_UNITS_SIZE], bound[MV_UNITS_SIZE];
  enum mv_unit_kind unit = mv_units_of_metric(metric);
  check_label(ck, cat, label, sizeof label);
  if (ck->type == MV_GL_SPLIT)
    snprintf(label + strlen(label), sizeof label - strlen(label), " (k=%d)", ck->k);
  if (ck->msize_small >= 0)
    size_text(ck->msize_small, small);
  mv_units_format(unit, ck->median, median, sizeof median);
  mv_units_format(unit, ck->median_ref, bound, sizeof bound);
  fprintf(fp, "  %-8s %-5s %-48s %9s %11s %*s %*s %8.3f", mv_gl_type_name(ck->type),
          ck->guideline, label, size_text(ck->msize, big), small, mv_units_pad(11, median), median,
          mv_units_pad(11, bound), bound, ck->slowdown);
  if (ck->type == MV_GL_SPLIT || ck->deterministic)
    fprintf(fp, " %10s\n", ck->deterministic ? "determ." : "-");
  else
    fprintf(fp, " %10.3g %s\n", ck->p_value, mv_stats_stars(ck->p_value));
}

static void write_violations(const struct mv_gl_report *rep, size_t config,
                             const struct mv_catalog *cat, FILE *fp)
{
  size_t n = 0;
  for (size_t i = 0; i < rep->nchecks; i++)
    n += rep->checks[i].config == config && rep->checks[i].violated;
  const struct mv_gl_config_summary *cs = &rep->configs[config];
  if (n == 0 && cs->undecidable) {
    fprintf(fp, "no violation among the %zu decided comparisons; %zu undecidable\n",
            cs->tests + cs->deterministic, cs->undecidable);
    return;
  }
  if (n == 0) {
    fprintf(fp, "no violation\n");
    return;
  }
  fprintf(fp, "%zu violation%s (median: the side that should be faster; bound: mock-up, larger "
              "size, or k x smaller size; determ.: deterministic, no test):\n", n,
          n == 1 ? "" : "s");
  fprintf(fp, "  %-8s %-5s %-48s %9s %11s %11s %11s %8s %10s\n", "type", "gl", "function",
          "msize", "msize_small", "median", "bound", "slowdown", "p_value");
  for (size_t i = 0; i < rep->nchecks; i++)
    if (rep->checks[i].config == config && rep->checks[i].violated)
      write_violation(&rep->checks[i], cat, rep->options.metric, fp);
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Distinct message sizes compared in a configuration, sorted; returns the count. */
static size_t config_sizes(const struct mv_gl_report *rep, size_t config, int64_t *out)
{
  size_t n = 0;
  for (size_t i = 0; i < rep->nchecks; i++) {
    const struct mv_gl_check *ck = &rep->checks[i];
    int64_t m[2] = {ck->msize, ck->msize_small};
    for (int k = 0; k < 2 && ck->config == config; k++) {
      size_t j = 0;
      while (j < n && out[j] != m[k])
        j++;
      if (m[k] >= 0 && j == n)
        out[n++] = m[k];
    }
  }
  qsort(out, n, sizeof *out, cmp_i64);
  return n;
}

/* The grid cell of a violation: its stars, "+" when significant without stars, "x" for split,
 * "d" when decided on the slowdown of deterministic data. */
static const char *cell(const struct mv_gl_check *ck)
{
  if (ck->type == MV_GL_SPLIT || ck->deterministic)
    return ck->deterministic ? "d" : "x";
  const char *stars = mv_stats_stars(ck->p_value);
  return stars[0] == '*' ? stars : "+";
}

/* A grid column: as wide as its size with unit, at least 4. */
static int size_width(int64_t msize)
{
  char text[MV_UNITS_SIZE];
  int n = (int)strlen(size_text(msize, text));
  return n > 4 ? n : 4;
}

/* One grid row per (type, function or guideline) with a violation, as PGMPI prints them. */
static void write_grid_row(const struct mv_gl_report *rep, size_t first, const int64_t *sizes,
                           size_t nsizes, const struct mv_catalog *cat, FILE *fp)
{
  const struct mv_gl_check *row = &rep->checks[first];
  char label[2 * MV_NAME_MAX + 16];
  check_label(row, cat, label, sizeof label);
  fprintf(fp, "  %c %-48s", type_letter[row->type], label);
  for (size_t s = 0; s < nsizes; s++) {
    const char *mark = ".";
    for (size_t i = first; i < rep->nchecks; i++) {
      const struct mv_gl_check *ck = &rep->checks[i];
      if (ck->config == row->config && ck->violated && ck->type == row->type &&
          ck->msize == sizes[s] && strcmp(ck->guideline, row->guideline) == 0 &&
          strcmp(ck->op, row->op) == 0)
        mark = cell(ck);
    }
    fprintf(fp, " %*s", size_width(sizes[s]), mark);
  }
  fputc('\n', fp);
}

static void write_grid(const struct mv_gl_report *rep, size_t config, const struct mv_catalog *cat,
                       FILE *fp)
{
  int64_t *sizes = malloc((2 * rep->nchecks + 1) * sizeof *sizes);
  if (!sizes)
    return;
  size_t nsizes = config_sizes(rep, config, sizes);
  fprintf(fp, "grid (m monotony, s split, p pattern; marked at msize, the larger size for m/s; "
              "*** p<0.001 ** p<0.01 * p<0.05 + significant, x split, d deterministic):\n  %c %-48s",
          ' ', "");
  char text[MV_UNITS_SIZE];
  for (size_t s = 0; s < nsizes; s++)
    fprintf(fp, " %*s", size_width(sizes[s]), size_text(sizes[s], text));
  fputc('\n', fp);
  for (size_t i = 0; i < rep->nchecks; i++) {
    const struct mv_gl_check *ck = &rep->checks[i];
    int first = ck->config == config && ck->violated;
    for (size_t j = 0; first && j < i; j++)
      first = !(rep->checks[j].config == config && rep->checks[j].violated &&
                rep->checks[j].type == ck->type && strcmp(rep->checks[j].op, ck->op) == 0 &&
                strcmp(rep->checks[j].guideline, ck->guideline) == 0);
    if (first)
      write_grid_row(rep, i, sizes, nsizes, cat, fp);
  }
  free(sizes);
}

/* Table III: pattern guidelines x configurations ("x" violated, "." satisfied, "-" not measured). */
static void write_matrix(const struct mv_gl_report *rep, const struct mv_catalog *cat, FILE *fp)
{
  fprintf(fp, "\n== pattern guidelines x configurations (x violated at some msize, . satisfied, "
              "? undecidable, - not measured) ==\n");
  for (size_t k = 0; k < rep->nconfigs; k++) {
    char name[3 * MV_NAME_MAX];
    config_name(&rep->configs[k], name, sizeof name);
    fprintf(fp, "  [%zu] %s\n", k + 1, name);
  }
  fprintf(fp, "  %-5s %-48s", "", "");
  for (size_t k = 0; k < rep->nconfigs; k++)
    fprintf(fp, " %5s%zu]", "[", k + 1);
  fputc('\n', fp);
  /* Table II: violated / evaluated per type */
  for (int t = MV_GL_MONOTONY; t <= MV_GL_PATTERN; t++) {
    fprintf(fp, "  %-5c %-48s", type_letter[t], mv_gl_type_name((enum mv_gl_type)t));
    for (size_t k = 0; k < rep->nconfigs; k++) {
      char frac[48];
      snprintf(frac, sizeof frac, "%zu/%zu", rep->configs[k].violated[t],
               rep->configs[k].evaluated[t]);
      fprintf(fp, " %7s", frac);
    }
    fputc('\n', fp);
  }
  for (size_t g = 0; g < cat->n; g++) {
    const struct mv_guideline *gl = &cat->items[g];
    if (gl->type != MV_GL_PATTERN)
      continue;
    char label[2 * MV_NAME_MAX + 8];
    mv_guideline_label(gl, label, sizeof label);
    fprintf(fp, "  %-5s %-48s", gl->id, label);
    for (size_t k = 0; k < rep->nconfigs; k++) {
      const char *mark = "-";
      for (size_t i = 0; i < rep->nchecks; i++) {
        const struct mv_gl_check *ck = &rep->checks[i];
        if (ck->config == k && strcmp(ck->guideline, gl->id) == 0 && mark[0] != 'x')
          mark = ck->violated ? "x" : ck->undecidable ? (mark[0] == '.' ? "." : "?") : ".";
      }
      fprintf(fp, " %7s", mark);
    }
    fputc('\n', fp);
  }
}

int mv_gl_write_text(const struct mv_gl_report *rep, const struct mv_catalog *cat, FILE *fp)
{
  write_settings(rep, fp);
  if (rep->nconfigs == 0)
    fprintf(fp, "no measurement with metric %s found\n", rep->options.metric);
  for (size_t k = 0; k < rep->nconfigs; k++) {
    char name[3 * MV_NAME_MAX];
    config_name(&rep->configs[k], name, sizeof name);
    fprintf(fp, "\n== %s, R = %d launches ==\n", name, rep->configs[k].launches);
    write_summary(&rep->configs[k], cat, fp);
    write_violations(rep, k, cat, fp);
    write_undecidable(rep, k, cat, fp);
    if (rep->configs[k].violated[0] + rep->configs[k].violated[1] + rep->configs[k].violated[2])
      write_grid(rep, k, cat, fp);
  }
  if (rep->nconfigs > 1)
    write_matrix(rep, cat, fp);
  return ferror(fp) ? MV_EIO : 0;
}
