/* Root causes of wait states (Böhme et al., as Scalasca's backward delay replay; thesis chapter
 * 4): for each wait state, latest first, the delay of the causing location over the
 * synchronization interval per call path; short-term costs (the wait itself) and long-term costs
 * (the propagation costs the wait received from later waits) go to the delaying call paths, and
 * the share explained by waits inside the interval is propagated to those waits. Contention
 * (Lock Contention) uses the thesis's interval-delay costs instead. Runs on the merged result,
 * in one deterministic order, so serial and parallel analyses agree bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "rootcause.h"
#include "mpivet/error.h"

/* Delay-cost kinds: the wait-state patterns whose costs are kept apart (Scalasca's keys). */
enum { K_LS, K_LR, K_BAR, K_N2N, K_12N, K_N21, K_LPOST, K_EWAIT, K_FENCE, K_WCREATE, K_WFREE, K_WFP, K_LOCK,
       K_COUNT };
static const struct {
  int shortm, longm, capped;   /* capped: point-to-point rule, costs at most the delay */
} kinds[K_COUNT] = {
  [K_LS] = {MV__M_DLS, MV__M_DLSL, 1},         [K_LR] = {MV__M_DLR, MV__M_DLRL, 1},
  [K_BAR] = {MV__M_DBAR, MV__M_DBARL, 0},      [K_N2N] = {MV__M_DN2N, MV__M_DN2NL, 0},
  [K_12N] = {MV__M_D12N, MV__M_D12NL, 0},      [K_N21] = {MV__M_DN21, MV__M_DN21L, 0},
  [K_LPOST] = {MV__M_DLPOST, MV__M_DLPOSTL, 1}, [K_EWAIT] = {MV__M_DEWAIT, MV__M_DEWAITL, 1},
  [K_FENCE] = {MV__M_DFENCE, MV__M_DFENCEL, 0}, [K_WCREATE] = {MV__M_DWCREATE, MV__M_DWCREATEL, 0},
  [K_WFREE] = {MV__M_DWFREE, MV__M_DWFREEL, 0}, [K_WFP] = {MV__M_DWFP, MV__M_DWFPL, 1},
  [K_LOCK] = {MV__M_DLOCK, MV__M_DLOCKL, 1},
};

static int kind_of(int metric)
{
  switch (metric) {
  case MV__M_LS: case MV__M_LSWO: return K_LS;
  case MV__M_LR: return K_LR;
  case MV__M_WBAR: return K_BAR;
  case MV__M_WNXN: return K_N2N;
  case MV__M_LBC: return K_12N;
  case MV__M_ERED: return K_N21;
  case MV__M_LPOST: case MV__M_LPOSTC: return K_LPOST;
  case MV__M_EWAIT: case MV__M_LCOMPL: return K_EWAIT;
  case MV__M_WFENCE: case MV__M_EFENCE: return K_FENCE;
  case MV__M_WCREATE: return K_WCREATE;
  case MV__M_WFREE: return K_WFREE;
  case MV__M_WFP: return K_WFP;
  default: return K_LOCK;
  }
}

/* Propagation costs (phi) a wait received from later waits, per kind, and the rank groups whose
 * waiting they are: kept only while the wait is open (received costs, not processed yet). */
struct open_cost {
  double phi[K_COUNT];
  uint64_t who;
};

/* A wait of the sweep: location and place in its stream, and the wait itself. */
struct wref {
  uint32_t loc;
  uint64_t k;
  struct mv__wait w;
};

struct rc {
  struct mv__rc_input *in;
  struct mv__store *out;
  struct mv__map open;     /* (location, place) -> its struct open_cost in pool */
  struct mv__vec pool;     /* struct open_cost */
  struct mv__vec spare;    /* indices of released entries of pool */
  uint64_t *left;          /* per location: waits not processed yet (its first ones) */
  struct wref *head;       /* per location: its latest wait not processed yet */
  uint32_t *heap, nheap;   /* locations with waits left, the latest end of waiting on top */
  struct mv__tlcur cur, wcur;   /* cursors over the waits: the sweep's heads, each_wait */
  double *tw, *td;         /* per call path: waiter's and delayer's time in their intervals */
  uint32_t *touched;       /* call paths with a value in tw/td */
  uint8_t *mark;
  size_t ntouched;
  double explained, lost;
  struct mv__vec *blame;   /* struct mv__blame per (dloc, dcp, wloc), or NULL */
  struct mv__map bidx;     /* (dloc << 32 | dcp, wloc) -> index in blame */
};

