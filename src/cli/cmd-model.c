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
#include "mpivet/model.h"

#define CMD "model"

struct opts {
  const char *expect;
  struct mv_fit_options fit;
  int json, with_msize, ntarget;
  char target_name[MV_MODEL_MAX_PARAMS][MV_PARAM_NAME_MAX];
  double target[MV_MODEL_MAX_PARAMS];
};

struct result {
  int rc;                       /* of the fit */
  int widened;                  /* the expectation's search space was widened (mv_expect_fit) */
  char note[256];               /* a poor fit's mv_model_fit_note, or "" */
  struct mv_model model;
  const struct mv_expectation *e;
  struct mv_verdict v;
  double prediction;
};

static void usage(FILE *fp)
{
  fprintf(fp,
    "usage: mpivet model [--expect FILE] [--measure median|mean|min|q1] [--json]\n"
    "                    [--target p=4096[,msize=8]] [--params p|p,msize] INPUT...\n\n"
    "Fit empirical performance models (PMNF, Extra-P's search space plus the expectation's)\n"
    "to results.csv or Extra-P text files, one per (function, metric). With --expect, compare\n"
    "each with its big-O expectation (exact / approximate / none match, divergence) and check\n"
    "the file's rules A <= B + C on leading-order terms.\n\n"
    "  --expect FILE   expectations: `MPI_Bcast time_s O(log p) [deviation=p^(1/2)]`, `rule ...`\n"
    "  --measure M     location of the repetitions of a point (default median)\n"
    "  --json          one JSON object per (callpath, metric)\n"
    "  --target X=V    predict each model at this scale\n"
    "  --params P      p (default: one series per message size) or p,msize (two parameters)\n\n"
    "exit: 0 all matched, 1 an expectation not matched or a rule failed, 2 input error\n");
}

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

static int parse_options(int argc, char **argv, struct opts *o)
{
  static const struct option longopts[] = {
    {"expect", required_argument, NULL, 'e'}, {"measure", required_argument, NULL, 'm'},
    {"json", no_argument, NULL, 'j'},         {"target", required_argument, NULL, 't'},
    {"params", required_argument, NULL, 'p'}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "he:m:jt:p:", longopts, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return -1;
    } else if (c == 'e') {
      o->expect = optarg;
    } else if (c == 'm') {
      if (mv_measure_parse(optarg, &o->fit.measure))
        return mv_cli_error(CMD, "--measure: expected median, mean, min or q1, got \"%s\"", optarg);
    } else if (c == 'j') {
      o->json = 1;
    } else if (c == 't') {
      if (parse_target(o, optarg))
        return MV_EXIT_USAGE;
    } else if (c == 'p') {
      if (strcmp(optarg, "p") && strcmp(optarg, "p,msize"))
        return mv_cli_error(CMD, "--params: expected p or p,msize, got \"%s\"", optarg);
      o->with_msize = strcmp(optarg, "p,msize") == 0;
    } else {
      return mv_cli_bad_option(CMD, argv, optopt);
    }
  }
  if (optind == argc)
    return mv_cli_error(CMD, "expected at least one INPUT file (see mpivet model --help)");
  return 0;
}

/* The per-process sizes the expectation file names (msize=...p): rows of those sizes form
 * their series even where a total alone would (see mv_kernels_from_dataset). */
static size_t per_process_sizes(const struct mv_expect_file *ef, struct mv_msize_spec *out, size_t cap)
{
  size_t n = 0;
  for (size_t i = 0; ef && i < ef->n + ef->nrules; i++) {
    int given = i < ef->n ? ef->items[i].msize_given : ef->rules[i - ef->n].msize_given;
    const struct mv_msize_spec *s = i < ef->n ? &ef->items[i].msize : &ef->rules[i - ef->n].msize;
    if (given && s->per_process && n < cap)
      out[n++] = *s;
  }
  return n;
}

