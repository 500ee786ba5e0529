/* Critical path (Böhme et al.; thesis 4.2): from the end of the location that entered
 * MPI_Finalize last (else of the one that finishes last) back to the leave of MPI_Init, as
 * Scalasca's backward replay runs it, along the locations' timelines; at each wait state the path is handed over to the location that
 * caused it (the sender, the receiver, the latest entrant or root of a collective, the lock
 * holder, the target not progressing) at the time the wait ended. Activities on the path never
 * wait. Then the critical-path profile per call path and location, the imbalance
 * max(0, critical-path time - average non-waiting time) and the performance impact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rootcause.h"
#include "mpivet/error.h"

struct cpacc {
  struct mv__store *out;
  uint32_t loc;
  double *total;   /* per call path: time on the critical path, all locations */
  struct mv__tlset *segs;   /* struct mv__cpseg, or NULL */
};

/* Stretches come in order (from the end back): 64 KiB of unwritten ones and of cache. */
const struct mv__tlkind mv__tl_cpath = {"critical-path stretches", sizeof(struct mv__cpseg), 0, (size_t)64 << 10,
                                        (size_t)64 << 10, NULL, NULL};

static void on_path(void *arg, uint32_t cp, uint64_t dt)
{
  struct cpacc *a = arg;
  mv__store_addf(a->out, MV__M_CP, a->loc, cp, (double)dt);
  a->total[cp] += (double)dt;
}

/* Time of the path on acc->loc in [t0, t1]: the profile and the stretch. */
static void stretch(const struct mv__rc_input *in, struct cpacc *acc, uint64_t t0, uint64_t t1)
{
  mv__rc_times(in, acc->loc, t0, t1, on_path, acc);
  if (acc->segs && t1 > t0) {
    struct mv__cpseg s = {acc->segs->loc[0].n, t0, t1, acc->loc};
    mv__tl_put(acc->segs, 0, &s);
  }
}

/* When wait w ended: the delayer's synchronizing event, E(send), E(recv), the latest entrant's
 * enter, the release of a lock (w->wenter + w->amount for all of them), but for Wait for
 * Progress the target's entry into MPI: its no-overlap amount is not one stretch. */
static uint64_t wait_end(const struct mv__wait *w)
{
  return w->metric == MV__M_WFP ? w->denter : w->wenter + w->amount;
}

/* The latest wait of loc that began before t (and, when `ended`, also ended before t) into *w: 0
 * when there is none. */
static int wait_before(struct mv__rc_input *in, struct mv__tlcur *c, uint32_t loc, uint64_t t, int ended,
                       struct mv__wait *w)
{
  for (uint64_t k = mv__tl_find(c, in->waits, loc, t); k-- > 0;)
    if (!mv__rc_wait(in, c, loc, k, w))
      return 0;
    else if (!ended || wait_end(w) < t)
      return 1;
  return 0;
}

/* Where the path starts: as Scalasca, on the location that entered MPI_Finalize last (its time
 * in MPI_Finalize waited for nobody); without MPI_Finalize, the location that finishes last. */
static uint32_t path_start(const struct mv__rc_input *in)
{
  uint32_t loc = MV__NONE, fin = MV__NONE;
  for (uint32_t l = 0; l < in->nloc; l++) {
    const struct mv__tl *x = &in->tl[l];
    if (!x->started)
      continue;
    if (loc == MV__NONE || x->last > in->tl[loc].last)
      loc = l;
    if (x->fin_enter && (fin == MV__NONE || x->fin_enter > in->tl[fin].fin_enter))
      fin = l;
  }
  return fin != MV__NONE ? fin : loc;
}

/* Where the path ends on the location it reached last: the leave of its MPI_Init (Scalasca's
 * INIT: the launch and MPI_Init are not the program's), else its first event. */
static uint64_t path_origin(const struct mv__tl *x, uint64_t t)
{
  return x->init_end > x->first && x->init_end <= t ? x->init_end : x->first;
}

/* Each hand-over goes back in time or, at the same time, to a location not yet visited at that
 * time: when two locations wait for each other at once (clock errors), the second visit takes
 * the location as active then. */
