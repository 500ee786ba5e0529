/* The root-cause input of one analysis process: the wait states it found with their causes, per
 * waiting location in enter order, and the synchronization points per location in leave order
 * (both spilled streams, timeline.c), the messages; in the parallel analysis, their rounds to
 * process 0, which merges them location by location into the same order as the serial analysis
 * builds (call paths are translated as the streams are read back). */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

#define CMP(a, b) \
  if ((a) != (b)) \
    return (a) < (b) ? -1 : 1

/* Waits of a location by enter, then by end of waiting and the cause: read backwards, the order
 * of the backward sweep (rootcause.c) wherever a wait ends within its call. */
static int wait_cmp(const void *x, const void *y)
{
  struct mv__wait a, b;
  memcpy(&a, x, sizeof a), memcpy(&b, y, sizeof b);
  CMP(a.wenter + a.amount, b.wenter + b.amount);
  CMP(a.metric, b.metric);
  CMP(a.dloc, b.dloc);
  CMP(a.denter, b.denter);
  CMP(a.wleave, b.wleave);
  CMP(a.dleave, b.dleave);
  return (a.interval > b.interval) - (a.interval < b.interval);
}

static int sync_cmp(const void *x, const void *y)
{
  struct mv__sp a, b;
  memcpy(&a, x, sizeof a), memcpy(&b, y, sizeof b);
  CMP(a.partner, b.partner);
  CMP(a.comm, b.comm);
  CMP(a.enter, b.enter);
  return (a.done > b.done) - (a.done < b.done);
}

/* The waiter's call path is in the tree of the waiting location's part, the delayer's in its own. */
static void translate_wait(const struct mv__tlset *s, uint32_t loc, char *item)
{
  struct mv__wait w;
  memcpy(&w, item, sizeof w);
  w.wcp = mv__tlset_cp(s, loc, w.wcp);
  w.dcp = mv__tlset_cp(s, w.dloc, w.dcp);
  memcpy(item, &w, sizeof w);
}

/* Unwritten items and cache: 1 MiB each; items come nearly in order (a second block to sort in). */
const struct mv__tlkind mv__tl_waits = {"wait states", sizeof(struct mv__wait), 0, (size_t)1 << 20,
                                        (size_t)1 << 20, wait_cmp, translate_wait};
const struct mv__tlkind mv__tl_syncs = {"synchronization points", sizeof(struct mv__sp), 0, (size_t)1 << 20,
                                        (size_t)1 << 20, sync_cmp, NULL};

static struct mv__tlset *open_set(uint32_t nloc, const struct mv__tlkind *k, int *err)
{
  struct mv__tlset *s = malloc(sizeof *s);
  if (!s) {
    *err = *err ? *err : MV_ENOMEM;
    return NULL;
  }
  int e = mv__tlset_init_kind(s, nloc, k);
  *err = *err ? *err : e;
  return s;
}

int mv__causes_init(struct mv__causes *c, uint32_t nloc)
{
  int err = 0;
  mv__vec_init(&c->msgs, sizeof(struct mv__msg));
  c->waits = open_set(nloc, &mv__tl_waits, &err);
  c->syncs = open_set(nloc, &mv__tl_syncs, &err);
  return err;
}

void mv__causes_release(struct mv__causes *c)
{
  struct mv__tlset *s[2] = {c->waits, c->syncs};
  for (int i = 0; i < 2; i++)
    if (s[i])
      mv__tlset_release(s[i]);
  free(c->waits), free(c->syncs);
  c->waits = NULL, c->syncs = NULL;
  mv__vec_release(&c->msgs);
}

int mv__causes_why(const struct mv__causes *c, const char **why)
{
  const struct mv__tlset *s[2] = {c->waits, c->syncs};
  for (int i = 0; i < 2; i++)
    if (s[i] && s[i]->err) {
      *why = s[i]->why;
      return s[i]->err;
    }
  return 0;
}

/* When a call [enter, leave] synchronizing with a partner that left at pl could end: the earlier
 * leave, within the call (Scalasca's completion time is leave minus this). */
