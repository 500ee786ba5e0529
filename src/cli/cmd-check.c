/* `mpivet check`: the whole validation loop — plan a campaign (random order, recorded seed,
 * cost estimate and budget), run it resumably through an engine, then model, judge and report
 * (report.txt, report.json, report.html, meta.json). Exit 1 when a verdict fails. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check-run.h"
#include "cli.h"
#include "mpivet/campaign.h"
#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/expect.h"
#include "mpivet/launch.h"
#include "mpivet/paths.h"
#include "mpivet/platform.h"
#include "mpivet/progress.h"
#include "mpivet/report.h"

static const char usage[] =
  "usage: mpivet check [--engine smpi|mpirun|srun] [--mpi openmpi|mpich] [--np LIST|A:B]\n"
  "                    [--ppn K] [--hosts LIST] [--platform SPEC|FILE] [--ops LIST]\n"
  "                    [--msizes LIST] [--expect FILE] [--runs R] [--reps N] [--budget MIN]\n"
  "                    [--seed S] [srun options] [-o DIR] | --resume DIR\n\n"
  "Run the validation loop: mpivet-bench for R separate launches per process count in a random\n"
  "order (seeded, recorded), PMNF models against the expectations, the cross-function rules\n"
  "and the PGMPI guidelines at the largest process count; writes results.csv, meta.json,\n"
  "report.txt, report.json and report.html into DIR. An interrupted campaign (Ctrl-C, kill -9)\n"
  "continues with --resume DIR, without losing or repeating a launch.\n\n"
  "  --engine E      smpi (default: simulated cluster), mpirun, srun\n"
  "  --mpi M         openmpi (default) or mpich, for mpirun and srun\n"
  "  --np LIST|A:B   process counts, e.g. 2,4,8 or 16:1024 (powers of two);\n"
  "                  default 16:1024 on smpi, 2,4,8 on mpirun\n"
  "  --ppn K         processes per node\n"
  "  --hosts LIST    mpirun/srun host list\n"
  "  --platform P    smpi platform: cluster:N, fattree:N, torus:AxBxC, dragonfly:G,C,R,N or an\n"
  "                  XML file (default cluster:<largest np>, one platform for every np)\n"
  "  --ops LIST      operations, mock-ups or groups; OP@SIZE measures OP at that size only\n"
  "                  (default: the suite of default.expect)\n"
  "  --msizes LIST   message sizes: bytes in total (800) or per process (800p: 800 x np in\n"
  "                  total at each process count); default 800 (the suite: 800,800p)\n"
  "  --expect FILE   expectations (default share/mpivet/default.expect)\n"
  "  --runs R        launches per process count (default 1 on smpi, 5 otherwise)\n"
  "  --reps N        repetitions inside a launch (default 3 on smpi, 20 otherwise)\n"
  "  --budget MIN    refuse or trim a plan estimated to take longer than MIN minutes\n"
  "  --seed S        order of the launches (default: from the clock; recorded)\n"
  "  -o DIR          campaign folder (default results/check-<date>-<time>)\n"
  "  --resume DIR    continue an interrupted campaign with its recorded plan and options (with\n"
  "                  --expect FILE: judged against FILE instead; other options are refused)\n"
  "srun options (Slurm's default when not given):\n"
  "  --nodes N       nodes of each job step\n"
  "  --partition P   Slurm partition\n"
  "  --time-limit T  per launch: minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]]\n"
  "  --pmi PLUGIN    srun --mpi plugin (default pmix for openmpi, pmi2 for mpich)\n\n"
  "exit: 0 every verdict passed, 1 a verdict failed or an expectation could not be judged (not\n"
  "      measured, too few points), 2 usage or input error, 3 a launch failed\n";

/* The default suite, what default.expect needs: Table 1 at 800 B in total (Barrier, Bcast,
 * Reduce, Allreduce, the litmus, and Gather, Allgather for the rules with their mock-ups) and
 * at 800 B per process (Gather, Allgather, Alltoall); the memory functions only where memory
 * can be measured (not SMPI). Without --ops but with --msizes: TIME_OPS at every size. */
