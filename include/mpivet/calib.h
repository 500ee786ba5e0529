/* Calibration of an SMPI platform from mpivet-calib's measurements (SimGrid's procedure in one C
 * library): piecewise-linear fits of ping-pong, Send, Isend and Recv by segmented regression
 * (mv_stats_segreg), the eager/rendezvous threshold, link bandwidth and latency from the top
 * segment, latency and bandwidth factors and overheads per segment, Test/Iprobe/Wtime costs, the
 * cost of the first write to a fresh page (charged by include/mpivet/first-touch.h), the
 * host's flop rate and kernel models (the thesis' polynomial families M-0/M-1/M-2 and noise models
 * N-0/N-1/N-2, least squares with GSL). A calibration folder holds platform.xml, smpi-settings.txt,
 * kernels.h, calibration.json and report.html; mv_calib_load refuses incomplete or foreign ones. */
#ifndef MPIVET_CALIB_H
#define MPIVET_CALIB_H

#include <stddef.h>
#include <stdio.h>

#include "mpivet/error.h"
#include "mpivet/json.h"
#include "mpivet/platform.h"

/* calibration.json's "format" and "version" (the JSON documents' table, mpivet/json.h) */
#define MV_CALIB_FORMAT mv_json_format_name(MV_JSON_CALIBRATION)
#define MV_CALIB_VERSION MV_JSON_CALIBRATION_VERSION
#define MV_CALIB_MAX_PIECES 12   /* up to 8 fitted segments and the clipped tail */
#define MV_CALIB_MAX_HOSTS 16
#define MV_CALIB_MAX_MODELS 512   /* kernel models: pooled and per host, per range of call size */
#define MV_CALIB_MAX_RECORDS 1024 /* files of recorded kernel calls (64 was too few: one HPL
                                      quiet block gave 96, one per run, rank and N) */

/* Operations of a calibration, in the order of mpivet-calib's op column names: the network
 * operations it measures, then the kernels (shape: 3 = m x n x k, 4 = triangular m x m times
 * m x n with k = m, 2 = m x n with k = 1, 1 = vectors of m with n = k = 1). mpivet-calib times
 * dgemm and dtrsm on random shapes; every kernel can come from an application's own calls
 * recorded through include/mpivet/emulate.h (`mpivet calibrate --kernel-records`). */
