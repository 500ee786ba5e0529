/* The root-cause input of one analysis process in its part of the result: the timelines of its
 * locations, the wait states it found with their causes and its synchronizing collectives, and
 * their merge on process 0 (call paths translated to the global call tree). */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "mpivet/error.h"

struct tl_head {
  uint64_t loc, first, last, init_end, fin_enter, n;
};

/* Appends n bytes of src at p (src may be NULL when n is 0: an empty list has no storage). */
static char *put(char *p, const void *src, size_t n)
{
  if (n)
    memcpy(p, src, n);
  return p + n;
}

void mv__causes_init(struct mv__causes *c)
{
  mv__vec_init(&c->waits, sizeof(struct mv__wait));
  mv__vec_init(&c->csyncs, sizeof(struct mv__csync));
  mv__vec_init(&c->msgs, sizeof(struct mv__msg));
}

void mv__causes_release(struct mv__causes *c)
{
  mv__vec_release(&c->waits);
  mv__vec_release(&c->csyncs);
  mv__vec_release(&c->msgs);
}

int mv__causes_pack(const struct mv__tl *tl, uint32_t nloc, const struct mv__causes *c, void **buf, size_t *len)
{
  size_t n = 4 * sizeof(uint64_t);
  uint64_t ntl = 0;
  for (uint32_t i = 0; tl && i < nloc; i++)
    if (tl[i].started)
      ntl++, n += sizeof(struct tl_head) + tl[i].t.len * (sizeof(uint64_t) + sizeof(uint32_t));
  n += c->waits.len * sizeof(struct mv__wait) + c->csyncs.len * sizeof(struct mv__csync) +
       c->msgs.len * sizeof(struct mv__msg);
  char *p = malloc(n ? n : 1);
  if (!p)
    return MV_ENOMEM;
  *buf = p, *len = n;
  uint64_t counts[4] = {ntl, c->waits.len, c->csyncs.len, c->msgs.len};
  p = put(p, counts, sizeof counts);
  for (uint32_t i = 0; tl && i < nloc; i++) {
    if (!tl[i].started)
      continue;
    struct tl_head h = {i, tl[i].first, tl[i].last, tl[i].init_end, tl[i].fin_enter, tl[i].t.len};
    p = put(p, &h, sizeof h);
    p = put(p, tl[i].t.data, h.n * sizeof(uint64_t));
    p = put(p, tl[i].cp.data, h.n * sizeof(uint32_t));
  }
  p = put(p, c->waits.data, c->waits.len * sizeof(struct mv__wait));
  p = put(p, c->csyncs.data, c->csyncs.len * sizeof(struct mv__csync));
  put(p, c->msgs.data, c->msgs.len * sizeof(struct mv__msg));
  return 0;
}

static int read_tl(const char **p, const char *end, struct mv__tl *tl, uint32_t nloc, const struct mv__gcp *g)
{
  struct tl_head h;
  if ((size_t)(end - *p) < sizeof h)
    return MV_EPARSE;
  memcpy(&h, *p, sizeof h), *p += sizeof h;
  if (h.loc >= nloc || h.n > (size_t)(end - *p) / (sizeof(uint64_t) + sizeof(uint32_t)))
    return MV_EPARSE;
  struct mv__tl *x = &tl[h.loc];
  x->first = h.first, x->last = h.last, x->started = 1;
  x->init_end = h.init_end, x->fin_enter = h.fin_enter;
  x->t.len = x->cp.len = 0;
  for (uint64_t k = 0; k < h.n; k++) {
    uint64_t *t = mv__vec_push(&x->t);
    uint32_t *cp = t ? mv__vec_push(&x->cp) : NULL;
    if (!cp)
      return MV_ENOMEM;
    memcpy(t, *p + k * sizeof(uint64_t), sizeof *t);
    memcpy(cp, *p + h.n * sizeof(uint64_t) + k * sizeof(uint32_t), sizeof *cp);
    *cp = *cp >= MV__TL_PENDING ? *cp : g->map(g->ctx, (uint32_t)h.loc, *cp);
  }
  *p += h.n * (sizeof(uint64_t) + sizeof(uint32_t));
  return 0;
}

int mv__causes_unpack(const void *buf, size_t len, uint32_t nloc, const struct mv__gcp *g, struct mv__tl *tl,
                      struct mv__causes *c)
{
  const char *p = buf, *end = p + len;
  uint64_t counts[4];
  if (len == 0)
    return 0;
  if (len < sizeof counts)
    return MV_EPARSE;
  memcpy(counts, p, sizeof counts), p += sizeof counts;
  for (uint64_t i = 0; i < counts[0]; i++) {
    int err = read_tl(&p, end, tl, nloc, g);
    if (err)
      return err;
  }
  if (counts[1] > (size_t)(end - p) / sizeof(struct mv__wait))
    return MV_EPARSE;
  for (uint64_t i = 0; i < counts[1]; i++, p += sizeof(struct mv__wait)) {
    struct mv__wait *w = mv__vec_push(&c->waits);
    if (!w)
      return MV_ENOMEM;
    memcpy(w, p, sizeof *w);
    if (w->wloc >= nloc || w->dloc >= nloc)
      return MV_EPARSE;
    w->wcp = g->map(g->ctx, w->wloc, w->wcp);
    w->dcp = g->map(g->ctx, w->dloc, w->dcp);
  }
  if (counts[2] > (size_t)(end - p) / sizeof(struct mv__csync))
    return MV_EPARSE;
  for (uint64_t i = 0; i < counts[2]; i++, p += sizeof(struct mv__csync)) {
    struct mv__csync *s = mv__vec_push(&c->csyncs);
    if (!s)
      return MV_ENOMEM;
    memcpy(s, p, sizeof *s);
  }
  if (counts[3] > (size_t)(end - p) / sizeof(struct mv__msg))
    return MV_EPARSE;
  for (uint64_t i = 0; i < counts[3]; i++, p += sizeof(struct mv__msg)) {
    struct mv__msg *m = mv__vec_push(&c->msgs);
    if (!m)
      return MV_ENOMEM;
    memcpy(m, p, sizeof *m);
    if (m->from >= nloc || m->to >= nloc)
      return MV_EPARSE;
  }
  return 0;
}