static int load(struct mv_kernels *ks, char **inputs, int n, int with_msize,
                const struct mv_expect_file *ef)
{
  struct mv_dataset ds;
  char err[512];
  int rc = 0, csv = 0;
  mv_dataset_init(&ds);
  for (int i = 0; i < n && rc == 0; i++) {
    if (mv_extrap_sniff(inputs[i])) {
      struct mv_extrap x;
      mv_extrap_init(&x);
      rc = mv_extrap_read(&x, inputs[i], err, sizeof err);
      if (rc == 0)
        rc = mv_kernels_from_extrap(ks, &x);
      else
        mv_cli_error(CMD, "%s", err);
      mv_extrap_release(&x);
    } else if ((rc = mv_dataset_load(&ds, inputs[i])) != 0) {
      mv_cli_error(CMD, "%s", ds.error[0] ? ds.error : mv_strerror(rc));
    } else {
      csv = 1;
    }
  }
  if (rc == 0 && csv) {
    mv_dataset_sort(&ds);
    struct mv_msize_spec pp[64];
    rc = mv_kernels_from_dataset(ks, &ds, with_msize, pp, per_process_sizes(ef, pp, 64));
  }
  mv_dataset_release(&ds);
  return rc;
}

static double predict(const struct opts *o, const struct mv_kernel *k, const struct mv_model *m)
{
  double c[MV_MODEL_MAX_PARAMS];
  for (int i = 0; i < m->fn.nparams; i++) {
    int j;
    for (j = 0; j < o->ntarget && strcmp(o->target_name[j], m->fn.params[i]); j++)
      ;
    if (j == o->ntarget && (k->series.nparams > 1 || o->ntarget != 1))
      return NAN;
    c[i] = o->target[j == o->ntarget ? 0 : j];
  }
  return mv_function_eval(&m->fn, c);
}

/* A kernel's size (bytes -1: a series without a fixed size). */
static struct mv_msize_spec kernel_size(const struct mv_kernel *k)
{
  return (struct mv_msize_spec){k->msize, k->per_process};
}

/* mv_model_fit_note on the series' locations (the measure the fit used). */
static void poor_fit_note(const struct mv_fit_options *fo, const struct mv_series *s,
                          const struct mv_model *m, char *buf, size_t size)
{
  double *y = malloc((s->npoints ? s->npoints : 1) * sizeof *y);
  buf[0] = '\0';
  if (!y)
    return;
  for (size_t i = 0; i < s->npoints; i++)
    y[i] = mv_measure_apply(fo->measure, s->values[i], s->nvalues[i]);
  mv_model_fit_note(m, s->coords, y, s->npoints, buf, size);
  free(y);
}

static void fit_all(const struct opts *o, const struct mv_kernels *ks,
                    const struct mv_expect_file *ef, struct result *res)
{
  for (size_t i = 0; i < ks->n; i++) {
    const struct mv_kernel *k = &ks->k[i];
    const struct mv_series *s = &k->series;
    struct result *r = &res[i];
    struct mv_msize_spec size = kernel_size(k);
    r->e = ef ? mv_expect_find(ef, k->callpath, k->metric, k->msize >= 0 ? &size : NULL) : NULL;
    if (r->e && s->nparams == 1)  /* the same fit as `mpivet check` */
      r->rc = mv_expect_fit(&r->e->expect, s->coords, s->nvalues, (const double *const *)s->values,
                            s->npoints, s->params[0], &o->fit, &r->model, &r->widened);
    else
      r->rc = mv_model_fit_series(s, &o->fit, &r->model);
    if (r->rc == 0 && r->e)
      mv_expect_evaluate(r->e, &r->model.fn, &r->v);
    if (r->rc == 0 && s->nparams == 1)
      poor_fit_note(&o->fit, s, &r->model, r->note, sizeof r->note);
    r->prediction = r->rc == 0 && o->ntarget ? predict(o, k, &r->model) : NAN;
  }
}

/* ---- rules ---- */
static const struct mv_kernel *partner(const struct mv_kernels *ks, const struct mv_kernel *k,
                                       const char *callpath, size_t *idx)
{
  struct mv_msize_spec size = kernel_size(k);
  for (size_t i = 0; i < ks->n; i++) {
    struct mv_msize_spec other = kernel_size(&ks->k[i]);
    if (strcmp(ks->k[i].callpath, callpath) == 0 && strcmp(ks->k[i].metric, k->metric) == 0 &&
        strcmp(ks->k[i].library, k->library) == 0 && mv_msize_spec_equal(&other, &size)) {
      *idx = i;
      return &ks->k[i];
    }
  }
  return NULL;
}

