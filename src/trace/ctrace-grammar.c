/* The compressed trace's building blocks: byte strings of varints, interned strings (call
 * signatures and loop bodies get dense ids) and the online loop-folding grammar of one rank. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctrace.h"
#include "mvt.h"

static int reserve(void **p, size_t *cap, size_t need, size_t elem)
{
  if (need <= *cap)
    return 0;
  size_t n = *cap ? *cap : 16;
  while (n < need)
    n *= 2;
  void *q = realloc(*p, n * elem);
  if (!q)
    return -ENOMEM;
  *p = q, *cap = n;
  return 0;
}

void mv__bytes_add(struct mv__bytes *b, const void *p, size_t n)
{
  if (!b->ok && b->cap)
    return;
  if (reserve((void **)&b->p, &b->cap, b->n + n + 1, 1) != 0) {
    b->ok = 0, b->cap = b->cap ? b->cap : 1;
    return;
  }
  b->ok = 1;
  if (n)
    memcpy(b->p + b->n, p, n);
  b->n += n;
}

void mv__bytes_put(struct mv__bytes *b, uint64_t v)
{
  uint8_t tmp[10];
  mv__bytes_add(b, tmp, mv_mvt_put(tmp, v));
}

void mv__bytes_release(struct mv__bytes *b)
{
  free(b->p);
  *b = (struct mv__bytes){0};
}

static uint64_t fnv(const uint8_t *p, size_t n)
{
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211u;
  return h;
}

const uint8_t *mv__intern_get(const struct mv__intern *t, size_t id, size_t *n)
{
  *n = t->off[id + 1] - t->off[id];
  return t->pool.p + t->off[id];
}

static int rehash(struct mv__intern *t)
{
  size_t ns = t->nslots ? t->nslots * 2 : 64;
  uint32_t *s = calloc(ns, sizeof *s);
  if (!s)
    return -ENOMEM;
  for (size_t id = 0; id < t->n; id++) {
    size_t n;
    const uint8_t *p = mv__intern_get(t, id, &n);
    size_t k = fnv(p, n) & (ns - 1);
    while (s[k])
      k = (k + 1) & (ns - 1);
    s[k] = (uint32_t)id + 1;
  }
  free(t->slots);
  t->slots = s, t->nslots = ns;
  return 0;
}

long mv__intern_id(struct mv__intern *t, const uint8_t *p, size_t n)
{
  if ((t->n + 1) * 2 > t->nslots && rehash(t) != 0)
    return -1;
  size_t k = fnv(p, n) & (t->nslots - 1);
  for (; t->slots[k]; k = (k + 1) & (t->nslots - 1)) {
    size_t m, id = t->slots[k] - 1;
    const uint8_t *q = mv__intern_get(t, id, &m);
    if (m == n && memcmp(p, q, n) == 0)
      return (long)id;
  }
  if (reserve((void **)&t->off, &t->cap, t->n + 2, sizeof *t->off) != 0)
    return -1;
  if (t->n == 0)
    t->off[0] = 0;
  mv__bytes_add(&t->pool, p, n);
  if (!t->pool.ok)
    return -1;
  t->off[t->n + 1] = t->pool.n;
  t->slots[k] = (uint32_t)++t->n;
  return (long)t->n - 1;
}

void mv__intern_release(struct mv__intern *t)
{
  mv__bytes_release(&t->pool);
  free(t->off);
  free(t->slots);
  *t = (struct mv__intern){0};
}

static int same(const struct mv__ct_item *a, const struct mv__ct_item *b, size_t k)
{
  for (size_t i = 0; i < k; i++)
    if (a[i].sym != b[i].sym || a[i].count != b[i].count)
      return 0;
  return 1;
}

/* The rule whose body is the k items at p (a new one if needed); -1 if out of memory. */
static long rule_of(struct mv__grammar *g, const struct mv__ct_item *p, size_t k)
{
  struct mv__bytes b = {0};
  for (size_t i = 0; i < k; i++)
    mv__bytes_put(&b, p[i].sym), mv__bytes_put(&b, p[i].count);
  size_t before = g->rules.n;
  long id = b.ok ? mv__intern_id(&g->rules, b.p, b.n) : -1;
  mv__bytes_release(&b);
  if (id < 0 || g->rules.n == before)   /* an existing rule (also the newest one) */
    return id;
  if (reserve((void **)&g->items, &g->capitems, g->nitems + k, sizeof *g->items) != 0)
    return -1;
  size_t cap = g->caprules;
  if (reserve((void **)&g->body_off, &cap, (size_t)id + 1, sizeof *g->body_off) != 0 ||
      reserve((void **)&g->body_len, &g->caprules, (size_t)id + 1, sizeof *g->body_len) != 0)
    return -1;
  memcpy(g->items + g->nitems, p, k * sizeof *p);
  g->body_off[id] = g->nitems, g->body_len[id] = k;
  g->nitems += k;
  return id;
}