#define MV_CALIB_OPS(XX)                                                           \
  XX(PINGPONG, "pingpong", 0, "one-way time (half round trip)")                    \
  XX(SEND,     "send",     0, "time inside MPI_Send")                              \
  XX(ISEND,    "isend",    0, "time inside MPI_Isend")                             \
  XX(RECV,     "recv",     0, "time inside MPI_Recv after the message arrived")    \
  XX(LATESEND, "late-send", 0, "time inside MPI_Send, receive posted 100 us later") \
  XX(TEST,     "test",     0, "one MPI_Test on a pending request")                 \
  XX(IPROBE,   "iprobe",   0, "one MPI_Iprobe that finds nothing")                 \
  XX(WTIME,    "wtime",    0, "one MPI_Wtime")                                     \
  XX(WINALLOC,  "win-allocate",      0, "MPI_Win_allocate of bytes per rank")        \
  XX(WINALLOCFREE, "win-allocate-free", 0, "MPI_Win_free of an allocated window")  \
  XX(WINCREATE, "win-create",        0, "MPI_Win_create over bytes of written memory") \
  XX(WINCREATEFREE, "win-create-free", 0, "MPI_Win_free of a created window")      \
  XX(TOUCH,    "touch",    0, "first write to one page of fresh memory")           \
  XX(CPUCLOCK, "cpuclock", 0, "one read of the thread CPU clock (SMPI's timer)")   \
  XX(DGEMM,    "dgemm",    3, "dgemm C -= A B, m x k times k x n")                 \
  XX(DTRSM,    "dtrsm",    4, "dtrsm left lower unit, m x m into m x n")           \
  XX(DGEMV,    "dgemv",    2, "dgemv, m x n matrix times vector")                  \
  XX(DGER,     "dger",     2, "dger, rank-1 update of m x n")                      \
  XX(DTRSV,    "dtrsv",    2, "dtrsv, triangular m x m solve (n = m)")             \
  XX(DSWAP,    "dswap",    1, "dswap of two vectors of m")                         \
  XX(DCOPY,    "dcopy",    1, "dcopy of a vector of m")                            \
  XX(DAXPY,    "daxpy",    1, "daxpy on vectors of m")                             \
  XX(DSCAL,    "dscal",    1, "dscal of a vector of m")                            \
  XX(IDAMAX,   "idamax",   1, "idamax over a vector of m")                         \
  XX(LASWP00N, "HPL_dlaswp00N", 3, "HPL row swaps, m pivots over n columns, k rows") \
  XX(LASWP10N, "HPL_dlaswp10N", 2, "HPL column swaps, m x n")                      \
  XX(LASWP01N, "HPL_dlaswp01N", 2, "HPL row gather into U, m rows x n")            \
  XX(LASWP01T, "HPL_dlaswp01T", 2, "HPL row gather into U transposed, m x n")      \
  XX(LASWP02N, "HPL_dlaswp02N", 2, "HPL row pack, m x n")                          \
  XX(LASWP03N, "HPL_dlaswp03N", 2, "HPL row copy back, m x n")                     \
  XX(LASWP03T, "HPL_dlaswp03T", 2, "HPL row copy back transposed, m x n")          \
  XX(LASWP04N, "HPL_dlaswp04N", 2, "HPL row copy and swap, m x n")                 \
  XX(LASWP04T, "HPL_dlaswp04T", 2, "HPL row copy and swap transposed, m x n")      \
  XX(LASWP05N, "HPL_dlaswp05N", 2, "HPL row scatter, m x n")                       \
  XX(LASWP05T, "HPL_dlaswp05T", 2, "HPL row scatter transposed, m x n")            \
  XX(LASWP06N, "HPL_dlaswp06N", 2, "HPL row swap with U, m x n")                   \
  XX(LASWP06T, "HPL_dlaswp06T", 2, "HPL row swap with U transposed, m x n")        \
  XX(DLACPY,   "HPL_dlacpy",    2, "HPL matrix copy, m x n")                       \
  XX(DLATCPY,  "HPL_dlatcpy",   2, "HPL transposed matrix copy, m x n")            \
  XX(DLOCSWPN, "HPL_dlocswpN",  1, "HPL pivot row swap in a panel, m columns")      \
  XX(DLOCSWPT, "HPL_dlocswpT",  1, "HPL pivot row swap in a panel (L1 transposed)")

enum mv_calib_op {
#define XX(id, name, shape, what) MV_CALIB_##id,
  MV_CALIB_OPS(XX)
#undef XX
  MV_CALIB_NOPS
};
#define MV_CALIB_NNET (MV_CALIB_LATESEND + 1)   /* ops with a size: pingpong..late-send */
/* Window creation and release (win-allocate..win-create-free), timed on rank 0 per window size:
 * the ops of mv_calib_windows, index op - MV_CALIB_WINALLOC. */
#define MV_CALIB_NWIN (MV_CALIB_WINCREATEFREE - MV_CALIB_WINALLOC + 1)
/* late-send: the peer posts its receive this long after rank 0 called MPI_Send. A Send that
 * returns in less than half of it did not wait for the receive: the message went eagerly. The
 * eager threshold is read from this (calib-net.c), not from Send's share of the ping-pong. */
#define MV_CALIB_LATE_POST_S 1e-4

