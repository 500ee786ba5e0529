/* `mpivet bench`: run mpivet-bench under mpirun, srun or smpirun for R separate launches into
 * DIR/results.csv (run column = launch index) and DIR/meta.json (per launch: command, time,
 * clock-sync method and measured accuracy); per-launch files stay in DIR/launches/. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mpivet/dirlock.h"
#include "mpivet/bench.h"
#include "mpivet/campaign.h"
#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/json-read.h"
#include "mpivet/json.h"
#include "mpivet/meta.h"
#include "mpivet/launch.h"
#include "mpivet/platform.h"
#include "mpivet/progress.h"
#include "mpivet/results.h"
#include "mpivet/sizelist.h"

static const char usage[] =
  "usage: mpivet bench [--engine mpirun|srun|smpi] [--mpi openmpi|mpich] [--np N] [--ppn K]\n"
  "                    [--hosts LIST] [--platform SPEC|FILE] [--ops LIST] [--msizes LIST]\n"
  "                    [--runs R] [--reps N] [srun options] [benchmark options] [-o DIR]\n\n"
  "Run mpivet-bench R times (separate launches) and collect DIR/results.csv and DIR/meta.json.\n"
  "  --engine E          mpirun (Open MPI or MPICH), srun, smpi (SimGrid) [smpi]\n"
  "  --mpi M             openmpi or mpich, the MPI of mpirun/srun [openmpi]\n"
  "  --np N --ppn K      ranks and ranks per node [4, engine default]\n"
  "  --hosts LIST        host list for mpirun/srun, or hosts of a --platform FILE\n"
  "  --platform P        smpi: cluster:N, fattree:N, torus:AxBxC, dragonfly:G,C,R,N or a file\n"
  "  --runs R            separate launches [5; 1 for smpi, whose launches are identical]\n"
  "  --timeout SEC       per launch [600]\n"
  "  -o, --output DIR    output folder [bench-results]\n"
  "srun options (Slurm's default when not given):\n"
  "  --nodes N           nodes of the job step\n"
  "  --partition P       Slurm partition\n"
  "  --time-limit T      minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]]\n"
  "  --pmi PLUGIN        srun --mpi plugin [pmix for openmpi, pmi2 for mpich]\n"
  "benchmark options (passed to mpivet-bench, see mpivet-bench --help):\n"
  "  --ops LIST [collectives]   --msizes LIST [" MV_BENCH_DEFAULT_MSIZES "]   --reps N [20]   --max-reps N\n"
  "  --rse X   --ci X   --warmup N   --sync skampi|jk|hca   --start window|barrier\n"
  "  --timing local|global   --window SEC   --clear-cache BYTES   --seed N\n"
  "  --check-clock   --check-wait SEC\n"
  "exit: 0 ok, 2 usage error, 3 the launcher or the benchmark failed\n";

/* Short codes of the launcher options; a benchmark option's code is PASS(kind, n): what its
 * value is (bits 8 and up) and a number that tells it from the others of its kind. */
enum { OPS = 1, MSIZES, COUNT, NUMBER, SYNC, START, TIMING, FLAG };
#define PASS(kind, n) ((kind) << 8 | (n))
static const struct option longopts[] = {
  {"engine", 1, 0, 'E'}, {"mpi", 1, 0, 'M'}, {"np", 1, 0, 'n'}, {"ppn", 1, 0, 'p'},
  {"hosts", 1, 0, 'H'}, {"platform", 1, 0, 'P'}, {"runs", 1, 0, 'r'}, {"timeout", 1, 0, 't'},
  {"output", 1, 0, 'o'}, {"help", 0, 0, 'h'}, {"nodes", 1, 0, 'N'}, {"partition", 1, 0, 'Q'},
  {"time-limit", 1, 0, 'T'}, {"pmi", 1, 0, 'I'},
  {"ops", 1, 0, PASS(OPS, 0)}, {"msizes", 1, 0, PASS(MSIZES, 0)}, {"reps", 1, 0, PASS(COUNT, 0)},
  {"max-reps", 1, 0, PASS(COUNT, 1)}, {"warmup", 1, 0, PASS(COUNT, 2)},
  {"seed", 1, 0, PASS(COUNT, 3)}, {"clear-cache", 1, 0, PASS(COUNT, 4)},
  {"rse", 1, 0, PASS(NUMBER, 0)}, {"ci", 1, 0, PASS(NUMBER, 1)},
  {"window", 1, 0, PASS(NUMBER, 2)}, {"check-wait", 1, 0, PASS(NUMBER, 3)},
  {"sync", 1, 0, PASS(SYNC, 0)}, {"start", 1, 0, PASS(START, 0)},
  {"timing", 1, 0, PASS(TIMING, 0)}, {"check-clock", 0, 0, PASS(FLAG, 0)},
  {0, 0, 0, 0}};

