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

struct rc {
  struct mv__rc_input *in;
  struct mv__store *out;
  double *cost;          /* nw x K_COUNT propagation costs (phi) per wait and kind */
  uint8_t *done;         /* wait already processed: its costs are final */
  double *tw, *td;       /* per call path: waiter's and delayer's time in their intervals */
  uint32_t *touched;     /* call paths with a value in tw/td */
  uint8_t *mark;
  size_t ntouched;
  double explained, lost;
  struct mv__vec *blame;   /* struct mv__blame per (dloc, dcp, wloc), or NULL */
  struct mv__map bidx;     /* (dloc << 32 | dcp, wloc) -> index in blame */
  uint64_t *who;           /* per wait: rank groups whose waits propagated into its costs */
};

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

/* The waits on location loc (as waiter) that began in [from, to) and are not processed yet:
 * calls fn(c, wait index, arg) for each; returns their total waiting time. */
static double each_wait(struct rc *c, uint32_t loc, uint64_t from, uint64_t to, size_t self,
                        void (*fn)(struct rc *, size_t, void *), void *arg)
{
  const struct mv__rc_input *in = c->in;
  double sum = 0;
  for (size_t k = mv__rc_waits_from(in, loc, from); k < in->wl_off[loc + 1]; k++) {
    size_t i = in->wl[k];
    if (in->w[i].wenter >= to)
      break;
    if (i == self || c->done[i])
      continue;
    fn(c, i, arg);
    sum += (double)in->w[i].amount;
  }
  return sum;
}

/* Waiting-time adjustment: a wait's time is not work of its call path. */
static void subtract_wait(struct rc *c, size_t i, void *into)
{
  const struct mv__wait *s = &c->in->w[i];
  touch(c, s->wcp);
  ((double *)into)[s->wcp] -= (double)s->amount;
}

struct prop {
  const double *share;
  size_t src;   /* the wait whose costs propagate */
};

/* Propagation: the wait gets share x its waiting time of costs, per kind (and the ranks whose
 * waiting they are). */
static void add_cost(struct rc *c, size_t i, void *arg)
{
  const struct prop *p = arg;
  for (int q = 0; q < K_COUNT; q++)
    c->cost[i * K_COUNT + q] += p->share[q] * (double)c->in->w[i].amount;
  c->who[i] |= c->who[p->src] | mv__rank_group(c->in->d->loc_rank[c->in->w[p->src].wloc], c->in->d->nranks);
}

/* Who waited for delay d of call path cp on w's delayer (short-term and long-term costs). */
static void blame(struct rc *c, const struct mv__wait *w, size_t i, uint32_t cp, double d, double s, double l)
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
  b->who |= l > 0 ? c->who[i] : 0;
}

/* Costs per delaying call path: gamma_short (the wait, kind k) and gamma_long (the wait's
 * propagation costs, per kind) times the call path's delay d[cp] (positive parts of td). */
static void credit_delays(struct rc *c, const struct mv__wait *w, size_t i, int k, double gshort)
{
  const double *phi = &c->cost[i * K_COUNT];
  for (size_t t = 0; t < c->ntouched; t++) {
    uint32_t cp = c->touched[t];
    double d = c->td[cp];
    if (d <= 0)
      continue;
    mv__store_addf(c->out, kinds[k].shortm, w->dloc, cp, gshort * d);
    double l = 0;
    for (int q = 0; q < K_COUNT; q++)
      if (phi[q] > 0)
        mv__store_addf(c->out, kinds[q].longm, w->dloc, cp, phi[q] * d), l += phi[q] * d;
    blame(c, w, i, cp, d, gshort * d, l);
  }
}

/* Direct/indirect (share explained by earlier waits) and propagating/terminal (caused later
 * waits: received costs, final by now) classification of wait w. */
