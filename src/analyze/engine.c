/* The replay engine: consumes sync records in (leave, location, seq) order, matches messages
 * by (communicator, source, destination, tag) in FIFO order and collective calls by instance
 * number per communicator or window, and credits the thesis's wait-state formulas to the
 * waiting location's call path. Only instances of local locations are credited. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mpivet/error.h"

struct fifo {
  struct mv__vec v;   /* struct mv__rec */
  size_t head;
};
struct chan {
  struct fifo sends, recvs;
  uint32_t dst;
  int pending_idx;    /* position in pending_to[dst], -1 if absent */
};
struct multi {
  uint16_t left;
  int64_t wait;
  struct mv__rec awaited;   /* the send waited for longest */
  struct mv__rec recv;      /* the receiving call */
};
struct coll {
  uint32_t n, arrived, root;
  uint8_t op, kind;
  uint32_t id;        /* comm or window */
  uint32_t *locs, *cps;
  uint64_t *enter, *leave;
};

void mv__credit(struct mv__engine *e, int metric, uint32_t loc, uint32_t cp, int64_t v)
{
  if (v > 0 && e->local[loc])
    mv__store_add(e->out, metric, loc, cp, v);
}

void mv__blame(struct mv__engine *e, int metric, struct mv__side w, int64_t amount, struct mv__side d,
               int interval)
{
  if (!e->causes || amount <= 0 || w.loc == d.loc)
    return;
  struct mv__wait x = {w.enter, w.leave, (uint64_t)amount, d.enter, d.leave, w.loc, w.cp, d.loc, d.cp,
                       (uint32_t)metric, (uint32_t)interval};
  int err = mv__causes_wait(e->causes, &x);
  e->err = e->err ? e->err : err;
}

void mv__csync(struct mv__engine *e, uint32_t loc, uint64_t enter, uint64_t done, uint64_t leave, uint32_t comm)
{
  struct mv__sp p = {leave, enter, done, MV__NONE, comm};
  int err = e->causes ? mv__causes_sync(e->causes, loc, &p) : 0;
  e->err = e->err ? e->err : err;
}

void mv__engine_causes(struct mv__engine *e, struct mv__causes *c)
{
  e->causes = c;
}

static struct mv__side side_of(const struct mv__rec *r)
{
  return (struct mv__side){r->enter, r->leave, r->loc, r->cp};
}

static int fifo_push(struct fifo *f, const struct mv__rec *r)
{
  if (f->head > 32 && f->head * 2 > f->v.len) {   /* compact the consumed prefix */
    memmove(f->v.data, &MV__VEC_AT(&f->v, struct mv__rec, f->head),
            (f->v.len - f->head) * sizeof(struct mv__rec));
    f->v.len -= f->head;
    f->head = 0;
  }
  struct mv__rec *slot = mv__vec_push(&f->v);
  if (!slot)
    return MV_ENOMEM;
  *slot = *r;
  return 0;
}

static int fifo_empty(const struct fifo *f)
{
  return f->head == f->v.len;
}

static struct mv__rec fifo_pop(struct fifo *f)
{
  return MV__VEC_AT(&f->v, struct mv__rec, f->head++);
}

static void pending_set(struct mv__engine *e, struct chan *c, int on)
{
  struct mv__vec *v = &e->pending_to[c->dst];
  if (on && c->pending_idx < 0) {
    struct chan **slot = mv__vec_push(v);
    if (!slot) {
      e->err = MV_ENOMEM;
      return;
    }
    *slot = c;
    c->pending_idx = (int)v->len - 1;
  } else if (!on && c->pending_idx >= 0) {
    struct chan *last = MV__VEC_AT(v, struct chan *, v->len - 1);
    MV__VEC_AT(v, struct chan *, c->pending_idx) = last;
    last->pending_idx = c->pending_idx;
    v->len--;
    c->pending_idx = -1;
  }
}

/* Wrong order: another message to this receiver, sent before the awaited one, is still
 * waiting to be received. */
static int wrong_order(struct mv__engine *e, uint32_t dst, uint64_t send_enter)
{
  struct mv__vec *v = &e->pending_to[dst];
  for (size_t i = 0; i < v->len; i++) {
    struct chan *c = MV__VEC_AT(v, struct chan *, i);
    if (MV__VEC_AT(&c->sends.v, struct mv__rec, c->sends.head).enter < send_enter)
      return 1;
  }
  return 0;
}

/* A call completing several receives waits for its latest sender only; whether it received
 * in the wrong order is decided once all its receives are matched (its own messages are then
 * no longer pending). */