/* One of the names in a |-separated list? */
static int one_of(const char *s, const char *names)
{
  size_t n = strlen(s);
  for (const char *p = names; *p; p += strcspn(p, "|") + (p[strcspn(p, "|")] == '|'))
    if (strcspn(p, "|") == n && strncmp(p, s, n) == 0)
      return 1;
  return 0;
}

/* --msizes (or mpivet-bench's default) into sizes[0..256). */
static int msizes_of(const char *arg, int64_t *sizes, size_t *n)
{
  char bad[64];
  int rc = mv_size_list_parse(arg ? arg : MV_BENCH_DEFAULT_MSIZES, sizes, 256, n, bad, sizeof bad);
  if (rc == MV_ERANGE)
    return mv_cli_error("bench", "--msizes: expected at most 256 sizes");
  if (rc)
    return mv_cli_error("bench", "--msizes: expected a size in bytes, got \"%s\"", bad);
  return 0;
}

/* Validate the benchmark option of code c and pass it on as "--name value". */
static int pass_option(int c, const char *arg, struct mv_cmdline *pass)
{
  long v;
  double d;
  int rc = 0, kind = c >> 8;
  int64_t sizes[256];
  size_t nsizes;
  const struct option *o = longopts;
  while (o->name && o->val != c)
    o++;
  if (!o->name)
    return MV_EXIT_USAGE;
  if (kind == OPS)
    rc = mv_cli_check_ops("bench", arg, 0);
  else if (kind == MSIZES)
    rc = msizes_of(arg, sizes, &nsizes);
  else if (kind == COUNT && (mv_cli_parse_long(arg, &v) || v < 0))
    rc = mv_cli_error("bench", "--%s: expected a count, got \"%s\"", o->name, arg);
  else if (kind == NUMBER && (mv_cli_parse_double(arg, &d) || d < 0))
    rc = mv_cli_error("bench", "--%s: expected a non-negative number, got \"%s\"", o->name, arg);
  else if ((kind == SYNC && !one_of(arg, "skampi|jk|hca")) ||
           (kind == START && !one_of(arg, "window|barrier")) ||
           (kind == TIMING && !one_of(arg, "local|global")))
    rc = mv_cli_error("bench", "--%s: unexpected value \"%s\" (see --help)", o->name, arg);
  if (!rc)
    rc = mv_cmdline_addf(pass, "--%s", o->name) || (o->has_arg && mv_cmdline_add(pass, arg))
         ? mv_cli_fail("bench", MV_ENOMEM, "out of memory") : 0;
  return rc;
}

struct bench_cli {
  struct mv_launch_spec spec;
  struct mv_cmdline pass;     /* options for mpivet-bench */
  int runs;
  const char *out;
  const char *msizes;         /* --msizes as given, NULL: mpivet-bench's default */
  const char *smpi[16];       /* smpirun options of mv_campaign_smpi_args */
  long platform_hosts;        /* hosts of --platform (0: the default, a host per --ppn ranks) */
};

static int count(const char *name, const char *arg, long max, long min, int *out)
{
  long v;
  if (mv_cli_parse_long(arg, &v) || v < min || v > max)
    return mv_cli_error("bench", "--%s: expected a %s, got \"%s\"", name,
                        min > 0 ? "positive count" : "count", arg);
  *out = (int)v;
  return 0;
}

