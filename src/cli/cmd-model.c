/* `mpivet model`: fit PMNF models to results.csv or Extra-P text, check them against an
 * expectation file (match, divergence, rules) and print a Table-4-like table or JSON. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/expect.h"
#include "mpivet/extrap.h"
#include "mpivet/json.h"
#include "mpivet/judge.h"
#include "mpivet/model.h"
#include "mpivet/units.h"

#define CMD "model"

struct opts {
  const char *expect;
  struct mv_judge_options judge;
  int json, with_msize, ntarget;
  char target_name[MV_MODEL_MAX_PARAMS][MV_PARAM_NAME_MAX];
  double target[MV_MODEL_MAX_PARAMS];
};

static const char usage[] =
  "usage: mpivet model [--expect FILE] [--measure median|mean|min|q1] [--json]\n"
  "                    [--target p=4096[,msize=8]] [--params p|p,msize] INPUT...\n\n"
  "Fit empirical performance models (PMNF, Extra-P's search space plus the expectation's)\n"
  "to results.csv or Extra-P text files, one per (function, metric). With --expect, compare\n"
  "each with its big-O expectation (exact / approximate / mismatch, divergence) and check\n"
  "the file's rules A <= B + C on leading-order terms.\n\n"
  "  --expect FILE   expectations: `MPI_Bcast time_s O(log p) [deviation=p^(1/2)]`, `rule ...`\n"
  "  --measure M     location of the repetitions of a point (default median)\n"
  "  --json          the judgements as JSON (docs/formats.md, \"mpivet judgement\")\n"
  "  --target X=V    predict each model at this scale\n"
  "  --params P      p (default: one series per message size) or p,msize (two parameters)\n\n"
    "exit: 0 all matched, 1 an expectation not matched or a rule failed, 2 input error\n";

static int parse_target(struct opts *o, const char *arg)
{
  char buf[256];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq || o->ntarget == MV_MODEL_MAX_PARAMS || eq - tok >= MV_PARAM_NAME_MAX)
      return mv_cli_error(CMD, "--target: expected NAME=VALUE[,NAME=VALUE], got \"%s\"", arg);
    *eq = '\0';
    snprintf(o->target_name[o->ntarget], MV_PARAM_NAME_MAX, "%s", tok);
    if (mv_cli_parse_double(eq + 1, &o->target[o->ntarget]) || !(o->target[o->ntarget] > 0))
      return mv_cli_error(CMD, "--target: expected a positive number after %s=, got \"%s\"", tok,
                          eq + 1);
    o->ntarget++;
  }
  return 0;
}

static int option(void *ctx, int c, const char *arg)
{
  struct opts *o = ctx;
  switch (c) {
  case 'e': o->expect = arg; return 0;
  case 'j': o->json = 1; return 0;
  case 't': return parse_target(o, arg) ? MV_EXIT_USAGE : 0;
  case 'm':
    if (mv_measure_parse(arg, &o->judge.fit.measure))
      return mv_cli_error(CMD, "--measure: expected median, mean, min or q1, got \"%s\"", arg);
    return 0;
  case 'p':
    if (strcmp(arg, "p") && strcmp(arg, "p,msize"))
      return mv_cli_error(CMD, "--params: expected p or p,msize, got \"%s\"", arg);
    o->with_msize = strcmp(arg, "p,msize") == 0;
    return 0;
  }
  return MV_EXIT_USAGE;
}

static int parse_options(int argc, char **argv, struct opts *o)
{
  static const struct option longopts[] = {
    {"expect", required_argument, NULL, 'e'}, {"measure", required_argument, NULL, 'm'},
    {"json", no_argument, NULL, 'j'},         {"target", required_argument, NULL, 't'},
    {"params", required_argument, NULL, 'p'}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
  int rc = mv_cli_options(CMD, argc, argv, "he:m:jt:p:", longopts, usage, option, o);
  if (rc)
    return rc;
  if (optind == argc)
    return mv_cli_error(CMD, "expected at least one INPUT file (see mpivet model --help)");
  return 0;
}

/* The parameter names an expectation may use: p, msize and those of the Extra-P inputs. */
#define MAX_NAMES 16
static void add_names(const char **names, const struct mv_extrap *x)
{
  for (size_t i = 0; i < x->nparams; i++) {
    int k = 0;
    while (names[k] && strcmp(names[k], x->params[i]) != 0)
      k++;
    if (!names[k] && k < MAX_NAMES - 1)
      names[k] = x->params[i];
  }
}

