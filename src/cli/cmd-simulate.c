/* `mpivet simulate`: build a C source with smpicc (or take an smpicc-built binary), run it under
 * smpirun on a calibrated (or default) platform, pass its output through, and print the predicted
 * time, the simulation's wall time and its peak memory (text or --json). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mpivet/error.h"
#include "mpivet/json.h"
#include "mpivet/simulate.h"

#define MAX_LIST 64

static const char usage[] =
  "usage: mpivet simulate [--calibration DIR] [--platform SPEC|FILE] [--np N] [--ppn K]\n"
  "                       [--cflag ARG]... [--cfg KEY:VALUE]... [--no-clock-correction] [--json]\n"
  "                       SOURCE.c|BINARY [-- ARGS]\n\n"
  "Build SOURCE.c with smpicc (include/mpivet/ on the include path; with a calibration, its\n"
  "kernels.h is included so that mpivet/emulate.h models the kernels), run it under smpirun and\n"
  "print the predicted run time. The program's own output passes through unchanged.\n"
  "  --calibration DIR   folder written by mpivet calibrate (default: SimGrid's uncalibrated values)\n"
  "  --platform SPEC     cluster:N, fattree:N, torus:AxBxC, dragonfly:G,C,R,N; with a calibration\n"
  "                      it takes the calibrated speed, bandwidth and latency [cluster:ceil(N/K)]\n"
  "  --platform FILE     a SimGrid XML platform, used as it is (ranks go to its hosts in file\n"
  "                      order; uncalibrated, its first host's speed is this machine's)\n"
  "  --np N              ranks [2]\n"
  "  --ppn K             ranks per simulated host (0: one per host) [0]; hosts get K cores\n"
  "                      unless SPEC says cores=C (then K ranks share C cores)\n"
  "  --cflag ARG         extra smpicc argument (repeat: --cflag -DN=100 --cflag -lopenblas)\n"
  "  --cfg KEY:VALUE     extra SimGrid setting (repeat)\n"
  "  --workdir DIR       keep the binary, platform and logs there, created if absent (default: a\n"
  "                      temporary folder, removed after a successful run)\n"
  "  --timeout SEC       limit of the simulation [3600]\n"
  "  --no-clock-correction  keep the cost of SMPI's own reads of the thread CPU clock in its timing\n"
  "                      of the code between MPI calls (a system call, 0.6-2.1 us on KVM guests,\n"
  "                      that SMPI counts as computation once per MPI call); by default the calibrated\n"
  "                      cost of a read is taken off, and the text and --json say how much\n"
  "  --json              print the result as JSON\n"
  "exit: 0 ok, 2 usage error, 3 the program failed to build or to run (its output is shown)\n";

static const struct option longopts[] = {
  {"calibration", 1, 0, 'c'}, {"platform", 1, 0, 'P'}, {"np", 1, 0, 'n'}, {"ppn", 1, 0, 'p'},
  {"cflag", 1, 0, 'f'}, {"cfg", 1, 0, 'g'}, {"workdir", 1, 0, 'w'}, {"timeout", 1, 0, 't'},
  {"json", 0, 0, 'j'}, {"no-clock-correction", 0, 0, 'C'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};

struct opts {
  struct mv_simulate_spec s;
  const char *cflags[MAX_LIST + 1], *cfg[MAX_LIST + 1];
  int ncflags, ncfg, json;
  const char *workdir;
};

static int option(void *ctx, int c, const char *arg)
{
  struct opts *o = ctx;
  long v;
  double t;
  switch (c) {
  case 'c': o->s.calibration = arg; return 0;
  case 'P': o->s.platform = arg; return 0;
  case 'w': o->workdir = arg; return 0;
  case 'j': o->json = 1; return 0;
  case 'C': o->s.raw_cpu_clock = 1; return 0;
  case 'n': case 'p':
    if (mv_cli_parse_long(arg, &v) || v < (c == 'n') || v > 1048576)
      return mv_cli_error("simulate", "--%s: expected a count, got \"%s\"", c == 'n' ? "np" : "ppn", arg);
    *(c == 'n' ? &o->s.np : &o->s.ppn) = (int)v;
    return 0;
  case 'f': case 'g':
    if ((c == 'f' ? o->ncflags : o->ncfg) == MAX_LIST)
      return mv_cli_error("simulate", "at most %d --cflag and --cfg each", MAX_LIST);
    if (c == 'g' && !strchr(arg, ':'))
      return mv_cli_error("simulate", "--cfg: expected KEY:VALUE, got \"%s\"", arg);
    if (c == 'f')
      o->cflags[o->ncflags++] = arg;
    else
      o->cfg[o->ncfg++] = arg;
    return 0;
  case 't':
    if (mv_cli_parse_double(arg, &t) || !(t > 0))
      return mv_cli_error("simulate", "--timeout: expected positive seconds, got \"%s\"", arg);
    o->s.timeout_s = t;
    return 0;
  default: return MV_EXIT_USAGE;
  }
}

/* What SMPI's reads of the thread CPU clock did to its timing of the code (simulate.h). */
static void print_clock(const struct mv_simulate_result *r)
{
  if (!r->code_timed || r->clock_reads < 0)
    return;
  if (r->clock_corrected)
    fprintf(stdout, "mpivet simulate: SMPI's timing of the code read the thread CPU clock %lld times; "
            "the cost of a read, %.3g us, was taken off (about %.3g s of computation a rank)\n",
            r->clock_reads, r->clock_read_s * 1e6, r->clock_bias_s);
  else if (r->clock_read_s > 0)
    fprintf(stdout, "mpivet simulate: warning: SMPI's timing of the code read the thread CPU clock %lld "
            "times at %.3g us a read (calibrated), counted as computation: about %.3g s a rank "
            "too much (--no-clock-correction)\n", r->clock_reads, r->clock_read_s * 1e6, r->clock_bias_s);
  else if (r->clock_reads > 0)
    fprintf(stdout, "mpivet simulate: warning: SMPI's timing of the code read the thread CPU clock %lld "
            "times and counted each read's own cost as computation (%s: not corrected)\n",
            r->clock_reads, "its cost is unknown without a calibration made since stop 31");
}

