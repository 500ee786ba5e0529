/* Command-line options of mpivet-bench. Every rank parses the same argv; only rank 0 prints
 * errors. Lists are comma-separated; names are validated against the operation table. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mpivet/error.h"
#include "mpivet/sizelist.h"

static const char usage[] =
  "usage: mpivet-bench [options]\n"
  "  --ops LIST          operations, mock-up ids or groups (all, collectives, mockups, memory)\n"
  "  --msizes LIST       message sizes in bytes (total volume, PGMPI) [" MV_BENCH_DEFAULT_MSIZES "]\n"
  "  --reps N            repetitions (minimum with --rse/--ci) [20]\n"
  "  --max-reps N        maximum repetitions with --rse/--ci [1000]\n"
  "  --rse X             stop when the relative standard error <= X\n"
  "  --ci X              stop when the 95% CI half width / mean <= X\n"
  "  --warmup N          warm-up calls per job [5]\n"
  "  --sync skampi|jk|hca  clock synchronisation [skampi]\n"
  "  --start window|barrier  start synchronisation [window]\n"
  "  --timing local|global   max(e_i - s_i), or max(e_i) - window start [local]\n"
  "  --window SEC        window length (0: from the warm-up, widened when ranks are late) [0]\n"
  "  --check-clock       only measure residual clock offsets after --check-wait\n"
  "  --check-wait SEC    wait before measuring residual offsets [1]\n"
  "  --clear-cache BYTES write this many bytes between repetitions [0]\n"
  "  --seed N            job order seed (0: from the clock; recorded) [0]\n"
  "  --out FILE          results CSV written by rank 0 (- for stdout) [-]\n"
  "  --meta FILE         meta JSON written by rank 0\n"
  "  --engine NAME --ppn K  recorded in every row\n"
  "  --np N              the world must have N ranks, else exit 3 without a row (default: the\n"
  "                      launcher's count from its environment, when it sets one)\n"
  "  --list              print the operation table and exit\n";

static int fail(int rank, const char *fmt, const char *arg)
{
  if (rank == 0) {
    fprintf(stderr, "mpivet-bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
  }
  return 2;
}

static int parse_i64(const char *s, int64_t *v)
{
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (errno || end == s || *end || x < 0)
    return -1;
  *v = x;
  return 0;
}

static int parse_int(const char *s, int *v)
{
  int64_t x;
  if (parse_i64(s, &x) || x > 1000000000)
    return -1;
  *v = (int)x;
  return 0;
}

static int parse_double(const char *s, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return errno || end == s || *end || *v < 0 ? -1 : 0;
}

/* Split a comma list in place (arg stays owned by argv). */
static int split_ops(struct bench_opts *o, char *arg, int rank)
{
  for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
    if (o->nops == BENCH_MAX_JOBS_OPS)
      return fail(rank, "too many operations in --ops%s", "");
    if (!bench_op_find(tok) && bench_group_has(tok, NULL) < 0)
      return fail(rank, "unknown operation \"%s\" (see --list)", tok);
    o->ops[o->nops++] = tok;
  }
  return 0;
}

static int split_msizes(struct bench_opts *o, const char *arg, int rank)
{
  char bad[64];
  size_t n = 0;
  int rc = mv_size_list_parse(arg, o->msizes, BENCH_MAX_MSIZES, &n, bad, sizeof bad);
  o->nmsizes = (int)n;
  if (rc == MV_ERANGE)
    return fail(rank, "too many sizes in --msizes%s", "");
  if (rc)
    return fail(rank, "--msizes: expected a size in bytes, got \"%s\"", bad);
  return 0;
}

static void defaults(struct bench_opts *o)
{
  memset(o, 0, sizeof *o);
  split_msizes(o, MV_BENCH_DEFAULT_MSIZES, 0);
  o->reps = 20;
  o->max_reps = 1000;
  o->warmup = 5;
  o->sync = "skampi";
  o->start = "window";
  o->timing = "local";
  o->check_wait = 1.0;
  o->out = "-";
#ifdef MV_SMPI
  o->engine = "smpi";
#else
  o->engine = "mpirun";
#endif
}

enum { O_OPS = 256, O_MSIZES, O_REPS, O_MAXREPS, O_RSE, O_CI, O_WARMUP, O_SYNC, O_START, O_TIMING,
       O_WINDOW, O_CHECK, O_WAIT, O_CACHE, O_SEED, O_OUT, O_META, O_ENGINE, O_PPN, O_NP, O_LIST, O_HELP };