/* Read the Extra-P inputs, then the expectation file (which may name their parameters), then
 * the results.csv inputs (whose per-process series the expectation file names). */
static int load(struct mv_judgements *js, char **inputs, int n, int with_msize,
                const char *expect, struct mv_expect_file *ef)
{
  struct mv_dataset ds;
  struct mv_error e;
  char text[MV_ERROR_TEXT_SIZE];
  int rc = 0, csv = 0;
  const char *names[MAX_NAMES + 1] = {"p", "msize"};
  struct mv_extrap *xs = calloc((size_t)n, sizeof *xs);
  if (!xs)
    return mv_cli_error(CMD, "%s", mv_strerror(MV_ENOMEM));
  mv_dataset_init(&ds);
  for (int i = 0; i < n && rc == 0; i++) {
    mv_extrap_init(&xs[i]);
    if (mv_extrap_sniff(inputs[i]) && (rc = mv_extrap_read(&xs[i], inputs[i], &e)) != 0)
      mv_cli_error(CMD, "%s", mv_error_text(&e, text, sizeof text));
    else if (mv_extrap_sniff(inputs[i]))
      add_names(names, &xs[i]);
  }
  ef->params = names;
  if (rc == 0 && expect && (rc = mv_expect_parse_file(ef, expect, &e)) != 0)
    mv_cli_error(CMD, "%s", mv_error_text(&e, text, sizeof text));
  else if (rc == 0 && expect && ef->n == 0 && ef->nrules == 0)   /* nothing to judge: no verdict */
    rc = mv_cli_error(CMD, "--expect %s: no expectation and no rule in the file", expect);
  ef->params = NULL;
  for (int i = 0; i < n && rc == 0; i++) {
    if (mv_extrap_sniff(inputs[i])) {
      rc = mv_kernels_from_extrap(&js->ks, &xs[i]);
    } else if ((rc = mv_dataset_load(&ds, inputs[i], &e)) != 0) {
      mv_cli_error(CMD, "%s", mv_error_text(&e, text, sizeof text));
    } else {
      csv = 1;
    }
  }
  if (rc == 0 && csv) {
    mv_dataset_sort(&ds);
    rc = mv_judge_load_dataset(js, &ds, with_msize, expect ? ef : NULL, NULL, 0);
  }
  for (int i = 0; i < n; i++)
    mv_extrap_release(&xs[i]);
  free(xs);
  mv_dataset_release(&ds);
  return rc;
}

/* An expectation line no series matches is a typo or a missing measurement: name the line. */
static int unmeasured(const char *expect, const struct mv_judgements *js)
{
  for (size_t i = 0; i < js->n; i++) {
    const struct mv_judgement *j = &js->j[i];
    if (j->status != MV_JUDGE_NOT_MEASURED)
      continue;
    int metric_measured = 0;
    for (size_t k = 0; k < js->ks.n && !metric_measured; k++)
      metric_measured = strcmp(js->ks.k[k].metric, j->metric) == 0;
    if (!metric_measured) {   /* e.g. memory lines of default.expect on SMPI data */
      fprintf(stderr, "mpivet model: %s:%d: not judged: the input has no %s rows\n", expect,
              j->expect_line, j->metric);
      continue;
    }
    char size[64];
    mv_judge_size_label(j->sized, &j->size, size, sizeof size);
    return mv_cli_error(CMD, "%s:%d: expected a measured series for this expectation, got none "
                        "for %s %s%s%s (check the function and metric names)", expect,
                        j->expect_line, j->function, j->metric, size[0] ? " at " : "", size);
  }
  return 0;
}

