/* Input of the root-cause and critical-path passes (rcinput.c): timelines, the wait states
 * with their causes indexed per location, and the synchronization points. */
#ifndef MV_ANALYZE_ROOTCAUSE_H
#define MV_ANALYZE_ROOTCAUSE_H

#include "internal.h"

struct mv__sp {            /* a synchronization point of a location */
  uint64_t enter, done, leave;   /* done: when the partner(s) could leave (struct mv__csync) */
  uint32_t partner;        /* the other location, MV__NONE: every member of comm */
  uint32_t comm;
};
struct mv__rc_input {
  struct mv__defs *d;
  struct mv__tlset *tls;   /* the timelines (NULL: none) */
  const struct mv__tl *tl; /* tls->loc: each location's first and last event, MPI_Init, MPI_Finalize */
  uint32_t nloc;
  const struct mv__wait *w;
  size_t nw;
  size_t *order;           /* waits by end of waiting, latest first */
  size_t *wl, *wl_off;     /* per waiting location (CSR): wait indices by enter */
  struct mv__sp *sp;
  size_t *sp_off;          /* per location (CSR): synchronization points by leave */
  uint64_t init_done;      /* the earliest leave of MPI_Init (UINT64_MAX: none) */
};
int mv__rc_input_build(struct mv__rc_input *in, struct mv__defs *d, struct mv__tlset *tls,
                       const struct mv__causes *causes);
void mv__rc_input_release(struct mv__rc_input *in);
/* Leave of loc's last synchronization point with `other` that ended by t, other than the call
 * [t, tl] itself (if none: MPI_Init, a synchronization point of all as Scalasca's INIT, else the
 * location's first event); *done: where the synchronization interval
 * that follows it starts, the point's completion time included (Scalasca's GetSynchpointTimes:
 * the time loc stayed in that call after its partner could leave is in the next interval). */
uint64_t mv__rc_prev_sync(const struct mv__rc_input *in, uint32_t loc, uint32_t other, uint64_t t, uint64_t tl,
                          uint64_t *done);
/* First index k in wl[wl_off[loc]..] of a wait that began at `from` or later. */
size_t mv__rc_waits_from(const struct mv__rc_input *in, uint32_t loc, uint64_t from);
/* Time of loc in [a, b] per call path: fn(arg, cp, ticks) (a failure to read the timelines back
 * is in in->tls->err). */
void mv__rc_times(const struct mv__rc_input *in, uint32_t loc, uint64_t a, uint64_t b,
                  void (*fn)(void *arg, uint32_t cp, uint64_t dt), void *arg);

/* Delay costs and wait-state classes into out; *explained: the waiting time they explain;
 * who waited for which delay into blames (struct mv__blame; NULL: not kept). */
int mv__rootcause(struct mv__rc_input *in, uint32_t ncp, struct mv__store *out, double *explained,
                  struct mv__vec *blames);
/* Critical path, its imbalance and the performance impact; `values` holds the wait states and
 * exclusive times (metric categories) of the analysis. */
int mv__critpath(struct mv__rc_input *in, uint32_t ncp, struct mv__store *values, struct mv__vec *segs);

#endif