/* Evaluates rule r for the lhs kernel i; returns 0 evaluated, 1 skipped (missing model). */
static int rule_for(const struct mv_kernels *ks, const struct result *res, size_t i,
                    const struct mv_rule *r, struct mv_rule_verdict *v, const char **missing)
{
  const struct mv_function *rhs[MV_RULE_MAX_RHS];
  for (int j = 0; j < r->nrhs; j++) {
    size_t idx;
    *missing = r->rhs[j];
    if (!partner(ks, &ks->k[i], r->rhs[j], &idx) || res[idx].rc)
      return 1;
    rhs[j] = &res[idx].model.fn;
  }
  const struct mv_series *s = &ks->k[i].series;
  mv_rule_evaluate(&res[i].model.fn, rhs, (size_t)r->nrhs, s->coords, s->npoints, v);
  return 0;
}

static int rule_applies(const struct mv_rule *r, const struct mv_kernel *k, const struct result *res)
{
  struct mv_msize_spec size = kernel_size(k);
  return res->rc == 0 && strcmp(r->lhs, k->callpath) == 0 &&
         (strcmp(r->metric, "*") == 0 || strcmp(r->metric, k->metric) == 0) &&
         (!r->msize_given || (k->msize >= 0 && mv_msize_spec_equal(&r->msize, &size)));
}

static void rule_text(const struct mv_rule *r, char *buf, size_t size)
{
  size_t len = (size_t)snprintf(buf, size, "%s <=", r->lhs);
  for (int j = 0; j < r->nrhs && len < size; j++)
    len += (size_t)snprintf(buf + len, size - len, "%s %s", j ? " +" : "", r->rhs[j]);
}

/* Why a kernel has no model: too few process counts, or the fit's error. */
static void fit_error(const struct mv_kernel *k, const struct result *r, char *buf, size_t size)
{
  if (k->series.nparams == 1 && k->series.npoints < 3)
    snprintf(buf, size, "%zu process count%s measured; a model needs 3", k->series.npoints,
             k->series.npoints == 1 ? "" : "s");
  else
    snprintf(buf, size, "%s", mv_strerror(r->rc));
}

/* ---- human output ---- */
#define NCOL 8
static const char *const headers[NCOL] = {"function", "metric", "expectation", "model",
                                          "adj.R2", "divergence", "match", "prediction"};

static void row_cells(const struct opts *o, const struct mv_kernels *ks, size_t i,
                      const struct result *r, char cells[NCOL][512])
{
  const struct mv_kernel *k = &ks->k[i];
  int len = snprintf(cells[0], 512, "%s", k->callpath);
  if (k->msize >= 0 && !k->only_size)
    len += snprintf(cells[0] + len, (size_t)(512 - len), " [msize=%lld%s]", k->msize,
                    k->per_process ? "p" : "");
  if (ks->nlibraries > 1)
    snprintf(cells[0] + len, (size_t)(512 - len), " (%s)", k->library);
  snprintf(cells[1], 512, "%s", k->metric);
  for (int c = 2; c < NCOL; c++)
    strcpy(cells[c], "-");
  if (r->e)
    mv_bigo_format(&r->e->expect, cells[2], 512);
  if (r->rc) {
    char why[256];
    fit_error(k, r, why, sizeof why);
    snprintf(cells[3], 512, "(no model: %s)", why);
    if (r->e)
      strcpy(cells[6], "none");
    return;
  }
  mv_function_format(&r->model.fn, cells[3], 512);
  if (!isnan(r->model.ar2))
    snprintf(cells[4], 512, "%.3f", r->model.ar2);
  if (r->e) {
    mv_bigo_format(&r->v.divergence, cells[5], 512);
    snprintf(cells[6], 512, "%s", mv_match_name(r->v.match));
  }
  if (o->ntarget && !isnan(r->prediction))
    snprintf(cells[7], 512, "%.4g", r->prediction);
}

static void print_table(const struct opts *o, const struct mv_kernels *ks, const struct result *res)
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
    for (size_t i = 0; i < ks->n; i++) {
      row_cells(o, ks, i, &res[i], cells);
      for (int c = 0; c < ncol; c++) {
        if (!pass && (int)strlen(cells[c]) > width[c])
          width[c] = (int)strlen(cells[c]);
        else if (pass)
          printf("%-*s%s", c + 1 < ncol ? width[c] : 0, cells[c], c + 1 < ncol ? "  " : "\n");
      }
    }
  }
  for (size_t i = 0; i < ks->n; i++)  /* notes under the table, by function */
    if (res[i].note[0]) {
      row_cells(o, ks, i, &res[i], cells);
      printf("note: %s: %s\n", cells[0], res[i].note);
    }
}