#define TIME_OPS "MPI_Barrier,MPI_Bcast,MPI_Reduce,MPI_Allreduce,MPI_Gather,MPI_Allgather," \
  "MPI_Alltoall,bcast_as_binomial,allreduce_as_reduce_bcast,allgather_as_gather_bcast"
#define SUITE_OPS "MPI_Barrier@800,MPI_Bcast@800,MPI_Reduce@800,MPI_Allreduce@800," \
  "MPI_Gather@800,MPI_Allgather@800,bcast_as_binomial@800,allreduce_as_reduce_bcast@800," \
  "allgather_as_gather_bcast@800,MPI_Gather@800p,MPI_Allgather@800p,MPI_Alltoall@800p"
static const char default_ops_time[] = SUITE_OPS;
static const char default_ops[] = SUITE_OPS ",MPI_Comm_create@800,MPI_Comm_dup@800,"
  "MPI_Win_create@800,MPI_Cart_create@800";

struct check_opts {
  const char *engine, *mpi, *np, *ppn, *hosts, *platform, *ops, *msizes, *expect, *out, *resume;
  const char *nodes, *partition, *time_limit, *pmi;  /* srun */
  long runs, reps, seed;
  double budget_min;
  int seed_given;
  int pp_single;              /* plan setting of per-process sizes (mv_plan) */
};

static int parse_count(const char *name, const char *arg, long *out)
{
  if (mv_cli_parse_long(arg, out) || *out < 1 || *out > 1000000)
    return mv_cli_error("check", "%s: expected a count >= 1, got \"%s\"", name, arg);
  return 0;
}

static int option(void *ctx, int ch, const char *arg)
{
  struct check_opts *o = ctx;
  switch (ch) {
  case 'e': o->engine = arg; return 0;
  case 'm': o->mpi = arg; return 0;
  case 'n': o->np = arg; return 0;
  case 'p': o->ppn = arg; return 0;
  case 'H': o->hosts = arg; return 0;
  case 'P': o->platform = arg; return 0;
  case 'O': o->ops = arg; return 0;
  case 'M': o->msizes = arg; return 0;
  case 'x': o->expect = arg; return 0;
  case 'r': return parse_count("--runs", arg, &o->runs);
  case 'R': return parse_count("--reps", arg, &o->reps);
  case 'b':
    return mv_cli_parse_double(arg, &o->budget_min) || o->budget_min <= 0
               ? mv_cli_error("check", "--budget: expected minutes > 0, got \"%s\"", arg) : 0;
  case 's':
    o->seed_given = 1;
    return mv_cli_parse_long(arg, &o->seed) || o->seed < 0
               ? mv_cli_error("check", "--seed: expected a number >= 0, got \"%s\"", arg) : 0;
  case 'o': o->out = arg; return 0;
  case 'c': o->resume = arg; return 0;
  case 'N': o->nodes = arg; return 0;
  case 'Q': o->partition = arg; return 0;
  case 'T': o->time_limit = arg; return 0;
  case 'I': o->pmi = arg; return 0;
  }
  return MV_EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct check_opts *o)
{
  static const struct option longopts[] = {
    {"engine", 1, 0, 'e'}, {"mpi", 1, 0, 'm'}, {"np", 1, 0, 'n'}, {"ppn", 1, 0, 'p'},
    {"hosts", 1, 0, 'H'}, {"platform", 1, 0, 'P'}, {"ops", 1, 0, 'O'}, {"msizes", 1, 0, 'M'},
    {"expect", 1, 0, 'x'}, {"runs", 1, 0, 'r'}, {"reps", 1, 0, 'R'}, {"budget", 1, 0, 'b'},
    {"seed", 1, 0, 's'}, {"output", 1, 0, 'o'}, {"resume", 1, 0, 'c'}, {"help", 0, 0, 'h'},
    {"nodes", 1, 0, 'N'}, {"partition", 1, 0, 'Q'}, {"time-limit", 1, 0, 'T'}, {"pmi", 1, 0, 'I'},
    {0, 0, 0, 0}};
  int rc = mv_cli_options("check", argc, argv, "+ho:", longopts, usage, option, o);
  if (rc == 0 && optind != argc)
    rc = mv_cli_error("check", "unexpected argument \"%s\" (see mpivet check --help)", argv[optind]);
  return rc;
}

