/* `mpivet guidelines`: check the self-consistent performance guidelines of PGMPI on a
 * results.csv (default calls and mock-ups) and print the verdicts as text or JSON; exit 1
 * when a guideline is violated so CI can gate on it. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/guidelines.h"

static const char usage[] =
  "usage: mpivet guidelines RESULTS [--alpha A] [--per launch|raw] [--test ranksum|ks]\n"
  "                         [--correction none|holm|bh] [--tukey K] [--split-tolerance T]\n"
  "                         [--min-slowdown F] [--deterministic auto|on|off] [--metric M]\n"
  "                         [--catalog FILE] [--json]\n"
  "\n"
  "Check the 17 self-consistent MPI performance guidelines of PGMPI (monotony GL1,\n"
  "split-robustness GL2, pattern GL3-GL17: a collective must not be slower than its mock-up)\n"
  "on RESULTS (results.csv with default calls in impl=default and mock-ups in impl=<mock-up id>).\n"
  "Per configuration (library, engine, nprocs) and message size, each launch is reduced to its\n"
  "median; pattern and monotony guidelines are one-sided two-sample tests on these R medians,\n"
  "or, on deterministic data (SMPI), decided on the slowdown alone.\n"
  "\n"
  "      --alpha A             significance level (default 0.05)\n"
  "      --per launch|raw      test the launch medians (default, PGMPI) or all raw repetitions\n"
  "                            (raw ignores launch-to-launch variation: more false violations)\n"
  "      --test ranksum|ks     Wilcoxon rank-sum as R's wilcox.test (default) or Kolmogorov-Smirnov\n"
  "      --correction C        none, holm or bh (Benjamini-Hochberg, default); the family is\n"
  "                            the tests of one configuration\n"
  "      --tukey K             drop values outside Tukey fences (factor K, e.g. 1.5) per launch\n"
  "      --split-tolerance T   split-robustness tolerance (default 0.05, as PGMPI)\n"
  "      --min-slowdown F      a significant test is a violation only when the slowdown\n"
  "                            (median / bound) exceeds F (default 1.01; 1 as PGMPI); on\n"
  "                            deterministic data a slowdown above F alone is a violation\n"
  "      --deterministic D     auto (default): decide on the slowdown alone, without a test,\n"
  "                            when the engine is smpi or every launch median of both sides\n"
  "                            is the same (>= 2 launches each); on: always; off: never\n"
  "      --metric M            metric to check (default time_s)\n"
  "      --catalog FILE        guideline catalog (default share/mpivet/guidelines.catalog)\n"
  "      --json                JSON on stdout: {\"format\": \"mpivet-guidelines\", \"version\": 1,\n"
  "                            \"violations\": [...], \"summary\": {...}}\n"
  "  -h, --help                this text\n"
  "\n"
  "A comparison whose test cannot reach alpha with the values at hand (rank-sum and KS: 3\n"
  "launches a side never give p < 0.05; 4 are needed) is \"undecidable\", never \"no violation\".\n"
  "\n"
  "Exit status: 0 no violation, 1 a guideline is violated or a comparison is undecidable,\n"
  "2 usage or input error, or no pattern or monotony comparison could be decided.\n";

enum { OPT_ALPHA = 256, OPT_PER, OPT_TEST, OPT_CORR, OPT_TUKEY, OPT_SPLIT, OPT_METRIC,
       OPT_CATALOG, OPT_JSON, OPT_MINSLOW, OPT_DET };

struct args {
  struct mv_gl_options opt;
  const char *catalog;
  int json;
};

static int parse_option(void *ctx, int c, const char *arg)
{
  struct args *a = ctx;
  struct mv_gl_options *o = &a->opt;
  switch (c) {
  case OPT_ALPHA:
    return mv_cli_parse_double(arg, &o->alpha) || !(o->alpha > 0 && o->alpha < 1)
               ? mv_cli_error("guidelines", "--alpha expects a number in (0, 1), got \"%s\"", arg)
               : 0;
  case OPT_PER:
    return mv_gl_parse_per(arg, &o->per)
               ? mv_cli_error("guidelines", "--per expects launch or raw, got \"%s\"", arg) : 0;
  case OPT_TEST:
    return mv_gl_parse_test(arg, &o->test)
               ? mv_cli_error("guidelines", "--test expects ranksum or ks, got \"%s\"", arg) : 0;
  case OPT_CORR:
    return mv_gl_parse_correction(arg, &o->correction)
               ? mv_cli_error("guidelines", "--correction expects none, holm or bh, got \"%s\"", arg)
               : 0;
  case OPT_TUKEY:
    return mv_cli_parse_double(arg, &o->tukey_k) || !(o->tukey_k >= 0)
               ? mv_cli_error("guidelines", "--tukey expects a factor >= 0, got \"%s\"", arg) : 0;
  case OPT_SPLIT:
    return mv_cli_parse_double(arg, &o->split_tolerance) || !(o->split_tolerance >= 0)
               ? mv_cli_error("guidelines", "--split-tolerance expects a number >= 0, got \"%s\"",
                              arg)
               : 0;
  case OPT_MINSLOW:
    return mv_cli_parse_double(arg, &o->min_slowdown) || !(o->min_slowdown > 0)
               ? mv_cli_error("guidelines", "--min-slowdown expects a number > 0, got \"%s\"", arg)
               : 0;
  case OPT_DET:
    return mv_gl_parse_det(arg, &o->deterministic)
               ? mv_cli_error("guidelines", "--deterministic expects auto, on or off, got \"%s\"",
                              arg)
               : 0;
  case OPT_METRIC:
    if (strlen(arg) >= sizeof o->metric)
      return mv_cli_error("guidelines", "--metric: name too long");
    strcpy(o->metric, arg);
    return 0;
  case OPT_CATALOG: a->catalog = arg; return 0;
  case OPT_JSON: a->json = 1; return 0;
  }
  return MV_EXIT_USAGE;
}

static int run(const char *results, const char *catalog, const struct mv_gl_options *opt,
               int json)
{
  struct mv_catalog cat;
  struct mv_dataset ds;
  struct mv_gl_report rep;
  mv_catalog_init(&cat);
  mv_dataset_init(&ds);
  mv_gl_report_init(&rep);
  struct mv_error e;
  int code = MV_EXIT_OK, rc = mv_catalog_load(&cat, catalog, &e);
  if (rc < 0 || (rc = mv_dataset_load(&ds, results, &e)) < 0)
    code = mv_cli_fail_error("guidelines", &e);
  else if ((rc = mv_gl_evaluate(&cat, &ds, opt, &rep)) < 0)
    code = mv_cli_fail("guidelines", rc, "%s: %s", results, mv_strerror(rc));
  if (code == MV_EXIT_OK) {
    if (json)
      mv_gl_write_json_document(&rep, stdout);
    else
      mv_gl_write_text(&rep, &cat, stdout);
    if (rep.nconfigs == 0)
      code = mv_cli_error("guidelines", "%s: no rows with metric %s", results, opt->metric);
    else if (rep.nviolations)
      code = MV_EXIT_VERDICT;
    else if (rep.ndecided == 0)
      code = mv_cli_error("guidelines", "%s: no pattern or monotony comparison could be decided "
                          "(%zu undecidable): no verdict", results, rep.nundecidable);
    else
      code = rep.nundecidable ? MV_EXIT_VERDICT : MV_EXIT_OK;
  }
  mv_gl_report_release(&rep);
  mv_dataset_release(&ds);
  mv_catalog_release(&cat);
  return mv_cli_finish(code);
}

int cmd_guidelines(int argc, char **argv)
{
  static const struct option opts[] = {
    {"alpha", required_argument, NULL, OPT_ALPHA}, {"per", required_argument, NULL, OPT_PER},
    {"test", required_argument, NULL, OPT_TEST}, {"correction", required_argument, NULL, OPT_CORR},
    {"tukey", required_argument, NULL, OPT_TUKEY},
    {"split-tolerance", required_argument, NULL, OPT_SPLIT},
    {"metric", required_argument, NULL, OPT_METRIC},
    {"min-slowdown", required_argument, NULL, OPT_MINSLOW},
    {"deterministic", required_argument, NULL, OPT_DET},
    {"catalog", required_argument, NULL, OPT_CATALOG}, {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
  struct args a = {.catalog = NULL};
  mv_gl_options_init(&a.opt);
  int rc = mv_cli_options("guidelines", argc, argv, "h", opts, usage, parse_option, &a);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  if (optind != argc - 1)
    return mv_cli_error("guidelines", "expected exactly one RESULTS file (see mpivet guidelines "
                                      "--help)");
  return run(argv[optind], a.catalog, &a.opt, a.json);
}
