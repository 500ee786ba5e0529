/* Internal interface of mpivet-calib, the calibration MPI program: options, the job plan
 * (operation x size x repetition, shuffled with a recorded seed) and the measurements of the
 * network operations and compute kernels. Every structure is per rank (SMPI folds ranks into one
 * process, so there are no mutable globals). */
#ifndef MV_CALIB_H
#define MV_CALIB_H

#include <stdint.h>

#include <mpi.h>

#include "mpivet/calib.h"   /* the operation table (MV_CALIB_OPS) */

#define CALIB_MAX_SIZES 128
#define CALIB_BATCH 1000      /* calls per Test/Iprobe/Wtime measurement */
/* Largest window of the window jobs (and at most --max-size): Open MPI's MPI_Win_allocate of
 * 16 MiB took 13.7 ms here (stop 31), so the window jobs, 0 B to 16 MiB at --per-octave sizes,
 * 10 repetitions, add a few seconds to a calibration; the fit's top segment goes on above. */
#define CALIB_WIN_MAX (16 << 20)


struct calib_opts {
  int64_t max_size;       /* largest message in bytes */
  int per_octave;         /* sizes per factor of two */
  int reps;               /* repetitions of every (op, size) */
  int kernel_samples;     /* sizes drawn per kernel */
  int kernel_max;         /* largest m, n or k */
  int net;                /* measure the network (0 with --no-net) */
  int dgemm, dtrsm;       /* kernels to time */
  int load;               /* background busy threads per rank while measuring */
  uint64_t seed;
  const char *out;        /* CSV written by rank 0 */
};

/* One measurement to take; the plan is shuffled before it runs. */
struct calib_job {
  enum mv_calib_op op;
  int pair;               /* 0: peer on the same host, 1: on another host */
  int64_t bytes;
  int m, n, k;
  int rep;
  double seconds;         /* result, on rank 0 after the reduction */
};

struct calib_run {
  const struct calib_opts *o;
  int rank, size;
  int peer[2];            /* rank paired with rank 0 on the same / another host; -1: none */
  double timer_s;         /* the time an empty MPI_Wtime interval measures, taken off every timing */
  char *sendbuf, *recvbuf;
  double *ka, *kb, *kc;   /* kernel operands */
};

int calib_opts_parse(struct calib_opts *o, int argc, char **argv, int rank);
uint64_t calib_random(uint64_t *state);

/* Network measurement of job j between rank 0 and r->peer[j->pair]: returns the seconds on the
 * rank that times it and 0 elsewhere (so that a sum over ranks gives the value). */
/* 1 when job j's one-way operation (Send, Isend, Recv, late-send) goes from the peer to rank 0:
 * odd repetitions, so that the medians cover both directions as the ping-pong does. */
int calib_job_reversed(const struct calib_job *j);
double calib_net_measure(struct calib_run *r, const struct calib_job *j);
/* Seconds since t0 (an MPI_Wtime) without the timer's own cost, at least 0. */
double calib_elapsed(const struct calib_run *r, double t0);
/* Window job j (win-allocate..win-create-free) on every rank: the seconds rank 0 spent in the
 * timed call, 0 elsewhere. */
double calib_win_measure(struct calib_run *r, const struct calib_job *j);
/* The median of empty MPI_Wtime intervals on this rank (SMPI: its injected smpi/wtime). */
double calib_timer_overhead(void);
/* Seconds per page of the first write to fresh anonymous memory, on this rank: what a receive
 * into a buffer never written before pays in its copy (SMPI does not; mpivet/first-touch.h). */
double calib_touch_once(void);
/* Seconds of thread CPU time one clock_gettime(CLOCK_THREAD_CPUTIME_ID) takes on this rank, as
 * that clock counts it: SMPI reads it around every MPI call (mpivet simulate takes it off). 0
 * under SMPI. */
double calib_cpuclock_once(void);
/* Kernel measurement on this rank; 0 when the kernel is not built in (no CBLAS). */
double calib_kernel_measure(struct calib_run *r, const struct calib_job *j);
/* 1 when this build can time BLAS kernels. */
int calib_kernels_available(void);

/* Background compute load: start n busy threads (0: none); stop them. */
void *calib_load_start(int n);
void calib_load_stop(void *load);

#endif