static uint64_t pair_done(uint64_t enter, uint64_t leave, uint64_t pl)
{
  uint64_t t = pl < leave ? pl : leave;
  return t > enter ? t : enter;
}

int mv__causes_wait(struct mv__causes *c, const struct mv__wait *w)
{
  if (w->wloc >= c->waits->nloc || w->dloc >= c->waits->nloc)
    return MV_EPARSE;
  struct mv__sp ws = {w->wleave, w->wenter, pair_done(w->wenter, w->wleave, w->dleave), w->dloc, 0};
  struct mv__sp ds = {w->dleave, w->denter, pair_done(w->denter, w->dleave, w->wleave), w->wloc, 0};
  mv__tl_put(c->waits, w->wloc, w);
  mv__tl_put(c->syncs, w->wloc, &ws);
  mv__tl_put(c->syncs, w->dloc, &ds);
  return c->waits->err ? c->waits->err : c->syncs->err;
}

int mv__causes_sync(struct mv__causes *c, uint32_t loc, const struct mv__sp *p)
{
  if (loc >= c->syncs->nloc)
    return MV_EPARSE;
  mv__tl_put(c->syncs, loc, p);
  return c->syncs->err;
}

int mv__causes_finish(struct mv__causes *c)
{
  int a = mv__tlset_finish(c->waits), b = mv__tlset_finish(c->syncs);
  return a ? a : b;
}

/* ---- rounds of the parallel analysis: per process a piece with its byte count (UINT64_MAX: the
 * sender failed), the messages (first round), then per stream and location a count and the items
 * whose time is below the round's bound ---- */

/* The item at[h] of head h: stream h / nloc (waits, then synchronization points), location h % nloc. */
static struct mv__tlset *head_set(const struct mv__causes *c, uint32_t h)
{
  return h < c->waits->nloc ? c->waits : c->syncs;
}

static const void *head_item(const struct mv__causes *c, struct mv__tlcur *cur, uint32_t h, uint64_t k)
{
  struct mv__tlset *s = head_set(c, h);
  uint32_t loc = h % c->waits->nloc;
  return k < s->loc[loc].n ? mv__tl_item(&cur[s == c->syncs], s, loc, k) : NULL;
}

static void sift_down(uint32_t *heap, uint32_t n, const uint64_t *key, uint32_t i)
{
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, top = i;
    if (l < n && key[heap[l]] < key[heap[top]])
      top = l;
    if (r < n && key[heap[r]] < key[heap[top]])
      top = r;
    if (top == i)
      return;
    uint32_t t = heap[i];
    heap[i] = heap[top], heap[top] = t;
    i = top;
  }
}

/* Items from at[] on, in time order over all locations and both streams (a heap with one head
 * each), until they take more than budget bytes: *bound is that item's time, UINT64_MAX when all
 * fit, one past the first time when more than fit share it (the round then holds more). */
static int find_bound(const struct mv__causes *c, const uint64_t *at, uint64_t budget, uint64_t *next, uint64_t *key,
                      uint32_t *heap, uint64_t *bound)
{
  uint32_t nh = 0, nheads = 2 * c->waits->nloc;
  struct mv__tlcur cur[2] = {{0}};
  for (uint32_t h = 0; h < nheads; h++) {
    const void *item = head_item(c, cur, h, next[h] = at[h]);
    if (item)
      key[h] = mv__tl_key(item), heap[nh++] = h;
  }
  for (uint32_t i = nh / 2; i-- > 0;)
    sift_down(heap, nh, key, i);
  uint64_t used = 0, first = nh ? key[heap[0]] : 0;
  *bound = UINT64_MAX;
  while (nh) {
    uint32_t h = heap[0];
    used += head_set(c, h)->k->isz;
    if (used > budget) {
      *bound = key[h] > first ? key[h] : first + 1;
      break;
    }
    const void *item = head_item(c, cur, h, ++next[h]);
    if (item)
      key[h] = mv__tl_key(item);
    else
      heap[0] = heap[--nh];
    sift_down(heap, nh, key, 0);
  }
  return c->waits->err ? c->waits->err : c->syncs->err;
}

