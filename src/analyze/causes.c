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

int mv__causes_pack(struct mv__tlset *tls, const struct mv__causes *c, void **buf, size_t *len)
{
  size_t n = 4 * sizeof(uint64_t);
  uint64_t ntl = 0;
  for (uint32_t i = 0; tls && i < tls->nloc; i++)
    if (tls->loc[i].started)
      ntl++, n += sizeof(struct tl_head) + tls->loc[i].n * (sizeof(uint64_t) + sizeof(uint32_t));
  n += c->waits.len * sizeof(struct mv__wait) + c->csyncs.len * sizeof(struct mv__csync) +
       c->msgs.len * sizeof(struct mv__msg);
  char *p = malloc(n ? n : 1);
  if (!p)
    return MV_ENOMEM;
  *buf = p, *len = n;
  uint64_t counts[4] = {ntl, c->waits.len, c->csyncs.len, c->msgs.len};
  p = put(p, counts, sizeof counts);
  for (uint32_t i = 0; tls && i < tls->nloc; i++) {
    const struct mv__tl *x = &tls->loc[i];
    if (!x->started)
      continue;
    struct tl_head h = {i, x->first, x->last, x->init_end, x->fin_enter, x->n};
    p = put(p, &h, sizeof h);
    struct mv__tlcur cur;
    uint64_t s, e, k = 0;
    uint32_t cp;
    for (mv__tl_seek(&cur, tls, i, 0); k < h.n && mv__tl_next(&cur, &s, &e, &cp); k++) {
      memcpy(p + k * sizeof(uint64_t), &s, sizeof s);
      memcpy(p + h.n * sizeof(uint64_t) + k * sizeof(uint32_t), &cp, sizeof cp);
    }
    if (k < h.n) {   /* the timelines could not be read back */
      free(*buf);
      *buf = NULL;
      return tls->err ? tls->err : MV_EIO;
    }
    p += h.n * (sizeof(uint64_t) + sizeof(uint32_t));
  }
  p = put(p, c->waits.data, c->waits.len * sizeof(struct mv__wait));
  p = put(p, c->csyncs.data, c->csyncs.len * sizeof(struct mv__csync));
  put(p, c->msgs.data, c->msgs.len * sizeof(struct mv__msg));
  return 0;
}

static int read_tl(const char **p, const char *end, struct mv__tlset *tls, const struct mv__gcp *g)
{
  struct tl_head h;
  if ((size_t)(end - *p) < sizeof h)
    return MV_EPARSE;
  memcpy(&h, *p, sizeof h), *p += sizeof h;
  if (h.loc >= tls->nloc || h.n > (size_t)(end - *p) / (sizeof(uint64_t) + sizeof(uint32_t)) ||
      tls->loc[h.loc].started)
    return MV_EPARSE;
  struct mv__tl *x = &tls->loc[h.loc];
  x->first = h.first, x->last = h.last, x->started = 1;
  x->init_end = h.init_end, x->fin_enter = h.fin_enter;
  for (uint64_t k = 0; k < h.n && !tls->err; k++) {
    uint64_t t;
    uint32_t cp;
    memcpy(&t, *p + k * sizeof(uint64_t), sizeof t);
    memcpy(&cp, *p + h.n * sizeof(uint64_t) + k * sizeof(uint32_t), sizeof cp);
    mv__tl_push(tls, (uint32_t)h.loc, t, cp >= MV__TL_PENDING ? cp : g->map(g->ctx, (uint32_t)h.loc, cp));
  }
  *p += h.n * (sizeof(uint64_t) + sizeof(uint32_t));
  return tls->err;
}

int mv__causes_unpack(const void *buf, size_t len, uint32_t nloc, const struct mv__gcp *g, struct mv__tlset *tls,
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
    int err = read_tl(&p, end, tls, g);
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