static const struct open_cost no_cost;

/* Processed (its costs final): the sweep takes each location's waits from the last. */
static int is_done(const struct rc *c, uint32_t loc, uint64_t k)
{
  return k >= c->left[loc];
}

/* The costs wait (loc, k) received so far (none: zeros). */
static struct open_cost received(struct rc *c, uint32_t loc, uint64_t k)
{
  uint64_t *slot = mv__map_get(&c->open, loc, k);
  return slot ? MV__VEC_AT(&c->pool, struct open_cost, *slot) : no_cost;
}

/* Wait (loc, k)'s entry, created empty on its first cost; NULL when out of memory. */
static struct open_cost *receive(struct rc *c, uint32_t loc, uint64_t k)
{
  int inserted;
  uint64_t *slot = mv__map_put(&c->open, loc, k, 0, &inserted);
  if (slot && inserted) {
    size_t *spare = c->spare.len ? &MV__VEC_AT(&c->spare, size_t, --c->spare.len) : NULL;
    struct open_cost *e = spare ? NULL : mv__vec_push(&c->pool);
    if (!spare && !e) {
      mv__map_del(&c->open, loc, k);
      return NULL;
    }
    *slot = spare ? *spare : c->pool.len - 1;
    MV__VEC_AT(&c->pool, struct open_cost, *slot) = no_cost;
  }
  return slot ? &MV__VEC_AT(&c->pool, struct open_cost, *slot) : NULL;
}

/* Wait (loc, k) is processed: its costs are final and no longer kept. */
static void close_wait(struct rc *c, uint32_t loc, uint64_t k)
{
  uint64_t *slot = mv__map_get(&c->open, loc, k);
  size_t *spare = slot ? mv__vec_push(&c->spare) : NULL;
  if (slot && !spare)
    c->out->nomem = 1;
  if (spare)
    *spare = (size_t)*slot;
  if (slot)
    mv__map_del(&c->open, loc, k);
}

static void touch(struct rc *c, uint32_t cp)
{
  if (!c->mark[cp]) {
    c->mark[cp] = 1;
    c->touched[c->ntouched++] = cp;
  }
}

static void clear(struct rc *c)
{
  for (size_t i = 0; i < c->ntouched; i++) {
    uint32_t cp = c->touched[i];
    c->mark[cp] = 0, c->tw[cp] = 0, c->td[cp] = 0;
  }
  c->ntouched = 0;
}

struct acc {
  struct rc *c;
  double *into;
};

static void add_time(void *arg, uint32_t cp, uint64_t dt)
{
  struct acc *a = arg;
  touch(a->c, cp);
  a->into[cp] += (double)dt;
}

/* The waits on location loc (as waiter) that began in [from, to) and are not processed yet,
 * but self: calls fn(c, loc, place, wait, arg) for each; returns their total waiting time. */
static double each_wait(struct rc *c, uint32_t loc, uint64_t from, uint64_t to, const struct wref *self,
                        void (*fn)(struct rc *, uint32_t, uint64_t, const struct mv__wait *, void *), void *arg)
{
  struct mv__rc_input *in = c->in;
  struct mv__wait w;
  double sum = 0;
  for (uint64_t k = mv__tl_find(&c->wcur, in->waits, loc, from); mv__rc_wait(in, &c->wcur, loc, k, &w); k++) {
    if (w.wenter >= to)
      break;
    if ((loc == self->loc && k == self->k) || is_done(c, loc, k))
      continue;
    fn(c, loc, k, &w, arg);
    sum += (double)w.amount;
  }
  return sum;
}

/* Waiting-time adjustment: a wait's time is not work of its call path. */
static void subtract_wait(struct rc *c, uint32_t loc, uint64_t k, const struct mv__wait *s, void *into)
{
  (void)loc, (void)k;
  touch(c, s->wcp);
  ((double *)into)[s->wcp] -= (double)s->amount;
}

struct prop {
  const double *share;
  uint64_t who;   /* the rank groups of the propagating wait and of the waits behind it */
};

/* Propagation: the wait gets share x its waiting time of costs, per kind (and the ranks whose
 * waiting they are). */
static void add_cost(struct rc *c, uint32_t loc, uint64_t k, const struct mv__wait *w, void *arg)
{
  const struct prop *p = arg;
  struct open_cost *e = receive(c, loc, k);
  if (!e) {
    c->out->nomem = 1;
    return;
  }
  for (int q = 0; q < K_COUNT; q++)
    e->phi[q] += p->share[q] * (double)w->amount;
  e->who |= p->who;
}