/* Defaults that depend on the engine (mv_engine_facts): a deterministic engine (SMPI)
 * says all there is in one launch of a few repetitions. */
static void engine_defaults(struct check_opts *o)
{
  const struct mv_engine_facts *f = mv_engine_facts(o->engine);
  /* one call per job is exact when deterministic, and under SMPI a per-process size costs host
   * time like p^3 (the default's 800 B-per-process launch: 5.9 s of CPU at 512 ranks, 59.7 s
   * at 1024) */
  o->pp_single = f->deterministic && !o->reps;
  if (!o->np)
    o->np = f->default_np;
  if (!o->runs)
    o->runs = f->default_runs;
  if (!o->reps)
    o->reps = f->default_reps;
  if (!o->ops)
    o->ops = o->msizes ? TIME_OPS : f->measures_memory ? default_ops : default_ops_time;
  if (!o->msizes)
    o->msizes = "800";
}

/* The cost model's engine name: "mpirun/mpich" costs differently from "mpirun" (Open MPI). */
static const char *cost_key(const char *engine, const char *mpi, char *buf, size_t size)
{
  snprintf(buf, size, "%s%s%s", engine, mpi ? "/" : "", mpi ? mpi : "");
  return buf;
}

static int build_plan(struct mv_campaign *c, const struct check_opts *o)
{
  char key[64];
  const char *engine = cost_key(o->engine, o->mpi, key, sizeof key);
  struct mv_plan *p = &c->plan;
  if (mv_plan_parse_nprocs(p, o->np))
    return mv_cli_error("check", "--np: expected a list such as 2,4,8 or a range A:B, got \"%s\"",
                        o->np);
  if (mv_plan_parse_ops(p, o->ops))
    return mv_cli_error("check", "--ops: expected a comma-separated list of names or NAME@SIZE "
                        "(e.g. MPI_Gather@800p), got \"%s\"", o->ops);
  if (mv_plan_parse_msizes(p, o->msizes))
    return mv_cli_error("check", "--msizes: expected sizes in bytes such as 800 (total) or 800p "
                        "(per process), got \"%s\"", o->msizes);
  p->runs = (int)o->runs;
  p->reps = (int)o->reps;
  p->pp_single = o->pp_single;
  p->seed = o->seed_given ? (uint64_t)o->seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  if (mv_plan_build(p))
    return mv_cli_error("check", "cannot build the plan");
  if (o->budget_min > 0) {
    char note[256];
    if (mv_plan_fit_budget(p, engine, o->budget_min * 60, note, sizeof note))
      return mv_cli_error("check", "the smallest plan (%.1f min estimated) does not fit the "
                          "budget of %.1f min", mv_plan_cost(p, engine, NULL) / 60,
                          o->budget_min);
    if (note[0])
      fprintf(stderr, "mpivet check: %s\n", note);
  }
  return 0;
}

/* One SMPI platform for every process count: a built-in spec (default cluster:<largest np>)
 * is passed to the engine as is and recorded as platform.xml for meta.json. */
static int smpi_platform(struct mv_campaign *c, const struct check_opts *o, long file_hosts)
{
  char spec[64], err[MV_ERROR_TEXT_SIZE], path[MV_CAMPAIGN_PATH_MAX + 32], hosts[32];
  struct stat st;
  if (o->platform && stat(o->platform, &st) == 0) {   /* hosts read by mv_cli_platform_hosts */
    snprintf(hosts, sizeof hosts, "%ld", file_hosts);
    return mv_campaign_set(c, "platform", o->platform) || mv_campaign_set(c, "platform_hosts", hosts) ||
           mv_campaign_set(c, "platform_file", o->platform);
  }
  snprintf(spec, sizeof spec, "cluster:%d", c->plan.nprocs[c->plan.n_nprocs - 1]);
  struct mv_platform pf;
  struct mv_error e;
  if (mv_platform_parse(o->platform ? o->platform : spec, &pf, &e))
    return mv_cli_error("check", "--platform: %s", mv_error_text(&e, err, sizeof err));
  snprintf(hosts, sizeof hosts, "%d", pf.hosts);
  if (mv_campaign_set(c, "platform_hosts", hosts))
    return mv_cli_fail("check", MV_ENOMEM, "out of memory");
  mv_campaign_path(c, "platform.xml", path, sizeof path);
  FILE *fp = fopen(path, "w");
  int rc = !fp || mv_platform_write_xml(&pf, fp);
  if (fp && fclose(fp))
    rc = 1;
  if (rc)
    return mv_cli_error("check", "%s: cannot write the platform", path);
  return mv_campaign_set(c, "platform", o->platform ? o->platform : spec) ||
         mv_campaign_set(c, "platform_file", path) ? MV_EXIT_USAGE : 0;
}