/* The untimed warm-up that mpivet-calib runs before a network job of op and bytes (a ping-pong, or
 * for Recv one untimed Recv, of the returned size; -1: none). Up to MV_CALIB_WARM_MAX every op
 * warms up at its own size: after the shuffled plan's previous job a cold ping-pong of 0.5-4 MiB
 * took 1.2-2 x a warm one (stop 30), and above it a cold one is not slower and a warm-up would
 * double the job's time. An Isend warms up at its own size up to MV_CALIB_ISEND_WARM_MAX, above it
 * at that size: a rendezvous Isend does not touch its payload, and a warm-up copy of its size
 * evicts the library's own state from the caches. Isend's time depended on the warm-up's size and
 * not on its own (stop 33, niced run on a busy machine, bench/sim/isend-warm.c, Open MPI / MPICH,
 * us: 64 KiB after a 64 MiB ping-pong 0.66 / 0.93, 128 MiB after a 64 KiB one 0.13 / 0.18), and
 * the warm-up at its own size made it twice as slow at 6-64 MiB as below 4 MiB and above 64 MiB
 * (no warm-up there): the fit cut through that step (self-check 5.2-12.0 % off at >= 64 KiB, stop
 * 32). Every size now starts from the same state. */
#define MV_CALIB_WARM_MAX (64LL << 20)
#define MV_CALIB_ISEND_WARM_MAX (64LL << 10)
static inline long long mv_calib_warm_bytes(enum mv_calib_op op, long long bytes)
{
  if (op == MV_CALIB_ISEND)
    return bytes < MV_CALIB_ISEND_WARM_MAX ? bytes : MV_CALIB_ISEND_WARM_MAX;
  return bytes <= MV_CALIB_WARM_MAX ? bytes : -1;
}

const char *mv_calib_op_name(enum mv_calib_op op);
const char *mv_calib_op_what(enum mv_calib_op op);
int mv_calib_op_shape(enum mv_calib_op op);   /* 0: network, else the kernel's shape */
int mv_calib_op_find(const char *name);   /* op or -1 */

/* One measurement (a CSV row of mpivet-calib). */
struct mv_calib_sample {
  double bytes;            /* message size (network ops) */
  int m, n, k;             /* kernel shape */
  int host;                /* index into mv_calib_data.hosts */
  int other;               /* 1: peer on another host */
  double seconds;
};

/* Every sample of a calibration CSV, by operation. */
struct mv_calib_data {
  struct mv_calib_sample *s[MV_CALIB_NOPS];
  size_t n[MV_CALIB_NOPS], cap[MV_CALIB_NOPS];
  char hosts[MV_CALIB_MAX_HOSTS][64];
  int nhosts;
};
void mv_calib_data_init(struct mv_calib_data *d);
void mv_calib_data_release(struct mv_calib_data *d);
/* Read mpivet-calib's CSV (header order,op,rank,host,pair,bytes,m,n,k,rep,seconds). MV_EPARSE with
 * "file:line:column: expected X, got \"Y\"" in e for a bad row. */
int mv_calib_data_read(FILE *fp, const char *name, struct mv_calib_data *d, struct mv_error *e);
/* The value that stands for the samples of one operation and size, in the fits and the self-check
 * alike: their MV_CALIB_TRIM trimmed mean, or their median below MV_CALIB_TRIM_MIN samples, where
 * the trim drops none and one stall would move the mean (sorts v; NAN when n is 0). A simulator
 * charges one cost a call, so a program's time is the calls' count times their mean; the trim
 * keeps the mean off rare stalls. Medians were used until stop 34: with Isend's bimodal samples
 * (0.08 or 0.2-0.5 us, job by job) the bootstrap spread of a size's median was 6-11 % of it at 90
 * samples and 13-20 % at 30, the 10 % trimmed mean's 5-7 % and 10-17 % (Open MPI, four
 * calibrations of stop 33). */
#define MV_CALIB_TRIM 0.1
#define MV_CALIB_TRIM_MIN 10
double mv_calib_typical(double *v, size_t n);
/* The measurement's own noise at one size: half the relative difference between the typical
 * values of the samples taken 1st, 3rd, ... and of those taken 2nd, 4th, ... (v in the order it
 * was measured; the plan is shuffled, so the halves are random), which is distributed as the
 * error of the whole set's typical value against the true one: what a perfect model would show.
 * NAN when a half has fewer than MV_CALIB_TRIM_MIN samples or on no memory. */
double mv_calib_split_noise(const double *v, size_t n);
/* mv_calib_typical of all of op's samples in d, every size and pair (0: none, or no memory). */
double mv_calib_op_typical(const struct mv_calib_data *d, int op);

