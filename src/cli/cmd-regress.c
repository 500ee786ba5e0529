/* `mpivet regress NEW --baseline OLD`: non-regression of new results against a baseline
 * (results.csv files or campaign folders), text on stdout, optional JSON and JUnit XML;
 * exit 1 when a case regressed. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/regress.h"

static const char usage[] =
  "usage: mpivet regress NEW --baseline OLD [--junit FILE] [--json FILE] [--tolerance T]\n"
  "                      [--alpha A] [--correction none|holm|bh] [--min-launches N] [--no-growth]\n\n"
  "Compare NEW results with a baseline (each a results.csv or a campaign folder). Per (op, impl,\n"
  "metric, msize, nprocs): one-sided Wilcoxon rank-sum test of the launch medians, \"is NEW slower\n"
  "than OLD * (1 + T)?\" (all repetitions when a side has fewer than N launches). Per kernel: PMNF\n"
  "models of both sides; a worse growth class that also shows in the measured ratio is flagged.\n\n"
  "  --baseline OLD      the reference results (required)\n"
  "  --junit FILE        JUnit XML, one testcase per case (for CI test reports)\n"
  "  --json FILE         the report as JSON\n"
  "  --tolerance T       relative slack before a slowdown counts (default 0.05)\n"
  "  --alpha A           significance level of each test (default 0.05)\n"
  "  --correction C      multiple-testing correction across cases (default none)\n"
  "  --min-launches N    launches per side needed to test launch medians (default 4)\n"
  "  --no-growth         skip the model-based growth check\n\n"
  "On deterministic data (engine smpi on both sides, or identical launch medians) a case is\n"
  "decided on the median ratio alone; a case with too few samples for the test to reach alpha\n"
  "is \"undecidable\", never a pass.\n\n"
  "exit: 0 no regression, 1 regression found or a case undecidable, 2 usage or input error,\n"
  "      or no case could be decided\n";

/* A campaign folder stands for its results.csv. */
static void results_path(const char *arg, char *buf, size_t size)
{
  struct stat st;
  if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
    snprintf(buf, size, "%s/results.csv", arg);
  else
    snprintf(buf, size, "%s", arg);
}

static int load(struct mv_dataset *ds, const char *arg)
{
  char path[4200];
  results_path(arg, path, sizeof path);
  struct mv_error e;
  int rc = mv_dataset_load(ds, path, &e);
  if (rc)
    return mv_cli_fail_error("regress", &e);
  if (mv_dataset_nvalues(ds) == 0)
    return mv_cli_error("regress", "no measurements in %s (%ld rows, none valid): nothing to "
                        "compare", path, ds->rows);
  return 0;
}

static int emit_junit(FILE *fp, void *r)
{
  return mv_regress_write_junit(r, "mpivet.regress", fp);
}

static int emit_json(FILE *fp, void *r)
{
  return mv_regress_write_json(r, fp);
}

static int write_file(const char *path, const struct mv_regress_report *r, int junit)
{
  int rc = mv_cli_write_file("regress", path, junit ? emit_junit : emit_json, (void *)r);
  return rc < 0 ? mv_cli_write_failed("regress", path, rc) : rc;
}

static int parse_correction(const char *s, enum mv_correction *c)
{
  static const char *const names[] = {"none", "holm", "bh"};
  for (int i = 0; i < 3; i++)
    if (strcmp(s, names[i]) == 0) {
      *c = (enum mv_correction)i;
      return 0;
    }
  return MV_EPARSE;
}

struct args {
  struct mv_regress_options o;
  const char *base, *junit, *json;
};

static int option(void *ctx, int ch, const char *arg)
{
  struct args *a = ctx;
  struct mv_regress_options *o = &a->o;
  long n;
  switch (ch) {
  case 'b': a->base = arg; return 0;
  case 'j': a->junit = arg; return 0;
  case 'J': a->json = arg; return 0;
  case 'G': o->growth = 0; return 0;
  case 't':
    if (mv_cli_parse_double(arg, &o->tolerance) || o->tolerance < 0)
      return mv_cli_error("regress", "--tolerance: expected a number >= 0, got \"%s\"", arg);
    return 0;
  case 'a':
    if (mv_cli_parse_double(arg, &o->alpha) || o->alpha <= 0 || o->alpha >= 1)
      return mv_cli_error("regress", "--alpha: expected a number in (0, 1), got \"%s\"", arg);
    return 0;
  case 'c':
    if (parse_correction(arg, &o->correction))
      return mv_cli_error("regress", "--correction: expected none, holm or bh, got \"%s\"", arg);
    return 0;
  case 'm':
    if (mv_cli_parse_long(arg, &n) || n < 1 || n > 100000)
      return mv_cli_error("regress", "--min-launches: expected a count >= 1, got \"%s\"", arg);
    o->min_launches = (int)n;
    return 0;
  }
  return MV_EXIT_USAGE;
}

int cmd_regress(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"baseline", required_argument, 0, 'b'}, {"junit", required_argument, 0, 'j'},
    {"json", required_argument, 0, 'J'}, {"tolerance", required_argument, 0, 't'},
    {"alpha", required_argument, 0, 'a'}, {"correction", required_argument, 0, 'c'},
    {"min-launches", required_argument, 0, 'm'}, {"no-growth", no_argument, 0, 'G'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  struct args a = {.base = NULL};
  mv_regress_options_init(&a.o);
  int rc = mv_cli_options("regress", argc, argv, "h", longopts, usage, option, &a);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  const char *base = a.base, *junit = a.junit, *json = a.json;
  if (optind != argc - 1 || !base)
    return mv_cli_error("regress", "expected NEW and --baseline OLD (see mpivet regress --help)");
  struct mv_dataset cur, old;
  mv_dataset_init(&cur);
  mv_dataset_init(&old);
  struct mv_regress_report r;
  mv_regress_report_init(&r);
  if (!(rc = load(&cur, argv[optind])) && !(rc = load(&old, base))) {
    int err = mv_regress_compare(&cur, &old, &a.o, &r);
    if (err)
      rc = mv_cli_fail("regress", err, "comparison failed: %s", mv_strerror(err));
  }
  if (rc == 0 && mv_regress_write_text(&r, stdout))
    rc = MV_EXIT_USAGE;
  if (rc == 0 && junit)
    rc = write_file(junit, &r, 1);
  if (rc == 0 && json)
    rc = write_file(json, &r, 0);
  if (rc == 0 && r.n_undecidable + r.n_skipped == r.n)
    rc = mv_cli_error("regress", "no case could be decided (%zu undecidable, %zu without a "
                      "baseline or model): no verdict", r.n_undecidable, r.n_skipped);
  else if (rc == 0 && (r.n_failed || r.n_undecidable))
    rc = MV_EXIT_VERDICT;
  mv_regress_report_release(&r);
  mv_dataset_release(&cur);
  mv_dataset_release(&old);
  return rc;
}