static int option(void *ctx, int c, const char *arg)
{
  struct bench_cli *b = ctx;
  switch (c) {
  case 'o': b->out = arg; return 0;
  case 'E': b->spec.engine = arg; return 0;
  case 'M': b->spec.mpi = arg; return 0;
  case 'H': b->spec.hosts = arg; return 0;
  case 'P': b->spec.platform = arg; return 0;
  case 'Q': b->spec.partition = arg; return 0;
  case 'T': b->spec.time_limit = arg; return 0;
  case 'I': b->spec.pmi = arg; return 0;
  case 'N': return count("nodes", arg, 1 << 20, 1, &b->spec.nodes);
  case 'n': return count("np", arg, 1 << 24, 1, &b->spec.np);
  case 'p': return count("ppn", arg, 1 << 20, 0, &b->spec.ppn);
  case 'r': return count("runs", arg, 100000, 1, &b->runs);
  case 't':
    return mv_cli_parse_double(arg, &b->spec.timeout_s) || b->spec.timeout_s < 0
               ? mv_cli_error("bench", "--timeout: expected seconds, got \"%s\"", arg) : 0;
  }
  if (c == PASS(MSIZES, 0))
    b->msizes = arg;
  return pass_option(c, arg, &b->pass);
}

static int parse(int argc, char **argv, struct bench_cli *b)
{
  int rc = mv_cli_options("bench", argc, argv, "o:h", longopts, usage, option, b);
  if (rc)
    return rc;
  if (optind < argc)
    return mv_cli_error("bench", "unexpected argument \"%s\"", argv[optind]);
  return 0;
}

static int check_spec(struct bench_cli *b)
{
  const char *const *name = mv_launch_engines();
  while (*name && strcmp(*name, b->spec.engine) != 0)
    name++;
  if (!*name)
    return mv_cli_error("bench", "--engine: expected mpirun, srun or smpi, got \"%s\"", b->spec.engine);
  if (b->spec.mpi && mv_engine_facts(b->spec.engine)->simulated)
    return mv_cli_error("bench", "--mpi %s: the smpi engine runs SMPI's own MPI (--mpi is for "
                        "--engine mpirun or srun)", b->spec.mpi);
  if (b->spec.mpi && strcmp(b->spec.mpi, "openmpi") != 0 && strcmp(b->spec.mpi, "mpich") != 0)
    return mv_cli_error("bench", "--mpi: expected openmpi or mpich, got \"%s\"", b->spec.mpi);
  int max = mv_launch_max_np(&b->spec);
  if (b->spec.np > max)
    return mv_cli_error("bench", "--np %d is larger than %s allows here (%d%s)", b->spec.np,
                        b->spec.engine, max, b->spec.hosts ? "" : "; give --hosts for more");
  struct mv_error err;
  int rc;
  if (mv_launch_srun_check(&b->spec, &err))
    return mv_cli_fail_error("bench", &err);
  if (b->spec.platform && !mv_engine_facts(b->spec.engine)->simulated)
    return mv_cli_error("bench", "--platform applies to --engine smpi only (got --engine %s)",
                        b->spec.engine);
  if ((rc = mv_cli_platform_hosts("bench", b->spec.platform, b->spec.hosts, b->spec.ppn,
                                  b->spec.np, &b->platform_hosts)))
    return rc;
  int k = mv_platform_ranks_per_host(b->platform_hosts, b->spec.np, b->spec.ppn);
  if (b->platform_hosts && k > 1 && b->spec.ppn == 0)
    fprintf(stderr, "mpivet bench: warning: np %d runs %d ranks per host of the %ld hosts of %s; "
            "a rank per host needs a platform of %d hosts\n", b->spec.np, k, b->platform_hosts,
            b->spec.platform, b->spec.np);
  if (mv_launch_available(&b->spec))
    return mv_cli_fail("bench", MV_EEXTERN, "%s engine: launcher not found in PATH", b->spec.engine);
  return 0;
}

/* The launch's mpivet-bench meta.json (same schema, writer "mpivet-bench"), parsed; a missing
 * or unreadable one leaves *root null, and the launch entry then lacks its clock figures. */
static void read_bench_meta(const char *path, struct mv_jval *root)
{
  char *text = NULL;
  size_t len = 0, at;
  const char *what;
  memset(root, 0, sizeof *root);
  if (mv_read_file(path, 0, &text, &len, NULL) == 0)
    mv_jread_parse(text, len, root, &at, &what);   /* on failure root stays null */
  free(text);
}

/* "as": the number at key of object v, when there is one. */
static void copy_number(struct mv_json *j, const struct mv_jval *v, const char *key, const char *as)
{
  const struct mv_jval *x = mv_jval_get(v, key);
  if (x && x->type == MV_JNUMBER)
    mv_json_kv_number(j, as, x->num);
}