/* Prints the rule verdicts; returns 1 when one failed. */
static int print_rules(const struct mv_kernels *ks, const struct result *res,
                       const struct mv_expect_file *ef)
{
  int failed = 0;
  for (size_t r = 0; r < ef->nrules; r++)
    for (size_t i = 0; i < ks->n; i++) {
      const struct mv_rule *rule = &ef->rules[r];
      struct mv_rule_verdict v;
      const char *missing;
      char text[1200], a[256], b[256];
      if (!rule_applies(rule, &ks->k[i], &res[i]))
        continue;
      rule_text(rule, text, sizeof text);
      if (rule_for(ks, res, i, rule, &v, &missing)) {
        printf("rule %s (%s): skipped, no model for %s\n", text, ks->k[i].metric, missing);
        continue;
      }
      mv_bigo_format(&v.lhs_lead, a, sizeof a);
      mv_bigo_format(&v.rhs_lead, b, sizeof b);
      printf("rule %s (%s): %s: %s vs %s", text, ks->k[i].metric, mv_rule_status_name(v.status),
             a, b);
      if (v.status == MV_RULE_BREAKS_LATER)
        printf(" -- warning: holds at the measured scale, the models predict a violation at "
               "larger scale");
      if (!isnan(v.crossover) && mv_rule_failed(v.status))
        printf(" (first at %s = %.0f)", ks->k[i].series.params[0], v.crossover);
      printf("\n");
      failed |= mv_rule_failed(v.status);
    }
  return failed;
}

