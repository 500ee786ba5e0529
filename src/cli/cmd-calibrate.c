/* `mpivet calibrate`: measure this machine with mpivet-calib under mpirun or srun, fit an SMPI
 * platform and kernel models into a calibration folder, and print the self-check: the calibration
 * program re-run under SMPI, median error per operation and size range. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/simulate.h"

static const char usage[] =
  "usage: mpivet calibrate [--engine mpirun|srun] [--mpi openmpi|mpich] [--np N] [--hosts LIST]\n"
  "                        [--max-size BYTES] [--reps N] [--kernels LIST]\n"
  "                        [--kernel-records FILE]... [--measurements CSV] -o DIR\n\n"
  "Calibrate an SMPI platform for this machine (SimGrid's procedure): ping-pong, Send/Isend/Recv\n"
  "overheads, Test/Iprobe/Wtime costs, window creation and release (MPI_Win_allocate/create/free\n"
  "up to 16 MiB) and BLAS kernels measured by mpivet-calib, fitted by segmented regression\n"
  "(breakpoints chosen by BIC). DIR gets platform.xml, smpi-settings.txt, kernels.h,\n"
  "calibration.json, report.html and the raw measurements.csv.\n"
  "  --engine E          mpirun or srun [mpirun]\n"
  "  --mpi M             openmpi or mpich [openmpi]\n"
  "  --np N              ranks, at least 2 (rank 0 pairs with one rank per host) [2]\n"
  "  --hosts LIST        host list for mpirun/srun (default: this machine)\n"
  "  --max-size BYTES    largest message (and window, up to 16 MiB), sizes log-spaced from 0\n"
  "                      [1073741824]\n"
  "  --reps N            repetitions of every operation and size, 3 x N for messages\n"
  "                      up to 8 MiB; Isend 6 x that, 12 x N above 8 MiB [10]\n"
  "  --kernels LIST      BLAS kernels to model: dgemm, dtrsm, none [dgemm,dtrsm]\n"
  "  --kernel-samples N  random shapes per kernel [60]\n"
  "  --kernel-records F  kernel calls timed in an application built with MV_EMULATE_RECORD\n"
  "                      (mpivet/emulate.h; CSV like measurements.csv); repeatable. Every kernel\n"
  "                      in them is modelled from them (per host too), instead of random shapes\n"
  "  --kernel-model M    family and noise of the kernel models in kernels.h: M-0|M-1|M-2 with\n"
  "                      N-0|N-1|N-2, e.g. M-2,N-2 [M-2,N-2]\n"
  "  --load N            busy threads per rank while measuring (calibrate under load) [0]\n"
  "  --seed N            measurement order (0: from the clock) [0]\n"
  "  --measurements CSV  fit an earlier calibration's measurements.csv again (copied to DIR)\n"
  "                      instead of measuring; give its --mpi, and its --kernel-records again\n"
  "  --no-self-check     skip the SMPI re-run of the calibration program\n"
  "  --timeout SEC       per launch [1800]\n"
  "  -o, --output DIR    calibration folder: new or empty (required)\n"
  "exit: 0 ok, 2 usage error, 3 the calibration program or SMPI failed\n";

static const struct option longopts[] = {
  {"engine", 1, 0, 'E'}, {"mpi", 1, 0, 'M'}, {"np", 1, 0, 'n'}, {"hosts", 1, 0, 'H'},
  {"max-size", 1, 0, 'm'}, {"reps", 1, 0, 'r'}, {"kernels", 1, 0, 'k'}, {"kernel-samples", 1, 0, 's'},
  {"kernel-records", 1, 0, 'R'},
  {"kernel-model", 1, 0, 'K'}, {"load", 1, 0, 'l'}, {"seed", 1, 0, 'S'}, {"no-self-check", 0, 0, 'N'},
  {"measurements", 1, 0, 'C'}, {"timeout", 1, 0, 't'}, {"output", 1, 0, 'o'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};

static int count(const char *opt, const char *arg, long lo, long hi, long *v)
{
  if (mv_cli_parse_long(arg, v) || *v < lo || *v > hi)
    return mv_cli_error("calibrate", "--%s: expected an integer from %ld to %ld, got \"%s\"", opt, lo, hi, arg);
  return 0;
}

static int option(void *ctx, int c, const char *arg)
{
  struct mv_calibrate_spec *s = ctx;
  long v = 0;
  double t;
  int rc = 0;
  switch (c) {
  case 'E': s->engine = arg; break;
  case 'M': s->mpi = arg; break;
  case 'H': s->hosts = arg; break;
  case 'k': s->kernels = arg; break;
  case 'o': s->dir = arg; break;
  case 'R':
    if (s->nrecords == MV_CALIB_MAX_RECORDS)
      return mv_cli_error("calibrate", "--kernel-records: at most %d files", MV_CALIB_MAX_RECORDS);
    s->records[s->nrecords++] = arg;
    break;
  case 'N': s->self_check = 0; break;
  case 'C': s->measurements = arg; break;
  case 'n': rc = count("np", arg, 2, 4096, &v); s->np = (int)v; break;
  case 'm': rc = count("max-size", arg, 16, 1L << 31, &v); s->max_size = v; break;
  case 'r': rc = count("reps", arg, 1, 100000, &v); s->reps = (int)v; break;
  case 's': rc = count("kernel-samples", arg, 16, 100000, &v); s->kernel_samples = (int)v; break;
  case 'l': rc = count("load", arg, 0, 256, &v); s->load = (int)v; break;
  case 'S': rc = count("seed", arg, 0, 0x7fffffffffffffffL, &v); s->seed = (unsigned long long)v; break;
  case 'K':
    if (sscanf(arg, "M-%d,N-%d%n", &s->family, &s->noise, &rc) != 2 || arg[rc] || s->family < 0 ||
        s->family > 2 || s->noise < 0 || s->noise > 2)
      return mv_cli_error("calibrate", "--kernel-model: expected M-0|M-1|M-2,N-0|N-1|N-2, got \"%s\"", arg);
    return 0;
  case 't':
    if (mv_cli_parse_double(arg, &t) || !(t > 0))
      return mv_cli_error("calibrate", "--timeout: expected positive seconds, got \"%s\"", arg);
    s->timeout_s = t;
    break;
  default: return MV_EXIT_USAGE;
  }
  return rc;
}

static int check(const struct mv_calibrate_spec *s)
{
  if (strcmp(s->engine, "mpirun") != 0 && strcmp(s->engine, "srun") != 0)
    return mv_cli_error("calibrate", "--engine: expected mpirun or srun, got \"%s\"", s->engine);
  if (strcmp(s->mpi, "openmpi") != 0 && strcmp(s->mpi, "mpich") != 0)
    return mv_cli_error("calibrate", "--mpi: expected openmpi or mpich, got \"%s\"", s->mpi);
  for (const char *k = s->kernels; *k; k += strcspn(k, ",") + (k[strcspn(k, ",")] == ',')) {
    size_t n = strcspn(k, ",");
    if (!(n == 5 && (!strncmp(k, "dgemm", 5) || !strncmp(k, "dtrsm", 5))) && !(n == 4 && !strncmp(k, "none", 4)))
      return mv_cli_error("calibrate", "--kernels: expected dgemm, dtrsm or none, got \"%s\"", s->kernels);
  }
  if (!s->dir)
    return mv_cli_error("calibrate", "-o DIR is required (a new or empty folder)");
  return 0;
}

static void print_result(const struct mv_calibrate_result *r, const char *dir)
{
  const struct mv_calibration *c = &r->c;
  printf("calibration of %s (%s, %d ranks) in %s: measured in %.1f s, total %.1f s\n", c->mpi,
         c->engine, c->np, dir, r->measure_s, r->total_s);
  printf("  link latency %.3g s, bandwidth %.4g B/s, eager threshold %.0f bytes\n", c->latency_s,
         c->bandwidth_Bps, c->eager_bytes);
  printf("  MPI_Test %.3g s, MPI_Iprobe %.3g s, MPI_Wtime %.3g s, host speed %.4g flop/s\n",
         c->test_s, c->iprobe_s, c->wtime_s, c->flops);
  printf("  first write to a fresh page %.3g s (charged to receives into such pages)\n", c->touch_s);
  printf("  one read of the thread CPU clock %.3g s (SMPI's timer: mpivet simulate takes it off)\n",
         c->cpu_clock_s);
  for (int op = 0; op < MV_CALIB_NNET; op++)
    printf("  %-9s %zu segments\n", mv_calib_op_name(op), c->fit[op].n);
  for (int i = 0; i < MV_CALIB_NWIN; i++) {
    const struct mv_piecewise *f = &c->win.fit[i];
    if (!f->n)
      continue;
    double top = f->p[f->n - 1].to;
    printf("  %-17s %zu segments: %.3g s at 0 B, %.3g s at %.0f B (median relative error %.1f %%), "
           "SMPI's own %.3g s (charged: the difference)\n", mv_calib_op_name(MV_CALIB_WINALLOC + i),
           f->n, mv_piecewise_eval(f, 0), mv_piecewise_eval(f, top), top,
           100 * c->win.median_rel_err[i], c->win.smpi_s[i]);
  }
  for (int i = 0; i < c->nkernels; i++)
    printf("  %-8s%s%s m n k >= %.4g: M-%d N-%d: %zu samples (%zu stalls dropped), R^2 %.4f, "
           "median relative error %.1f %%, predicted/measured total %.3f\n",
           mv_calib_op_name(c->kernels[i].op), c->kernels[i].host < 0 ? "" : " on ",
           c->kernels[i].host_name, c->kernels[i].from_work, c->kernels[i].family,
           c->kernels[i].noise, c->kernels[i].n, c->kernels[i].stalls, c->kernels[i].r2,
           100 * c->kernels[i].median_rel_err, c->kernels[i].sum_ratio);
  if (!r->checked)
    return;
  printf("self-check (calibration program under SMPI, %.1f s): median relative error, and in\n"
         "brackets the measurement's own noise (what a perfect model would show)\n"
         "  %-9s %26s %26s\n", r->check.wall_s, "op", "< 64 KiB", ">= 64 KiB");
  for (int op = 0; op <= MV_CALIB_WTIME; op++) {
    printf("  %-9s", mv_calib_op_name(op));
    for (int k = 0; k < 2; k++) {
      char noise[16] = "   -  ";
      if (isfinite(r->check.median_noise[op][k]))
        snprintf(noise, sizeof noise, "%4.1f %%", 100 * r->check.median_noise[op][k]);
      if (r->check.sizes[op][k])
        printf(" %8.1f %% [%s] (%3zu sz)", 100 * r->check.median_err[op][k], noise,
               r->check.sizes[op][k]);
      else
        printf(" %26s", "-");
    }
    printf("\n");
  }
}

int cmd_calibrate(int argc, char **argv)
{
  struct mv_calibrate_spec s = {.engine = "mpirun", .mpi = "openmpi", .np = 2, .max_size = 1LL << 30,
                                .reps = 10, .kernel_samples = 60, .kernels = "dgemm,dtrsm",
                                .family = 2, .noise = 2, .self_check = 1, .timeout_s = 1800};
  int rc = mv_cli_options("calibrate", argc, argv, "o:h", longopts, usage, option, &s);
  if (rc)
    return rc == MV_CLI_HELP ? mv_cli_finish(MV_EXIT_OK) : rc;
  if (optind != argc)
    return mv_cli_error("calibrate", "unexpected argument \"%s\"", argv[optind]);
  rc = check(&s);
  if (rc)
    return rc;
  setenv("OPENBLAS_NUM_THREADS", "1", 0);   /* one core per rank, as HPL runs */
  struct mv_calibrate_result *r = calloc(1, sizeof *r);
  struct mv_error e;
  char err[MV_ERROR_TEXT_SIZE];
  if (!r)
    return mv_cli_fail("calibrate", MV_ENOMEM, "out of memory");
  rc = mv_calibrate(&s, r, &e);
  if (!rc || r->c.samples)
    print_result(r, s.dir);
  char disk[4200];
  mv_cli_disk_note(s.dir, disk, sizeof disk);
  if (rc)
    rc = mv_cli_fail("calibrate", rc, "%s%s", mv_error_text(&e, err, sizeof err), disk);
  free(r);
  return rc ? rc : mv_cli_finish(MV_EXIT_OK);
}