int mv__causes_bound(const struct mv__causes *c, const uint64_t *at, uint64_t budget, uint64_t *bound)
{
  size_t nheads = 2 * (size_t)c->waits->nloc + 1;
  uint64_t *next = malloc(nheads * sizeof *next), *key = malloc(nheads * sizeof *key);
  uint32_t *heap = malloc(nheads * sizeof *heap);
  int err = next && key && heap ? find_bound(c, at, budget, next, key, heap, bound) : MV_ENOMEM;
  free(next), free(key), free(heap);
  return err;
}

/* Stream s's items below bound from at[l] on, per location: a count and the items; at moves on. */
static int pack_set(struct mv__tlset *s, uint64_t *at, uint64_t bound, char **p, size_t *cap, size_t *n)
{
  struct mv__tlcur cur = {0};
  for (uint32_t l = 0; l < s->nloc; l++) {
    size_t count_at = *n;
    uint64_t k = 0;
    if (mv_grow(p, cap, *n + sizeof k, 1, 4096))
      return MV_ENOMEM;
    *n += sizeof k;
    for (const void *item; at[l] < s->loc[l].n; at[l]++, k++, *n += s->k->isz) {
      if (!(item = mv__tl_item(&cur, s, l, at[l])))
        return s->err ? s->err : MV_EIO;
      if (bound != UINT64_MAX && mv__tl_key(item) >= bound)
        break;
      if (mv_grow(p, cap, *n + s->k->isz, 1, 4096))
        return MV_ENOMEM;
      memcpy(*p + *n, item, s->k->isz);
    }
    memcpy(*p + count_at, &k, sizeof k);
  }
  return 0;
}

static int pack_round(const struct mv__causes *c, uint64_t *at, uint64_t bound, int msgs, char **p, size_t *cap,
                      size_t *n)
{
  uint64_t nm = msgs ? c->msgs.len : 0;
  size_t head = sizeof(uint64_t) + sizeof nm;
  if (mv_grow(p, cap, head + nm * sizeof(struct mv__msg), 1, 4096))
    return MV_ENOMEM;
  memcpy(*p + sizeof(uint64_t), &nm, sizeof nm);
  if (nm)
    memcpy(*p + head, c->msgs.data, nm * sizeof(struct mv__msg));
  *n = head + nm * sizeof(struct mv__msg);
  int err = pack_set(c->waits, at, bound, p, cap, n);
  return err ? err : pack_set(c->syncs, at + c->waits->nloc, bound, p, cap, n);
}

int mv__causes_pack(const struct mv__causes *c, uint64_t *at, uint64_t bound, int msgs, void **buf, size_t *len)
{
  char *p = NULL;
  size_t cap = 0, n = 0;
  int err = !at ? MV_EIO : c->waits->err ? c->waits->err : c->syncs->err;
  err = err ? err : pack_round(c, at, bound, msgs, &p, &cap, &n);
  uint64_t size = err ? UINT64_MAX : n;
  if (err)   /* tell process 0 */
    n = mv_grow(&p, &cap, sizeof size, 1, 4096) ? 0 : sizeof size;
  if (n)
    memcpy(p, &size, sizeof size);
  *buf = p, *len = n;
  return err;
}

/* One process's list of one location: its items and how many are taken. */
struct run {
  const char *p;
  uint64_t n, at;
};

/* The lists of a stream in a piece: runs[l] for every location, each item checked. */
static int parse_set(const char **p, const char *end, uint32_t nloc, size_t isz, struct run *runs,
                     int (*ok)(const char *item, uint32_t loc, uint32_t nloc))
{
  for (uint32_t l = 0; l < nloc; l++) {
    uint64_t k;
    if ((size_t)(end - *p) < sizeof k)
      return MV_EPARSE;
    memcpy(&k, *p, sizeof k), *p += sizeof k;
    if (k > (size_t)(end - *p) / isz)
      return MV_EPARSE;
    runs[l] = (struct run){*p, k, 0};
    for (uint64_t i = 0; i < k; i++)
      if (!ok(*p + i * isz, l, nloc))
        return MV_EPARSE;
    *p += k * isz;
  }
  return 0;
}