/* The model at --target (the regime it falls in), NAN when the target does not name each of
 * its parameters. */
static double predict(const struct opts *o, const struct mv_judgement *j)
{
  const struct mv_function *f = &j->model.fn;
  double c[MV_MODEL_MAX_PARAMS];
  if (!o->ntarget || !mv_judgement_modeled(j))
    return NAN;
  for (int i = 0; i < f->nparams; i++) {
    int k;
    for (k = 0; k < o->ntarget && strcmp(o->target_name[k], f->params[i]); k++)
      ;
    if (k == o->ntarget && (f->nparams > 1 || o->ntarget != 1))
      return NAN;
    c[i] = o->target[k == o->ntarget ? 0 : k];
  }
  /* With regimes, the one the target falls in (the last one beyond the data). */
  for (size_t k = 0; f->nparams == 1 && k < j->nsegments; k++)
    if (c[0] >= j->segments[k].from)
      f = &j->segments[k].fn;
  return mv_function_eval(f, c);
}

/* ---- human output ---- */
#define NCOL 8
static const char *const headers[NCOL] = {"function", "metric", "expectation", "model",
                                          "adj.R2", "divergence", "match", "prediction"};

static void row_cells(const struct opts *o, const struct mv_judgements *js,
                      const struct mv_judgement *j, char cells[NCOL][512])
{
  char size[64];
  int len = snprintf(cells[0], 512, "%s", j->function);
  mv_judge_size_label(j->sized, &j->size, size, sizeof size);
  if (j->sized && !j->only_size)
    len += snprintf(cells[0] + len, (size_t)(512 - len), " [%s]", size);
  if (js->ks.nlibraries > 1)
    snprintf(cells[0] + len, (size_t)(512 - len), " (%s)", j->library);
  snprintf(cells[1], 512, "%s", j->metric);
  for (int c = 2; c < NCOL; c++)
    strcpy(cells[c], "-");
  if (j->expected)
    mv_bigo_format(&j->expect, cells[2], 512);
  if (j->expected)
    snprintf(cells[6], 512, "%s", mv_judge_status_name(j->status));
  if (!mv_judgement_modeled(j)) {
    snprintf(cells[3], 512, "(no model: %s)", j->note);
    return;
  }
  enum mv_unit_kind unit = mv_units_of_metric(j->metric);
  mv_judgement_model_text(j, &j->model.fn, cells[3], 512);
  if (!isnan(j->model.ar2))
    snprintf(cells[4], 512, "%.3f", j->model.ar2);
  if (j->expected)
    mv_bigo_format(&j->verdict.divergence, cells[5], 512);
  double y = predict(o, j);
  if (!isnan(y))
    mv_units_format(unit, y, cells[7], 512);
}

static void print_table(const struct opts *o, const struct mv_judgements *js)
{
  static char cells[NCOL][512];
  int width[NCOL], ncol = o->ntarget ? NCOL : NCOL - 1;
  for (int c = 0; c < NCOL; c++)
    width[c] = (int)strlen(headers[c]);
  for (int pass = 0; pass < 2; pass++) {
    if (pass) {
      for (int c = 0; c < ncol; c++)
        printf("%-*s%s", c + 1 < ncol ? width[c] : 0, headers[c], c + 1 < ncol ? "  " : "\n");
    }
    for (size_t i = 0; i < js->n; i++) {
      row_cells(o, js, &js->j[i], cells);
      for (int c = 0; c < ncol; c++) {
        if (!pass && (int)strlen(cells[c]) > width[c])
          width[c] = (int)strlen(cells[c]);
        else if (pass)
          printf("%-*s%s", c + 1 < ncol ? width[c] : 0, cells[c], c + 1 < ncol ? "  " : "\n");
      }
    }
  }
  for (size_t i = 0; i < js->n; i++)  /* notes of the models under the table, by function */
    if (js->j[i].note[0] && mv_judgement_modeled(&js->j[i])) {
      row_cells(o, js, &js->j[i], cells);
      printf("note: %s: %s\n", cells[0], js->j[i].note);
    }
}