/* ---- JSON ---- */
static void json_function(struct mv_json *j, const struct mv_function *f)
{
  char buf[1024];
  mv_function_format(f, buf, sizeof buf);
  mv_json_kv_string(j, "model", buf);
  mv_json_kv_number(j, "constant", f->constant);
  mv_json_key(j, "terms");
  mv_json_array_begin(j);
  for (int t = 0; t < f->nterms; t++) {
    mv_json_object_begin(j);
    mv_json_kv_number(j, "coefficient", f->terms[t].coef);
    mv_json_key(j, "factors");
    mv_json_array_begin(j);
    for (int k = 0; k < f->terms[t].nfactors; k++) {
      const struct mv_factor *fa = &f->terms[t].f[k];
      mv_json_object_begin(j);
      mv_json_kv_string(j, "param", f->params[fa->param]);
      mv_json_kv_number(j, "poly", fa->poly);
      mv_json_kv_number(j, "log", fa->log);
      if (fa->exp2 != 0)
        mv_json_kv_number(j, "exp2", fa->exp2);
      mv_json_object_end(j);
    }
    mv_json_array_end(j);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static int json_rules(struct mv_json *j, const struct mv_kernels *ks, const struct result *res,
                      const struct mv_expect_file *ef, size_t i)
{
  int failed = 0, any = 0;
  for (size_t r = 0; ef && r < ef->nrules; r++) {
    struct mv_rule_verdict v;
    const char *missing;
    char text[1200];
    if (!rule_applies(&ef->rules[r], &ks->k[i], &res[i]) ||
        rule_for(ks, res, i, &ef->rules[r], &v, &missing))
      continue;
    if (!any++) {
      mv_json_key(j, "rules");
      mv_json_array_begin(j);
    }
    rule_text(&ef->rules[r], text, sizeof text);
    mv_json_object_begin(j);
    mv_json_kv_string(j, "rule", text);
    mv_json_kv_string(j, "status", mv_rule_status_name(v.status));
    mv_json_key(j, "failed");
    mv_json_bool(j, mv_rule_failed(v.status));
    mv_json_kv_number(j, "crossover", v.crossover);
    mv_json_object_end(j);
    failed |= mv_rule_failed(v.status);
  }
  if (any)
    mv_json_array_end(j);
  return failed;
}

static int print_json(const struct opts *o, const struct mv_kernels *ks, const struct result *res,
                      const struct mv_expect_file *ef)
{
  struct mv_json j;
  char buf[512];
  int failed = 0;
  mv_json_init(&j, stdout, 1);
  mv_json_array_begin(&j);
  for (size_t i = 0; i < ks->n; i++) {
    const struct result *r = &res[i];
    mv_json_object_begin(&j);
    mv_json_kv_string(&j, "callpath", ks->k[i].callpath);
    mv_json_kv_string(&j, "metric", ks->k[i].metric);
    if (ks->nlibraries > 1)
      mv_json_kv_string(&j, "library", ks->k[i].library);
    if (ks->k[i].msize >= 0 && !ks->k[i].only_size) {
      mv_json_kv_int(&j, "msize", ks->k[i].msize);
      mv_json_key(&j, "per_process");
      mv_json_bool(&j, ks->k[i].per_process);
    }
    if (r->rc) {
      fit_error(&ks->k[i], r, buf, sizeof buf);
      mv_json_kv_string(&j, "error", buf);
    } else {
      json_function(&j, &r->model.fn);
      mv_json_kv_number(&j, "ar2", r->model.ar2);
      if (r->note[0])
        mv_json_kv_string(&j, "note", r->note);
      if (r->widened) {  /* the expectation's search space could not describe the data */
        mv_json_key(&j, "widened");
        mv_json_bool(&j, 1);
      }
      mv_json_kv_number(&j, "smape", r->model.smape);
      if (o->ntarget)
        mv_json_kv_number(&j, "prediction", r->prediction);
    }
    if (r->e) {
      mv_bigo_format(&r->e->expect, buf, sizeof buf);
      mv_json_kv_string(&j, "expectation", buf);
      if (r->rc == 0) {
        mv_bigo_format(&r->v.divergence, buf, sizeof buf);
        mv_json_kv_string(&j, "divergence", buf);
      }
      mv_json_kv_string(&j, "match", mv_match_name(r->rc ? MV_MATCH_NONE : r->v.match));
    }
    failed |= json_rules(&j, ks, res, ef, i);
    mv_json_object_end(&j);
  }
  mv_json_array_end(&j);
  return mv_json_finish(&j) ? -1 : failed;
}

static int report(const struct opts *o, const struct mv_kernels *ks,
                  const struct mv_expect_file *ef, const struct result *res)
{
  int failed = 0;
  for (size_t i = 0; i < ks->n; i++)
    failed |= res[i].e && (res[i].rc || res[i].v.match == MV_MATCH_NONE);
  int rules_failed;
  if (o->json) {
    rules_failed = print_json(o, ks, res, ef);
    if (rules_failed < 0)
      return mv_cli_error(CMD, "error writing standard output");
  } else {
    print_table(o, ks, res);
    rules_failed = ef && ef->nrules ? (printf("\n"), print_rules(ks, res, ef)) : 0;
  }
  return failed || rules_failed ? MV_EXIT_VERDICT : MV_EXIT_OK;
}

int cmd_model(int argc, char **argv)
{
  struct opts o;
  memset(&o, 0, sizeof o);
  mv_fit_options_init(&o.fit);
  int rc = parse_options(argc, argv, &o);
  if (rc)
    return rc < 0 ? MV_EXIT_OK : rc;
  struct mv_expect_file ef;
  char err[512];
  mv_expect_file_init(&ef);
  if (o.expect && mv_expect_parse_file(&ef, o.expect, err, sizeof err)) {
    mv_expect_file_release(&ef);
    return mv_cli_error(CMD, "%s", err);
  }
  struct mv_kernels ks;
  mv_kernels_init(&ks);
  struct result *res = NULL;
  rc = load(&ks, argv + optind, argc - optind, o.with_msize, o.expect ? &ef : NULL);
  if (rc == 0 && ks.n == 0)
    rc = mv_cli_error(CMD, "no measurements in the input");
  else if (rc == 0 && !(res = calloc(ks.n, sizeof *res)))
    rc = mv_cli_error(CMD, "%s", mv_strerror(MV_ENOMEM));
  else if (rc == 0) {
    fit_all(&o, &ks, o.expect ? &ef : NULL, res);
    rc = report(&o, &ks, o.expect ? &ef : NULL, res);
  } else {
    rc = MV_EXIT_USAGE;
  }
  free(res);
  mv_kernels_release(&ks);
  mv_expect_file_release(&ef);
  return rc;
}