static void print_result(const struct opts *o, const struct mv_simulate_result *r)
{
  if (!o->json) {
    fprintf(stdout, "mpivet simulate: predicted time %.6g s (%d ranks), simulation wall time %.3g s, "
            "memory %.1f MiB%s%s\n", r->predicted_s, o->s.np, r->wall_s, r->max_rss_kib / 1024.0,
            o->s.calibration ? "" : " (uncalibrated platform)",
            r->generated ? " (a generated benchmark: its computation replayed, SMPI's timing of its code off)" : "");
    print_clock(r);
    if (o->s.calibration && r->build_s > 0 && !r->window_costs)   /* built with an old calibration */
      fprintf(stdout, "mpivet simulate: the calibration has no window costs (made before stop 32, or "
              "with too few window sizes): MPI_Win_allocate, MPI_Win_create and MPI_Win_free cost "
              "what SMPI charges\n");
    return;
  }
  struct mv_json j;
  mv_json_document_begin(&j, stdout, 0, MV_JSON_SIMULATION);
  mv_json_kv_string(&j, "program", o->s.program);
  mv_json_kv_int(&j, "np", o->s.np);
  mv_json_kv_string(&j, "calibration", o->s.calibration);
  mv_json_kv_string(&j, "platform", o->s.platform);
  mv_json_kv_number(&j, "predicted_s", r->predicted_s);
  mv_json_kv_number(&j, "simulation_wall_s", r->wall_s);
  mv_json_kv_number(&j, "build_s", r->build_s);
  mv_json_kv_int(&j, "max_rss_kib", r->max_rss_kib);
  mv_json_key(&j, "window_costs");
  mv_json_bool(&j, r->window_costs);
  mv_json_key(&j, "generated_benchmark");
  mv_json_bool(&j, r->generated);
  mv_json_key(&j, "code_timed");
  mv_json_bool(&j, r->code_timed);
  mv_json_kv_int(&j, "cpu_clock_reads", r->clock_reads);
  mv_json_kv_number(&j, "cpu_clock_read_s", r->clock_read_s);
  mv_json_key(&j, "cpu_clock_corrected");
  mv_json_bool(&j, r->clock_corrected);
  mv_json_kv_number(&j, "cpu_clock_bias_s", r->clock_bias_s);
  mv_json_object_end(&j);
  fputc('\n', stdout);
  mv_json_finish(&j);
}

