/* Running calibrations and simulations (src/campaign: they launch programs). `mpivet simulate`:
 * build a C source with smpicc (or take an smpicc-built binary) and run it
 * under smpirun on a platform that a calibration folder describes (its hosts, links and SMPI
 * settings; a built-in topology spec takes the calibrated values) or on an uncalibrated one;
 * the program's output passes through, the predicted time, wall time and peak memory come back.
 * `mpivet calibrate`: mpivet-calib through a launch engine, the fits of calib.h, the folder, and
 * the self-check under SMPI. */
#ifndef MPIVET_SIMULATE_H
#define MPIVET_SIMULATE_H

#include <stddef.h>

#include "mpivet/error.h"
#include "mpivet/calib.h"

struct mv_simulate_spec {
  const char *calibration;          /* calibration folder, NULL: uncalibrated SimGrid defaults */
  const char *platform;             /* built-in SPEC or XML file; NULL: cluster of ceil(np/ppn) */
  int np, ppn;                      /* ranks; ranks per host (0: 1) */
  const char *program;              /* SOURCE.c or an smpicc-built binary */
  const char *const *args;          /* program arguments, NULL-terminated (NULL: none) */
  const char *const *cflags;        /* extra smpicc arguments for a source (NULL: none) */
  const char *const *cfg;           /* extra smpirun --cfg=key:value settings (NULL: none) */
  const char *workdir;              /* existing folder for the binary, platform, hostfile, logs */
  const char *output;               /* program output to this file; NULL: passed through */
  double timeout_s;                 /* 0: none */
};

struct mv_simulate_result {
  double predicted_s;               /* simulated time of the whole run */
  double wall_s;                    /* wall time of the simulation */
  double build_s;                   /* smpicc time (0 for a binary) */
  long max_rss_kib;                 /* peak resident memory of the simulator */
  int timed_out;
  char binary[4200];
  char build_log[4200];             /* smpicc's output (on a failed build) */
  char platform[4200], hostfile[4200];
  char host_speed[32];              /* the simulated hosts' speed (SimGrid units, "1Gf") */
  char engine_log[4200];            /* SimGrid's kernel messages (a deadlock report) */
  int deadlock;                     /* SimGrid found the simulated ranks deadlocked */
  int generated;                    /* SOURCE.c is an mpivet benchgen benchmark: its computation is
                                       simulated sleeps, so smpi/simulate-computation:no */
};

/* Build (when the program ends in .c) and run. MV_EEXTERN when the build or the run fails (see
 * build_log, or the program's output), MV_ENOENT / MV_EPARSE / MV_EUNSUP for a bad calibration
 * folder or platform with the message in e. */
int mv_simulate(const struct mv_simulate_spec *spec, struct mv_simulate_result *res, struct mv_error *e);

/* ---- the whole `mpivet calibrate` ---- */
struct mv_calibrate_spec {
  const char *engine;       /* "mpirun" or "srun" (the launch engine table) */
  const char *mpi;          /* "openmpi" or "mpich" */
  int np;                   /* >= 2 */
  const char *hosts;        /* NULL: local */
  long long max_size;
  int reps, kernel_samples, load;
  const char *kernels;      /* "dgemm,dtrsm", "none" */
  const char *records[MV_CALIB_MAX_RECORDS];   /* --kernel-records CSV files */
  int nrecords;
  int family, noise;        /* kernel model chosen for kernels.h */
  unsigned long long seed;  /* 0: from the clock */
  int self_check;
  const char *dir;          /* output folder: must not exist or be empty */
  double timeout_s;
};

/* Self-check: the calibration program re-run under SMPI with the result; median relative error
 * per operation and size range (< 64 KiB, >= 64 KiB), NAN where there is no size in the range. */
#define MV_CALIB_SMALL_LIMIT 65536.0
struct mv_selfcheck {
  double median_err[MV_CALIB_WTIME + 1][2];
  size_t sizes[MV_CALIB_WTIME + 1][2];
  double wall_s;
};

struct mv_calibrate_result {
  struct mv_calibration c;
  struct mv_selfcheck check;
  int checked;
  double measure_s, total_s;
  char log[4200];           /* the calibration program's launch log */
};

/* Measure (mpivet-calib through the engine), fit, write the folder, self-check. MV_EEXTERN when a
 * launch fails (see res->log), other MV_E* with the message in e. */
int mv_calibrate(const struct mv_calibrate_spec *spec, struct mv_calibrate_result *res, struct mv_error *e);
#endif
