/* `mpivet simulate`: build a C source with smpicc (or take an smpicc-built binary) and run it
 * under smpirun on a platform that a calibration folder describes (its hosts, links and SMPI
 * settings; a built-in topology spec takes the calibrated values) or on an uncalibrated one;
 * the program's output passes through, the predicted time, wall time and peak memory come back. */
#ifndef MPIVET_SIMULATE_H
#define MPIVET_SIMULATE_H

#include <stddef.h>

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
};

/* Build (when the program ends in .c) and run. MV_EEXTERN when the build or the run fails (see
 * build_log, or the program's output), MV_ENOENT / MV_EPARSE / MV_EUNSUP for a bad calibration
 * folder or platform with a message in err. */
int mv_simulate(const struct mv_simulate_spec *spec, struct mv_simulate_result *res, char *err,
                size_t errsize);

#endif