static void credit_late_sender(struct mv__engine *e, const struct mv__rec *r, int64_t w, const struct mv__rec *s)
{
  if (r->n <= 1) {
    int m = w > 0 && wrong_order(e, r->loc, s->enter) ? MV__M_LSWO : MV__M_LS;
    mv__credit(e, m, r->loc, r->cp, w);
    mv__blame(e, m, side_of(r), w, side_of(s), 0);
    return;
  }
  uint64_t *slot = mv__map_put(&e->multi, r->loc, r->enter, 0, NULL);
  if (!slot) {
    e->err = MV_ENOMEM;
    return;
  }
  struct multi *m = (struct multi *)(uintptr_t)*slot;
  if (!m) {
    if (!(m = calloc(1, sizeof *m))) {
      e->err = MV_ENOMEM;
      return;
    }
    *m = (struct multi){r->n, 0, *s, *r};
    *slot = (uintptr_t)m;
  }
  if (w > m->wait)
    m->wait = w, m->awaited = *s;
  if (--m->left == 0) {
    int wo = m->wait > 0 && wrong_order(e, r->loc, m->awaited.enter);
    mv__credit(e, wo ? MV__M_LSWO : MV__M_LS, r->loc, m->recv.cp, m->wait);
    mv__blame(e, wo ? MV__M_LSWO : MV__M_LS, side_of(&m->recv), m->wait, side_of(&m->awaited), 0);
    free(m);
    mv__map_del(&e->multi, r->loc, r->enter);
  }
}

static void match(struct mv__engine *e, const struct mv__rec *s, const struct mv__rec *r)
{
  int64_t w = r->enter < s->enter && s->enter <= r->leave ? (int64_t)(s->enter - r->enter) : 0;
  if (e->local[r->loc])
    credit_late_sender(e, r, w, s);
  /* the page draws messages only below MV__PAGE_ITEMS items: one more than that is enough to
   * tell it to aggregate, so memory for messages does not grow with the trace */
  int keep = e->causes && e->local[r->loc] && e->causes->msgs.len <= MV__PAGE_ITEMS;
  struct mv__msg *msg = keep ? mv__vec_push(&e->causes->msgs) : NULL;
  if (msg)
    *msg = (struct mv__msg){s->enter, r->leave, s->loc, r->loc};
  else if (keep)
    e->err = MV_ENOMEM;
  if (s->kind == MV__R_SEND && s->enter < r->enter && r->enter <= s->leave && e->local[s->loc]) {
    mv__credit(e, MV__M_LR, s->loc, s->cp, (int64_t)(r->enter - s->enter));
    mv__blame(e, MV__M_LR, side_of(s), (int64_t)(r->enter - s->enter), side_of(r), 0);
  }
}

static int p2p(struct mv__engine *e, const struct mv__rec *x)
{
  int is_send = x->kind != MV__R_RECV;
  uint32_t src = is_send ? x->loc : x->b, dst = is_send ? x->b : x->loc;
  if (src >= e->d->nloc || dst >= e->d->nloc)
    return 0;
  uint64_t k1 = ((uint64_t)x->a << 32) | x->c, k2 = ((uint64_t)src << 32) | dst;
  uint64_t *slot = mv__map_put(&e->chans, k1, k2, 0, NULL);
  if (!slot)
    return MV_ENOMEM;
  struct chan *c = (struct chan *)(uintptr_t)*slot;
  if (!c) {
    if (!(c = calloc(1, sizeof *c)))
      return MV_ENOMEM;
    mv__vec_init(&c->sends.v, sizeof(struct mv__rec));
    mv__vec_init(&c->recvs.v, sizeof(struct mv__rec));
    c->dst = dst;
    c->pending_idx = -1;
    *slot = (uintptr_t)c;
  }
  struct fifo *other = is_send ? &c->recvs : &c->sends;
  if (fifo_empty(other)) {
    int err = fifo_push(is_send ? &c->sends : &c->recvs, x);
    if (is_send)
      pending_set(e, c, 1);
    return err;
  }
  struct mv__rec o = fifo_pop(other);
  if (!is_send && fifo_empty(&c->sends))
    pending_set(e, c, 0);
  match(e, is_send ? x : &o, is_send ? &o : x);
  if (fifo_empty(&c->sends) && fifo_empty(&c->recvs)) {
    pending_set(e, c, 0);
    mv__vec_release(&c->sends.v);
    mv__vec_release(&c->recvs.v);
    free(c);
    mv__map_del(&e->chans, k1, k2);
  }
  return e->err;
}