static void classify(struct rc *c, const struct mv__wait *w, size_t i, double indirect)
{
  double phi = 0;
  for (int q = 0; q < K_COUNT; q++)
    phi += c->cost[i * K_COUNT + q];
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
  const struct mv__rc_input *in = c->in;
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
static void sync_wait(struct rc *c, size_t i, const uint64_t iv[4], double wsum)
{
  const struct mv__wait *w = &c->in->w[i];
  int k = kind_of((int)w->metric);
  double dsum = 0, amount = (double)w->amount, phi[K_COUNT], share[K_COUNT];
  for (size_t t = 0; t < c->ntouched; t++) {
    uint32_t cp = c->touched[t];
    c->td[cp] -= c->tw[cp];
    dsum += c->td[cp] > 0 ? c->td[cp] : 0;
  }
  double tot = dsum + wsum;
  memcpy(phi, &c->cost[i * K_COUNT], sizeof phi);
  if (!(tot > 0)) {
    for (int q = 0; q < K_COUNT; q++)
      c->lost += phi[q];
    classify(c, w, i, 0);
    return;
  }
  double explained = kinds[k].capped && amount > tot ? tot : amount;
  c->explained += explained;
  for (int q = 0; q < K_COUNT; q++)
    c->cost[i * K_COUNT + q] = phi[q] / tot;
  credit_delays(c, w, i, k, explained / tot);
  for (int q = 0; q < K_COUNT; q++)
    share[q] = phi[q] / tot + (q == k ? explained / tot : 0);
  memcpy(&c->cost[i * K_COUNT], phi, sizeof phi);
  struct prop p = {share, i};
  each_wait(c, w->dloc, iv[2], iv[3], i, add_cost, &p);
  classify(c, w, i, amount * wsum / tot);
}

/* Contention-based wait (thesis def. 17-19): r = share of the wait explained by waits in the
 * holder's pre-contention interval (all of it when the holder's adjusted interval is not
 * longer than the waiter's); the rest goes to every call path of the interval by duration. */
static void contention_wait(struct rc *c, size_t i, const uint64_t iv[4], double wsum)
{
  const struct mv__wait *w = &c->in->w[i];
  double dplus = 0, dminus = 0, amount = (double)w->amount, phi[K_COUNT], share[K_COUNT];
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
  memcpy(phi, &c->cost[i * K_COUNT], sizeof phi);
  double ex = (dplus > 0 ? 1 - r : 0) + (wsum > 0 ? r : 0);
  c->explained += amount * ex;
  if (ex < 1)
    for (int q = 0; q < K_COUNT; q++)
      c->lost += phi[q] * (1 - ex);
  if (dplus > 0) {
    double sd = (1 - r) / dplus;
    for (int q = 0; q < K_COUNT; q++)
      c->cost[i * K_COUNT + q] = phi[q] * sd;
    credit_delays(c, w, i, K_LOCK, amount * sd);
    memcpy(&c->cost[i * K_COUNT], phi, sizeof phi);
  }
  if (wsum > 0) {
    double sw = r / wsum;
    for (int q = 0; q < K_COUNT; q++)
      share[q] = phi[q] * sw + (q == K_LOCK ? amount * sw : 0);
    struct prop p = {share, i};
    each_wait(c, w->dloc, iv[2], iv[3], i, add_cost, &p);
  }
  classify(c, w, i, amount * r);
}

static void one_wait(struct rc *c, size_t i)
{
  const struct mv__wait *w = &c->in->w[i];
  uint64_t iv[4], ts[2];
  intervals(c, w, iv, ts);
  struct acc aw = {c, c->tw}, ad = {c, c->td};
  mv__rc_times(c->in, w->wloc, ts[0], iv[1], add_time, &aw);
  mv__rc_times(c->in, w->dloc, ts[1], iv[3], add_time, &ad);
  each_wait(c, w->wloc, iv[0], iv[1], i, subtract_wait, c->tw);
  double wsum = each_wait(c, w->dloc, iv[2], iv[3], i, subtract_wait, c->td);
  if (w->interval)
    contention_wait(c, i, iv, wsum);
  else
    sync_wait(c, i, iv, wsum);
  clear(c);
  c->done[i] = 1;
}

int mv__rootcause(struct mv__rc_input *in, uint32_t ncp, struct mv__store *out, double *explained,
                  struct mv__vec *blames)
{
  struct rc c = {in, out, calloc(in->nw * K_COUNT + 1, sizeof(double)), calloc(in->nw + 1, 1),
                 calloc(ncp + 1, sizeof(double)), calloc(ncp + 1, sizeof(double)),
                 malloc((ncp + 1) * sizeof(uint32_t)), calloc(ncp + 1, 1), 0, 0, 0, blames, {0},
                 calloc(in->nw + 1, sizeof(uint64_t))};
  int err = !c.cost || !c.done || !c.tw || !c.td || !c.touched || !c.mark || !c.who ? MV_ENOMEM : 0;
  mv__map_init(&c.bidx);
  for (size_t k = 0; !err && k < in->nw; k++)   /* latest end of waiting first */
    one_wait(&c, in->order[k]);
  *explained = c.explained - c.lost;
  mv__map_release(&c.bidx);
  free(c.cost), free(c.done), free(c.tw), free(c.td), free(c.touched), free(c.mark), free(c.who);
  return err ? err : (out->nomem ? MV_ENOMEM : 0);
}
