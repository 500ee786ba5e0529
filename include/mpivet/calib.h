/* Calibration of an SMPI platform from mpivet-calib's measurements (SimGrid's procedure in one C
 * library): piecewise-linear fits of ping-pong, Send, Isend and Recv by segmented regression
 * (mv_stats_segreg), the eager/rendezvous threshold, link bandwidth and latency from the top
 * segment, latency and bandwidth factors and overheads per segment, Test/Iprobe/Wtime costs, the
 * host's flop rate and kernel models (the thesis' polynomial families M-0/M-1/M-2 and noise models
 * N-0/N-1/N-2, least squares with GSL). A calibration folder holds platform.xml, smpi-settings.txt,
 * kernels.h, calibration.json and report.html; mv_calib_load refuses incomplete or foreign ones. */
#ifndef MPIVET_CALIB_H
#define MPIVET_CALIB_H

#include <stddef.h>
#include <stdio.h>

#include "mpivet/platform.h"

#define MV_CALIB_FORMAT "mpivet-calibration"
#define MV_CALIB_VERSION 1
#define MV_CALIB_MAX_PIECES 12
#define MV_CALIB_MAX_HOSTS 16

/* Operations measured by mpivet-calib, in the order of its op column names. */
#define MV_CALIB_OPS(XX)                                                        \
  XX(PINGPONG, "pingpong", "one-way time (half round trip)")                    \
  XX(SEND,     "send",     "time inside MPI_Send")                              \
  XX(ISEND,    "isend",    "time inside MPI_Isend")                             \
  XX(RECV,     "recv",     "time inside MPI_Recv after the message arrived")    \
  XX(TEST,     "test",     "one MPI_Test on a pending request")                 \
  XX(IPROBE,   "iprobe",   "one MPI_Iprobe that finds nothing")                 \
  XX(WTIME,    "wtime",    "one MPI_Wtime")                                     \
  XX(DGEMM,    "dgemm",    "dgemm C -= A B, m x k times k x n")                 \
  XX(DTRSM,    "dtrsm",    "dtrsm left lower unit, m x m into m x n")

enum mv_calib_op {
#define XX(id, name, what) MV_CALIB_##id,
  MV_CALIB_OPS(XX)
#undef XX
  MV_CALIB_NOPS
};
#define MV_CALIB_NNET (MV_CALIB_RECV + 1)   /* ops with a size: pingpong..recv */

const char *mv_calib_op_name(enum mv_calib_op op);
const char *mv_calib_op_what(enum mv_calib_op op);
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
 * "file:line:column: expected X, got \"Y\"" in err for a bad row. */
int mv_calib_data_read(FILE *fp, const char *name, struct mv_calib_data *d, char *err, size_t errsize);

/* y = a + b x for x > from (the first piece also below), as SMPI reads "from:a:b;..." lists. */
struct mv_piece { double from, to, a, b; };
struct mv_piecewise { size_t n; struct mv_piece p[MV_CALIB_MAX_PIECES]; };
double mv_piecewise_eval(const struct mv_piecewise *f, double x);

/* Polynomial kernel model over the terms mnk, mn, mk, nk, m, n, k, 1: the family selects the terms
 * (M-0: mnk; M-1: mnk and 1; M-2: all eight), the noise model the residual standard deviation
 * (N-0: none; N-1: constant sigma; N-2: a polynomial of the same terms, heteroscedastic). */
#define MV_KERNEL_TERMS 8
struct mv_kernel_model {
  enum mv_calib_op op;
  int family, noise;                 /* 0..2 */
  int host;                          /* -1: every host pooled */
  double coef[MV_KERNEL_TERMS];      /* seconds per term */
  double sd[MV_KERNEL_TERMS];        /* N-2: sd polynomial; N-1: sd[7] = sigma */
  double r2, median_rel_err;         /* fit quality on the samples */
  size_t n;
};
void mv_kernel_terms(int m, int n, int k, double *t);
double mv_kernel_predict(const struct mv_kernel_model *km, int m, int n, int k);
double mv_kernel_sd(const struct mv_kernel_model *km, int m, int n, int k);
/* Least squares (GSL) of family/noise on the op's samples of host (-1: all). MV_ENUMERIC when
 * there are too few samples. */
int mv_kernel_fit(const struct mv_calib_data *d, enum mv_calib_op op, int family, int noise,
                  int host, struct mv_kernel_model *km);

/* Everything `mpivet calibrate` derives. */
struct mv_calibration {
  struct mv_piecewise fit[MV_CALIB_NNET];   /* per-size medians, segmented */
  struct mv_piecewise net;                  /* ping-pong minus overheads: the network's own time */
  struct mv_piecewise os, orecv, ois;       /* SMPI overheads */
  struct mv_piecewise lat_factor, bw_factor; /* a = factor (b unused) */
  double latency_s, bandwidth_Bps;          /* link values, from the top network segment */
  double test_s, iprobe_s, wtime_s;
  double eager_bytes;                       /* async-small-thresh and send-is-detached-thresh */
  double flops;                             /* host speed (dgemm rate), 0: unknown */
  struct mv_kernel_model kernels[2];        /* dgemm, dtrsm as chosen */
  int nkernels;
  int family, noise;                        /* chosen kernel model */
  /* recorded */
  char mpi[32], engine[32];
  int np;
  double max_size;
  long samples;
};

/* Network part: medians per op and size, segmented fits, thresholds, factors, overheads and
 * polling costs. MV_ENUMERIC when an op has too few sizes. */
int mv_calib_fit_network(const struct mv_calib_data *d, struct mv_calibration *c);
/* Kernel part: family/noise fits of every kernel present; flops from dgemm. */
int mv_calib_fit_kernels(const struct mv_calib_data *d, struct mv_calibration *c);

/* The calibrated platform: spec (NULL: "cluster:<hosts>") with calibrated speed, links and
 * loopback. err gets the spec error. */
int mv_calib_platform(const struct mv_calibration *c, const char *spec, int hosts,
                      struct mv_platform *p, char *err, size_t errsize);
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
  char **settings;                /* "key:value" strings */
  size_t nsettings;
};
/* Check and read a folder: every file present, calibration.json of MV_CALIB_FORMAT version
 * MV_CALIB_VERSION. MV_ENOENT / MV_EPARSE / MV_EUNSUP (other version) with a message in err. */
int mv_calib_folder_load(const char *dir, struct mv_calib_folder *f, char *err, size_t errsize);
void mv_calib_folder_release(struct mv_calib_folder *f);
/* Top-level number or string member of a JSON object text (nested values skipped); MV_ENOENT when
 * absent, MV_EPARSE on malformed JSON. */
int mv_calib_json_member(const char *json, const char *key, char *out, size_t size);

#endif