static void propagate(struct rc *c, const struct wref *x, const uint64_t iv[4], const double *share, uint64_t who)
{
  struct prop p = {share, who | mv__rank_group(c->in->d->loc_rank[x->w.wloc], c->in->d->nranks)};
  each_wait(c, x->w.dloc, iv[2], iv[3], x, add_cost, &p);
}

/* Who waited for delay d of call path cp on w's delayer (short-term and long-term costs). */
static void blame(struct rc *c, const struct mv__wait *w, uint64_t who, uint32_t cp, double d, double s, double l)
{
  int inserted;
  uint64_t *slot = c->blame ? mv__map_put(&c->bidx, (uint64_t)w->dloc << 32 | cp, w->wloc, c->blame->len,
                                          &inserted) : NULL;
  struct mv__blame *b = slot && inserted ? mv__vec_push(c->blame) : NULL;
  if (c->blame && (!slot || (inserted && !b))) {
    c->out->nomem = 1;
    return;
  }
  if (!slot)
    return;
  b = &MV__VEC_AT(c->blame, struct mv__blame, *slot);
  if (inserted)
    *b = (struct mv__blame){w->dloc, cp, w->wloc, 0, 0, 0, 0};
  b->delay += d, b->shortc += s, b->longc += l;
  b->who |= l > 0 ? who : 0;
}

/* Costs per delaying call path: gamma_short (the wait, kind k) and gamma_long (the wait's
 * propagation costs phi, per kind, scaled) times the call path's delay d[cp] (positive parts of
 * td). */
static void credit_delays(struct rc *c, const struct mv__wait *w, const struct open_cost *phi, int k, double gshort)
{
  for (size_t t = 0; t < c->ntouched; t++) {
    uint32_t cp = c->touched[t];
    double d = c->td[cp];
    if (d <= 0)
      continue;
    mv__store_addf(c->out, kinds[k].shortm, w->dloc, cp, gshort * d);
    double l = 0;
    for (int q = 0; q < K_COUNT; q++)
      if (phi->phi[q] > 0)
        mv__store_addf(c->out, kinds[q].longm, w->dloc, cp, phi->phi[q] * d), l += phi->phi[q] * d;
    blame(c, w, phi->who, cp, d, gshort * d, l);
  }
}

/* Direct/indirect (share explained by earlier waits) and propagating/terminal (caused later
 * waits: received costs, final by now) classification of wait w. */
static void classify(struct rc *c, const struct mv__wait *w, const struct open_cost *got, double indirect)
{
  double phi = 0;
  for (int q = 0; q < K_COUNT; q++)
    phi += got->phi[q];
  double amount = (double)w->amount;
  int ls = w->metric == MV__M_LS || w->metric == MV__M_LSWO, lr = w->metric == MV__M_LR;
  /* own values: the Late Sender / Late Receiver parts sit in their sub-metrics */
  mv__store_addf(c->out, ls ? MV__M_WINDLS : lr ? MV__M_WINDLR : MV__M_WIND, w->wloc, w->wcp, indirect);
  mv__store_addf(c->out, MV__M_WDIR, w->wloc, w->wcp, amount - indirect);
  if (phi > 0)
    mv__store_addf(c->out, ls ? MV__M_WPROPLS : lr ? MV__M_WPROPLR : MV__M_WPROP, w->wloc, w->wcp, amount);
  else
    mv__store_addf(c->out, MV__M_WTERM, w->wloc, w->wcp, amount);
}

/* The two synchronization intervals of wait w: on the waiter up to its waiting call, on the
 * delayer up to its synchronizing call (contention: up to the end of the release), both from
 * their previous synchronization point with each other. iv: [from, to) for the waits inside
 * (from the previous point's leave: its own waits are not the interval's) on the waiter, then
 * the delayer; ts: where the time per call path starts on each (the previous point's completion
 * time included, as Scalasca's GetSynchpointTimes: a rank that stayed in that call after its
 * partner could leave was late by that much). */