/* Member index of loc in communicator/window `key`, or -1. */
static int member_index(struct mv__engine *e, uint64_t key, uint32_t comm, uint32_t loc)
{
  uint64_t *idx = mv__map_get(&e->members, key, loc);
  if (idx)
    return (int)*idx - 1;
  uint32_t n = mv__comm_size(e->d, comm);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = mv__comm_loc(e->d, comm, i, loc);
    if (l != MV__NONE && !mv__map_put(&e->members, key, l, i + 1, NULL))
      e->err = MV_ENOMEM;
  }
  idx = mv__map_get(&e->members, key, loc);
  return idx ? (int)*idx - 1 : -1;
}

static int is_one_to_n(int op)
{
  return op == OTF2_COLLECTIVE_OP_BCAST || op == OTF2_COLLECTIVE_OP_SCATTER ||
         op == OTF2_COLLECTIVE_OP_SCATTERV;
}

static int is_n_to_one(int op)
{
  return op == OTF2_COLLECTIVE_OP_REDUCE || op == OTF2_COLLECTIVE_OP_GATHER ||
         op == OTF2_COLLECTIVE_OP_GATHERV;
}

static int is_n_to_n(int op)
{
  return op == OTF2_COLLECTIVE_OP_ALLGATHER || op == OTF2_COLLECTIVE_OP_ALLGATHERV ||
         op == OTF2_COLLECTIVE_OP_ALLTOALL || op == OTF2_COLLECTIVE_OP_ALLTOALLV ||
         op == OTF2_COLLECTIVE_OP_ALLTOALLW || op == OTF2_COLLECTIVE_OP_ALLREDUCE ||
         op == OTF2_COLLECTIVE_OP_REDUCE_SCATTER || op == OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
}

static int window_metric(int op)
{
  switch (op) {
  case OTF2_COLLECTIVE_OP_CREATE_HANDLE:
  case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE:
  case OTF2_COLLECTIVE_OP_ALLOCATE:
    return MV__M_WCREATE;
  case OTF2_COLLECTIVE_OP_DESTROY_HANDLE:
  case OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE:
  case OTF2_COLLECTIVE_OP_DEALLOCATE:
    return MV__M_WFREE;
  case OTF2_COLLECTIVE_OP_BARRIER:
    return MV__M_WFENCE;
  default:
    return MV__M_NONE;
  }
}

static int64_t clamp(int64_t w, const struct coll *c, uint32_t i)
{
  int64_t dur = (int64_t)(c->leave[i] - c->enter[i]);
  return w < 0 ? 0 : (w > dur ? dur : w);
}

static struct mv__side member(const struct coll *c, uint32_t i)
{
  return (struct mv__side){c->enter[i], c->leave[i], c->locs[i], c->cps[i]};
}

/* Member i waited w for member j (the latest entrant, the root, or the first sender). */
static void coll_wait(struct mv__engine *e, const struct coll *c, int m, uint32_t i, uint32_t j, int64_t w)
{
  mv__credit(e, m, c->locs[i], c->cps[i], w);
  mv__blame(e, m, member(c, i), w, member(c, j), 0);
}

/* When member i's call of collective c could have ended (struct mv__sp's done): the earliest
 * leave min_l, not before the last entrant's enter max_e, at most its own leave. */
static uint64_t coll_done(const struct coll *c, uint32_t i, uint64_t max_e, uint64_t min_l)
{
  uint64_t t = min_l > max_e ? min_l : max_e;
  return t < c->leave[i] ? t : c->leave[i];
}

static void eval_mpi_coll(struct mv__engine *e, struct coll *c, uint32_t last, uint32_t first_other,
                          uint64_t min_l)
{
  uint64_t max_e = c->enter[last], min_other = first_other < c->n ? c->enter[first_other] : UINT64_MAX;
  for (uint32_t i = 0; i < c->n; i++) {
    uint32_t l = c->locs[i];
    if (!e->local[l])
      continue;
    if (c->op == OTF2_COLLECTIVE_OP_BARRIER || is_n_to_n(c->op)) {
      int m = c->op == OTF2_COLLECTIVE_OP_BARRIER ? MV__M_WBAR : MV__M_WNXN;
      coll_wait(e, c, m, i, last, clamp((int64_t)(max_e - c->enter[i]), c, i));
      mv__csync(e, l, c->enter[i], coll_done(c, i, max_e, min_l), c->leave[i], c->id);
    } else if (is_one_to_n(c->op) && c->root != MV__NONE && i != c->root) {
      coll_wait(e, c, MV__M_LBC, i, c->root, clamp((int64_t)c->enter[c->root] - (int64_t)c->enter[i], c, i));
    } else if (is_n_to_one(c->op) && i == c->root && c->n > 1) {
      coll_wait(e, c, MV__M_ERED, i, first_other, clamp((int64_t)min_other - (int64_t)c->enter[i], c, i));
    }
  }
}

