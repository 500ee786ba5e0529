/* Input of the root-cause and critical-path passes (rcinput.c): timelines, the wait states
 * with their causes per location, and the synchronization points, all read back from their
 * streams (struct mv__tlset). */
#ifndef MV_ANALYZE_ROOTCAUSE_H
#define MV_ANALYZE_ROOTCAUSE_H

#include "internal.h"

struct mv__rc_input {
  struct mv__defs *d;
  struct mv__tlset *tls;   /* the timelines (NULL: none) */
  const struct mv__tl *tl; /* tls->loc: each location's first and last event, MPI_Init, MPI_Finalize */
  uint32_t nloc;
  struct mv__tlset *waits; /* per waiting location, by enter (causes.c) */
  struct mv__tlset *syncs; /* per location, by leave */
  uint64_t nw;             /* wait states */
  struct mv__tlcur scur;   /* a cursor over syncs */
  uint64_t init_done;      /* the earliest leave of MPI_Init (UINT64_MAX: none) */
};
void mv__rc_input_build(struct mv__rc_input *in, struct mv__defs *d, struct mv__tlset *tls,
                        const struct mv__causes *causes);
/* Leave of loc's last synchronization point with `other` that ended by t, other than the call
 * [t, tl] itself (if none: MPI_Init, a synchronization point of all as Scalasca's INIT, else the
 * location's first event); *done: where the synchronization interval
 * that follows it starts, the point's completion time included (Scalasca's GetSynchpointTimes:
 * the time loc stayed in that call after its partner could leave is in the next interval). */
uint64_t mv__rc_prev_sync(struct mv__rc_input *in, uint32_t loc, uint32_t other, uint64_t t, uint64_t tl,
                          uint64_t *done);
/* Wait k of location loc (through cursor c) into *w: 0 past the end or on a read failure
 * (in->waits->err). */
int mv__rc_wait(struct mv__rc_input *in, struct mv__tlcur *c, uint32_t loc, uint64_t k, struct mv__wait *w);
/* Time of loc in [a, b] per call path: fn(arg, cp, ticks) (a failure to read the timelines back
 * is in in->tls->err). */
void mv__rc_times(const struct mv__rc_input *in, uint32_t loc, uint64_t a, uint64_t b,
                  void (*fn)(void *arg, uint32_t cp, uint64_t dt), void *arg);

/* Delay costs and wait-state classes into out; *explained: the waiting time they explain;
 * who waited for which delay into blames (struct mv__blame; NULL: not kept). */
int mv__rootcause(struct mv__rc_input *in, uint32_t ncp, struct mv__store *out, double *explained,
                  struct mv__vec *blames);
/* Critical path, its imbalance and the performance impact; `values` holds the wait states and
 * exclusive times (metric categories) of the analysis; its stretches go to segs (opened with
 * mv__tl_cpath, finished here; NULL: not kept). */
int mv__critpath(struct mv__rc_input *in, uint32_t ncp, struct mv__store *values, struct mv__tlset *segs);

#endif
