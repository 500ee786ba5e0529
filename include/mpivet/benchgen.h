/* mpivet benchgen: the compressed trace DIR/compressed.mvt (docs/formats.md) read into memory,
 * dumped for humans, checked by replaying its matching (deadlocks, collective alignment), and
 * turned into one standalone C+MPI benchmark. Ownership: mv_mvt_read fills a struct mv_mvt that
 * mv_mvt_release frees; nothing else allocates for the caller. */
#ifndef MPIVET_BENCHGEN_H
#define MPIVET_BENCHGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mpivet/error.h"

/* One operation of a call (kinds: enum mv_mvt_op in src/trace/mvt.h, names mv_mvt_op_name).
 * comm: symbolic communicator (0 world, 1 self, k: the k-th creation); peer: relative, so the
 * peer's rank in comm is (rank + peer) mod size; root: rank in comm or -1. */
struct mv_mvt_opv {
  int kind;
  uint32_t comm, win;               /* win: symbolic window (creation number) */
  int64_t peer, root;
  uint64_t tag, bytes, received, slot, other;
  uint32_t type, op, flags;         /* datatype and reduction codes (mvt.h), SYNC or VEC flags */
  uint64_t members;                 /* VEC: members in the run */
};
struct mv_mvt_sig {
  uint32_t region;
  const char *func;                 /* "MPI_Isend"; "?" for a region the file does not name */
  uint64_t site;                    /* call-site hash (callsites.txt of the OTF2 archive) */
  size_t nops;
  struct mv_mvt_opv *ops;
};
struct mv_mvt_item { uint64_t sym, count; };   /* sym: signature * 2, or rule * 2 + 1 */
struct mv_mvt_rule { size_t n; struct mv_mvt_item *items; };
/* Times of one call item of a class's grammar (ns): values in all (calls x ranks), their sum,
 * the first value (summed over the ranks), and the log bins (mvt.h) of the other values with
 * relative weights (the file keeps them relative to the fullest bin, MV_MVT_WEIGHT_MAX). */
struct mv_mvt_hist { size_t n; uint32_t *bin; uint64_t *weight; uint64_t values, sum, first; };
struct mv_mvt_class {
  size_t nranks;
  uint32_t *ranks;                  /* sorted world ranks */
  size_t nsigs;
  uint32_t *sigs;                   /* local signature -> index in mv_mvt.sigs */
  size_t nrules;
  struct mv_mvt_rule *rules;        /* rule r refers only to signatures and rules < r */
  struct mv_mvt_rule main;          /* items refer to local signatures */
  uint64_t span_ns;                 /* longest MPI_Init..MPI_Finalize of its ranks */
  /* Items flattened: rule 0's items, rule 1's, ..., then main's (mv_mvt_item_at). Per item that
   * is a call: the computation before it and its time, where it stands in the grammar (one
   * signature after short work in one place and long work in another keeps both); empty
   * histograms for loops. */
  size_t nitems;
  struct mv_mvt_hist *comp, *dur;
};
struct mv_mvt_comm { uint32_t id, sym; size_t n; uint32_t *members; };  /* world ranks, in order */
struct mv_mvt {
  unsigned version;
  uint32_t nranks;
  uint64_t elapsed_ns;
  char *meta;
  char *truncated;                  /* "" or why the run did not reach MPI_Finalize everywhere */
  size_t nregions;
  uint32_t *region_ids;
  char **region_names;
  size_t ncomms;
  struct mv_mvt_comm *comms;
  size_t nsigs;
  struct mv_mvt_sig *sigs;
  size_t nclasses;
  struct mv_mvt_class *classes;
};

/* Parses n bytes (the whole file). 0, or MV_EPARSE / MV_EUNSUP (newer version) / MV_ENOMEM with
 * what "byte N: expected X" in e (no where). */
int mv_mvt_parse(const uint8_t *p, size_t n, struct mv_mvt *t, struct mv_error *e);
/* Reads DIR/compressed.mvt or a file path; MV_ENOENT / MV_EIO as well; where is the path. */
int mv_mvt_read(const char *path, struct mv_mvt *t, struct mv_error *e);
void mv_mvt_release(struct mv_mvt *t);
const char *mv_mvt_op_name(int kind);
/* The middle of a log bin in ns (the value a replay uses). */
double mv_mvt_bin_ns(uint32_t bin);
/* Flattened item i of a class (rules in order, then main); NULL beyond nitems. */
const struct mv_mvt_item *mv_mvt_item_at(const struct mv_mvt_class *c, size_t i);
/* How often each flattened item runs per rank (runs[nitems]: its repeat count times the runs
 * of its rule; saturating at UINT64_MAX); 0 or MV_ENOMEM. */
int mv_mvt_item_runs(const struct mv_mvt_class *c, uint64_t *runs);
/* Total calls a class makes (the grammar expanded, counts multiplied); UINT64_MAX on overflow. */
uint64_t mv_mvt_class_calls(const struct mv_mvt_class *c);
/* Human-readable dump of the whole file. */
int mv_mvt_print(const struct mv_mvt *t, FILE *out);

/* Generation options: what-if scales and collectives replaced by point-to-point. */
struct mv_benchgen_opts {
  double compute_scale, msg_scale;
  const char *coll_as_p2p;          /* NULL or a function name ("MPI_Allreduce") or "all" */
};
/* Checks the trace as the benchmark would run (every rank's calls expanded, point-to-point
 * matched in order, collectives aligned per communicator whatever their call sites, blocking
 * sends treated as synchronous). 0 when it completes; 1 with a description of the potential
 * deadlock (ranks and calls) or the misaligned collective in msg; MV_EUNSUP when a call cannot
 * be replayed (msg names it); MV_ERANGE when it is too long to check (over limit calls). */
int mv_benchgen_check(const struct mv_mvt *t, uint64_t limit, char *msg, size_t msgsize);
/* Writes the benchmark's C source. MV_EUNSUP with err naming the call that cannot be generated. */
int mv_benchgen_emit(const struct mv_mvt *t, const struct mv_benchgen_opts *o, FILE *out,
                     struct mv_error *err);
/* A benchmark for any process count (the run's size) from traces of one regular program at 3 or
 * more process counts (t in any order): ranks as regions of a line or of the grid
 * MPI_Dims_create makes, numbers as fitted forms of the size. MV_EUNSUP with err saying what
 * cannot be extrapolated (irregular ranks, structure or numbers that change with the count),
 * MV_EINVAL for fewer than 3 distinct counts. */
int mv_benchgen_emit_scaled(const struct mv_mvt *const *t, size_t n, const struct mv_benchgen_opts *o,
                            FILE *out, struct mv_error *err);

/* Repeated runs of one program at one process count (t[0..n) in any order): *pick is the run of
 * the median longest span (the lower median for an even n), the one a benchmark is generated
 * from. MV_EINVAL with err saying which trace has another process count, or on a rank another
 * number of calls than t[0] (their order may differ: which Test finds a request done). */
int mv_benchgen_median_run(const struct mv_mvt *const *t, size_t n, size_t *pick,
                           struct mv_error *err);

/* Validation: a re-traced benchmark against the original, rank by rank and call by call
 * (function; per operation kind, communicator by its members, peer as a world rank, tag, bytes,
 * root, request slot). 0 equal (*calls compared), 1 with the first difference in msg. */
int mv_benchgen_compare(const struct mv_mvt *a, const struct mv_mvt *b, uint64_t *calls, char *msg,
                        size_t msgsize);

#endif
