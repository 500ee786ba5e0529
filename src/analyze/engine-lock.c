/* Passive-target part of the replay engine (thesis 3.3.2): lock epochs (lock .. operations ..
 * unlock) are gathered at the target's analysis process and analyzed per (window, target) in
 * lock hand-over order when the window is freed (Algorithm 2), telling Lock Contention from
 * Wait for Progress with the target's MPI calls as its progress activities (Algorithm 1). */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mpivet/error.h"

struct lepoch {
  uint32_t origin;
  int exclusive;
  uint64_t release;       /* leave of the unlock */
  uint64_t grant;         /* leave of the call in which it got the lock (set in the chain) */
  int done;
  struct mv__vec acts;    /* struct mv__act */
};

static void *ptr(uint64_t v)
{
  return (void *)(uintptr_t)v;
}

/* Lock chains are analyzed once, where the target is: the origin's waits are credited here
 * even when the origin itself is analyzed by another process. */
static void credit_origin(struct mv__engine *e, int metric, uint32_t origin, uint32_t cp, int64_t v)
{
  if (v > 0)
    mv__store_add(e->out, metric, origin, cp, v);
}

static void lepoch_free(struct lepoch *l)
{
  mv__vec_release(&l->acts);
  free(l);
}

int mv__lock_op(struct mv__engine *e, const struct mv__rec *r)
{
  uint64_t *slot = mv__map_get(&e->lock_open, r->loc, ((uint64_t)r->a << 32) | r->b);
  if (!slot)
    return 0;
  if (mv__act_push(&((struct lepoch *)ptr(*slot))->acts, r, 1))
    e->err = MV_ENOMEM;
  return 1;
}

static int lock_close(struct mv__engine *e, const struct mv__rec *r, struct lepoch *l)
{
  if (mv__act_push(&l->acts, r, 0))
    return MV_ENOMEM;
  l->release = r->leave;
  uint64_t *slot = mv__map_put(&e->lock_done, r->a, r->b, 0, NULL);
  if (!slot)
    return MV_ENOMEM;
  if (!*slot) {
    struct mv__vec *v = malloc(sizeof *v);
    if (!v)
      return MV_ENOMEM;
    mv__vec_init(v, sizeof(struct lepoch *));
    *slot = (uintptr_t)v;
  }
  struct lepoch **p = mv__vec_push(ptr(*slot));
  return p ? (*p = l, 0) : MV_ENOMEM;
}

int mv__rma_lock(struct mv__engine *e, const struct mv__rec *r)
{
  if (r->b >= e->d->nloc || !e->local[r->b])
    return 0;   /* lock chains are analyzed where the target is */
  uint64_t k2 = ((uint64_t)r->a << 32) | r->b;
  uint64_t *slot = mv__map_get(&e->lock_open, r->loc, k2);
  if (r->kind == MV__R_UNLOCK) {
    if (!slot)
      return 0;
    struct lepoch *l = ptr(*slot);
    mv__map_del(&e->lock_open, r->loc, k2);
    int err = lock_close(e, r, l);
    if (err)
      lepoch_free(l);
    return err;
  }
  if (slot) {   /* lock without unlock: the old epoch is dropped */
    lepoch_free(ptr(*slot));
    e->unmatched += e->local[r->loc];
  }
  struct lepoch *l = calloc(1, sizeof *l);
  if (!l)
    return MV_ENOMEM;
  l->origin = r->loc, l->exclusive = r->sub;
  mv__vec_init(&l->acts, sizeof(struct mv__act));
  slot = mv__map_put(&e->lock_open, r->loc, k2, 0, NULL);  /* an existing slot keeps its value */
  if (slot)
    *slot = (uintptr_t)l;
  if (!slot || mv__act_push(&l->acts, r, 0)) {
    if (slot)
      mv__map_del(&e->lock_open, r->loc, k2);
    lepoch_free(l);
    return MV_ENOMEM;
  }
  return 0;
}

int mv__rma_progress(struct mv__engine *e, const struct mv__rec *r)
{
  if (!e->local[r->loc] || !e->live_wins[r->loc])
    return 0;
  struct mv__iv *iv = mv__vec_push(&e->progress[r->loc]);
  return iv ? (*iv = (struct mv__iv){r->enter, r->leave, r->cp}, 0) : MV_ENOMEM;
}

static int by_release(const void *x, const void *y)
{
  const struct lepoch *a = *(struct lepoch *const *)x, *b = *(struct lepoch *const *)y;
  if (a->release != b->release)
    return a->release < b->release ? -1 : 1;
  return (a->origin > b->origin) - (a->origin < b->origin);
}

static int by_request(const void *x, const void *y)
{
  const struct lepoch *a = *(struct lepoch *const *)x, *b = *(struct lepoch *const *)y;
  uint64_t ea = MV__VEC_AT(&a->acts, struct mv__act, 0).enter, eb = MV__VEC_AT(&b->acts, struct mv__act, 0).enter;
  return (ea > eb) - (ea < eb);
}