/* Replace every kernel's samples in d by those in rec (recorded application calls), for each
 * kernel that rec has; host names are carried over. MV_ENOMEM, MV_EINVAL (too many hosts). */
int mv_calib_data_take_kernels(struct mv_calib_data *d, const struct mv_calib_data *rec);

/* y = a + b x for x > from (the first piece also below), as SMPI reads "from:a:b;..." lists. */
struct mv_piece { double from, to, a, b; };
struct mv_piecewise { size_t n; struct mv_piece p[MV_CALIB_MAX_PIECES]; };
double mv_piecewise_eval(const struct mv_piecewise *f, double x);

/* The cost of window creation and release per window size (bytes per rank): a segmented fit of
 * rank 0's medians per op (fit[i] of op MV_CALIB_WINALLOC + i, n = 0: not measured), and what
 * SMPI itself charges for the op (smpi_s, the self-check's median; 0: not measured). `mpivet
 * simulate` charges fit - smpi_s after each call (include/mpivet/win-cost.h). */
struct mv_calib_windows {
  struct mv_piecewise fit[MV_CALIB_NWIN];
  double median_rel_err[MV_CALIB_NWIN];    /* of the fit over the medians */
  double smpi_s[MV_CALIB_NWIN];
};
/* 1 when w has a model of at least one op. */
int mv_calib_windows_any(const struct mv_calib_windows *w);

/* Polynomial kernel model over the terms mnk, mn, mk, nk, m, n, k, 1: the family selects the terms
 * (M-0: mnk; M-1: mnk and 1; M-2: all eight), the noise model the residual standard deviation
 * (N-0: none; N-1: constant sigma; N-2: a polynomial of the same terms, heteroscedastic). */
#define MV_KERNEL_TERMS 8
struct mv_kernel_model {
  enum mv_calib_op op;
  int family, noise;                 /* 0..2 */
  int host;                          /* -1: every host pooled, else index in the data's hosts */
  char host_name[64];                /* "" when pooled */
  double from_work;                  /* the model holds for calls of m n k >= from_work, up to the
                                      * next range's (kernel-ranges.c); 0: the first range */
  double coef[MV_KERNEL_TERMS];      /* seconds per term */
  double sd[MV_KERNEL_TERMS];        /* N-2: sd polynomial; N-1: sd[7] = sigma */
  double r2, median_rel_err;         /* fit quality on the samples */
  double sum_ratio;                  /* sum of the fit's predictions / sum of measured seconds,
                                      * before coef and sd are divided by it */
  size_t n;                          /* samples fitted */
  size_t stalls;                     /* samples dropped as descheduled (see kernel-model.c) */
};
void mv_kernel_terms(int m, int n, int k, double *t);
double mv_kernel_predict(const struct mv_kernel_model *km, int m, int n, int k);
/* Least squares (GSL) of family/noise on the op's samples of host (-1: all) that have m, n > 0.
 * MV_ENUMERIC when there are too few samples (twice the model's terms). */
int mv_kernel_fit(const struct mv_calib_data *d, enum mv_calib_op op, int family, int noise,
                  int host, struct mv_kernel_model *km);
/* The same fit per range of call size m n k (the thesis' piecewise family M', ranges chosen by
 * BIC, kernel-ranges.c): up to max models into km, ascending from_work, their number in *nkm.
 * MV_ENUMERIC when not even one range can be fitted, MV_ERANGE when max is too small. */
int mv_kernel_fit_ranges(const struct mv_calib_data *d, enum mv_calib_op op, int family,
                         int noise, int host, struct mv_kernel_model *km, int max, int *nkm);

