/* The call-path timelines of the locations, kept for the backward passes (root causes, critical
 * path) and the HTML page without holding them in memory: the reader appends points forward and
 * full blocks go to an unlinked temporary file in $TMPDIR (gone on every exit, a crash
 * included); the passes read blocks back, in any order, through a cache of a fixed number of
 * blocks. Memory: one unwritten block per location, the cache and a block index (16 bytes per
 * block), not the trace. The parallel analysis sends them to process 0 in pieces of bounded size
 * (mv__tl_pack, mv__tl_unpack). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

/* Unwritten points of all locations together and the cache, each about this many bytes: a block
 * has TAIL_BYTES / 12 / locations points (64 to 4096); the cache holds CACHE_BYTES of blocks. */
#define TAIL_BYTES ((size_t)4 << 20)
#define CACHE_BYTES ((size_t)4 << 20)

/* MPIVET_ANALYZE_BLOCK (points per block), MPIVET_ANALYZE_CACHE (blocks cached) and
 * MPIVET_ANALYZE_SPILL=0 (blocks in memory) override the sizes: the tests use tiny blocks to
 * exercise many blocks and evictions against the in-memory answer. */
static long env_long(const char *name)
{
  const char *s = getenv(name);
  return s && *s ? atol(s) : -1;
}

static int fail(struct mv__tlset *s, int err, int sys, const char *fmt, const char *arg)
{
  if (!s->err) {
    s->err = err;
    snprintf(s->why, sizeof s->why, fmt, arg, sys ? strerror(sys) : "out of memory");
  }
  return s->err;
}

static int open_file(struct mv__tlset *s)
{
  const char *dir = getenv("TMPDIR");
  dir = dir && *dir ? dir : "/tmp";
  char path[sizeof s->why];
  if ((size_t)snprintf(path, sizeof path, "%s/mpivet-analyze-XXXXXX", dir) >= sizeof path)
    return fail(s, MV_EIO, ENAMETOOLONG, "cannot create the temporary file of the timelines in %s: %s", dir);
  s->fd = mkstemp(path);
  if (s->fd < 0)
    return fail(s, MV_EIO, errno, "cannot create the temporary file of the timelines in %s: %s (set TMPDIR)", dir);
  unlink(path);   /* removed now: the open descriptor keeps it until close or exit */
  snprintf(s->dir, sizeof s->dir, "%s", dir);
  return 0;
}

int mv__tlset_init(struct mv__tlset *s, uint32_t nloc)
{
  memset(s, 0, sizeof *s);
  s->fd = -1;
  mv__map_init(&s->index);
  s->nloc = nloc;
  s->loc = calloc(nloc ? nloc : 1, sizeof *s->loc);
  if (!s->loc)
    return fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
  for (uint32_t i = 0; i < nloc; i++)
    mv__vec_init(&s->loc[i].blocks, sizeof(struct mv__tlblock));
  size_t per = TAIL_BYTES / MV__TL_POINT_BYTES / (nloc ? nloc : 1);
  long b = env_long("MPIVET_ANALYZE_BLOCK"), c = env_long("MPIVET_ANALYZE_CACHE");
  s->block = b > 0 ? (uint32_t)b : per > 4096 ? 4096 : per < 64 ? 64 : (uint32_t)per;
  s->nslot = c > 0 ? (uint32_t)c : (uint32_t)(CACHE_BYTES / MV__TL_POINT_BYTES / s->block);
  s->nslot = s->nslot < 2 ? 2 : s->nslot;
  s->slot = calloc(s->nslot, sizeof *s->slot);
  if (!s->slot)
    return fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
  return env_long("MPIVET_ANALYZE_SPILL") == 0 ? 0 : open_file(s);
}

void mv__tlset_release(struct mv__tlset *s)
{
  for (uint32_t i = 0; s->loc && i < s->nloc; i++) {
    mv__vec_release(&s->loc[i].blocks);
    free(s->loc[i].tail_t), free(s->loc[i].tail_cp);
  }
  free(s->loc);
  for (uint32_t k = 0; s->slot && k < s->nslot; k++)
    free(s->slot[k].t), free(s->slot[k].cp);
  free(s->slot);
  free(s->mem);
  free(s->cpmap), free(s->map_off), free(s->map_part);
  mv__map_release(&s->index);
  if (s->fd >= 0)
    close(s->fd);
  s->fd = -1;
  s->loc = NULL, s->slot = NULL, s->mem = NULL, s->cpmap = NULL, s->map_off = NULL, s->map_part = NULL;
}