/* Show smpicc's output after a failed build. */
static void show_file(const char *path)
{
  char buf[4096];
  FILE *fp = path[0] ? fopen(path, "r") : NULL;
  size_t n;
  while (fp && (n = fread(buf, 1, sizeof buf, fp)) > 0)
    fwrite(buf, 1, n, stderr);
  if (fp)
    fclose(fp);
}

static int simulate(struct opts *o)
{
  char tmp[] = "/tmp/mpivet-simulate-XXXXXX", err[MV_ERROR_TEXT_SIZE];
  struct mv_error e;
  if (!o->workdir && !mkdtemp(tmp))
    return mv_cli_fail("simulate", MV_EIO, "cannot create a temporary folder");
  if (o->workdir && mkdir(o->workdir, 0777) != 0 && errno != EEXIST)
    return mv_cli_fail("simulate", MV_EIO, "cannot create --workdir %s: %s", o->workdir, strerror(errno));
  o->s.workdir = o->workdir ? o->workdir : tmp;
  o->s.cflags = o->cflags;
  o->s.cfg = o->cfg;
  struct mv_simulate_result *r = calloc(1, sizeof *r);
  int rc = r ? mv_simulate(&o->s, r, &e) : mv_error_set(&e, MV_ENOMEM, NULL, 0, 0, "out of memory");
  if (rc && r && r->build_log[0] && r->binary[0] && access(r->binary, X_OK) != 0)
    show_file(r->build_log);
  if (rc && r && r->deadlock)
    show_file(r->engine_log);
  if (!rc)
    print_result(o, r);
  else {
    char disk[4200];
    mv_cli_disk_note(o->s.workdir, disk, sizeof disk);
    rc = mv_cli_fail("simulate", rc, "%s%s", mv_error_text(&e, err, sizeof err), disk);
  }
  if (!o->workdir && rc && rmdir(tmp) != 0)   /* the error names its files: keep them */
    fprintf(stderr, "mpivet simulate: kept %s (the build's and the run's logs; --workdir DIR chooses the folder)\n", tmp);
  else if (!o->workdir && !rc) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
      fprintf(stderr, "mpivet simulate: could not remove %s\n", tmp);
  }
  free(r);
  return rc ? rc : mv_cli_finish(MV_EXIT_OK);
}

int cmd_simulate(int argc, char **argv)
{
  struct opts o = {.s = {.np = 2, .timeout_s = 3600}};
  int rc = mv_cli_options("simulate", argc, argv, "+h", longopts, usage, option, &o);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  if (optind >= argc)
    return mv_cli_error("simulate", "expected a SOURCE.c or an smpicc-built BINARY (see --help)");
  long hosts;
  if ((rc = mv_cli_platform_hosts("simulate", o.s.platform, NULL, o.s.ppn, o.s.np, &hosts)) != 0)
    return rc;
  o.s.program = argv[optind++];
  if (optind < argc && strcmp(argv[optind], "--") == 0)
    optind++;
  o.s.args = (const char *const *)&argv[optind];
  return simulate(&o);
}
