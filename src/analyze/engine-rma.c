/* Active-target parts of the replay engine (thesis ch. 3): fence epochs (Early Fence, pairwise
 * synchronizations) and general active target epochs matched pairwise by (window, origin,
 * target, n-th epoch) (Late Post, Early Wait, Late Complete). Lock epochs: engine-lock.c. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mpivet/error.h"

struct fence_side {
  uint64_t last_leave;    /* latest leave of an operation into the target */
  struct mv__vec peers;   /* uint32_t locations (origins or targets) */
};
struct tinfo {
  uint32_t loc, nops;
  uint64_t last_leave;
};
struct aepoch {           /* origin side of general active target: start .. complete */
  uint32_t win, loc, remaining;
  int closed;
  uint64_t max_post;
  struct mv__side poster; /* the target that posted last */
  struct mv__vec acts;    /* struct mv__act */
  struct mv__vec targets; /* struct tinfo */
};
struct eepoch {           /* target side: post .. wait */
  uint32_t win, loc, remaining, norigins, idle_origins;
  int closed, any_ops;
  int dropped;            /* replaced by a later post before its wait: freed, never credited */
  uint64_t max_complete, max_last;
  struct mv__side completer;  /* the origin that completed last */
  struct mv__act wait;
};
struct gpair {
  struct aepoch *a;
  struct eepoch *x;
  int have_a, have_x;
  uint64_t post_enter, complete_enter, last_leave;
  uint32_t nops;
  struct mv__side post, complete;
};

static void *ptr(uint64_t v)
{
  return (void *)(uintptr_t)v;
}

static int peer_add(struct fence_side *f, uint32_t loc)
{
  for (size_t i = 0; i < f->peers.len; i++)
    if (MV__VEC_AT(&f->peers, uint32_t, i) == loc)
      return 0;
  uint32_t *p = mv__vec_push(&f->peers);
  return p ? (*p = loc, 0) : MV_ENOMEM;
}

static struct fence_side *fence_side(struct mv__engine *e, struct mv__map *m, uint32_t win, uint32_t loc,
                                     uint64_t seq)
{
  uint64_t *slot = mv__map_put(m, ((uint64_t)win << 32) | loc, seq, 0, NULL);
  if (!slot)
    return NULL;
  if (!*slot) {
    struct fence_side *f = calloc(1, sizeof *f);
    if (!f)
      return NULL;
    mv__vec_init(&f->peers, sizeof(uint32_t));
    *slot = (uintptr_t)f;
  }
  (void)e;
  return ptr(*slot);
}

static void fence_side_drop(struct mv__map *m, uint32_t win, uint32_t loc, uint64_t seq)
{
  uint64_t *slot = mv__map_get(m, ((uint64_t)win << 32) | loc, seq);
  if (!slot)
    return;
  struct fence_side *f = ptr(*slot);
  mv__vec_release(&f->peers);
  free(f);
  mv__map_del(m, ((uint64_t)win << 32) | loc, seq);
}

int mv__act_push(struct mv__vec *v, const struct mv__rec *r, int op)
{
  struct mv__act *a = mv__vec_push(v);
  return a ? (*a = (struct mv__act){r->enter, r->leave, r->cp, op}, 0) : MV_ENOMEM;
}

static int fence_op(struct mv__engine *e, const struct mv__rec *r)
{
  uint64_t *seqp = mv__map_get(&e->seqs, (1ull << 32) | r->a, r->loc);
  uint64_t seq = seqp ? *seqp : 0;
  if (e->local[r->b]) {
    struct fence_side *in = fence_side(e, &e->fence_in, r->a, r->b, seq);
    if (!in || peer_add(in, r->loc))
      return MV_ENOMEM;
    in->last_leave = r->leave > in->last_leave ? r->leave : in->last_leave;
  }
  if (e->local[r->loc]) {
    struct fence_side *out = fence_side(e, &e->fence_out, r->a, r->loc, seq);
    if (!out || peer_add(out, r->b))
      return MV_ENOMEM;
  }
  return 0;
}

