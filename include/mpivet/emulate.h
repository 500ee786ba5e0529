/* Kernel emulation for SMPI, as the HPL thesis does (chapters 3-4): under SMPI a compute kernel is
 * replaced by its calibrated model (the duration is injected with smpi_execute_flops_benched, the
 * kernel does not run), on a real MPI it runs untouched. Models come from the kernels.h of a
 * calibration folder (`mpivet simulate --calibration DIR` force-includes it): one table row per
 * kernel, host and range of call size m n k (MV_EMULATE_MODEL_TABLE), seconds as a polynomial
 * over mnk, mn, mk, nk, m, n, k, 1 with a noise standard deviation of the same form, drawn from
 * a per-rank seeded normal generator (MV_EMULATE_SEED, default 1, plus the rank). A rank takes
 * the model of its simulated host (the host's name, or node-I for the calibration's I-th host),
 * else the pooled one (host ""); a kernel without a model runs and SMPI times it.
 *
 *   MV_EMULATE("dgemm", m, n, k, cblas_dgemm(...));   any kernel named in mpivet/calib.h
 *   MV_EMULATE_DGEMM(m, n, k, cblas_dgemm(...));      MV_EMULATE_DTRSM(m, n, cblas_dtrsm(...));
 *   MV_EMULATE_KERNEL(seconds, my_kernel(...));       (a user kernel with its own model)
 *   MV_EMULATE_ALSO_RUN("dcopy", n, 1, 1, cblas_dcopy(...));  (runs under SMPI too, model charged)
 *   MV_EMULATE_COLD();   (data just rewritten: MV_EMULATE_COLD_SECONDS charged, a cold start)
 *   MV_EMULATE_LD("dgemm", m, n, k, ldc * 8, ...);   (a recording keeps the leading dimension)
 *   double *a = MV_SHARED_MALLOC(bytes);  MV_SHARED_FREE(a);
 *   MV_PARTIAL_SHARED_MALLOC(bytes, offsets, nblocks)  (offsets: begin/end pairs that are shared)
 *
 * Recording (real MPI, compiled with -DMV_EMULATE_RECORD): every MV_EMULATE call is timed and,
 * when the environment has MV_EMULATE_RECORD_DIR, written at exit to DIR/kernels-RANK.csv in
 * mpivet-calib's format, for `mpivet calibrate --kernel-records` (the thesis fits the small
 * kernels on timings of the application's own calls).
 *
 * The header is self-contained (static inline functions, no library to link). */
#ifndef MPIVET_EMULATE_H
#define MPIVET_EMULATE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#if defined(SMPI_SHARED_MALLOC) && !defined(MV_EMULATE_OFF)
#define MV_EMULATING 1
#else
#define MV_EMULATING 0
#endif

#ifndef MV_EMULATE_SEED
#define MV_EMULATE_SEED 1
#endif

#if MV_EMULATING
#define MV_SHARED_MALLOC(size) SMPI_SHARED_MALLOC(size)
#define MV_SHARED_FREE(p) SMPI_SHARED_FREE(p)
#define MV_PARTIAL_SHARED_MALLOC(size, offsets, n) SMPI_PARTIAL_SHARED_MALLOC((size), (offsets), (n))
#else
#define MV_SHARED_MALLOC(size) malloc(size)
#define MV_SHARED_FREE(p) free(p)
#define MV_PARTIAL_SHARED_MALLOC(size, offsets, n) ((void)(offsets), (void)(n), malloc(size))
#endif

#ifndef MV_EMULATE_HOST_FLOPS
#define MV_EMULATE_HOST_FLOPS 1e9
#endif

/* Seconds of the application's own code charged with every emulated non-empty call, on top of
 * the kernel's model (default 0): with smpi/simulate-computation:no the code between kernels
 * costs nothing simulated. bench/hpl measures it on one rank: the warm solve's wall time minus
 * its kernels, per kernel call (-DMV_EMULATE_CALL_SECONDS=...). */