static void intervals(struct rc *c, const struct mv__wait *w, uint64_t iv[4], uint64_t ts[2])
{
  struct mv__rc_input *in = c->in;
  iv[0] = mv__rc_prev_sync(in, w->wloc, w->dloc, w->wenter, w->wleave, &ts[0]);
  iv[1] = w->wenter;
  iv[2] = w->interval ? mv__rc_prev_sync(in, w->dloc, w->wloc, w->wenter, w->wenter, &ts[1])
                      : mv__rc_prev_sync(in, w->dloc, w->wloc, w->denter, w->dleave, &ts[1]);
  iv[3] = w->interval ? w->dleave : w->denter;
  for (int k = 0; k < 2; k++) {
    iv[2 * k] = iv[2 * k] < iv[2 * k + 1] ? iv[2 * k] : iv[2 * k + 1];
    ts[k] = ts[k] < iv[2 * k] ? ts[k] : iv[2 * k];
  }
}

/* Synchronization-based wait (Böhme et al., eq. 4.9-4.13): delay d = delayer's waiting-time-
 * adjusted time minus the waiter's, per call path; scale 1 / (sum d + waits in the interval). */
static void sync_wait(struct rc *c, const struct wref *x, const uint64_t iv[4], double wsum)
{
  const struct mv__wait *w = &x->w;
  int k = kind_of((int)w->metric);
  double dsum = 0, amount = (double)w->amount, share[K_COUNT];
  for (size_t t = 0; t < c->ntouched; t++) {
    uint32_t cp = c->touched[t];
    c->td[cp] -= c->tw[cp];
    dsum += c->td[cp] > 0 ? c->td[cp] : 0;
  }
  double tot = dsum + wsum;
  struct open_cost got = received(c, x->loc, x->k), scaled = got;
  if (!(tot > 0)) {
    for (int q = 0; q < K_COUNT; q++)
      c->lost += got.phi[q];
    classify(c, w, &got, 0);
    return;
  }
  double explained = kinds[k].capped && amount > tot ? tot : amount;
  c->explained += explained;
  for (int q = 0; q < K_COUNT; q++)
    scaled.phi[q] = got.phi[q] / tot;
  credit_delays(c, w, &scaled, k, explained / tot);
  for (int q = 0; q < K_COUNT; q++)
    share[q] = got.phi[q] / tot + (q == k ? explained / tot : 0);
  propagate(c, x, iv, share, got.who);
  classify(c, w, &got, amount * wsum / tot);
}

/* Contention-based wait (thesis def. 17-19): r = share of the wait explained by waits in the
 * holder's pre-contention interval (all of it when the holder's adjusted interval is not
 * longer than the waiter's); the rest goes to every call path of the interval by duration. */
static void contention_wait(struct rc *c, const struct wref *x, const uint64_t iv[4], double wsum)
{
  const struct mv__wait *w = &x->w;
  double dplus = 0, dminus = 0, amount = (double)w->amount, share[K_COUNT];
  for (size_t t = 0; t < c->ntouched; t++) {
    uint32_t cp = c->touched[t];
    dplus += c->td[cp] > 0 ? c->td[cp] : 0;
    dminus += c->tw[cp];
  }
  double r = wsum >= amount ? 1 : wsum / amount;
  if (wsum > 0 && dplus <= dminus)
    r = 1;
  if (!(dplus > 0))
    r = wsum > 0 ? 1 : 0;
  struct open_cost got = received(c, x->loc, x->k), scaled = got;
  double ex = (dplus > 0 ? 1 - r : 0) + (wsum > 0 ? r : 0);
  c->explained += amount * ex;
  if (ex < 1)
    for (int q = 0; q < K_COUNT; q++)
      c->lost += got.phi[q] * (1 - ex);
  if (dplus > 0) {
    double sd = (1 - r) / dplus;
    for (int q = 0; q < K_COUNT; q++)
      scaled.phi[q] = got.phi[q] * sd;
    credit_delays(c, w, &scaled, K_LOCK, amount * sd);
  }
  if (wsum > 0) {
    double sw = r / wsum;
    for (int q = 0; q < K_COUNT; q++)
      share[q] = got.phi[q] * sw + (q == K_LOCK ? amount * sw : 0);
    propagate(c, x, iv, share, got.who);
  }
  classify(c, w, &got, amount * r);
}

static void one_wait(struct rc *c, const struct wref *x)
{
  const struct mv__wait *w = &x->w;
  uint64_t iv[4], ts[2];
  intervals(c, w, iv, ts);
  struct acc aw = {c, c->tw}, ad = {c, c->td};
  mv__rc_times(c->in, w->wloc, ts[0], iv[1], add_time, &aw);
  mv__rc_times(c->in, w->dloc, ts[1], iv[3], add_time, &ad);
  each_wait(c, w->wloc, iv[0], iv[1], x, subtract_wait, c->tw);
  double wsum = each_wait(c, w->dloc, iv[2], iv[3], x, subtract_wait, c->td);
  if (w->interval)
    contention_wait(c, x, iv, wsum);
  else
    sync_wait(c, x, iv, wsum);
  clear(c);
  close_wait(c, x->loc, x->k);
}