static void launch_meta(struct mv_json *j, int run, const struct mv_launch_result *res)
{
  struct mv_jval root;
  read_bench_meta(res->meta, &root);
  const struct mv_jval *sync = mv_jval_get(&root, "clock_sync");
  const struct mv_jval *method = mv_jval_get(sync, "method");
  mv_json_object_begin(j);
  mv_json_kv_int(j, "run", run);
  mv_json_kv_string(j, "command", res->command);
  mv_json_kv_number(j, "seconds", res->seconds);
  mv_json_kv_int(j, "rows", res->rows);
  mv_json_kv_string(j, "bench_meta", res->meta);
  mv_json_kv_string(j, "clock_sync_method", method && method->type == MV_JSTRING ? method->str : "");
  copy_number(j, sync, "seconds", "clock_sync_seconds");
  copy_number(j, sync, "residual_max_abs_s", "clock_residual_max_abs_s");
  copy_number(j, &root, "seed", "seed");
  mv_json_object_end(j);
  mv_jval_release(&root);
}

static void meta_head(struct mv_json *j, const struct bench_cli *b)
{
  const struct mv_launch_spec *s = &b->spec;
  mv_json_kv_string(j, "engine", s->engine);
  mv_json_kv_string(j, "flavor", mv_launch_flavor(s));
  mv_json_kv_int(j, "np", s->np);
  mv_json_kv_int(j, "ppn", s->ppn);
  mv_json_kv_string(j, "hosts", s->hosts);
  mv_json_kv_string(j, "platform", s->platform);
  if (mv_engine_facts(s->engine)->simulated)   /* the default platform: a host per ppn ranks */
    mv_json_kv_int(j, "ranks_per_host", mv_platform_ranks_per_host(
                   b->platform_hosts ? b->platform_hosts : s->np, s->np, s->ppn));
  mv_json_kv_int(j, "runs", b->runs);
}

static int run_all(struct bench_cli *b, struct mv_json *j, struct mv_results_writer *w)
{
  struct mv_progress prog;
  struct mv_launch_result res;
  int rc = 0;
  mv_progress_start(&prog, "bench", b->runs);
  mv_json_key(j, "launches");
  mv_json_array_begin(j);
  for (int run = 0; run < b->runs && !rc; run++) {
    struct mv_row_sink sink = mv_results_writer_sink(w);
    rc = mv_launch_bench(&b->spec, run, &sink, &res);
    if (rc) {
      char disk[4200];
      mv_cli_disk_note(b->out, disk, sizeof disk);
      rc = mv_cli_fail("bench", rc, "launch %d failed%s%s%s%s: %s (log: %s)", run,
                  res.timed_out ? " (timeout)" : "", res.error.what[0] ? ": " : "", res.error.what, disk,
                  res.command, res.log);
      break;
    }
    errno = 0;
    if ((rc = mv_results_writer_flush(w)) != 0) {
      rc = mv_cli_fail("bench", rc, "cannot write the rows of launch %d to %s/results.csv: %s", run,
                       b->out, mv_cli_reason(rc));
      break;
    }
    launch_meta(j, run, &res);
    mv_progress_update(&prog, run + 1, NULL);
  }
  mv_json_array_end(j);
  mv_progress_finish(&prog);
  return rc;
}

struct bench_meta {
  struct bench_cli *b;
  struct mv_results_writer *w;
  int exit;   /* run_all's exit code */
};

/* The writer's part of meta.json: the launch, then one entry per launch as it finishes. */
static int bench_meta(struct mv_json *j, void *arg)
{
  struct bench_meta *m = arg;
  meta_head(j, m->b);
  m->exit = run_all(m->b, j, m->w);
  return m->exit ? MV_EEXTERN : 0;
}