static int put_bytes(struct mv__tlset *s, const void *p, size_t n)
{
  if (s->fd < 0) {
    if (mv_grow(&s->mem, &s->memcap, s->bytes + n, 1, 1 << 16))
      return fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
    memcpy(s->mem + s->bytes, p, n);
    s->bytes += n;
    return 0;
  }
  for (size_t done = 0; done < n;) {
    ssize_t w = pwrite(s->fd, (const char *)p + done, n - done, (off_t)(s->bytes + done));
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return fail(s, MV_EIO, w < 0 ? errno : ENOSPC,
                  "writing the timelines to a temporary file in %s: %s (set TMPDIR to a directory with room)", s->dir);
    done += (size_t)w;
  }
  s->bytes += n;
  return 0;
}

/* Write the first n unwritten points of location l as a block: times, then call paths. */
static int put_block(struct mv__tlset *s, struct mv__tl *x, uint32_t n)
{
  struct mv__tlblock *b = mv__vec_push(&x->blocks);
  if (!b)
    return fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
  *b = (struct mv__tlblock){x->tail_t[0], s->bytes, n};
  s->nblocks++;
  if (put_bytes(s, x->tail_t, n * sizeof(uint64_t)) || put_bytes(s, x->tail_cp, n * sizeof(uint32_t)))
    return s->err;
  x->ntail -= n;
  memmove(x->tail_t, x->tail_t + n, x->ntail * sizeof *x->tail_t);
  memmove(x->tail_cp, x->tail_cp + n, x->ntail * sizeof *x->tail_cp);
  return 0;
}

void mv__tl_push(struct mv__tlset *s, uint32_t loc, uint64_t t, uint32_t cp)
{
  struct mv__tl *x = &s->loc[loc];
  if (s->err)
    return;
  if (x->ntail && x->tail_t[x->ntail - 1] == t) {   /* zero-length segment: replace */
    x->tail_cp[x->ntail - 1] = cp;
    return;
  }
  if (!x->tail_t && (!(x->tail_t = malloc((s->block + 1) * sizeof *x->tail_t)) ||
                     !(x->tail_cp = malloc((s->block + 1) * sizeof *x->tail_cp)))) {
    fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
    return;
  }
  /* the last point stays unwritten: the reader may still replace its call path */
  if (x->ntail == s->block + 1 && put_block(s, x, s->block))
    return;
  x->tail_t[x->ntail] = t, x->tail_cp[x->ntail++] = cp;
  x->n++;
}

uint32_t *mv__tl_last_cp(struct mv__tlset *s, uint32_t loc)
{
  struct mv__tl *x = &s->loc[loc];
  return x->ntail ? &x->tail_cp[x->ntail - 1] : NULL;
}

int mv__tlset_finish(struct mv__tlset *s)
{
  for (uint32_t i = 0; i < s->nloc && !s->err; i++) {
    struct mv__tl *x = &s->loc[i];
    while (x->ntail && !s->err)
      put_block(s, x, x->ntail < s->block ? x->ntail : s->block);
    free(x->tail_t), free(x->tail_cp);
    x->tail_t = NULL, x->tail_cp = NULL;
    mv__vec_fit(&x->blocks);
  }
  return s->err;
}

int mv__tlset_map(struct mv__tlset *s, int nparts, const uint32_t *const *maps, const uint32_t *n,
                  uint32_t (*owner)(uint32_t loc, uint32_t nloc, int nparts))
{
  size_t all = 0;
  for (int i = 0; i < nparts; i++)
    all += n[i];
  free(s->cpmap), free(s->map_off);
  s->cpmap = malloc((all ? all : 1) * sizeof *s->cpmap);
  s->map_off = malloc(((size_t)nparts + 1) * sizeof *s->map_off);
  s->map_part = calloc(s->nloc ? s->nloc : 1, sizeof *s->map_part);
  if (!s->cpmap || !s->map_off || !s->map_part)
    return fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
  s->map_off[0] = 0;
  for (int i = 0; i < nparts; i++) {
    if (n[i])
      memcpy(s->cpmap + s->map_off[i], maps[i], n[i] * sizeof *s->cpmap);
    s->map_off[i + 1] = s->map_off[i] + n[i];
  }
  for (uint32_t l = 0; l < s->nloc; l++)
    s->map_part[l] = owner(l, s->nloc, nparts);
  return 0;
}