/* The srun options, checked by the engine's own rules before anything runs. */
static int check_srun(const struct check_opts *o)
{
  long nodes = 0;
  struct mv_error e;
  if (o->nodes && (mv_cli_parse_long(o->nodes, &nodes) || nodes < 1 || nodes > 1 << 20))
    return mv_cli_error("check", "--nodes: expected a positive count, got \"%s\"", o->nodes);
  struct mv_launch_spec s = {.engine = o->engine, .np = 1 << 20, .nodes = (int)nodes,
                             .partition = o->partition, .time_limit = o->time_limit, .pmi = o->pmi};
  return mv_launch_srun_check(&s, &e) ? mv_cli_fail_error("check", &e) : 0;
}

static int store_options(struct mv_campaign *c, const struct check_opts *o, const char *expect)
{
  const char *kv[][2] = {{"engine", o->engine}, {"mpi", o->mpi}, {"ppn", o->ppn},
                         {"hosts", o->hosts}, {"expect", expect}, {"nodes", o->nodes},
                         {"partition", o->partition}, {"time_limit", o->time_limit},
                         {"pmi", o->pmi}};
  for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
    if (kv[i][1] && mv_campaign_set(c, kv[i][0], kv[i][1]))
      return mv_cli_error("check", "option %s: invalid value", kv[i][0]);
  char key[64];
  const char *engine = cost_key(o->engine, o->mpi, key, sizeof key);
  double worst = 0;
  for (size_t i = 0; i < c->plan.n_nprocs; i++) {
    double cost = mv_plan_launch_cost(&c->plan, engine, c->plan.nprocs[i]);
    worst = cost > worst ? cost : worst;
  }
  char timeout[32];
  snprintf(timeout, sizeof timeout, "%.0f", 120 + 20 * worst);
  return mv_campaign_set(c, "timeout", timeout) ? MV_EXIT_USAGE : 0;
}

/* The expectations file, parsed now so that a missing or bad file is found before the
 * campaign, not after it; its absolute path (a --resume may run elsewhere) in path. */
static int check_expect(const char *file, char *path, size_t size)
{
  char abs[PATH_MAX], text[MV_ERROR_TEXT_SIZE];
  struct mv_error e;
  struct mv_expect_file f;
  if (!file && mv_path_share("default.expect", path, size))
    return mv_cli_error("check", "share/mpivet/default.expect not found (set MPIVET_SHARE)");
  if (file && (!realpath(file, abs) || snprintf(path, size, "%s", abs) >= (int)size))
    return mv_cli_error("check", "--expect: %s: %s", file, strerror(errno));
  mv_expect_file_init(&f);
  int rc = mv_expect_parse_file(&f, path, &e);
  mv_expect_file_release(&f);
  return rc ? mv_cli_error("check", "--expect: %s", mv_error_text(&e, text, sizeof text)) : 0;
}

