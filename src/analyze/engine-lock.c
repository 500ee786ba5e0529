/* Passive-target part of the replay engine (thesis 3.3.2): lock epochs (lock .. operations ..
 * unlock) are gathered at the target's analysis process and analyzed per (window, target) in
 * lock-release order when the window is freed (Algorithm 2), telling Lock Contention from
 * Wait for Progress with the target's MPI calls as its progress activities (Algorithm 1). */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mpivet/error.h"

struct lepoch {
  uint32_t origin;
  int exclusive;
  uint64_t release;
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
    e->unmatched++;
  }
  struct lepoch *l = calloc(1, sizeof *l);
  if (!l)
    return MV_ENOMEM;
  l->origin = r->loc, l->exclusive = r->sub;
  mv__vec_init(&l->acts, sizeof(struct mv__act));
  slot = mv__map_put(&e->lock_open, r->loc, k2, (uintptr_t)l, NULL);
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
  return iv ? (*iv = (struct mv__iv){r->enter, r->leave}, 0) : MV_ENOMEM;
}

static int by_release(const void *x, const void *y)
{
  const struct lepoch *a = *(struct lepoch *const *)x, *b = *(struct lepoch *const *)y;
  if (a->release != b->release)
    return a->release < b->release ? -1 : 1;
  return (a->origin > b->origin) - (a->origin < b->origin);
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

/* Wait of epoch `cur` of window target t, given the conflicting epoch released before it. */
static void analyze_epoch(struct mv__engine *e, uint32_t t, const struct lepoch *cur, const struct lepoch *prev)
{
  const struct mv__act *a = NULL;
  uint64_t ready = 0;
  for (size_t i = 0; prev && i < cur->acts.len && !a; i++) {
    const struct mv__act *x = &MV__VEC_AT(&cur->acts, struct mv__act, i);
    if (x->enter < prev->release && prev->release <= x->leave)
      a = x, ready = prev->release;
  }
  int contention = a != NULL;
  if (!a) {   /* no contention: the unlock may still wait for the target's progress */
    a = &MV__VEC_AT(&cur->acts, struct mv__act, cur->acts.len - 1);
    ready = a->enter;
  }
  const struct mv__iv *next = NULL;
  if (cur->origin != t && !progress_at(&e->progress[t], ready, &next) && next && next->enter < a->leave) {
    /* the target entered MPI only after the lock was free: progress was the last factor */
    uint64_t dep_e = next->enter, dep_l = next->leave;
    credit_origin(e, MV__M_WFP, cur->origin, a->cp, (int64_t)mv__no_overlap(a->enter, a->leave, &dep_e, &dep_l, 1));
    credit_origin(e, MV__M_WFPUP, cur->origin, a->cp, (int64_t)(next->enter - a->enter));
  } else if (contention) {
    credit_origin(e, MV__M_LOCKC, cur->origin, a->cp, (int64_t)(ready - a->enter));
  }
}

/* Algorithm 2, generalized to shared locks: an epoch waits for the latest epoch released before
 * it that conflicts with it (either of the two exclusive). */
static void analyze_chain(struct mv__engine *e, uint32_t t, struct mv__vec *v)
{
  struct lepoch **ep = v->data;
  qsort(ep, v->len, sizeof *ep, by_release);
  for (size_t i = 0; i < v->len; i++) {
    const struct lepoch *prev = NULL;
    for (size_t j = i; j-- > 0 && !prev;)
      if (ep[j]->exclusive || ep[i]->exclusive)
        prev = ep[j];
    analyze_epoch(e, t, ep[i], prev);
  }
  for (size_t i = 0; i < v->len; i++)
    lepoch_free(ep[i]);
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
  e->unmatched += e->lock_open.count + e->access.count + e->expose.count + e->pairs.count;
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