/* One folding step at the tail of the main sequence; 1 if it changed, 0 if not, -1 (memory). */
static int fold(struct mv__grammar *g)
{
  struct mv__ct_item *t = g->top;
  size_t n = g->ntop;
  if (n >= 2 && t[n - 1].sym == t[n - 2].sym) {
    t[n - 2].count += t[n - 1].count;
    g->ntop--;
    return 1;
  }
  for (size_t k = 2; k < n && k <= MV__CT_WINDOW; k++) {
    const struct mv__ct_item *loop = &t[n - k - 1];
    if ((loop->sym & 1) && g->body_len[loop->sym >> 1] == k &&
        same(g->items + g->body_off[loop->sym >> 1], t + n - k, k)) {
      t[n - k - 1].count++;
      g->ntop -= k;
      return 1;
    }
  }
  for (size_t k = 2; 2 * k <= n && k <= MV__CT_WINDOW; k++) {
    if (t[n - 1].sym != t[n - 1 - k].sym || !same(t + n - 2 * k, t + n - k, k))
      continue;
    long id = rule_of(g, t + n - k, k);
    if (id < 0)
      return -1;
    g->top[n - 2 * k] = (struct mv__ct_item){(uint64_t)id * 2 + 1, 2};
    g->ntop = n - 2 * k + 1;
    return 1;
  }
  return 0;
}

int mv__grammar_push(struct mv__grammar *g, uint64_t sym)
{
  if (reserve((void **)&g->top, &g->captop, g->ntop + 1, sizeof *g->top) != 0)
    return g->ok = 0, -ENOMEM;
  g->top[g->ntop++] = (struct mv__ct_item){sym, 1};
  int r;
  while ((r = fold(g)) == 1)
    ;
  return r < 0 ? (g->ok = 0, -ENOMEM) : 0;
}

/* nrules, each rule's items (count, then sym and count per item), then the main sequence. */
void mv__grammar_encode(const struct mv__grammar *g, struct mv__bytes *out)
{
  mv__bytes_put(out, g->rules.n);
  for (size_t r = 0; r < g->rules.n; r++) {
    mv__bytes_put(out, g->body_len[r]);
    for (size_t i = 0; i < g->body_len[r]; i++)
      mv__bytes_put(out, g->items[g->body_off[r] + i].sym),
      mv__bytes_put(out, g->items[g->body_off[r] + i].count);
  }
  mv__bytes_put(out, g->ntop);
  for (size_t i = 0; i < g->ntop; i++)
    mv__bytes_put(out, g->top[i].sym), mv__bytes_put(out, g->top[i].count);
}

void mv__grammar_release(struct mv__grammar *g)
{
  mv__intern_release(&g->rules);
  free(g->items);
  free(g->body_off);
  free(g->body_len);
  free(g->top);
  *g = (struct mv__grammar){0};
}
