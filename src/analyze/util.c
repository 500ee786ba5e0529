/* Small containers of the analyzer: a 128-bit-keyed hash map, a growable vector, the call
 * tree, the exact integer result store, the metric table and the record order. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

const struct mv__metric_info mv__metric_table[MV__M_COUNT] = {
#define XX(id, parent, key, title, unit) {MV__M_##parent, key, title, unit},
  MV__METRICS(XX)
#undef XX
};

int mv__metric_within(int m, int root)
{
  for (; m != MV__M_NONE; m = mv__metric_table[m].parent)
    if (m == root)
      return 1;
  return 0;
}

int mv__metric_is_wait(int m)
{
  static const int categories[] = {MV__M_MPI, MV__M_P2P, MV__M_COLL, MV__M_RSYNC, MV__M_RCOMM, MV__M_IO};
  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
    if (m == categories[i])
      return 0;
  return mv__metric_within(m, MV__M_MPI);
}

static size_t slot_of(const struct mv__map *m, uint64_t k1, uint64_t k2)
{
  uint64_t h = k1 * 0x9E3779B97F4A7C15ull ^ (k2 + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  return (size_t)h & (m->cap - 1);
}

void mv__map_init(struct mv__map *m)
{
  memset(m, 0, sizeof *m);
}

void mv__map_release(struct mv__map *m)
{
  free(m->slots);
  memset(m, 0, sizeof *m);
}

uint64_t *mv__map_get(struct mv__map *m, uint64_t k1, uint64_t k2)
{
  if (!m->cap)
    return NULL;
  for (size_t i = slot_of(m, k1, k2);; i = (i + 1) & (m->cap - 1)) {
    struct mv__map_slot *s = &m->slots[i];
    if (!s->used)
      return NULL;
    if (s->k1 == k1 && s->k2 == k2)
      return &s->val;
  }
}

static int map_grow(struct mv__map *m)
{
  size_t ncap = m->cap ? m->cap * 2 : 64;
  struct mv__map_slot *old = m->slots, *ns = calloc(ncap, sizeof *ns);
  size_t ocap = m->cap;
  if (!ns)
    return MV_ENOMEM;
  m->slots = ns;
  m->cap = ncap;
  for (size_t i = 0; i < ocap; i++) {
    if (!old[i].used)
      continue;
    size_t j = slot_of(m, old[i].k1, old[i].k2);
    while (ns[j].used)
      j = (j + 1) & (ncap - 1);
    ns[j] = old[i];
  }
  free(old);
  return 0;
}

uint64_t *mv__map_put(struct mv__map *m, uint64_t k1, uint64_t k2, uint64_t init, int *inserted)
{
  uint64_t *v = mv__map_get(m, k1, k2);
  if (inserted)
    *inserted = !v;
  if (v)
    return v;
  if ((m->count + 1) * 4 > m->cap * 3 && map_grow(m) != 0)
    return NULL;
  size_t i = slot_of(m, k1, k2);
  while (m->slots[i].used)
    i = (i + 1) & (m->cap - 1);
  m->slots[i] = (struct mv__map_slot){k1, k2, init, 1};
  m->count++;
  return &m->slots[i].val;
}

void mv__map_del(struct mv__map *m, uint64_t k1, uint64_t k2)
{
  uint64_t *v = mv__map_get(m, k1, k2);
  if (!v)
    return;
  size_t i = (size_t)((struct mv__map_slot *)((char *)v - offsetof(struct mv__map_slot, val)) - m->slots);
  size_t mask = m->cap - 1;
  m->slots[i].used = 0;
  m->count--;
  /* backward-shift deletion keeps probe chains intact without tombstones */
  for (size_t j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
    size_t home = slot_of(m, m->slots[j].k1, m->slots[j].k2);
    if (((j - home) & mask) >= ((j - i) & mask)) {
      m->slots[i] = m->slots[j];
      m->slots[j].used = 0;
      i = j;
    }
  }
}

void mv__vec_init(struct mv__vec *v, size_t item)
{
  memset(v, 0, sizeof *v);
  v->item = item;
}

void mv__vec_release(struct mv__vec *v)
{
  free(v->data);
  v->data = NULL;
  v->len = v->cap = 0;
}