/* Window collectives synchronize only when every member is inside at once (thesis fig. 3.16). */
static void eval_win_coll(struct mv__engine *e, struct coll *c, uint32_t seq, uint32_t last, uint64_t min_l)
{
  int m = window_metric(c->op);
  uint64_t max_e = c->enter[last];
  for (uint32_t i = 0; i < c->n; i++) {
    uint32_t l = c->locs[i];
    if (!e->local[l])
      continue;
    int64_t w = m != MV__M_NONE && max_e <= min_l ? clamp((int64_t)(max_e - c->enter[i]), c, i) : 0;
    if (m != MV__M_NONE) {
      mv__blame(e, m, member(c, i), w, member(c, last), 0);
      mv__csync(e, l, c->enter[i], coll_done(c, i, max_e, min_l), c->leave[i], e->d->win_comm[c->id]);
    }
    if (m == MV__M_WFENCE)
      mv__rma_fence_done(e, c->id, seq, l, c->n, c->enter[i], (uint64_t)w, c->cps[i]);
    else
      mv__credit(e, m, l, c->cps[i], w);
    if (m == MV__M_WFREE)
      mv__rma_window_freed(e, c->id, l);
  }
}

static void coll_free(struct coll *c)
{
  free(c->locs);
  free(c->cps);
  free(c->enter);
  free(c->leave);
  free(c);
}

static struct coll *coll_new(struct mv__engine *e, uint32_t n, uint32_t comm, uint32_t loc0)
{
  struct coll *c = calloc(1, sizeof *c);
  if (!c || !(c->locs = malloc(n * sizeof *c->locs)) || !(c->cps = malloc(n * sizeof *c->cps)) ||
      !(c->enter = calloc(n, sizeof *c->enter)) || !(c->leave = malloc(n * sizeof *c->leave))) {
    if (c)
      coll_free(c);
    return NULL;
  }
  c->n = n;
  for (uint32_t i = 0; i < n; i++)   /* leave UINT64_MAX: not arrived (a call may leave at tick 0) */
    c->locs[i] = mv__comm_loc(e->d, comm, i, loc0), c->leave[i] = UINT64_MAX;
  return c;
}

static int collective(struct mv__engine *e, const struct mv__rec *x, int kind)
{
  uint32_t comm = kind ? (x->a < e->d->nwins ? e->d->win_comm[x->a] : MV__NONE) : x->a;
  uint32_t n = mv__comm_size(e->d, comm);
  uint64_t key = ((uint64_t)kind << 32) | x->a;
  if (kind && x->sub == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE)
    e->live_wins[x->loc]++;
  else if (kind && x->sub == OTF2_COLLECTIVE_OP_CREATE_HANDLE)
    e->live_wins[x->loc]++;
  if (n <= 1 || (!kind && e->d->comms[comm].self))
    return 0;
  int idx = member_index(e, key, comm, x->loc);
  if (idx < 0)
    return e->err;
  uint64_t *seqp = mv__map_put(&e->seqs, key, x->loc, 0, NULL);
  if (!seqp)
    return MV_ENOMEM;
  uint64_t seq = (*seqp)++;
  uint64_t *slot = mv__map_put(&e->insts, key, seq, 0, NULL);
  if (!slot)
    return MV_ENOMEM;
  struct coll *c = (struct coll *)(uintptr_t)*slot;
  if (!c) {
    if (!(c = coll_new(e, n, comm, x->loc)))
      return MV_ENOMEM;
    c->op = x->sub, c->kind = (uint8_t)kind, c->id = x->a;
    c->root = MV__NONE;
    *slot = (uintptr_t)c;
  }
  if (c->leave[idx] != UINT64_MAX)
    return 0;   /* duplicate member record: malformed, ignored */
  c->enter[idx] = x->enter, c->leave[idx] = x->leave, c->cps[idx] = x->cp;
  if (!kind && x->b != MV__NONE && x->b == x->loc)
    c->root = (uint32_t)idx;
  if (++c->arrived < n)
    return 0;
  uint64_t min_l = UINT64_MAX;
  uint32_t last = 0, first_other = MV__NONE;   /* the latest entrant; the first non-root one */
  for (uint32_t i = 0; i < n; i++) {
    last = c->enter[i] > c->enter[last] ? i : last;
    min_l = c->leave[i] < min_l ? c->leave[i] : min_l;
    if (i != c->root && (first_other == MV__NONE || c->enter[i] < c->enter[first_other]))
      first_other = i;
  }
  if (kind)
    eval_win_coll(e, c, (uint32_t)seq, last, min_l);
  else
    eval_mpi_coll(e, c, last, first_other, min_l);
  coll_free(c);
  mv__map_del(&e->insts, key, seq);
  return e->err;
}

