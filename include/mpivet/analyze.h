/* Wait-state analysis of OTF2 traces (Scalasca-style replay): point-to-point, collective and
 * MPI one-sided patterns as a metric tree x call path x rank, written as text or JSON.
 * The analysis runs in one process, or in parallel when the caller supplies an exchange
 * (the MPI program mpivet-analyze-mpi does); both give identical results. */
#ifndef MPIVET_ANALYZE_H
#define MPIVET_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mpivet/error.h"

/* Collective data movement between analysis processes (all processes call each function). */
struct mv_analyze_exchange {
  int rank, size;
  void *ctx;
  /* Personalized all-to-all of byte buffers: send[i] has sendlen[i] bytes for process i;
   * *recv receives the concatenation in process order (malloc'ed), *recvlen its length. */
  int (*alltoallv)(void *ctx, void *const *send, const size_t *sendlen, void **recv, size_t *recvlen);
  /* Gather byte buffers on process 0: *all (malloc'ed, process order) and *alllen, on 0 only. */
  int (*gather)(void *ctx, const void *buf, size_t len, void **all, size_t *alllen);
};

struct mv_analysis;   /* the result: metric tree x call path x rank */

/* Analyze the archive whose anchor file (traces.otf2) is `anchor`. ex == NULL: serial.
 * In parallel, only process 0 gets *out (others get NULL). Errors: MV_EIO (unreadable
 * archive), MV_EPARSE (malformed definitions), MV_ENOMEM; e gets the reason.
 * A truncated or partly unreadable trace is analyzed as far as possible and marked partial. */
int mv_analyze_trace(const char *anchor, const struct mv_analyze_exchange *ex,
                     struct mv_analysis **out, struct mv_error *e);
void mv_analysis_free(struct mv_analysis *a);

/* Inclusive value (seconds, or occurrences for counters) of metric `key` (e.g. "late_sender",
 * its sub-metrics included) for world rank `rank` (-1: all ranks) on call paths whose leaf
 * region is `region` (NULL: all). Unknown metric: NaN. */
double mv_analysis_value(const struct mv_analysis *a, const char *key, int rank, const char *region);
/* Same, exact, in timer ticks (or occurrences). */
int64_t mv_analysis_ticks(const struct mv_analysis *a, const char *key, int rank, const char *region);
/* 1 when the trace was truncated or unreadable in part; note says why. */
int mv_analysis_partial(const struct mv_analysis *a, const char **note);
uint64_t mv_analysis_events(const struct mv_analysis *a);
/* 1 when the trace has a location of world rank `rank` / a region named `region`. */
int mv_analysis_has_rank(const struct mv_analysis *a, int rank);
int mv_analysis_has_region(const struct mv_analysis *a, const char *region);
/* Waiting time (seconds) that the delay costs explain: the short-term and long-term costs of all
 * delays ("delay") add up to it; it falls short of the total waiting time where a wait's
 * synchronization interval shows neither a delay nor an earlier wait. */
double mv_analysis_explained(const struct mv_analysis *a);
/* Wall time of analysis pass i (seconds, this process; in parallel, process 0's) and its name in
 * *name; -1 when there is no pass i. Passes: reading and the forward replay (wait states), merging
 * the parts, root causes (delay costs), critical path. */
double mv_analysis_pass_time(const struct mv_analysis *a, int i, const char **name);
/* What the analysis keeps, after its forward pass, for the backward passes (root causes, critical
 * path) and the reports: what grows with the trace's length, not with its unmatched state (kinds
 * 0-2 on disk, see mv_analysis_spill; 3 in memory). Kinds: 0 timeline points (a change of call
 * path on a location: an Enter or a Leave at a new time), 1 wait states with their causes, 2
 * synchronization points (both sides of each wait state, members' calls of synchronizing
 * collectives), 3 messages (for --html, at most 400001). Count of kind i in n[i], its bytes in
 * bytes[i]; returns the bytes of all four. */
uint64_t mv_analysis_kept(const struct mv_analysis *a, uint64_t n[4], uint64_t bytes[4]);
/* Where kind `kind` (0-2 above) is: not in memory but in blocks in an unlinked temporary file in
 * $TMPDIR, read back through a cache of a fixed size. v[0] bytes written, v[1] blocks, v[2]
 * items per block (at most), v[3] blocks read back so far, v[4] bytes of the cache (and about as
 * much again for the unwritten items while reading), v[5] items that came after their block was
 * written (held in memory until the end of the reading, then their location rewritten). Returns
 * the file's directory, "" when the blocks were kept in memory (MPIVET_ANALYZE_SPILL=0), NULL
 * for no such kind. */
const char *mv_analysis_spill(const struct mv_analysis *a, int kind, uint64_t v[6]);

/* Text report: metric tree with totals, then the top `top` wait states with call paths and
 * ranks. JSON: the whole cube (metrics, call paths, ranks, values). 0 or MV_EIO. */
int mv_analysis_write_text(const struct mv_analysis *a, FILE *fp, int top);
int mv_analysis_write_json(const struct mv_analysis *a, FILE *fp);
/* CUBE4 report (.cubex, a tar archive) for the Cube GUI: metric tree x call tree x location,
 * values inclusive along the metric tree, exclusive along the call tree. 0, MV_EIO or
 * MV_ENOMEM. */
int mv_analysis_write_cube(const struct mv_analysis *a, FILE *fp);
/* The same into the file `path`, atomically (mv_atomic_write: a symlink at path is replaced, never
 * followed): what `mpivet analyze --cube` and its parallel analyzer both do. 0 or an MV_E* code. */
int mv_analysis_save_cube(const struct mv_analysis *a, const char *path);
/* One self-contained HTML page (no network): the timeline of every rank with wait states,
 * messages and the critical path (aggregated into bins when large), the metric x call path x
 * rank panes and the root causes in plain words. 0, MV_EIO or MV_ENOMEM. */
int mv_analysis_write_html(const struct mv_analysis *a, FILE *fp, const char *title);

#endif