/* --mpi, --ppn and --platform, checked before anything runs or is written. */
static int check_options(const struct check_opts *o)
{
  const struct mv_engine_facts *f = mv_engine_facts(o->engine);
  long ppn;
  if (o->mpi && f->simulated)
    return mv_cli_error("check", "--mpi %s: the smpi engine runs SMPI's own MPI (--mpi is for "
                        "--engine mpirun or srun)", o->mpi);
  if (o->mpi && strcmp(o->mpi, "openmpi") != 0 && strcmp(o->mpi, "mpich") != 0)
    return mv_cli_error("check", "--mpi: expected openmpi or mpich, got \"%s\"", o->mpi);
  if (o->ppn && (mv_cli_parse_long(o->ppn, &ppn) || ppn < 1 || ppn > 1 << 20))
    return mv_cli_error("check", "--ppn: expected a count >= 1, got \"%s\"", o->ppn);
  if (o->platform && !f->simulated)
    return mv_cli_error("check", "--platform applies to --engine smpi only (got --engine %s)",
                        o->engine);
  return mv_cli_check_ops("check", o->ops, 1);
}

static int new_campaign(struct mv_campaign *c, struct check_opts *o)
{
  char expect[4096], dir[512];
  if (!o->engine)
    o->engine = "smpi";
  if (!mv_engine_facts(o->engine))
    return mv_cli_error("check", "--engine: expected smpi, mpirun or srun, got \"%s\"", o->engine);
  engine_defaults(o);
  int rc = check_srun(o);
  if (rc || (rc = check_options(o)) || (rc = check_expect(o->expect, expect, sizeof expect)))
    return rc;
  if ((rc = build_plan(c, o)))
    return rc;
  long hosts = 0, ppn = 0;
  if (o->ppn)
    mv_cli_parse_long(o->ppn, &ppn);   /* checked by check_options */
  if (mv_engine_facts(o->engine)->simulated &&
      (rc = mv_cli_platform_hosts("check", o->platform, o->hosts, ppn,
                                  c->plan.nprocs[c->plan.n_nprocs - 1], &hosts)))
    return rc;
  if (!o->out) {
    time_t now = time(NULL);
    strftime(dir, sizeof dir, "results/check-%Y%m%d-%H%M%S", localtime(&now));
    o->out = dir;
  }
  if ((rc = store_options(c, o, expect)))
    return rc;
  char text[MV_ERROR_TEXT_SIZE];
  if ((rc = mv_campaign_create(c, o->out)))
    return mv_cli_error("check", "%s",
                        mv_error_text(&c->error, text, sizeof text)[0] ? text
                        : "cannot create the campaign folder");
  if (mv_engine_facts(o->engine)->simulated && (rc = smpi_platform(c, o, hosts)))
    return rc;
  /* the plan file must carry the platform too: rewrite it with the final options */
  return mv_campaign_save(c) ? mv_cli_error("check", "%s: cannot save the plan", c->dir) : 0;
}

/* "np 32..64 run 2..4 ranks per host of the 16 hosts of cluster:16" when a platform has fewer
 * hosts than ranks (SMPI then places several ranks per host, which changes the times); "" when
 * every rank has a host of its own. */
static void shared_hosts(const struct mv_campaign *c, char *buf, size_t size)
{
  const char *hosts = mv_campaign_get(c, "platform_hosts"), *ppn = mv_campaign_get(c, "ppn");
  int first = 0, lo = 0, hi = 0;
  buf[0] = '\0';
  for (size_t i = 0; hosts && i < c->plan.n_nprocs; i++) {
    int np = c->plan.nprocs[i], k = mv_platform_ranks_per_host(atol(hosts), np, ppn ? atoi(ppn) : 0);
    if (k > 1 && !first)
      first = np, lo = k;
    hi = k > hi ? k : hi;
  }
  if (first)
    snprintf(buf, size, "np %d..%d run%s %d%s%.0d ranks per host of the %s hosts of %s%s", first,
             c->plan.nprocs[c->plan.n_nprocs - 1], lo < hi ? "" : " up to", lo, lo < hi ? ".." : "",
             lo < hi ? hi : 0, hosts, mv_campaign_get(c, "platform"), ppn ? " (--ppn)" : "");
}

