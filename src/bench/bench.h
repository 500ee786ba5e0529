/* Internal interface of mpivet-bench, the MPI benchmark program: options, the clock model of
 * each rank, the operation table (collectives, mock-ups, litmus Bcast, memory ops) and the
 * measurement loop. Every structure is per rank (no mutable globals: SMPI folds ranks into one
 * process). */
#ifndef MV_BENCH_H
#define MV_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "mpivet/bench.h"

#define BENCH_MAX_JOBS_OPS 128
#define BENCH_MAX_MSIZES 64

struct bench_opts {
  const char *ops[BENCH_MAX_JOBS_OPS];
  int nops;
  int64_t msizes[BENCH_MAX_MSIZES];
  int nmsizes;
  int reps;                /* fixed count (when rse and ci are 0), else the minimum */
  int max_reps;            /* upper bound with --rse/--ci */
  double rse;              /* stop when relative standard error <= rse (0: off) */
  double ci;               /* stop when 95% CI half width / mean <= ci (0: off) */
  int warmup;
  const char *sync;        /* skampi, jk, hca */
  const char *start;       /* window, barrier */
  const char *timing;      /* local: max(e_i - s_i); global: max(e_i) - window start */
  double window;           /* window length in s (0: adaptive from warm-up) */
  int check_clock;         /* report residual offsets only */
  double check_wait;       /* seconds to wait before measuring residual offsets */
  int64_t clear_cache;     /* bytes written between repetitions (0: off) */
  uint64_t seed;           /* job order; 0: from the clock (recorded) */
  const char *out;         /* results CSV (rank 0), "-" for stdout */
  const char *meta;        /* meta JSON (rank 0), NULL: none */
  const char *engine;      /* recorded in rows */
  int ppn;                 /* recorded in rows; 0: counted from processor names */
  int np;                  /* required world size; 0: the launcher's (mpivet/world.h), if any */
  int list;                /* print the operation table and exit */
};

/* Parse argv on every rank the same way; returns 0, or 2 after printing an error (rank 0). */
int bench_opts_parse(struct bench_opts *o, int argc, char **argv, int rank);

/* ---- time and clocks ---- */
double bench_now(void);                       /* local time, MPI_Wtime */
/* Wait until local time t: sleep through most of a long wait, then spin (yielding the core
 * when yield is set); simulated sleep under SMPI. */
void bench_wait_until(double t, int yield);
/* Complete req (MPI_Wait), or with idle set poll it with growing sleeps in between so that a
 * rank waiting for its turn leaves the core to the ranks that work (oversubscribed nodes). */
void bench_idle_wait(MPI_Request *req, int idle);
void bench_idle_barrier(MPI_Comm comm, int idle);
/* In place maximum over the ranks of v[0..n) (n <= BENCH_IDLE_MAX_N, 0: a barrier); with idle
 * set through rank 0, the others asleep until its answer. */
#define BENCH_IDLE_MAX_N 4
void bench_idle_max(MPI_Comm comm, double *v, int n, int idle);

/* global = slope * (local - base) + offset */
struct bench_clock {
  double base, slope, offset;
};
double bench_clock_global(const struct bench_clock *c, double local);
double bench_clock_local(const struct bench_clock *c, double global);

/* How a sync may use the node: idle ranks sleep; at most max_pairs ping-pong pairs at once
 * (0: no limit; 1 pair per two cores when ranks share cores). place (NULL: none) moves the
 * calling rank to the node's first core (first = 1) or to the other cores, so that the two
 * ranks of a pair run on different cores and need not yield to each other. */
struct bench_sync_env {
  int idle;
  int max_pairs;
  void (*place)(void *ctx, int first);
  void *ctx;
};

struct bench_sync_method {
  const char *name;
  const char *summary;
  int (*sync)(MPI_Comm comm, const struct bench_sync_env *env, struct bench_clock *clk);
};
const struct bench_sync_method *bench_sync_find(const char *name);
const struct bench_sync_method *bench_sync_methods(int *count);
/* Residual offset of each rank's global clock against rank 0 (filled on rank 0, size p); idle:
 * waiting ranks sleep, yield: the ping-pongs yield the core while they wait. */