static void print_rules(const struct mv_judgements *js)
{
  for (size_t i = 0; i < js->nrules; i++) {
    const struct mv_rule_judgement *r = &js->rules[i];
    char a[256], b[256];
    if (!r->evaluated) {
      printf("rule %s (%s): skipped, no model for %s\n", r->text, r->metric, r->missing);
      continue;
    }
    mv_bigo_format(&r->v.lhs_lead, a, sizeof a);
    mv_bigo_format(&r->v.rhs_lead, b, sizeof b);
    printf("rule %s (%s): %s: %s vs %s", r->text, r->metric, mv_rule_status_name(r->v.status),
           a, b);
    if (r->v.status == MV_RULE_BREAKS_LATER)
      printf(" -- warning: holds at the measured scale, the models predict a violation at "
             "larger scale");
    if (!isnan(r->v.crossover) && r->failed)
      printf(" (first at %s = %.0f)", r->param, r->v.crossover);
    printf("\n");
  }
}

/* ---- JSON: the judgement vocabulary of report.json (docs/formats.md) ---- */
static int print_json(const struct opts *o, const struct mv_judgements *js)
{
  struct mv_json j;
  mv_json_document_begin(&j, stdout, 1, MV_JSON_JUDGEMENT);
  mv_json_key(&j, "functions");
  mv_json_array_begin(&j);
  for (size_t i = 0; i < js->n; i++) {
    mv_json_object_begin(&j);
    mv_judgement_write_json(&j, &js->j[i]);
    if (o->ntarget)
      mv_json_kv_number(&j, "prediction", predict(o, &js->j[i]));
    mv_json_object_end(&j);
  }
  mv_json_array_end(&j);
  mv_json_key(&j, "rules");
  mv_json_array_begin(&j);
  for (size_t i = 0; i < js->nrules; i++) {
    mv_json_object_begin(&j);
    mv_rule_judgement_write_json(&j, &js->rules[i]);
    mv_json_object_end(&j);
  }
  mv_json_array_end(&j);
  mv_json_object_end(&j);
  return mv_json_finish(&j);
}

static int report(const struct opts *o, const struct mv_judgements *js, int has_rules)
{
  int failed = 0;
  for (size_t i = 0; i < js->n; i++)
    failed |= mv_judgement_failed(&js->j[i]);
  for (size_t i = 0; i < js->nrules; i++)
    failed |= js->rules[i].failed;
  if (o->json) {
    if (print_json(o, js))
      return mv_cli_error(CMD, "error writing standard output");
  } else {
    print_table(o, js);
    if (has_rules) {
      printf("\n");
      print_rules(js);
    }
  }
  return failed ? MV_EXIT_VERDICT : MV_EXIT_OK;
}

int cmd_model(int argc, char **argv)
{
  struct opts o;
  memset(&o, 0, sizeof o);
  mv_judge_options_init(&o.judge);
  int rc = parse_options(argc, argv, &o);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  struct mv_expect_file ef;
  mv_expect_file_init(&ef);
  const struct mv_expect_file *e = o.expect ? &ef : NULL;
  struct mv_judgements js;
  mv_judgements_init(&js);
  o.judge.unmeasured = 1;
  rc = load(&js, argv + optind, argc - optind, o.with_msize, o.expect, &ef);
  if (rc)
    rc = MV_EXIT_USAGE;
  else if (js.ks.n == 0)
    rc = mv_cli_error(CMD, "no measurements in the input");
  else if ((rc = mv_judge(&js, e, &o.judge)) != 0)
    rc = mv_cli_error(CMD, "%s", mv_strerror(rc));
  else if ((rc = unmeasured(o.expect, &js)) == 0)
    rc = report(&o, &js, e && ef.nrules);
  mv_judgements_release(&js);
  mv_expect_file_release(&ef);
  return rc;
}