static int run_campaign(struct mv_campaign *c)
{
  char shared[256];
  shared_hosts(c, shared, sizeof shared);
  if (shared[0] && !mv_campaign_get(c, "ppn"))   /* --ppn asked for it */
    fprintf(stderr, "mpivet check: warning: %s; a rank per host needs a platform of %d hosts\n",
            shared, c->plan.nprocs[c->plan.n_nprocs - 1]);
  char key[64];
  const char *engine = cost_key(mv_campaign_get(c, "engine"), mv_campaign_get(c, "mpi"), key,
                                sizeof key);
  double left = mv_plan_cost(&c->plan, engine, c->done);
  char sizes[256] = "";
  mv_plan_format_msizes(&c->plan, sizes, sizeof sizes);
  fprintf(stderr, "mpivet check: %s: %zu launches (%zu done) of %zu ops, sizes %s, np %d..%d, "
          "%d runs x %d reps, seed %llu; estimated %.1f min\n", c->dir, c->plan.n_items,
          c->n_done, c->plan.n_ops, sizes, c->plan.nprocs[0],
          c->plan.nprocs[c->plan.n_nprocs - 1], c->plan.runs, c->plan.reps,
          (unsigned long long)c->plan.seed, left / 60);
  int signo = 0;
  int rc = mv__check_run(c, engine, &signo);
  if (rc && signo)
    fprintf(stderr, "mpivet check: interrupted by signal %d\n", signo);
  char disk[4200];
  mv_cli_disk_note(c->dir, disk, sizeof disk);
  char text[MV_ERROR_TEXT_SIZE];
  if (rc)
    return mv_cli_fail("check", rc, "%s%s (resume with: mpivet check --resume %s)",
                       mv_error_text(&c->error, text, sizeof text), disk, c->dir);
  return 0;
}

static int analyze(struct mv_campaign *c, const char *command_line)
{
  char results[MV_CAMPAIGN_PATH_MAX + 32];
  mv_campaign_path(c, "results.csv", results, sizeof results);
  struct mv_check_analysis a;
  mv_check_analysis_init(&a);
  const struct mv_engine_facts *f = mv_engine_facts(mv_campaign_get(c, "engine"));
  a.skip_memory = f && !f->measures_memory;
  for (size_t i = 0; i < c->plan.n_msizes && a.n_pp_sizes < 16; i++)
    if (c->plan.msize_pp && c->plan.msize_pp[i])
      a.pp_sizes[a.n_pp_sizes++] = c->plan.msizes[i];
  struct mv_error e;
  int rc = mv_check_analyze(&a, results, mv_campaign_get(c, "expect"), NULL, &e);
  if (rc) {
    rc = mv_cli_fail_error("check", &e);
    mv_check_analysis_release(&a);
    return rc;
  }
  struct mv_report *r = &a.report;
  snprintf(r->title, sizeof r->title, "mpivet check: %.200s", c->dir);
  char sizes[256] = "", pp[160] = "";
  mv_plan_format_msizes(&c->plan, sizes, sizeof sizes);
  if (c->plan.pp_single || c->plan.pp_np_max)
    snprintf(pp, sizeof pp, "; per-process sizes: %s%s%.0d", c->plan.pp_single ? "one call, no "
             "warm-up (deterministic)" : "", c->plan.pp_np_max ? (c->plan.pp_single ? ", up to "
             "np " : "up to np ") : "", c->plan.pp_np_max);
  snprintf(r->info[0], sizeof r->info[0], "process counts %d..%d, %d launches x %d repetitions, "
           "sizes %.150s (p: per process)%.100s, seed %llu", c->plan.nprocs[0],
           c->plan.nprocs[c->plan.n_nprocs - 1], c->plan.runs, c->plan.reps, sizes, pp,
           (unsigned long long)c->plan.seed);
  snprintf(r->info[1], sizeof r->info[1], "expectations: %.200s", mv_campaign_get(c, "expect"));
  char shared[256];
  shared_hosts(c, shared, sizeof shared);
  if (mv_campaign_get(c, "platform"))
    snprintf(r->info[2], sizeof r->info[2], "platform: %.200s%s%.250s", mv_campaign_get(c, "platform"),
             shared[0] ? "; " : "", shared);
  if (a.skip_memory && a.n_skipped)
    snprintf(r->info[3], sizeof r->info[3], "memory: %zu expectation%s not judged under SMPI (every "
             "rank runs in one simulator process, so no allocation belongs to a rank); measure "
             "memory with --engine mpirun or srun", a.n_skipped, a.n_skipped == 1 ? "" : "s");
  struct mv_meta meta = {r->library, mv_campaign_get(c, "engine"),
                         mv_campaign_get(c, "platform_file"), command_line};
  errno = 0;
  int wrc = mv_report_write_all(r, c->dir);
  wrc = wrc ? wrc : mv_campaign_write_meta(c, &meta);
  if (wrc)
    rc = mv_cli_fail("check", wrc, "cannot write the reports in %s: %s", c->dir, mv_cli_reason(wrc));
  if (rc == 0) {
    mv_report_write_text(r, stdout);
    fprintf(stderr, "mpivet check: reports in %s/report.{txt,json,html}\n", c->dir);
    rc = strcmp(mv_report_verdict(r), "PASS") ? MV_EXIT_VERDICT : MV_EXIT_OK;
  }
  mv_check_analysis_release(&a);
  return rc;
}