static void walk(struct mv__rc_input *in, struct cpacc *acc, uint64_t *seen)
{
  struct mv__tlcur c = {0};
  struct mv__wait w;
  uint32_t loc = path_start(in);
  if (loc == MV__NONE)
    return;
  for (uint32_t l = 0; l < in->nloc; l++)
    seen[l] = UINT64_MAX;
  uint64_t t = in->tl[loc].last;
  for (;;) {
    int found = wait_before(in, &c, loc, t, seen[loc] == t, &w);
    seen[loc] = t;
    acc->loc = loc;
    if (!found) {
      stretch(in, acc, path_origin(&in->tl[loc], t), t);
      return;
    }
    uint64_t end = wait_end(&w) < t ? wait_end(&w) : t;
    stretch(in, acc, end, t);
    loc = w.dloc;
    t = end < in->tl[loc].last ? end : in->tl[loc].last;
  }
}

struct rows {
  double *time, *wait;   /* per call path, all locations: exclusive time, waiting time */
};

/* Non-waiting time of (loc, cp): its exclusive time minus its waiting time. */
static void sum_rows(struct mv__store *values, uint32_t ncp, struct rows *r)
{
  MV__MAP_FOREACH(&values->map, s) {
    int m = (int)(s->k1 >> 32);
    uint32_t cp = (uint32_t)s->k2;
    if (cp >= ncp)
      continue;
    if (m != MV__M_TIME && mv__metric_within(m, MV__M_TIME))
      r->time[cp] += mv__slot_val(s);
    if (mv__metric_is_wait(m))
      r->wait[cp] += mv__slot_val(s);
  }
}

/* Per location: the imbalance and the impact, shared out by the location's part of the path
 * (imbalance) or of the non-waiting time (activities). */
static int impact(struct mv__store *values, uint32_t nloc, uint32_t ncp, const double *total, const struct rows *r)
{
  struct mv__store add = {0};
  MV__MAP_FOREACH(&values->map, s) {
    int m = (int)(s->k1 >> 32);
    uint32_t loc = (uint32_t)s->k1, cp = (uint32_t)s->k2;
    if (cp >= ncp)
      continue;
    double avg = (r->time[cp] - r->wait[cp]) / nloc, v = mv__slot_val(s);
    double imb = total[cp] > avg ? total[cp] - avg : 0, act = total[cp] < avg ? total[cp] : avg;
    double nonwait = r->time[cp] - r->wait[cp];
    if (m == MV__M_CP && total[cp] > 0) {
      mv__store_addf(&add, MV__M_CPIMB, loc, cp, imb * v / total[cp]);
      mv__store_addf(&add, MV__M_PIIMB, loc, cp, nloc * imb * v / total[cp]);
    }
    if (nonwait > 0 && m != MV__M_TIME && mv__metric_within(m, MV__M_TIME) && !mv__metric_is_wait(m)) {
      double share = v / nonwait;   /* own values of the categories are non-waiting time */
      mv__store_addf(&add, MV__M_PICP, loc, cp, nloc * act * share);
      mv__store_addf(&add, MV__M_NCPA, loc, cp, nloc * (avg > total[cp] ? avg - total[cp] : 0) * share);
    }
  }
  MV__MAP_FOREACH(&add.map, s)
    mv__store_addf(values, (int)(s->k1 >> 32), (uint32_t)s->k1, (uint32_t)s->k2, mv__slot_val(s));
  int err = add.nomem ? MV_ENOMEM : 0;
  mv__map_release(&add.map);
  return err;
}

int mv__critpath(struct mv__rc_input *in, uint32_t ncp, struct mv__store *values, struct mv__tlset *segs)
{
  double *total = calloc(ncp + 1, sizeof *total);
  struct rows r = {calloc(ncp + 1, sizeof(double)), calloc(ncp + 1, sizeof(double))};
  int err = !total || !r.time || !r.wait ? MV_ENOMEM : 0;
  if (!err && in->tl) {
    struct cpacc acc = {values, 0, total, segs};
    uint64_t *seen = malloc((in->nloc + 1) * sizeof *seen);
    if (seen)
      walk(in, &acc, seen);
    free(seen);
    err = !seen ? MV_ENOMEM : err;
    err = err ? err : in->waits->err;
    err = err ? err : segs ? mv__tlset_finish(segs) : 0;
    sum_rows(values, ncp, &r);
    err = err ? err : impact(values, in->nloc, ncp, total, &r);
  }
  free(total), free(r.time), free(r.wait);
  return err ? err : (values->nomem ? MV_ENOMEM : 0);
}