#ifndef MV_EMULATE_CALL_SECONDS
#define MV_EMULATE_CALL_SECONDS 0.0
#endif

/* One model: kernel name, calibrated host ("" pooled) and its index (-1 pooled), the lower bound
 * of m n k from which it holds (the rows of one kernel and host follow each other, ascending:
 * ranges of call size), coefficients. */
struct mv_emulate_model {
  const char *kernel, *host;
  int host_index;
  double from_work;
  double coef[8], sd[8];
};

#if MV_EMULATING && defined(MV_EMULATE_MODEL_TABLE)
__attribute__((unused)) static const struct mv_emulate_model mv_emulate_models[] = {
    MV_EMULATE_MODEL_TABLE{0, 0, 0, 0, {0}, {0}}};
#else
__attribute__((unused)) static const struct mv_emulate_model mv_emulate_models[] = {{0, 0, 0, 0, {0}, {0}}};
#endif

/* A uniform draw in (0, 1) from a per-rank generator (SMPI privatizes this static per rank). */
static inline double mv_emulate_uniform(void)
{
  static uint64_t state;
  if (state == 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    state = (uint64_t)MV_EMULATE_SEED * 0x9e3779b97f4a7c15ull + (uint64_t)rank + 1;
  }
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;   /* xorshift64 */
  return ((double)(state >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal draw (Box-Muller). */
static inline double mv_emulate_normal(void)
{
  double u0 = mv_emulate_uniform(), u1 = mv_emulate_uniform();
  return sqrt(-2 * log(u0)) * cos(6.283185307179586 * u1);
}

/* Model value over the terms mnk, mn, mk, nk, m, n, k, 1. */
static inline double mv_emulate_poly(const double *c, double m, double n, double k)
{
  return c[0] * m * n * k + c[1] * m * n + c[2] * m * k + c[3] * n * k + c[4] * m + c[5] * n +
         c[6] * k + c[7];
}

/* Ranks sharing a core: -DMV_EMULATE_HANDOFF_SECONDS=S charges S per received message under SMPI,
 * -DMV_EMULATE_WAKE_QUANTILES=... the wait of a receiver whose core-mate computes,
 * -DMV_EMULATE_SPIN_SECONDS=X (-DMV_EMULATE_SPIN_AFTER_SECONDS=D) the core time a waiting,
 * yielding rank takes from the rank computing beside it;
 * -DMV_EMULATE_SCHED_TICK_SECONDS=T: the ranks of a core run on it in turns, handed over at
 * ticks of T seconds, polls that found nothing and waits in MPI (mpivet/emulate-sched.h), and
 * -DMV_EMULATE_COPY with it: a received message's copy is core time (the calibration's recv fit);
 * -DMV_EMULATE_PROBE_LATE: a message that arrived while the rank computed is found by its second
 * MPI_Iprobe, not its first (mpivet/emulate-handoff.h, which then sees the emulated kernels through
 * mv_emulate_compute). */
#if MV_EMULATING && (defined(MV_EMULATE_HANDOFF_SECONDS) || defined(MV_EMULATE_WAKE_QUANTILES) || \
                     defined(MV_EMULATE_PROBE_LATE) || defined(MV_EMULATE_SPIN_SECONDS) || \
                     defined(MV_EMULATE_SCHED_TICK_SECONDS))
#include "mpivet/emulate-handoff.h"
#define MV_EMULATE_EXECUTE(flops) mv_emulate_compute(flops)
#else
#define MV_EMULATE_EXECUTE(flops) smpi_execute_flops_benched(flops)
#endif

/* Inject a duration measured on the calibrated host (scaled by the simulated host's speed). */
static inline void mv_emulate_seconds(double seconds)
{
#if MV_EMULATING
  if (seconds > 0)
    MV_EMULATE_EXECUTE(seconds * MV_EMULATE_HOST_FLOPS);
#else
  (void)seconds;
#endif
}

/* Model + noise of the call's range, from the first row of its kernel and host. */
static inline void mv_emulate_model(const struct mv_emulate_model *km, double m, double n, double k)
{
  if (m <= 0 || n <= 0)
    return;   /* an empty call costs nothing (k = 0 may not: dgemm still scales C) */
  while (km[1].kernel && km[1].host_index == km->host_index && km[1].from_work <= m * n * k &&
         strcmp(km[1].kernel, km->kernel) == 0)
    km++;
  double t = mv_emulate_poly(km->coef, m, n, k), s = mv_emulate_poly(km->sd, m, n, k);
  if (s > 0)
    t += s * mv_emulate_normal();
  mv_emulate_seconds((t > 0 ? t : 0) + MV_EMULATE_CALL_SECONDS);
}

/* The first row for kernel on this rank's host: same host name, else node-I for calibrated host
 * I, else the pooled rows; -1 when the kernel has no model. */
static inline int mv_emulate_find(const char *kernel)
{
  char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int len = 0, node = -1, pooled = -1, by_index = -1;
  MPI_Get_processor_name(host, &len);
  if (sscanf(host, "node-%d", &node) != 1)
    node = -1;
  for (int i = 0; mv_emulate_models[i].kernel; i++) {
    const struct mv_emulate_model *km = &mv_emulate_models[i];
    if (strcmp(km->kernel, kernel) != 0)
      continue;
    if (km->host_index < 0 && pooled < 0)
      pooled = i;
    else if (km->host_index >= 0 && strcmp(km->host, host) == 0)
      return i;
    else if (km->host_index >= 0 && km->host_index == node && by_index < 0)
      by_index = i;
  }
  return by_index >= 0 ? by_index : pooled;
}

/* A kernel without a model runs and SMPI times it: with smpi/simulate-computation:no it costs
 * nothing, which silently shortens a kernels-only prediction (HPL's P = 2 row-swap kernels were
 * free with a calibration recorded on 1 x Q grids). Said on rank 0, once per call site. */
static inline void mv_emulate_no_model(const char *kernel, const char *file, int line)
{
#if MV_EMULATING && defined(MV_EMULATE_MODEL_TABLE)
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    fprintf(stderr, "mpivet/emulate.h: %s:%d: kernel %s has no model in kernels.h: it runs and SMPI "
            "times it (nothing with smpi/simulate-computation:no)\n", file, line, kernel);
#else
  (void)kernel, (void)file, (void)line;
#endif
}

#ifdef MV_EMULATE_RECORD
#include <time.h>
#include <unistd.h>
/* Recorded calls, one buffer per process (weak: one definition however many files include this). */
struct mv_emulate_call { const char *kernel; int m, n, k; long ld_bytes; double seconds; };
struct mv_emulate_recorder {
  struct mv_emulate_call *call;
  size_t n, cap;
  int state;   /* 0: not started, 1: recording, -1: off (no MV_EMULATE_RECORD_DIR, no memory) */
  int rank;
};
__attribute__((weak)) struct mv_emulate_recorder mv_emulate_recorder;
#define MV_EMULATE_RECORD_MAX 2000000

/* The recording's clock: wall time (CLOCK_MONOTONIC), or with MV_EMULATE_RECORD_CLOCK=thread the
 * thread's CPU time, for ranks that share a core (a call's wall time would include the turns of
 * its core-mate; its CPU time keeps what sharing costs the call itself: caches and TLB refilled
 * after each switch). Reading the thread's clock is a system call (1.4 us in the VM of
 * docs/simulate.md, against 29 ns for CLOCK_MONOTONIC); its own cost inside a sample, the median
 * of 101 back-to-back pairs measured at the first call, is taken off every sample. */
__attribute__((weak)) int mv_emulate_record_clock = -1;   /* clockid_t, -1: not chosen yet */
__attribute__((weak)) double mv_emulate_record_overhead;

static inline double mv_emulate_clock_read(void)
{
  struct timespec ts;
  clock_gettime((clockid_t)mv_emulate_record_clock, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int mv_emulate_cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static inline double mv_emulate_clock(void)
{
  if (mv_emulate_record_clock < 0) {
    const char *c = getenv("MV_EMULATE_RECORD_CLOCK");
    mv_emulate_record_clock = c && strcmp(c, "thread") == 0 ? (int)CLOCK_THREAD_CPUTIME_ID
                                                            : (int)CLOCK_MONOTONIC;
    if (mv_emulate_record_clock == (int)CLOCK_THREAD_CPUTIME_ID) {
      double d[101];
      for (int i = 0; i < 101; i++) {
        double t0 = mv_emulate_clock_read();
        d[i] = mv_emulate_clock_read() - t0;
      }
      qsort(d, 101, sizeof *d, mv_emulate_cmp_double);
      mv_emulate_record_overhead = d[50];
    }
  }
  return mv_emulate_clock_read();
}

/* At exit: DIR/kernels-RANK.csv with mpivet-calib's header (a failed write loses the record
 * only; the application's own result is untouched). */
static inline void mv_emulate_record_flush(void)
{
  struct mv_emulate_recorder *r = &mv_emulate_recorder;
  const char *dir = getenv("MV_EMULATE_RECORD_DIR");
  char path[4096], host[256] = "";
  if (r->state != 1 || !dir)
    return;
  gethostname(host, sizeof host - 1);
  snprintf(path, sizeof path, "%s/kernels-%d.csv", dir, r->rank);
  FILE *fp = fopen(path, "w");
  if (!fp)
    return;
  fprintf(fp, "order,op,rank,host,pair,bytes,m,n,k,rep,seconds\n");
  for (size_t i = 0; i < r->n; i++)
    fprintf(fp, "%zu,%s,%d,%s,,%ld,%d,%d,%d,%zu,%.9e\n", i, r->call[i].kernel, r->rank, host,
            r->call[i].ld_bytes, r->call[i].m, r->call[i].n, r->call[i].k, i, r->call[i].seconds);
  fclose(fp);
  r->state = -1;
}

static inline void mv_emulate_record(const char *kernel, int m, int n, int k, long ld_bytes,
                                     double seconds)
{
  struct mv_emulate_recorder *r = &mv_emulate_recorder;
  if (r->state == 0) {
    int init = 0;
    MPI_Initialized(&init);
    r->state = getenv("MV_EMULATE_RECORD_DIR") && init ? 1 : -1;
    if (r->state == 1) {
      MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
      r->cap = MV_EMULATE_RECORD_MAX;
      r->call = malloc(r->cap * sizeof *r->call);
      r->state = r->call ? 1 : -1;
      if (r->call)
        atexit(mv_emulate_record_flush);
    }
  }
  if (r->state == 1 && r->n < r->cap)
    r->call[r->n++] = (struct mv_emulate_call){kernel, m, n, k, ld_bytes, seconds};
}

/* The call's leading dimension in bytes goes to the record's bytes column (0: not given).
 * mpivet calibrate does not use it yet: dgemm is 9-14 % slower at a multiple of 4 KiB here
 * (docs/simulate.md, stop 35), and the records keep what a model of it needs. */
#define MV_EMULATE_RUN_LD(kernel, m, n, k, ld_bytes, stmt)                       \
  do {                                                                          \
    double mv__t0 = mv_emulate_clock();                                         \
    stmt;                                                                       \
    double mv__dt = mv_emulate_clock() - mv__t0 - mv_emulate_record_overhead;   \
    mv_emulate_record((kernel), (m), (n), (k), (long)(ld_bytes),                \
                      mv__dt > 1e-9 ? mv__dt : 1e-9);                           \
  } while (0)
#else
#define MV_EMULATE_RUN_LD(kernel, m, n, k, ld_bytes, stmt) do { (void)(ld_bytes); stmt; } while (0)
#endif
#define MV_EMULATE_RUN(kernel, m, n, k, stmt) MV_EMULATE_RUN_LD(kernel, m, n, k, 0, stmt)

/* Kernel named kernel with dimensions m, n, k (1 for unused ones): its model under SMPI when the
 * calibration has one (looked up once per call site and rank, at its first non-empty call), else
 * stmt. An empty call (m or n 0) costs nothing either way and needs no model: HPL's 2 x 1 grid
 * calls HPL_dlaswp02N/03T/04T once a solve with m = 0, a recording has one such sample per rank,
 * too few for a fit, and they were reported as unmodelled. */
#define MV_EMULATE_LOOKUP(row, kernel, m, n)                                      \
  if (row == -2 && (m) > 0 && (n) > 0 && (row = mv_emulate_find(kernel)) < 0)    \
    mv_emulate_no_model(kernel, __FILE__, __LINE__)
#if MV_EMULATING
#define MV_EMULATE(kernel, m, n, k, stmt)                                         \
  do {                                                                            \
    static int mv__row = -2;                                                      \
    MV_EMULATE_LOOKUP(mv__row, kernel, m, n);                                     \
    if (mv__row >= 0)                                                             \
      mv_emulate_model(&mv_emulate_models[mv__row], (m), (n), (k));               \
    else {                                                                        \
      stmt;                                                                       \
    }                                                                             \
  } while (0)
/* A kernel whose results the program needs under SMPI too (HPL's pivot rows through dcopy and
 * dswap): with a model, the statement runs untimed (SMPI's benchmarking paused around it) and its
 * model is charged; without one, it runs and SMPI times it, as MV_EMULATE. */
#define MV_EMULATE_ALSO_RUN(kernel, m, n, k, stmt)                                \
  do {                                                                            \
    static int mv__row = -2;                                                      \
    MV_EMULATE_LOOKUP(mv__row, kernel, m, n);                                     \
    if (mv__row >= 0) {                                                           \
      smpi_bench_end();                                                           \
      stmt;                                                                       \
      smpi_bench_begin();                                                         \
      mv_emulate_model(&mv_emulate_models[mv__row], (m), (n), (k));               \
    } else {                                                                      \
      stmt;                                                                       \
    }                                                                             \
  } while (0)
#define MV_EMULATE_LD(kernel, m, n, k, ld_bytes, stmt) MV_EMULATE(kernel, m, n, k, stmt)
#else
#define MV_EMULATE(kernel, m, n, k, stmt) MV_EMULATE_RUN(kernel, m, n, k, stmt)
#define MV_EMULATE_ALSO_RUN(kernel, m, n, k, stmt) MV_EMULATE_RUN(kernel, m, n, k, stmt)
/* As MV_EMULATE, the recording keeping the call's leading dimension in bytes (its bytes column). */
#define MV_EMULATE_LD(kernel, m, n, k, ld_bytes, stmt) MV_EMULATE_RUN_LD(kernel, m, n, k, ld_bytes, stmt)
#endif

#define MV_EMULATE_DGEMM(m, n, k, stmt) MV_EMULATE("dgemm", m, n, k, stmt)
#define MV_EMULATE_DTRSM(m, n, stmt) MV_EMULATE("dtrsm", m, n, m, stmt)

/* A cold start: where the application has just rewritten its data (HPL: the matrix generated
 * before each solve), its first kernel calls run slower than models fitted on every call say
 * (HPL, stop 35: 0.6-1.0 ms over the first 2 ms of kernel time of a solve's first panel, at every
 * N, 5-8 % of N = 1000 on 2 ranks). Under SMPI, MV_EMULATE_COLD() charges
 * MV_EMULATE_COLD_SECONDS there (default 0: `mpivet calibrate` does not measure it;
 * bench/hpl/validate.sh does, from the recorded calls against the models); elsewhere nothing. */
#ifndef MV_EMULATE_COLD_SECONDS
#define MV_EMULATE_COLD_SECONDS 0.0
#endif
#define MV_EMULATE_COLD() mv_emulate_seconds(MV_EMULATE_COLD_SECONDS)

#define MV_EMULATE_KERNEL(seconds, stmt)  \
  do {                                    \
    if (MV_EMULATING)                     \
      mv_emulate_seconds(seconds);        \
    else {                                \
      stmt;                               \
    }                                     \
  } while (0)


#endif