static int bench(struct bench_cli *b)
{
  char dir[4096], path[4200];
  snprintf(dir, sizeof dir, "%s/launches", b->out);
  if (mkdir(b->out, 0777) != 0 && errno != EEXIST)
    return mv_cli_error("bench", "%s: cannot create the output folder: %s", b->out,
                        strerror(errno));
  int lrc = mv_dir_lock(b->out);
  if (lrc)
    return mv_cli_error("bench", "%s: %s", b->out, lrc == MV_EBUSY ? "in use by another mpivet "
                        "process" : "cannot create its lock file");
  char first[256];
  if (!mv_dir_is_empty(b->out, first, sizeof first))  /* never replace an earlier run */
    return mv_cli_error("bench", "%s: not empty (holds %s): choose a new folder with -o DIR",
                        b->out, first);
  if (mkdir(dir, 0777) != 0)
    return mv_cli_error("bench", "%s: cannot create the output folder: %s", dir, strerror(errno));
  b->spec.workdir = dir;
  b->spec.args = (const char *const *)b->pass.argv;
  snprintf(path, sizeof path, "%s/results.csv", b->out);
  struct bench_meta m = {b, NULL, 0};
  errno = 0;
  int rc = mv_results_writer_open(&m.w, path, MV_RESULTS_ATOMIC);
  if (rc)
    return mv_cli_write_failed("bench", path, rc);
  snprintf(path, sizeof path, "%s/meta.json", b->out);
  errno = 0;
  int wrc = mv_meta_write(path, "mpivet bench", bench_meta, &m);
  rc = m.exit;
  if (wrc && !rc)
    rc = mv_cli_write_failed("bench", path, wrc);
  errno = 0;
  if ((wrc = mv_results_writer_close(m.w, rc == 0)) != 0 && !rc) {
    snprintf(path, sizeof path, "%s/results.csv", b->out);
    rc = mv_cli_write_failed("bench", path, wrc);
  }
  if (!rc)
    fprintf(stderr, "mpivet bench: %d launch(es) -> %s/results.csv, %s\n", b->runs, b->out, path);
  return rc;
}

/* SMPI 3.32 simulates MPI_Scan and MPI_Exscan with a linear algorithm whose cost grows like
 * p^3 (minutes per call at 256 ranks): the default set leaves them out at scale, saying so. */
#define SMPI_SCAN_MAX_NP 64

static int default_ops(struct bench_cli *b)
{
  for (int i = 0; i < b->pass.argc; i++)
    if (strcmp(b->pass.argv[i], "--ops") == 0)
      return 0;
  if (!mv_engine_facts(b->spec.engine)->simulated || b->spec.np <= SMPI_SCAN_MAX_NP)
    return 0;
  fprintf(stderr, "mpivet bench: note: MPI_Scan and MPI_Exscan are left out of the default "
                  "operations above %d ranks under SMPI (its Scan is O(p^3) to simulate); name "
                  "them in --ops to measure them\n", SMPI_SCAN_MAX_NP);
  return mv_cmdline_add(&b->pass, "--ops") ||
         mv_cmdline_add(&b->pass, "Barrier,Bcast,Reduce,Allreduce,Gather,Gatherv,Allgather,"
                                  "Allgatherv,Alltoall,Alltoallv,Scatter,Scatterv,Reduce_scatter,"
                                  "Reduce_scatter_block")
         ? mv_cli_fail("bench", MV_ENOMEM, "out of memory") : 0;
}

/* Under SMPI the same fast and exact simulation settings as `mpivet check` (named algorithms
 * skip SMPI's O(p^2) SMP detection, 34 s at 1024 ranks); they depend on the message sizes. */
static void smpi_settings(struct bench_cli *b)
{
  int64_t sizes[256];
  size_t n = 0;
  if (!mv_engine_facts(b->spec.engine)->simulated || msizes_of(b->msizes, sizes, &n))
    return;  /* --msizes was checked when parsed */
  mv_campaign_smpi_args(sizes, n, b->spec.ppn, b->smpi, sizeof b->smpi / sizeof b->smpi[0]);
  b->spec.launcher_args = b->smpi;
}

int cmd_bench(int argc, char **argv)
{
  struct bench_cli b = {.runs = 0, .out = "bench-results"};
  b.spec.engine = "smpi";
  b.spec.np = 4;
  b.spec.timeout_s = 600;
  mv_cmdline_init(&b.pass);
  int rc = parse(argc, argv, &b);
  if (rc == 0)
    rc = check_spec(&b);   /* first: the engine's facts below need a known engine */
  if (rc == 0)
    rc = default_ops(&b);
  if (rc == 0 && b.runs == 0)   /* as `mpivet check` */
    b.runs = mv_engine_facts(b.spec.engine)->default_runs;
  if (rc == 0) {
    smpi_settings(&b);
    rc = bench(&b);
  }
  mv_cmdline_release(&b.pass);
  return mv_cli_finish(rc < 0 ? 0 : rc);
}