void mv__rma_fence_done(struct mv__engine *e, uint32_t win, uint32_t seq, uint32_t p, uint32_t nmembers,
                        uint64_t enter, uint64_t wait, uint32_t cp)
{
  uint64_t *in_slot = mv__map_get(&e->fence_in, ((uint64_t)win << 32) | p, seq);
  uint64_t *out_slot = mv__map_get(&e->fence_out, ((uint64_t)win << 32) | p, seq);
  struct fence_side *in = in_slot ? ptr(*in_slot) : NULL, *out = out_slot ? ptr(*out_slot) : NULL;
  int64_t early = in && in->last_leave > enter ? (int64_t)(in->last_leave - enter) : 0;
  if (early > (int64_t)wait)
    early = (int64_t)wait;
  mv__credit(e, MV__M_EFENCE, p, cp, early);
  mv__credit(e, MV__M_WFENCE, p, cp, (int64_t)wait - early);
  /* partners this fence had to synchronize with for an operation, either direction */
  uint32_t needed = 0;
  for (size_t i = 0; out && i < out->peers.len; i++)
    needed += MV__VEC_AT(&out->peers, uint32_t, i) != p;
  for (size_t i = 0; in && i < in->peers.len; i++) {
    uint32_t q = MV__VEC_AT(&in->peers, uint32_t, i);
    int dup = q == p;
    for (size_t j = 0; out && !dup && j < out->peers.len; j++)
      dup = MV__VEC_AT(&out->peers, uint32_t, j) == q;
    needed += !dup;
  }
  mv__credit(e, MV__M_PAIRS, p, cp, (int64_t)nmembers - 1 - (nmembers - 1 - needed));
  mv__credit(e, MV__M_PAIRSU, p, cp, (int64_t)(nmembers - 1 - needed));
  fence_side_drop(&e->fence_in, win, p, seq);
  fence_side_drop(&e->fence_out, win, p, seq);
}

/* ---- general active target ---- */

static struct tinfo *target_of(struct aepoch *a, uint32_t t)
{
  for (size_t i = 0; i < a->targets.len; i++)
    if (MV__VEC_AT(&a->targets, struct tinfo, i).loc == t)
      return &MV__VEC_AT(&a->targets, struct tinfo, i);
  return NULL;
}

static void aepoch_finish(struct mv__engine *e, struct aepoch *a)
{
  uint32_t idle = 0;
  for (size_t i = 0; i < a->targets.len; i++)
    idle += MV__VEC_AT(&a->targets, struct tinfo, i).nops == 0;
  struct mv__act *last = &MV__VEC_AT(&a->acts, struct mv__act, a->acts.len - 1);
  mv__credit(e, MV__M_PAIRS, a->loc, last->cp, (int64_t)(a->targets.len - idle));
  mv__credit(e, MV__M_PAIRSU, a->loc, last->cp, idle);
  /* Late Post: the first call of the epoch that was running when the last target posted */
  for (size_t i = 0; i < a->acts.len; i++) {
    struct mv__act *x = &MV__VEC_AT(&a->acts, struct mv__act, i);
    if (x->enter < a->max_post && a->max_post <= x->leave) {
      int m = x->op ? MV__M_LPOSTC : MV__M_LPOST;
      mv__credit(e, m, a->loc, x->cp, (int64_t)(a->max_post - x->enter));
      mv__blame(e, m, (struct mv__side){x->enter, x->leave, a->loc, x->cp}, (int64_t)(a->max_post - x->enter),
                a->poster, 0);
      break;
    }
  }
  mv__vec_release(&a->acts);
  mv__vec_release(&a->targets);
  free(a);
}

static void eepoch_finish(struct mv__engine *e, struct eepoch *x)
{
  struct mv__act *w = &x->wait;
  mv__credit(e, MV__M_PAIRS, x->loc, w->cp, (int64_t)(x->norigins - x->idle_origins));
  mv__credit(e, MV__M_PAIRSU, x->loc, w->cp, x->idle_origins);
  if (x->max_complete > w->enter) {
    uint64_t end = x->max_complete < w->leave ? x->max_complete : w->leave;
    int64_t early = (int64_t)(end - w->enter), late = 0;
    uint64_t from = x->max_last > w->enter ? x->max_last : w->enter;
    if (x->any_ops && end > from)
      late = (int64_t)(end - from);
    mv__credit(e, MV__M_LCOMPL, x->loc, w->cp, late);
    mv__credit(e, MV__M_EWAIT, x->loc, w->cp, early - late);
    mv__blame(e, late ? MV__M_LCOMPL : MV__M_EWAIT, (struct mv__side){w->enter, w->leave, x->loc, w->cp}, early,
              x->completer, 0);
  }
  free(x);
}

static void pair_resolve(struct mv__engine *e, struct gpair *p)
{
  struct aepoch *a = p->a;
  struct eepoch *x = p->x;
  if (a) {
    if (p->post_enter > a->max_post)
      a->max_post = p->post_enter, a->poster = p->post;
    if (--a->remaining == 0 && a->closed)
      aepoch_finish(e, a);
  }
  if (x) {
    if (p->complete_enter > x->max_complete)
      x->max_complete = p->complete_enter, x->completer = p->complete;
    if (p->nops) {
      x->any_ops = 1;
      x->max_last = p->last_leave > x->max_last ? p->last_leave : x->max_last;
    } else {
      x->idle_origins++;
    }
    if (--x->remaining == 0 && x->closed) {
      if (x->dropped)
        free(x);
      else
        eepoch_finish(e, x);
    }
  }
}