/* ---- the sweep's order: latest end of waiting first; ties in a fixed order ---- */
static int later(const struct wref *p, const struct wref *q)
{
  const struct mv__wait *a = &p->w, *b = &q->w;
  uint64_t ea = a->wenter + a->amount, eb = b->wenter + b->amount;
  if (ea != eb)
    return ea > eb;
  if (a->wloc != b->wloc)
    return a->wloc > b->wloc;
  if (a->wenter != b->wenter)
    return a->wenter > b->wenter;
  if (a->metric != b->metric)
    return a->metric > b->metric;
  if (a->dloc != b->dloc)
    return a->dloc > b->dloc;
  return a->denter > b->denter;
}

static int heap_later(const struct rc *c, uint32_t i, uint32_t j)
{
  return later(&c->head[c->heap[i]], &c->head[c->heap[j]]);
}

static void heap_down(struct rc *c, uint32_t i)
{
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, top = i;
    if (l < c->nheap && heap_later(c, l, top))
      top = l;
    if (r < c->nheap && heap_later(c, r, top))
      top = r;
    if (top == i)
      return;
    uint32_t t = c->heap[i];
    c->heap[i] = c->heap[top], c->heap[top] = t;
    i = top;
  }
}

/* Location loc's next wait (its latest not processed) into head[loc]: 0 when it has none left. */
static int next_head(struct rc *c, uint32_t loc)
{
  if (!c->left[loc])
    return 0;
  struct wref *h = &c->head[loc];
  h->loc = loc, h->k = c->left[loc] - 1;
  return mv__rc_wait(c->in, &c->cur, loc, h->k, &h->w);
}

/* Every wait, latest end of waiting first: a merge of the locations' streams read backwards. */
static void sweep(struct rc *c)
{
  for (uint32_t l = 0; l < c->in->nloc; l++) {
    c->left[l] = c->in->waits->loc[l].n;
    if (next_head(c, l))
      c->heap[c->nheap++] = l;
  }
  for (uint32_t i = c->nheap / 2; i-- > 0;)
    heap_down(c, i);
  while (c->nheap && !c->in->waits->err && !c->in->syncs->err && !(c->in->tls && c->in->tls->err)) {
    uint32_t loc = c->heap[0];
    struct wref x = c->head[loc];
    one_wait(c, &x);
    c->left[loc]--;
    if (!next_head(c, loc))
      c->heap[0] = c->heap[--c->nheap];
    heap_down(c, 0);
  }
}

int mv__rootcause(struct mv__rc_input *in, uint32_t ncp, struct mv__store *out, double *explained,
                  struct mv__vec *blames)
{
  size_t nl = (size_t)in->nloc + 1;
  struct rc c = {.in = in, .out = out, .left = calloc(nl, sizeof(uint64_t)), .head = calloc(nl, sizeof(struct wref)),
                 .heap = calloc(nl, sizeof(uint32_t)), .tw = calloc(ncp + 1, sizeof(double)),
                 .td = calloc(ncp + 1, sizeof(double)), .touched = malloc((ncp + 1) * sizeof(uint32_t)),
                 .mark = calloc(ncp + 1, 1), .blame = blames};
  int err = !c.left || !c.head || !c.heap || !c.tw || !c.td || !c.touched || !c.mark ? MV_ENOMEM : 0;
  mv__map_init(&c.bidx);
  mv__map_init(&c.open);
  mv__vec_init(&c.pool, sizeof(struct open_cost));
  mv__vec_init(&c.spare, sizeof(size_t));
  if (!err)
    sweep(&c);
  *explained = c.explained - c.lost;
  mv__map_release(&c.bidx);
  mv__map_release(&c.open);
  mv__vec_release(&c.pool);
  mv__vec_release(&c.spare);
  free(c.left), free(c.head), free(c.heap), free(c.tw), free(c.td), free(c.touched), free(c.mark);
  err = err ? err : in->waits->err ? in->waits->err : in->syncs->err;
  return err ? err : (out->nomem ? MV_ENOMEM : 0);
}