static const struct option longopts[] = {
  {"ops", 1, 0, O_OPS}, {"msizes", 1, 0, O_MSIZES}, {"reps", 1, 0, O_REPS},
  {"max-reps", 1, 0, O_MAXREPS}, {"rse", 1, 0, O_RSE}, {"ci", 1, 0, O_CI},
  {"warmup", 1, 0, O_WARMUP}, {"sync", 1, 0, O_SYNC}, {"start", 1, 0, O_START},
  {"timing", 1, 0, O_TIMING}, {"window", 1, 0, O_WINDOW}, {"check-clock", 0, 0, O_CHECK},
  {"check-wait", 1, 0, O_WAIT}, {"clear-cache", 1, 0, O_CACHE}, {"seed", 1, 0, O_SEED},
  {"out", 1, 0, O_OUT}, {"meta", 1, 0, O_META}, {"engine", 1, 0, O_ENGINE}, {"ppn", 1, 0, O_PPN},
  {"np", 1, 0, O_NP},   {"list", 0, 0, O_LIST}, {"help", 0, 0, O_HELP}, {0, 0, 0, 0}};

static int one_option(struct bench_opts *o, int c, char *arg, int rank)
{
  int64_t v;
  switch (c) {
  case O_OPS: return split_ops(o, arg, rank);
  case O_MSIZES: return split_msizes(o, arg, rank);
  case O_REPS: return parse_int(arg, &o->reps) || o->reps < 1 ? fail(rank, "--reps: expected a count >= 1, got \"%s\"", arg) : 0;
  case O_MAXREPS: return parse_int(arg, &o->max_reps) || o->max_reps < 1 ? fail(rank, "--max-reps: expected a count >= 1, got \"%s\"", arg) : 0;
  case O_RSE: return parse_double(arg, &o->rse) ? fail(rank, "--rse: expected a number, got \"%s\"", arg) : 0;
  case O_CI: return parse_double(arg, &o->ci) ? fail(rank, "--ci: expected a number, got \"%s\"", arg) : 0;
  case O_WARMUP: return parse_int(arg, &o->warmup) ? fail(rank, "--warmup: expected a count, got \"%s\"", arg) : 0;
  case O_SYNC: o->sync = arg; return bench_sync_find(arg) ? 0 : fail(rank, "--sync: expected skampi, jk or hca, got \"%s\"", arg);
  case O_START: o->start = arg; return strcmp(arg, "window") && strcmp(arg, "barrier") ? fail(rank, "--start: expected window or barrier, got \"%s\"", arg) : 0;
  case O_TIMING: o->timing = arg; return strcmp(arg, "local") && strcmp(arg, "global") ? fail(rank, "--timing: expected local or global, got \"%s\"", arg) : 0;
  case O_WINDOW: return parse_double(arg, &o->window) ? fail(rank, "--window: expected seconds, got \"%s\"", arg) : 0;
  case O_CHECK: o->check_clock = 1; return 0;
  case O_WAIT: return parse_double(arg, &o->check_wait) ? fail(rank, "--check-wait: expected seconds, got \"%s\"", arg) : 0;
  case O_CACHE: return parse_i64(arg, &o->clear_cache) ? fail(rank, "--clear-cache: expected bytes, got \"%s\"", arg) : 0;
  case O_SEED: if (parse_i64(arg, &v)) return fail(rank, "--seed: expected a number, got \"%s\"", arg); o->seed = (uint64_t)v; return 0;
  case O_OUT: o->out = arg; return 0;
  case O_META: o->meta = arg; return 0;
  case O_ENGINE: o->engine = arg; return 0;
  case O_PPN: return parse_int(arg, &o->ppn) ? fail(rank, "--ppn: expected a count, got \"%s\"", arg) : 0;
  case O_NP: return parse_int(arg, &o->np) || o->np < 1 ? fail(rank, "--np: expected a count >= 1, got \"%s\"", arg) : 0;
  case O_LIST: o->list = 1; return 0;
  case O_HELP: if (rank == 0) fputs(usage, stdout); return 1;
  default: return fail(rank, "bad option%s", "");
  }
}

int bench_opts_parse(struct bench_opts *o, int argc, char **argv, int rank)
{
  defaults(o);
  opterr = 0;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    int r = one_option(o, c, optarg, rank);
    if (r)
      return r;
  }
  if (optind < argc)
    return fail(rank, "unexpected argument \"%s\"", argv[optind]);
  if (o->nops == 0)
    o->ops[o->nops++] = "collectives";
  if (o->max_reps < o->reps)
    o->max_reps = o->reps;
  return 0;
}
