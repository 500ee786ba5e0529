/* What the reports of an analysis share: call paths as text in a canonical order, inclusive
 * totals per metric, unit conversion, the root causes and critical-path stretches per location
 * and call path, and the plain-words text of the root causes (words.c). */
#ifndef MV_ANALYZE_VIEW_H
#define MV_ANALYZE_VIEW_H

#include <stdio.h>

#include "result.h"

struct mv__view {
  const struct mv_analysis *a;
  char **path;        /* call path id -> "main > foo > MPI_Recv" */
  uint32_t *canon;    /* call path id -> canonical index */
  uint32_t *order;    /* canonical index -> call path id */
  mv__xsum total[MV__M_COUNT];   /* inclusive, all ranks */
};
int mv__view_init(struct mv__view *v, const struct mv_analysis *a);
void mv__view_release(struct mv__view *v);
const char *mv__region_name(const struct mv_analysis *a, uint32_t cp);
/* Seconds for time metrics (v in ticks), v itself for counters. */
/* "  none" for an empty list, saying so when the trace was incomplete. */
void mv__print_none(const struct mv_analysis *a, FILE *fp);
double mv__to_unit(const struct mv_analysis *a, int m, double v);
/* Waiting time (ticks) that no delay explains: all wait states (direct plus indirect) minus the
 * explained share; point-to-point waits longer than their delay, and waits whose intervals show
 * neither a delay nor a wait. */
double mv__unexplained(const struct mv__view *v);

/* Values below metric `root` summed per (location, call path), largest first. */
struct mv__cause {
  uint32_t loc, cp;
  double total, longterm;   /* ticks, all kinds below root; the long-term delay costs among them */
};
/* NULL when out of memory; *n may be 0 (then an empty allocation is returned). */
struct mv__cause *mv__causes_of(const struct mv_analysis *a, int root, size_t *n);

/* "ranks 1-3, 5" or "rank 2" ("rank ?" for none): the ranks r < n with on[r] set, written at buf
 * (size >= 64); a list that does not fit ends after a whole entry with ", ... (N ranks in all)".
 * Returns the start of the text inside buf. */
const char *mv__rank_list(char *buf, size_t size, const uint8_t *on, uint32_t n);

/* The top `top` root causes and the critical path in plain words. 0 or MV_ENOMEM. */
int mv__text_causes(const struct mv__view *v, FILE *fp, int top);

#endif