/* The first option given with --resume that the recorded plan fixes, or NULL. */
static const char *fixed_by_plan(const struct check_opts *o)
{
  const struct { const char *name; int given; } opts[] = {
    {"--engine", !!o->engine}, {"--mpi", !!o->mpi}, {"--np", !!o->np}, {"--ppn", !!o->ppn},
    {"--hosts", !!o->hosts}, {"--platform", !!o->platform}, {"--ops", !!o->ops},
    {"--msizes", !!o->msizes}, {"--runs", o->runs > 0}, {"--reps", o->reps > 0},
    {"--budget", o->budget_min > 0}, {"--seed", o->seed_given}, {"-o", !!o->out},
    {"--nodes", !!o->nodes}, {"--partition", !!o->partition}, {"--time-limit", !!o->time_limit},
    {"--pmi", !!o->pmi}};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    if (opts[i].given)
      return opts[i].name;
  return NULL;
}

/* --resume DIR continues with the recorded plan; --expect FILE alone may come with it: the
 * campaign is then judged against FILE (said on stderr, recorded in the report and meta.json). */
static int resume(struct mv_campaign *c, const struct check_opts *o)
{
  char expect[4096];
  const char *fixed = fixed_by_plan(o);
  int rc;
  if (fixed)
    return mv_cli_error("check", "--resume continues with the options recorded in %s/campaign.plan:"
                        " %s cannot change them (start a new campaign with -o DIR)", o->resume, fixed);
  if (o->expect && (rc = check_expect(o->expect, expect, sizeof expect)))
    return rc;
  char text[MV_ERROR_TEXT_SIZE];
  if (mv_campaign_resume(c, o->resume))
    return mv_cli_error("check", "--resume: %s",
                        mv_error_text(&c->error, text, sizeof text)[0] ? text
                        : "not a campaign folder");
  if (!o->expect)
    return 0;
  fprintf(stderr, "mpivet check: --expect: judging with %s instead of the recorded %s\n", expect,
          mv_campaign_get(c, "expect") ? mv_campaign_get(c, "expect") : "(none)");
  return mv_campaign_set(c, "expect", expect) ? mv_cli_fail("check", MV_ENOMEM, "out of memory") : 0;
}

static void command_line(int argc, char **argv, char *buf, size_t size)
{
  size_t len = (size_t)snprintf(buf, size, "mpivet");
  for (int i = 0; i < argc && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, " %s", argv[i]);
}

int cmd_check(int argc, char **argv)
{
  struct check_opts o;
  memset(&o, 0, sizeof o);
  int rc = parse_args(argc, argv, &o);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  struct mv_campaign c;
  mv_campaign_init(&c);
  if (o.resume) {
    rc = resume(&c, &o);
  } else {
    rc = new_campaign(&c, &o);
  }
  char cmd[2048];
  command_line(argc, argv, cmd, sizeof cmd);
  if (rc == 0)
    rc = run_campaign(&c);
  if (rc == 0)
    rc = analyze(&c, cmd);
  mv_campaign_release(&c);
  return rc;
}