/* Everything `mpivet calibrate` derives. */
struct mv_calibration {
  struct mv_piecewise fit[MV_CALIB_NNET];   /* per-size typical values, segmented */
  struct mv_piecewise net;                  /* ping-pong minus overheads: the network's own time */
  struct mv_piecewise os, orecv, ois;       /* SMPI overheads */
  struct mv_piecewise lat_factor, bw_factor; /* a = factor (b unused) */
  double latency_s, bandwidth_Bps;          /* link values, from the top network segment */
  double test_s, iprobe_s, wtime_s;
  double touch_s;                           /* first write to a fresh page, 0: not measured */
  double cpu_clock_s;                       /* one read of CLOCK_THREAD_CPUTIME_ID as that clock
                                               counts it, 0: not measured (mpivet simulate
                                               takes it off SMPI's timing of the code) */
  struct mv_calib_windows win;              /* window creation and release (since stop 32) */
  double eager_bytes;                       /* async-small-thresh and send-is-detached-thresh */
  double flops;                             /* host speed (dgemm rate), 0: unknown */
  struct mv_kernel_model kernels[MV_CALIB_MAX_MODELS];   /* pooled, then per host if several */
  int nkernels;
  int family, noise;                        /* chosen kernel model */
  /* recorded */
  char mpi[32], engine[32];
  int np;
  double max_size;
  long samples;
};

/* Network part: medians per op and size, segmented fits, thresholds, factors, overheads,
 * polling costs and the window ops' fits (none where they were not measured). MV_ENUMERIC when
 * a network op has too few sizes. */
int mv_calib_fit_network(const struct mv_calib_data *d, struct mv_calibration *c);
/* Kernel part: family/noise fits of every kernel with enough samples (pooled, and per host when
 * the data has several hosts), each in ranges of call size; flops from dgemm. */
int mv_calib_fit_kernels(const struct mv_calib_data *d, struct mv_calibration *c);

/* The calibrated platform: spec (NULL: "cluster:<hosts>") with calibrated speed, links and
 * loopback. e gets the spec error. */
int mv_calib_platform(const struct mv_calibration *c, const char *spec, int hosts,
                      struct mv_platform *p, struct mv_error *e);
/* The SMPI settings, one "key:value" per line (smpirun --cfg=key:value). */
int mv_calib_write_settings(const struct mv_calibration *c, FILE *fp);
/* C header with the chosen kernel models for include/mpivet/emulate.h. */
int mv_calib_write_kernels_h(const struct mv_calibration *c, FILE *fp);
/* calibration.json: format, version, every derived value. */
int mv_calib_write_json(const struct mv_calibration *c, FILE *fp);
/* report.html: every fitted segment over its measurements, kernel fits. */
int mv_calib_write_report(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp);

/* A calibration folder's files. */
#define MV_CALIB_FILES(XX)            \
  XX(JSON, "calibration.json")        \
  XX(PLATFORM, "platform.xml")        \
  XX(SETTINGS, "smpi-settings.txt")   \
  XX(KERNELS, "kernels.h")
/* What `mpivet simulate` needs from a folder. */
struct mv_calib_folder {
  char dir[4096];
  double latency_s, bandwidth_Bps, flops;
  double cpu_clock_s;             /* 0 when the folder has none (made before stop 31) */
  struct mv_calib_windows win;    /* no fit when the folder has none (made before stop 32) */
  char **settings;                /* "key:value" strings */
  size_t nsettings;
};
/* Check and read a folder: every file present, calibration.json of MV_CALIB_FORMAT version
 * MV_CALIB_VERSION. MV_ENOENT / MV_EPARSE / MV_EUNSUP (other version) with the message in e. */
int mv_calib_folder_load(const char *dir, struct mv_calib_folder *f, struct mv_error *e);
void mv_calib_folder_release(struct mv_calib_folder *f);
/* Top-level number or string member of a JSON object text (nested values skipped); MV_ENOENT when
 * absent, MV_EPARSE on malformed JSON. */
int mv_calib_json_member(const char *json, const char *key, char *out, size_t size);
/* calibration.json's optional "windows" member into w (zeroed first; absent: 0 and no fit).
 * MV_EPARSE for malformed JSON or a member that is not {op: {"smpi_s": s, "pieces": [{from_bytes,
 * to_bytes, intercept, slope}...]}} with known window ops, finite numbers and ascending pieces;
 * MV_ENOMEM. */
int mv_calib_json_windows(const char *json, struct mv_calib_windows *w);

#endif