/* One side of the pair (origin o, target t) of window win; side 0 = origin, 1 = target. */
static struct gpair *pair_side(struct mv__engine *e, uint32_t win, uint32_t o, uint32_t t, int side)
{
  uint64_t k2 = ((uint64_t)o << 32) | t;
  uint64_t *cnt = mv__map_put(&e->paircount, ((uint64_t)win << 32) | (uint64_t)side, k2, 0, NULL);
  if (!cnt)
    return NULL;
  uint64_t n = (*cnt)++;
  uint64_t *slot = mv__map_put(&e->pairs, ((uint64_t)win << 32) | n, k2, 0, NULL);
  if (!slot)
    return NULL;
  if (!*slot) {
    struct gpair *p = calloc(1, sizeof *p);
    if (!p)
      return NULL;
    *slot = (uintptr_t)p;
  }
  struct gpair *p = ptr(*slot);
  if (p->have_a + p->have_x + 1 == 2)   /* the other side is there: the pair leaves the table */
    mv__map_del(&e->pairs, ((uint64_t)win << 32) | n, k2);
  return p;
}

static int group_locs(struct mv__engine *e, uint32_t group, uint32_t **out)
{
  uint32_t n;
  const uint64_t *m = mv__group_members(e->d, group, &n);
  *out = malloc((n ? n : 1) * sizeof **out);
  if (!*out)
    return -1;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (m[i] < e->d->nranks && e->d->rank_loc[m[i]] != MV__NONE)
      (*out)[k++] = e->d->rank_loc[m[i]];
  return (int)k;
}

static int gats_start(struct mv__engine *e, const struct mv__rec *r)
{
  uint32_t *locs;
  int n = group_locs(e, r->c, &locs);
  struct aepoch *a = n < 0 ? NULL : calloc(1, sizeof *a);
  if (!a) {
    free(locs);
    return MV_ENOMEM;
  }
  a->win = r->a, a->loc = r->loc;
  mv__vec_init(&a->acts, sizeof(struct mv__act));
  mv__vec_init(&a->targets, sizeof(struct tinfo));
  int err = mv__act_push(&a->acts, r, 0);
  for (int i = 0; i < n && !err; i++) {
    struct tinfo *ti = mv__vec_push(&a->targets);
    err = ti ? (ti->loc = locs[i], 0) : MV_ENOMEM;
  }
  free(locs);
  uint64_t *slot = err ? NULL : mv__map_put(&e->access, r->loc, r->a, 0, NULL);
  if (!slot) {
    mv__vec_release(&a->acts);
    mv__vec_release(&a->targets);
    free(a);
    return MV_ENOMEM;
  }
  if (*slot) {   /* a start without complete: drop the old epoch */
    struct aepoch *old = ptr(*slot);
    e->unmatched += e->local[r->loc];
    mv__vec_release(&old->acts);
    mv__vec_release(&old->targets);
    free(old);
  }
  *slot = (uintptr_t)a;
  return 0;
}

static int gats_complete(struct mv__engine *e, const struct mv__rec *r)
{
  uint64_t *slot = mv__map_get(&e->access, r->loc, r->a);
  if (!slot)
    return 0;
  struct aepoch *a = ptr(*slot);
  mv__map_del(&e->access, r->loc, r->a);
  if (mv__act_push(&a->acts, r, 0))
    return MV_ENOMEM;
  a->closed = 1;
  a->remaining = 1;   /* held until every pair is registered */
  for (size_t i = 0; i < a->targets.len; i++) {
    struct tinfo *ti = &MV__VEC_AT(&a->targets, struct tinfo, i);
    if (!e->local[a->loc] && !e->local[ti->loc])
      continue;
    struct gpair *p = pair_side(e, a->win, a->loc, ti->loc, 0);
    if (!p)
      return MV_ENOMEM;
    p->have_a = 1, p->a = e->local[a->loc] ? a : NULL;
    p->complete_enter = r->enter, p->last_leave = ti->last_leave, p->nops = ti->nops;
    p->complete = (struct mv__side){r->enter, r->leave, r->loc, r->cp};
    a->remaining += p->a != NULL;
    if (p->have_x) {
      pair_resolve(e, p);
      free(p);
    }
  }
  if (--a->remaining == 0) {
    if (e->local[a->loc]) {
      aepoch_finish(e, a);
    } else {
      mv__vec_release(&a->acts);
      mv__vec_release(&a->targets);
      free(a);
    }
  }
  return 0;
}