/* Call path cp of location loc in the global tree (as result.c's global_cp: 0 when unknown). */
static uint32_t mapped(const struct mv__tlset *s, uint32_t loc, uint32_t cp)
{
  if (!s->cpmap || cp >= MV__TL_PENDING)
    return cp;
  uint32_t p = s->map_part[loc];
  return cp < s->map_off[p + 1] - s->map_off[p] ? s->cpmap[s->map_off[p] + cp] : 0;
}

static int get_bytes(struct mv__tlset *s, void *p, size_t n, uint64_t off)
{
  if (s->fd < 0) {
    memcpy(p, s->mem + off, n);
    return 0;
  }
  for (size_t done = 0; done < n;) {
    ssize_t r = pread(s->fd, (char *)p + done, n - done, (off_t)(off + done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return fail(s, MV_EIO, r < 0 ? errno : EIO, "reading the timelines back from the temporary file in %s: %s",
                  s->dir);
    done += (size_t)r;
  }
  return 0;
}

/* The cache slot holding block k of location loc, loaded if needed (the least recently used slot
 * is reused); NULL on failure. */
static struct mv__tlslot *load(struct mv__tlset *s, uint32_t loc, size_t k)
{
  uint64_t *hit = mv__map_get(&s->index, loc, k);
  struct mv__tlslot *v = hit ? &s->slot[*hit] : NULL;
  if (!v) {
    uint32_t best = 0;
    for (uint32_t i = 1; i < s->nslot; i++)
      if (s->slot[i].used < s->slot[best].used)
        best = i;
    v = &s->slot[best];
    if (v->used)
      mv__map_del(&s->index, v->loc, v->blk);
    v->used = 0;
    const struct mv__tlblock *b = &MV__VEC_AT(&s->loc[loc].blocks, struct mv__tlblock, k);
    if ((!v->t && (!(v->t = malloc(s->block * sizeof *v->t)) || !(v->cp = malloc(s->block * sizeof *v->cp))))) {
      fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
      return NULL;
    }
    if (get_bytes(s, v->t, b->n * sizeof *v->t, b->off) ||
        get_bytes(s, v->cp, b->n * sizeof *v->cp, b->off + b->n * sizeof *v->t))
      return NULL;
    for (uint32_t i = 0; s->cpmap && i < b->n; i++)
      v->cp[i] = mapped(s, loc, v->cp[i]);
    if (!mv__map_put(&s->index, loc, k, best, NULL)) {
      fail(s, MV_ENOMEM, 0, "%s%s", "timelines: ");
      return NULL;
    }
    v->loc = loc, v->blk = k, v->n = b->n;
    s->loads++;
  }
  v->used = ++s->clock;
  return v;
}

static int enter_block(struct mv__tlcur *c, size_t k)
{
  const struct mv__tl *x = &c->s->loc[c->loc];
  c->blk = k, c->i = 0, c->n = 0;
  if (k >= x->blocks.len)
    return 0;
  struct mv__tlslot *v = load(c->s, c->loc, k);
  if (!v)
    return 0;
  c->t = v->t, c->cp = v->cp, c->n = v->n;
  c->next = k + 1 < x->blocks.len ? MV__VEC_AT(&x->blocks, struct mv__tlblock, k + 1).t0 : x->last;
  return 1;
}

void mv__tl_seek(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t a)
{
  const struct mv__tl *x = &s->loc[loc];
  const struct mv__tlblock *b = x->blocks.data;
  size_t lo = 0, hi = x->blocks.len;
  while (lo < hi) {   /* first block starting after a */
    size_t mid = (lo + hi) / 2;
    if (b[mid].t0 <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  c->s = s, c->loc = loc;
  if (!enter_block(c, lo ? lo - 1 : 0))
    return;
  uint32_t l = 0, h = c->n;
  while (l < h) {   /* first point after a in the block */
    uint32_t mid = (l + h) / 2;
    if (c->t[mid] <= a)
      l = mid + 1;
    else
      h = mid;
  }
  c->i = l ? l - 1 : 0;
}

int mv__tl_next(struct mv__tlcur *c, uint64_t *start, uint64_t *end, uint32_t *cp)
{
  if (c->i >= c->n && (c->n == 0 || !enter_block(c, c->blk + 1)))
    return 0;
  *start = c->t[c->i], *cp = c->cp[c->i];
  *end = c->i + 1 < c->n ? c->t[c->i + 1] : c->next;
  c->i++;
  return 1;
}

/* ---- pieces of timelines, sent by every process of the parallel analysis to process 0 ---- */
struct piece_head {
  uint64_t loc, first, last, init_end, fin_enter, n;   /* loc UINT64_MAX: the sender failed */
};

static int grow_to(char **p, size_t *cap, size_t need)
{
  return mv_grow(p, cap, need, 1, 4096) ? MV_ENOMEM : 0;
}

/* The next n points of location q->loc (from its q->k-th on) into out: times, then call paths. */
static int pack_points(struct mv__tlset *s, struct mv__tlsend *q, uint64_t n, char *out)
{
  uint64_t t, e;
  uint32_t cp;
  if (q->k == 0)
    mv__tl_seek(&q->cur, s, q->loc, 0);
  for (uint64_t i = 0; i < n; i++) {
    if (!mv__tl_next(&q->cur, &t, &e, &cp))
      return s->err ? s->err : MV_EIO;
    memcpy(out + i * sizeof t, &t, sizeof t);
    memcpy(out + n * sizeof t + i * sizeof cp, &cp, sizeof cp);
  }
  return 0;
}

int mv__tl_pack(struct mv__tlset *s, struct mv__tlsend *q, uint64_t max, void **buf, size_t *len)
{
  char *p = NULL;
  size_t cap = 0, n = 0;
  int err = 0;
  for (uint64_t room = max; !err && q->loc < s->nloc;) {
    const struct mv__tl *x = &s->loc[q->loc];
    uint64_t take = x->n - q->k < room ? x->n - q->k : room;
    if (!x->started) {
      q->loc++, q->k = 0;
      continue;
    }
    if (x->n && !take)
      break;   /* the round is full */
    struct piece_head h = {q->loc, x->first, x->last, x->init_end, x->fin_enter, take};
    if (!(err = grow_to(&p, &cap, n + sizeof h + take * MV__TL_POINT_BYTES))) {
      memcpy(p + n, &h, sizeof h);
      err = pack_points(s, q, take, p + n + sizeof h);
      n += sizeof h + take * MV__TL_POINT_BYTES;
    }
    q->k += take, room -= take;
    if (q->k >= x->n)
      q->loc++, q->k = 0;
  }
  if (err) {   /* tell process 0 */
    struct piece_head h = {UINT64_MAX, 0, 0, 0, 0, 0};
    n = 0;
    if (grow_to(&p, &cap, sizeof h) == 0)
      memcpy(p, &h, sizeof h), n = sizeof h;
  }
  *buf = p, *len = n;
  return err;
}

int mv__tl_unpack(struct mv__tlset *s, const void *buf, size_t len)
{
  const char *p = buf, *end = p + len;
  while (p < end && !s->err) {
    struct piece_head h;
    if ((size_t)(end - p) < sizeof h)
      return MV_EPARSE;
    memcpy(&h, p, sizeof h), p += sizeof h;
    if (h.loc == UINT64_MAX)
      return MV_EIO;
    if (h.loc >= s->nloc || h.n > (size_t)(end - p) / MV__TL_POINT_BYTES)
      return MV_EPARSE;
    struct mv__tl *x = &s->loc[h.loc];
    x->first = h.first, x->last = h.last, x->started = 1;
    x->init_end = h.init_end, x->fin_enter = h.fin_enter;
    for (uint64_t k = 0; k < h.n; k++) {
      uint64_t t;
      uint32_t cp;
      memcpy(&t, p + k * sizeof t, sizeof t);
      memcpy(&cp, p + h.n * sizeof t + k * sizeof cp, sizeof cp);
      mv__tl_push(s, (uint32_t)h.loc, t, cp);
    }
    p += h.n * MV__TL_POINT_BYTES;
  }
  return s->err;
}