void mv__vec_fit(struct mv__vec *v)
{
  void *p = v->len < v->cap && v->len ? realloc(v->data, v->len * v->item) : NULL;
  if (p)
    v->data = p, v->cap = v->len;
}

void *mv__vec_push(struct mv__vec *v)
{
  if (mv_grow(&v->data, &v->cap, v->len + 1, v->item, 8))
    return NULL;
  void *p = (char *)v->data + v->len++ * v->item;
  memset(p, 0, v->item);
  return p;
}

int mv__tree_init(struct mv__tree *t)
{
  memset(t, 0, sizeof *t);
  mv__map_init(&t->index);
  /* id 0 is the root above every location's outermost region */
  return mv__tree_child(t, MV__NONE, MV__NONE, 0) == 0 ? 0 : MV_ENOMEM;
}

void mv__tree_release(struct mv__tree *t)
{
  free(t->parent);
  free(t->region);
  free(t->site);
  mv__map_release(&t->index);
  memset(t, 0, sizeof *t);
}

uint32_t mv__tree_child(struct mv__tree *t, uint32_t parent, uint32_t region, uint64_t site)
{
  int inserted;
  uint64_t key = ((uint64_t)parent << 32) | region;
  uint64_t *id = mv__map_put(&t->index, key, site, t->n, &inserted);
  if (!id)
    return MV__NONE;
  if (!inserted)
    return (uint32_t)*id;
  size_t cp = t->cap, cr = t->cap, cs = t->cap;   /* three arrays, one capacity */
  if (mv_grow(&t->parent, &cp, t->n + 1, sizeof *t->parent, 64) ||
      mv_grow(&t->region, &cr, t->n + 1, sizeof *t->region, 64) ||
      mv_grow(&t->site, &cs, t->n + 1, sizeof *t->site, 64) || cp > UINT32_MAX) {
    mv__map_del(&t->index, key, site);
    return MV__NONE;
  }
  t->cap = (uint32_t)cp;
  t->parent[t->n] = parent;
  t->region[t->n] = region;
  t->site[t->n] = site;
  return t->n++;
}

double mv__slot_val(const struct mv__map_slot *s)
{
  double d;
  memcpy(&d, &s->val, sizeof d);
  return d;
}

void mv__store_addf(struct mv__store *s, int metric, uint32_t loc, uint32_t cp, double v)
{
  if (v == 0)
    return;
  uint64_t *slot = mv__map_put(&s->map, ((uint64_t)(uint32_t)metric << 32) | loc, cp, 0, NULL);
  if (!slot) {
    s->nomem = 1;
    return;
  }
  double d;
  memcpy(&d, slot, sizeof d);
  d += v;
  memcpy(slot, &d, sizeof d);
}

void mv__store_add(struct mv__store *s, int metric, uint32_t loc, uint32_t cp, int64_t v)
{
  mv__store_addf(s, metric, loc, cp, (double)v);
}

double mv__store_get(struct mv__store *s, int metric, uint32_t loc, uint32_t cp)
{
  uint64_t *slot = mv__map_get(&s->map, ((uint64_t)(uint32_t)metric << 32) | loc, cp);
  double d = 0;
  if (slot)
    memcpy(&d, slot, sizeof d);
  return d;
}

int mv__rec_cmp(const void *x, const void *y)
{
  const struct mv__rec *a = x, *b = y;
  if (a->leave != b->leave)
    return a->leave < b->leave ? -1 : 1;
  if (a->loc != b->loc)
    return a->loc < b->loc ? -1 : 1;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

uint64_t mv__no_overlap(uint64_t enter, uint64_t leave, const uint64_t *dep_enter,
                        const uint64_t *dep_leave, size_t n)
{
  uint64_t w = 0, ref = enter;
  for (size_t i = 0; i < n && ref < leave; i++) {
    if (ref < dep_enter[i])
      w += (dep_enter[i] < leave ? dep_enter[i] : leave) - ref;
    if (ref < dep_leave[i])
      ref = dep_leave[i];
  }
  /* No tail: after the last dependency's progress the call is not waiting for progress (it
   * would make this lower bound exceed the last-call upper bound, E(last) - enter). */
  return w;
}