/* First progress activity of the target at or after t: 1 when t lies inside one (progress
 * available at once), else *next is the first one entered after t (NULL: none). */
static int progress_at(const struct mv__vec *v, uint64_t t, const struct mv__iv **next)
{
  size_t lo = 0, hi = v->len;
  while (lo < hi) {   /* first interval with leave >= t */
    size_t mid = (lo + hi) / 2;
    if (MV__VEC_AT(v, struct mv__iv, mid).leave < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  *next = lo < v->len ? &MV__VEC_AT(v, struct mv__iv, lo) : NULL;
  return *next && (*next)->enter <= t;
}

/* Earliest time the lock can have been free after epoch p: its release starts in its unlock,
 * and not before it was granted (0: no earlier epoch). */
static uint64_t free_after(const struct lepoch *p)
{
  if (!p)
    return 0;
  uint64_t u = MV__VEC_AT(&p->acts, struct mv__act, p->acts.len - 1).enter;
  return u > p->grant ? u : p->grant;
}

/* Largest clock error between two ranks that the lock chain corrects (ns): the tracer aligns
 * the ranks' clocks to a fraction of a millisecond on a loaded machine. */
#define MV__LOCK_SKEW 5000000u

/* Call a ended at most MV__LOCK_SKEW before the lock could be free (f) and had lasted longer
 * than that gap: it was blocked until the hand-over, and only a clock offset between the ranks
 * makes it end before f. (A deferred lock returns at once, long before f.) */
static int blocked_until(const struct mv__act *a, uint64_t f)
{
  uint64_t gap = f - a->leave;
  return a->leave < f && gap <= MV__LOCK_SKEW && gap < a->leave - a->enter;
}

/* The call of epoch l in which it can have been granted a lock free from f on: its first call
 * still running at f (the lock call of a blocking lock, the unlock of a deferred one), or blocked
 * until f with a clock error. */
static size_t grant_call(const struct lepoch *l, uint64_t f)
{
  size_t i = 0;
  while (i + 1 < l->acts.len && MV__VEC_AT(&l->acts, struct mv__act, i).leave < f &&
         !blocked_until(&MV__VEC_AT(&l->acts, struct mv__act, i), f))
    i++;
  return i;
}

/* Clock condition (the grant cannot precede f): when grant call b ended before f, the origin's
 * clock is behind; its events from b's leave on move by the violation, as Scalasca's controlled
 * logical clock moves a receive after its send. For this lock chain only. */
static void clock_correct(struct lepoch *l, size_t b, uint64_t f)
{
  struct mv__act *a = &MV__VEC_AT(&l->acts, struct mv__act, b);
  if (!blocked_until(a, f))
    return;
  uint64_t d = f - a->leave;
  a->leave = f;
  for (size_t i = b + 1; i < l->acts.len; i++)
    MV__VEC_AT(&l->acts, struct mv__act, i).enter += d, MV__VEC_AT(&l->acts, struct mv__act, i).leave += d;
  l->release += d;
}

/* Pattern 6 for one call a of an epoch on target t: the target was outside MPI at `ready` and
 * entered its next call before a ended. Credits both heuristics (one dependency); 1 if found. */
static int wait_for_progress(struct mv__engine *e, uint32_t t, uint32_t origin, const struct mv__act *a,
                             uint64_t ready)
{
  const struct mv__iv *next = NULL;
  if (origin == t || progress_at(&e->progress[t], ready, &next) || !next || next->enter >= a->leave)
    return 0;
  uint64_t dep_e = next->enter, dep_l = next->leave;
  int64_t w = (int64_t)mv__no_overlap(a->enter, a->leave, &dep_e, &dep_l, 1);
  credit_origin(e, MV__M_WFP, origin, a->cp, w);
  mv__blame(e, MV__M_WFP, (struct mv__side){a->enter, a->leave, origin, a->cp}, w,
            (struct mv__side){next->enter, next->leave, t, next->cp}, 0);
  credit_origin(e, MV__M_WFPUP, origin, a->cp, (int64_t)(next->enter - a->enter));
  return 1;
}

/* Waits of epoch `cur`, granted in its call b after the conflicting epoch prev, the lock free
 * from f on. The hand-over happened by prev's release and by cur's grant, whichever is first.
 * If b began before it, b waited: for progress if the target was outside MPI when the lock
 * became free and entered MPI during b (the last factor, pattern 6), else for the lock
 * (pattern 7). Every later call of the epoch (and b when it did not wait for the lock) may
 * still wait for the target's progress from its own enter. */
static void analyze_epoch(struct mv__engine *e, uint32_t t, const struct lepoch *cur, const struct lepoch *prev,
                          uint64_t f, size_t b)
{
  const struct mv__act *a = &MV__VEC_AT(&cur->acts, struct mv__act, b);
  uint64_t handover = prev && prev->release < a->leave ? prev->release : a->leave;
  if (prev && a->enter < handover) {
    if (!wait_for_progress(e, t, cur->origin, a, f)) {
      credit_origin(e, MV__M_LOCKC, cur->origin, a->cp, (int64_t)(handover - a->enter));
      const struct mv__act *u = &MV__VEC_AT(&prev->acts, struct mv__act, prev->acts.len - 1);
      mv__blame(e, MV__M_LOCKC, (struct mv__side){a->enter, a->leave, cur->origin, a->cp},
                (int64_t)(handover - a->enter), (struct mv__side){u->enter, prev->release, prev->origin, u->cp}, 1);
    }
    b++;
  }
  for (size_t i = b; i < cur->acts.len; i++) {
    a = &MV__VEC_AT(&cur->acts, struct mv__act, i);
    wait_for_progress(e, t, cur->origin, a, a->enter);
  }
}

/* Algorithm 2, with the chain ordered by lock hand-over instead of the origins' unlock leaves
 * (an implementation may pass the lock at the target before the origin's unlock returns).
 * Greedy: the next epoch is the one granted first after its conflicting predecessor (the last
 * epoch for an exclusive lock, the last exclusive one for a shared lock); its grant is the leave
 * of its grant_call (f when a clock error ended that call before f). Only epochs requested before the earliest pending release can be granted
 * first, so the candidates are the pool of those (ties: release order). */
static void analyze_chain(struct mv__engine *e, uint32_t t, struct mv__vec *v)
{
  size_t n = v->len, ia = 0, ib = 0, npool = 0;
  struct lepoch **rel = v->data, **req = malloc(2 * n * sizeof *req), *last = NULL, *last_x = NULL;
  if (!req) {
    e->err = n ? MV_ENOMEM : e->err;
    return;
  }
  struct lepoch **pool = req + n;
  memcpy(req, rel, n * sizeof *req);
  qsort(rel, n, sizeof *rel, by_release);
  qsort(req, n, sizeof *req, by_request);
  for (size_t k = 0; k < n; k++) {
    while (rel[ia]->done)
      ia++;
    while (ib < n && MV__VEC_AT(&req[ib]->acts, struct mv__act, 0).enter <= rel[ia]->release)
      pool[npool++] = req[ib++];
    if (npool == 0)   /* a lock requested after its own release (stamps out of order) */
      pool[npool++] = req[ib++];
    size_t best = 0, best_b = 0;
    uint64_t best_g = UINT64_MAX;
    for (size_t i = 0; i < npool; i++) {
      struct lepoch *x = pool[i];
      uint64_t f = free_after(x->exclusive ? last : last_x);
      size_t bi = grant_call(x, f);
      const struct mv__act *gc = &MV__VEC_AT(&x->acts, struct mv__act, bi);
      uint64_t g = blocked_until(gc, f) ? f : gc->leave;
      if (g < best_g || (g == best_g && by_release(&x, &pool[best]) < 0))
        best = i, best_b = bi, best_g = g;
    }
    struct lepoch *x = pool[best], *prev = x->exclusive ? last : last_x;
    pool[best] = pool[--npool];
    x->done = 1, x->grant = best_g;
    clock_correct(x, best_b, free_after(prev));
    analyze_epoch(e, t, x, prev, free_after(prev), best_b);
    last = x;
    if (x->exclusive)
      last_x = x;
  }
  free(req);
  for (size_t i = 0; i < n; i++)
    lepoch_free(rel[i]);
  v->len = 0;
}

void mv__rma_window_freed(struct mv__engine *e, uint32_t win, uint32_t loc)
{
  uint64_t *slot = mv__map_get(&e->lock_done, win, loc);
  if (slot) {
    analyze_chain(e, loc, ptr(*slot));
    mv__vec_release(ptr(*slot));
    free(ptr(*slot));
    mv__map_del(&e->lock_done, win, loc);
  }
  if (e->live_wins[loc] && --e->live_wins[loc] == 0)
    e->progress[loc].len = 0;
}

void mv__rma_finish(struct mv__engine *e)
{
  MV__MAP_FOREACH(&e->lock_done, s) {
    analyze_chain(e, (uint32_t)s->k2, ptr(s->val));
    mv__vec_release(ptr(s->val));
    free(ptr(s->val));
  }
  mv__map_release(&e->lock_done);
  e->unmatched += mv__local_keys(e, &e->lock_open, 0) + mv__local_keys(e, &e->access, 0) +
                  mv__local_keys(e, &e->expose, 0) + mv__local_keys(e, &e->pairs, 1);
}

void mv__lock_release(struct mv__engine *e)
{
  MV__MAP_FOREACH(&e->lock_open, s) lepoch_free(ptr(s->val));
  MV__MAP_FOREACH(&e->lock_done, s) {
    struct mv__vec *v = ptr(s->val);
    for (size_t i = 0; i < v->len; i++)
      lepoch_free(MV__VEC_AT(v, struct lepoch *, i));
    mv__vec_release(v);
    free(v);
  }
  mv__map_release(&e->lock_open);
  mv__map_release(&e->lock_done);
}