struct mv__engine *mv__engine_new(struct mv__defs *d, const uint8_t *is_local, struct mv__store *out)
{
  struct mv__engine *e = calloc(1, sizeof *e);
  if (!e)
    return NULL;
  e->d = d, e->local = is_local, e->out = out;
  e->pending_to = calloc(d->nloc ? d->nloc : 1, sizeof *e->pending_to);
  e->progress = calloc(d->nloc ? d->nloc : 1, sizeof *e->progress);
  e->live_wins = calloc(d->nloc ? d->nloc : 1, sizeof *e->live_wins);
  if (!e->pending_to || !e->progress || !e->live_wins) {
    mv__engine_free(e);
    return NULL;
  }
  for (uint32_t i = 0; i < d->nloc; i++) {
    mv__vec_init(&e->pending_to[i], sizeof(struct chan *));
    mv__vec_init(&e->progress[i], sizeof(struct mv__iv));
  }
  return e;
}

int mv__engine_feed(struct mv__engine *e, const struct mv__rec *r)
{
  if (r->loc >= e->d->nloc)
    return 0;
  switch (r->kind) {
  case MV__R_SEND:
  case MV__R_ISEND:
  case MV__R_RECV:
    return p2p(e, r);
  case MV__R_COLL:
    return collective(e, r, 0);
  case MV__R_RCOLL:
    return collective(e, r, 1);
  case MV__R_RMAOP:
    return mv__rma_op(e, r);
  case MV__R_GSYNC:
    return mv__rma_gsync(e, r);
  case MV__R_LOCK:
  case MV__R_UNLOCK:
    return mv__rma_lock(e, r);
  case MV__R_MPI:
    return mv__rma_progress(e, r);
  default:
    return 0;
  }
}

uint64_t mv__local_keys(const struct mv__engine *e, const struct mv__map *m, int in_k2)
{
  uint64_t n = 0;
  MV__MAP_FOREACH(m, s) {
    uint32_t loc = in_k2 ? (uint32_t)(s->k2 >> 32) : (uint32_t)s->k1;
    n += loc < e->d->nloc && e->local[loc];
  }
  return n;
}

static uint64_t local_recs(const struct mv__engine *e, const struct fifo *f)
{
  uint64_t n = 0;
  for (size_t i = f->head; i < f->v.len; i++)
    n += e->local[MV__VEC_AT(&f->v, struct mv__rec, i).loc];
  return n;
}

/* Records left unmatched, each counted once: by the process that reads its location (a record
 * routed to several processes stays in each one's state). */
int mv__engine_finish(struct mv__engine *e, uint64_t *unmatched)
{
  mv__rma_finish(e);
  uint64_t n = e->unmatched + mv__local_keys(e, &e->multi, 0);
  MV__MAP_FOREACH(&e->chans, s) {
    struct chan *c = (struct chan *)(uintptr_t)s->val;
    n += local_recs(e, &c->sends) + local_recs(e, &c->recvs);
  }
  MV__MAP_FOREACH(&e->insts, s) {
    const struct coll *c = (const struct coll *)(uintptr_t)s->val;
    for (uint32_t i = 0; i < c->n; i++)
      n += c->leave[i] != UINT64_MAX && c->locs[i] < e->d->nloc && e->local[c->locs[i]];
  }
  *unmatched = n;
  return e->err;
}

void mv__engine_free(struct mv__engine *e)
{
  if (!e)
    return;
  MV__MAP_FOREACH(&e->chans, s) {
    struct chan *c = (struct chan *)(uintptr_t)s->val;
    mv__vec_release(&c->sends.v);
    mv__vec_release(&c->recvs.v);
    free(c);
  }
  MV__MAP_FOREACH(&e->insts, s) coll_free((struct coll *)(uintptr_t)s->val);
  MV__MAP_FOREACH(&e->multi, s) free((void *)(uintptr_t)s->val);
  mv__rma_release(e);
  mv__lock_release(e);
  for (uint32_t i = 0; e->pending_to && e->progress && i < e->d->nloc; i++) {
    mv__vec_release(&e->pending_to[i]);
    mv__vec_release(&e->progress[i]);
  }
  free(e->pending_to);
  free(e->progress);
  free(e->live_wins);
  struct mv__map *maps[] = {&e->chans, &e->multi, &e->seqs, &e->insts, &e->members};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
    mv__map_release(maps[i]);
  free(e);
}