static int wait_ok(const char *item, uint32_t loc, uint32_t nloc)
{
  struct mv__wait w;
  memcpy(&w, item, sizeof w);
  return w.wloc == loc && w.dloc < nloc;
}

static int sync_ok(const char *item, uint32_t loc, uint32_t nloc)
{
  struct mv__sp s;
  (void)loc;
  memcpy(&s, item, sizeof s);
  return s.partner < nloc || s.partner == MV__NONE;
}

/* Location runs[i * stride] of every process (i < nparts), merged in the stream's order (each
 * process's list is in it) into location l. */
static void merge_loc(struct mv__tlset *s, uint32_t l, struct run *runs, size_t stride, int nparts)
{
  size_t isz = s->k->isz;
  for (;;) {
    struct run *best = NULL;
    for (int i = 0; i < nparts; i++) {
      struct run *r = &runs[(size_t)i * stride];
      if (r->at < r->n && (!best || mv__tl_before(s, r->p + r->at * isz, best->p + best->at * isz)))
        best = r;
    }
    if (!best || s->err)
      return;
    mv__tl_put(s, l, best->p + best->at++ * isz);
  }
}

/* One process's piece at *p: its messages into msgs, its lists into w and sy; *p moves past it. */
static int parse_piece(const char **p, const char *end, uint32_t nloc, struct run *w, struct run *sy,
                       struct mv__vec *msgs)
{
  uint64_t size, nm;
  if ((size_t)(end - *p) < sizeof size)
    return MV_EPARSE;
  memcpy(&size, *p, sizeof size);
  if (size == UINT64_MAX)
    return MV_EIO;
  if (size < sizeof size + sizeof nm || size > (size_t)(end - *p))
    return MV_EPARSE;
  const char *q = *p + sizeof size, *stop = *p + size;
  *p = stop;
  memcpy(&nm, q, sizeof nm), q += sizeof nm;
  if (nm > (size_t)(stop - q) / sizeof(struct mv__msg))
    return MV_EPARSE;
  for (uint64_t i = 0; i < nm; i++, q += sizeof(struct mv__msg)) {
    struct mv__msg *m = mv__vec_push(msgs);
    if (!m)
      return MV_ENOMEM;
    memcpy(m, q, sizeof *m);
    if (m->from >= nloc || m->to >= nloc)
      return MV_EPARSE;
  }
  int err = parse_set(&q, stop, nloc, sizeof(struct mv__wait), w, wait_ok);
  err = err ? err : parse_set(&q, stop, nloc, sizeof(struct mv__sp), sy, sync_ok);
  return err ? err : q == stop ? 0 : MV_EPARSE;
}

int mv__causes_merge(const void *buf, size_t len, int nparts, struct mv__causes *c)
{
  uint32_t nloc = c->waits->nloc;
  size_t nr = (size_t)nparts * nloc + 1;
  struct run *w = calloc(nr, sizeof *w), *sy = calloc(nr, sizeof *sy);
  const char *p = buf, *end = p + len;
  int err = w && sy ? 0 : MV_ENOMEM;
  for (int i = 0; i < nparts && !err; i++)
    err = parse_piece(&p, end, nloc, w + (size_t)i * nloc, sy + (size_t)i * nloc, &c->msgs);
  err = err ? err : p == end ? 0 : MV_EPARSE;
  for (uint32_t l = 0; l < nloc && !err; l++) {
    merge_loc(c->waits, l, w + l, nloc, nparts);
    merge_loc(c->syncs, l, sy + l, nloc, nparts);
    err = c->waits->err ? c->waits->err : c->syncs->err;
  }
  free(w), free(sy);
  return err;
}