static int gats_post(struct mv__engine *e, const struct mv__rec *r)
{
  uint32_t *locs;
  int n = group_locs(e, r->c, &locs);
  struct eepoch *x = n < 0 ? NULL : calloc(1, sizeof *x);
  if (!x) {
    free(locs);
    return MV_ENOMEM;
  }
  x->win = r->a, x->loc = r->loc, x->norigins = (uint32_t)n, x->remaining = 1;
  for (int i = 0; i < n; i++) {
    if (!e->local[locs[i]] && !e->local[r->loc])
      continue;
    struct gpair *p = pair_side(e, r->a, locs[i], r->loc, 1);
    if (!p) {
      free(locs);
      return MV_ENOMEM;
    }
    p->have_x = 1, p->x = e->local[r->loc] ? x : NULL, p->post_enter = r->enter;
    p->post = (struct mv__side){r->enter, r->leave, r->loc, r->cp};
    x->remaining += p->x != NULL;
    if (p->have_a) {
      pair_resolve(e, p);
      free(p);
    }
  }
  free(locs);
  x->remaining--;
  uint64_t *slot = mv__map_put(&e->expose, r->loc, r->a, 0, NULL);
  if (!slot)
    return MV_ENOMEM;
  if (*slot) {   /* a post without wait: drop the old epoch, which its pairs may still name */
    struct eepoch *old = ptr(*slot);
    e->unmatched += e->local[r->loc];
    old->closed = old->dropped = 1;
    if (old->remaining == 0)
      free(old);
  }
  *slot = (uintptr_t)x;
  return 0;
}

static int gats_wait(struct mv__engine *e, const struct mv__rec *r)
{
  uint64_t *slot = mv__map_get(&e->expose, r->loc, r->a);
  if (!slot)
    return 0;
  struct eepoch *x = ptr(*slot);
  mv__map_del(&e->expose, r->loc, r->a);
  x->wait = (struct mv__act){r->enter, r->leave, r->cp, 0};
  x->closed = 1;
  if (!e->local[x->loc])
    free(x);
  else if (x->remaining == 0)
    eepoch_finish(e, x);
  return 0;
}

int mv__rma_gsync(struct mv__engine *e, const struct mv__rec *r)
{
  switch (r->sub) {
  case MV__GS_START:
    return gats_start(e, r);
  case MV__GS_COMPLETE:
    return gats_complete(e, r);
  case MV__GS_POST:
    return gats_post(e, r);
  case MV__GS_WAIT:
    return gats_wait(e, r);
  default:
    return 0;
  }
}

int mv__rma_op(struct mv__engine *e, const struct mv__rec *r)
{
  if (r->b >= e->d->nloc)
    return 0;
  if (mv__lock_op(e, r))
    return e->err;
  uint64_t *slot = mv__map_get(&e->access, r->loc, r->a);
  struct tinfo *ti = slot ? target_of(ptr(*slot), r->b) : NULL;
  if (ti) {
    ti->nops++;
    ti->last_leave = r->leave > ti->last_leave ? r->leave : ti->last_leave;
    return mv__act_push(&((struct aepoch *)ptr(*slot))->acts, r, 1);
  }
  return fence_op(e, r);
}

void mv__rma_release(struct mv__engine *e)
{
  struct mv__map *sides[] = {&e->fence_in, &e->fence_out};
  for (size_t i = 0; i < 2; i++) {
    MV__MAP_FOREACH(sides[i], s) {
      struct fence_side *f = ptr(s->val);
      mv__vec_release(&f->peers);
      free(f);
    }
    mv__map_release(sides[i]);
  }
  MV__MAP_FOREACH(&e->access, s) {
    struct aepoch *a = ptr(s->val);
    mv__vec_release(&a->acts);
    mv__vec_release(&a->targets);
    free(a);
  }
  /* closed epochs still waiting for a partner are referenced only from their pairs */
  MV__MAP_FOREACH(&e->pairs, s) {
    struct gpair *p = ptr(s->val);
    if (p->a && p->a->closed && --p->a->remaining == 0) {
      mv__vec_release(&p->a->acts);
      mv__vec_release(&p->a->targets);
      free(p->a);
    }
    if (p->x && p->x->closed && --p->x->remaining == 0)
      free(p->x);
    free(p);
  }
  MV__MAP_FOREACH(&e->expose, s) free(ptr(s->val));
  struct mv__map *maps[] = {&e->access, &e->expose, &e->pairs, &e->paircount};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
    mv__map_release(maps[i]);
}
