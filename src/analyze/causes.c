/* The root-cause input of one analysis process in its part of the result: the wait states it
 * found with their causes, its synchronizing collectives and messages, and their merge on process
 * 0 (call paths translated to the global call tree). The timelines go separately (timeline.c). */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "mpivet/error.h"

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

int mv__causes_pack(const struct mv__causes *c, void **buf, size_t *len)
{
  size_t n = 3 * sizeof(uint64_t) + c->waits.len * sizeof(struct mv__wait) +
             c->csyncs.len * sizeof(struct mv__csync) + c->msgs.len * sizeof(struct mv__msg);
  char *p = malloc(n);
  if (!p)
    return MV_ENOMEM;
  *buf = p, *len = n;
  uint64_t counts[3] = {c->waits.len, c->csyncs.len, c->msgs.len};
  p = put(p, counts, sizeof counts);
  p = put(p, c->waits.data, c->waits.len * sizeof(struct mv__wait));
  p = put(p, c->csyncs.data, c->csyncs.len * sizeof(struct mv__csync));
  put(p, c->msgs.data, c->msgs.len * sizeof(struct mv__msg));
  return 0;
}

int mv__causes_unpack(const void *buf, size_t len, uint32_t nloc, const struct mv__gcp *g, struct mv__causes *c)
{
  const char *p = buf, *end = p + len;
  uint64_t counts[4] = {0};
  if (len == 0)
    return 0;
  if (len < 3 * sizeof(uint64_t))
    return MV_EPARSE;
  memcpy(counts + 1, p, 3 * sizeof(uint64_t)), p += 3 * sizeof(uint64_t);
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