void bench_clock_residuals(MPI_Comm comm, const struct bench_clock *clk, int idle, int yield,
                           double *res);
/* Server lets client begin (client blocks until then, asleep when idle). */
void bench_pair_start(MPI_Comm comm, int peer, int client, int idle);
/* A fit point: client time x (midpoint of the best round trip), server time y, that rtt. */
struct bench_point {
  double x, y, rtt;
};
/* One ping-pong fit point between rank me and peer (internal to the methods, shared); yield:
 * ranks share cores (MPICH then yields while it waits). */
void bench_pingpong_point(MPI_Comm comm, int peer, int client, int rounds, int yield,
                          const struct bench_clock *clk, struct bench_point *p);

/* ---- operations ---- */
struct bench_buf {
  MPI_Comm comm;
  int rank, size;
  int64_t msize;
  int count;               /* c = ceil(msize / sizeof(int)) */
  int block;               /* b = ceil(c / p), per-rank block of gather-like ops */
  int *in, *out, *tmp;     /* each holds max(c, p * b) ints (at least 1) */
  int *counts, *displs;    /* v-variants: b each */
};

int bench_buf_init(struct bench_buf *b, MPI_Comm comm, int64_t msize);
void bench_buf_release(struct bench_buf *b);
/* Deterministic input for result checks; out gets a sentinel except root's Bcast source. */
void bench_buf_fill(struct bench_buf *b);

enum bench_kind { BENCH_TIME, BENCH_MEMORY };

/* The handle a memory op creates (and bench_memop_measure frees). */
struct bench_handle {
  MPI_Comm comm;
  MPI_Win win;
};

struct bench_op {
  const char *op;          /* results.csv op, e.g. MPI_Allreduce */
  const char *impl;        /* default, a mock-up id, or bcast_as_binomial */
  enum bench_kind kind;
  int sized;               /* 0: msize is ignored (recorded as 0) */
  void (*run)(struct bench_buf *b);                               /* TIME */
  void (*create)(struct bench_buf *b, struct bench_handle *h);    /* MEMORY */
};

/* The implementation of every entry of MV_BENCH_OPS (mpivet/bench.h), by its id: run functions
 * for TIME entries (ops.c, mockups.c), create functions for MEMORY entries (mem.c). The table in
 * ops.c is generated from the same list, so an entry's name, kind and sizing live there only. */
#define BENCH_DECL_TIME(id) void bench_run_##id(struct bench_buf *b);
#define BENCH_DECL_MEMORY(id) void bench_create_##id(struct bench_buf *b, struct bench_handle *h);
#define BENCH_DECL_(id, op, impl, kind, ...) BENCH_DECL_##kind(id)
MV_BENCH_OPS(BENCH_DECL_)
#undef BENCH_DECL_

/* Find by op name ("MPI_Bcast", "Bcast", case-insensitive) or impl id; NULL if unknown. */
const struct bench_op *bench_op_find(const char *name);
/* -1 when name is not a group (all, collectives, mockups, memory); else 1 when e (may be NULL)
 * belongs to the group, 0 when not. */
int bench_group_has(const char *name, const struct bench_op *e);
/* The i-th entry of the table (MV_BENCH_OPS order), NULL past the end. */
const struct bench_op *bench_op_entry(int i);
/* Run op and its default once on identical input; 1 when the outputs agree on every rank. */
int bench_op_check(const struct bench_op *op, struct bench_buf *b);

/* Net bytes currently allocated by malloc in this process (-1 when not measured). */
int64_t bench_mem_live(void);
/* Proportional set size of the process in bytes from /proc/self/smaps(_rollup), -1 if unknown. */
int64_t bench_mem_pss(void);
/* Run a memory op once: created handle is freed after; *bytes = net malloc delta. */
void bench_memop_measure(const struct bench_op *op, struct bench_buf *b, double *seconds,
                         int64_t *bytes, int64_t *pss);

#endif
