/* Streams of fixed-size items per location kept for the backward passes (root causes, critical
 * path) and the HTML page without holding them in memory: the call-path timelines, the wait
 * states, the synchronization points. Items are added roughly in order and sorted into the
 * unwritten ones; full blocks go to an unlinked temporary file in $TMPDIR (gone on every exit, a
 * crash included); the passes read blocks back, in any order, through a cache of a fixed number
 * of blocks. Memory: the unwritten items (a block and a slack per location), the cache, a block
 * index (24 bytes per block) and four blocks' worth of the items that came too late for their
 * block (more go to the file in sorted runs, merged at finish), not the trace. The
 * parallel analysis sends the timelines to process 0 in pieces of bounded size (mv__tl_pack,
 * mv__tl_unpack). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

/* The timelines: unwritten points of all locations together and the cache, each about 4 MiB (a
 * block holds 4 MiB / 12 bytes / locations points, 64 to 4096). */
static void translate_point(const struct mv__tlset *s, uint32_t loc, char *item)
{
  uint32_t cp;
  memcpy(&cp, item + sizeof(uint64_t), sizeof cp);
  cp = mv__tlset_cp(s, loc, cp);
  memcpy(item + sizeof(uint64_t), &cp, sizeof cp);
}
const struct mv__tlkind mv__tl_timeline = {"timelines", MV__TL_POINT_BYTES, 1, (size_t)4 << 20, (size_t)4 << 20,
                                           NULL, translate_point};

/* MPIVET_ANALYZE_BLOCK (items per block), MPIVET_ANALYZE_CACHE (blocks cached) and
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

static int nomem(struct mv__tlset *s)
{
  return fail(s, MV_ENOMEM, 0, "%s: %s", s->k->what);
}

static int open_file(struct mv__tlset *s)
{
  const char *dir = getenv("TMPDIR");
  dir = dir && *dir ? dir : "/tmp";
  char path[sizeof s->why], fmt[160];
  if ((size_t)snprintf(path, sizeof path, "%s/mpivet-analyze-XXXXXX", dir) >= sizeof path) {
    snprintf(fmt, sizeof fmt, "cannot create the temporary file of the %s in %%s: %%s", s->k->what);
    return fail(s, MV_EIO, ENAMETOOLONG, fmt, dir);
  }
  s->fd = mkstemp(path);
  if (s->fd < 0) {
    snprintf(fmt, sizeof fmt, "cannot create the temporary file of the %s in %%s: %%s (set TMPDIR)", s->k->what);
    return fail(s, MV_EIO, errno, fmt, dir);
  }
  unlink(path);   /* removed now: the open descriptor keeps it until close or exit */
  snprintf(s->dir, sizeof s->dir, "%s", dir);
  return 0;
}

int mv__tlset_init_kind(struct mv__tlset *s, uint32_t nloc, const struct mv__tlkind *k)
{
  memset(s, 0, sizeof *s);
  s->k = k;
  s->fd = -1;
  mv__map_init(&s->index);
  mv__vec_init(&s->late, sizeof(uint64_t) + k->isz);
  mv__vec_init(&s->runs, sizeof(struct mv__tlrun));
  s->nloc = nloc;
  s->loc = calloc(nloc ? nloc : 1, sizeof *s->loc);
  if (!s->loc)
    return nomem(s);
  for (uint32_t i = 0; i < nloc; i++)
    mv__vec_init(&s->loc[i].blocks, sizeof(struct mv__tlblock));
  size_t per = k->tail_bytes / k->isz / (nloc ? nloc : 1);
  long b = env_long("MPIVET_ANALYZE_BLOCK"), c = env_long("MPIVET_ANALYZE_CACHE");
  s->block = b > 0 ? (uint32_t)b : per > 4096 ? 4096 : per < 64 ? 64 : (uint32_t)per;
  /* the backward passes go back in time on all locations at once: a block or two of each */
  uint32_t slots = (uint32_t)(k->cache_bytes / k->isz / s->block), least = 2 * nloc + 4;
  s->nslot = c > 0 ? (uint32_t)c : slots > least ? slots : least;
  s->nslot = s->nslot < 2 ? 2 : s->nslot;
  s->slot = calloc(s->nslot, sizeof *s->slot);
  if (!s->slot)
    return nomem(s);
  return env_long("MPIVET_ANALYZE_SPILL") == 0 ? 0 : open_file(s);
}

int mv__tlset_init(struct mv__tlset *s, uint32_t nloc)
{
  return mv__tlset_init_kind(s, nloc, &mv__tl_timeline);
}

void mv__tlset_release(struct mv__tlset *s)
{
  for (uint32_t i = 0; s->loc && i < s->nloc; i++) {
    mv__vec_release(&s->loc[i].blocks);
    free(s->loc[i].tail);
  }
  free(s->loc);
  for (uint32_t k = 0; s->slot && k < s->nslot; k++)
    free(s->slot[k].data);
  free(s->slot);
  free(s->mem);
  free(s->cpmap), free(s->map_off), free(s->map_part);
  mv__vec_release(&s->late);
  mv__vec_release(&s->runs);
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
      return nomem(s);
    memcpy(s->mem + s->bytes, p, n);
    s->bytes += n;
    return 0;
  }
  char fmt[160];
  for (size_t done = 0; done < n;) {
    ssize_t w = pwrite(s->fd, (const char *)p + done, n - done, (off_t)(s->bytes + done));
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      snprintf(fmt, sizeof fmt, "writing the %s to a temporary file in %%s: %%s (set TMPDIR to a directory with room)",
               s->k->what);
      return fail(s, MV_EIO, w < 0 ? errno : ENOSPC, fmt, s->dir);
    }
    done += (size_t)w;
  }
  s->bytes += n;
  return 0;
}

/* Unwritten items a location holds at most: a block and the slack. */
static size_t tail_room(const struct mv__tlset *s)
{
  return (size_t)s->block + (s->k->slack ? s->k->slack : s->block);
}

/* Late items held in memory before they go to the file as a sorted run: four blocks' worth. */
static size_t late_room(const struct mv__tlset *s)
{
  return 4 * (size_t)s->block;
}

/* Write the first n unwritten items of location x as a block; the last of them is kept after the
 * room for block + slack items (the latest written: an item below it comes too late). */
static int put_block(struct mv__tlset *s, struct mv__tl *x, uint32_t n)
{
  struct mv__tlblock *b = mv__vec_push(&x->blocks);
  if (!b)
    return nomem(s);
  size_t isz = s->k->isz;
  *b = (struct mv__tlblock){mv__tl_key(x->tail), s->bytes, n};
  s->nblocks++;
  if (put_bytes(s, x->tail, n * isz))
    return s->err;
  memcpy(x->tail + tail_room(s) * isz, x->tail + (size_t)(n - 1) * isz, isz);
  x->ntail -= n;
  memmove(x->tail, x->tail + (size_t)n * isz, (size_t)x->ntail * isz);
  return 0;
}

int mv__tl_before(const struct mv__tlset *s, const void *a, const void *b)
{
  uint64_t ka = mv__tl_key(a), kb = mv__tl_key(b);
  if (ka != kb)
    return ka < kb;
  return s->k->cmp && s->k->cmp(a, b) < 0;
}

static int spill_late(struct mv__tlset *s);

/* An item whose place is in a written block: kept aside until finish, in memory up to a few
 * blocks' worth, then in sorted runs in the file (spill_late). */
static void put_late(struct mv__tlset *s, uint32_t loc, const void *item)
{
  char *e = mv__vec_push(&s->late);
  if (!e) {
    nomem(s);
    return;
  }
  uint64_t l = loc;
  memcpy(e, &l, sizeof l);
  memcpy(e + sizeof l, item, s->k->isz);
  s->nlate++;
  if (s->late.len >= late_room(s))
    spill_late(s);
}

void mv__tl_put(struct mv__tlset *s, uint32_t loc, const void *item)
{
  struct mv__tl *x = &s->loc[loc];
  size_t isz = s->k->isz, max = tail_room(s);
  if (s->err)
    return;
  if (!x->tail && !(x->tail = malloc((max + 1) * isz))) {
    nomem(s);
    return;
  }
  if (x->ntail == max && put_block(s, x, s->block))
    return;
  uint32_t j = x->ntail;
  while (j > 0 && mv__tl_before(s, item, x->tail + (size_t)(j - 1) * isz))
    j--;
  if (j == 0 && x->blocks.len && mv__tl_before(s, item, x->tail + max * isz)) {
    put_late(s, loc, item);
    return;
  }
  memmove(x->tail + (size_t)(j + 1) * isz, x->tail + (size_t)j * isz, (size_t)(x->ntail - j) * isz);
  memcpy(x->tail + (size_t)j * isz, item, isz);
  x->ntail++;
  x->n++;
}

void mv__tl_push(struct mv__tlset *s, uint32_t loc, uint64_t t, uint32_t cp)
{
  struct mv__tl *x = &s->loc[loc];
  if (s->err)
    return;
  if (x->ntail && mv__tl_key(x->tail + (size_t)(x->ntail - 1) * MV__TL_POINT_BYTES) == t) {   /* zero-length segment */
    memcpy(x->tail + (size_t)(x->ntail - 1) * MV__TL_POINT_BYTES + sizeof t, &cp, sizeof cp);
    return;
  }
  char p[MV__TL_POINT_BYTES];
  memcpy(p, &t, sizeof t);
  memcpy(p + sizeof t, &cp, sizeof cp);
  mv__tl_put(s, loc, p);
}

uint32_t *mv__tl_last_cp(struct mv__tlset *s, uint32_t loc)
{
  struct mv__tl *x = &s->loc[loc];   /* rows of 12 bytes from a malloc'd tail: the call path is aligned */
  return x->ntail ? (uint32_t *)(void *)(x->tail + (size_t)(x->ntail - 1) * MV__TL_POINT_BYTES + sizeof(uint64_t))
                  : NULL;
}

static int get_bytes(struct mv__tlset *s, void *p, size_t n, uint64_t off)
{
  if (s->fd < 0) {
    memcpy(p, s->mem + off, n);
    return 0;
  }
  char fmt[160];
  for (size_t done = 0; done < n;) {
    ssize_t r = pread(s->fd, (char *)p + done, n - done, (off_t)(off + done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      snprintf(fmt, sizeof fmt, "reading the %s back from the temporary file in %%s: %%s", s->k->what);
      return fail(s, MV_EIO, r < 0 ? errno : EIO, fmt, s->dir);
    }
    done += (size_t)r;
  }
  return 0;
}

static int flush_tail(struct mv__tlset *s, struct mv__tl *x)
{
  while (x->ntail && !s->err)
    put_block(s, x, x->ntail < s->block ? x->ntail : s->block);
  return s->err;
}

static const struct mv__tlset *late_set;

static int late_order(const void *a, const void *b)
{
  uint64_t la, lb;
  memcpy(&la, a, sizeof la), memcpy(&lb, b, sizeof lb);
  if (la != lb)
    return la < lb ? -1 : 1;
  const char *x = (const char *)a + sizeof la, *y = (const char *)b + sizeof lb;
  return mv__tl_before(late_set, x, y) ? -1 : mv__tl_before(late_set, y, x) ? 1 : 0;
}

/* Runs of late items (location, item) in the file, each sorted by location then the set's order,
 * read back together through one buffer each: the next item is the least of their heads. */
#define LATE_RUNS 8       /* runs at most: more are merged into one */
#define RUN_BUFFER 256    /* items read at a time per run */
struct reader {
  uint64_t off, left;     /* the run's unread items in the file */
  char *buf;
  uint32_t n, at;         /* items in buf, the next one */
};
struct late_merge {
  struct reader r[LATE_RUNS + 1];
  size_t nr;
};

static int fill(struct mv__tlset *s, struct reader *r)
{
  size_t esz = s->late.item;
  r->n = r->left < RUN_BUFFER ? (uint32_t)r->left : RUN_BUFFER, r->at = 0;
  if (get_bytes(s, r->buf, r->n * esz, r->off))
    return s->err;
  r->off += r->n * esz, r->left -= r->n;
  return 0;
}

/* The least head of the runs (NULL: none left, or a failure in s->err); the caller takes it with
 * (*from)->at++. */
static const char *next_head(struct mv__tlset *s, struct late_merge *m, struct reader **from)
{
  const char *best = NULL;
  late_set = s;
  for (size_t i = 0; i < m->nr; i++) {
    struct reader *r = &m->r[i];
    if (r->at == r->n && (r->left == 0 || fill(s, r)))
      continue;
    const char *h = r->buf + (size_t)r->at * s->late.item;
    if (!best || late_order(h, best) < 0)
      best = h, *from = r;
  }
  return s->err ? NULL : best;
}

static void merge_release(struct late_merge *m)
{
  for (size_t i = 0; i < m->nr; i++)
    free(m->r[i].buf);
  m->nr = 0;
}

/* Readers over every run; they are forgotten (the merge takes them over). */
static int merge_open(struct mv__tlset *s, struct late_merge *m)
{
  m->nr = 0;
  for (size_t i = 0; i < s->runs.len; i++) {
    const struct mv__tlrun *run = &MV__VEC_AT(&s->runs, struct mv__tlrun, i);
    struct reader *r = &m->r[m->nr++];
    *r = (struct reader){run->off, run->n, malloc((size_t)RUN_BUFFER * s->late.item), 0, 0};
    if (!r->buf)
      return nomem(s);
  }
  s->runs.len = 0;
  return 0;
}

/* The late items in memory, sorted, as a run at the file's end; when there are LATE_RUNS runs,
 * they are merged into one (the file keeps the old ones: late items are written a few times). */
static int spill_late(struct mv__tlset *s)
{
  if (s->err || !s->late.len)
    return s->err;
  late_set = s;
  qsort(s->late.data, s->late.len, s->late.item, late_order);
  struct mv__tlrun *run = mv__vec_push(&s->runs);
  if (!run)
    return nomem(s);
  *run = (struct mv__tlrun){s->bytes, s->late.len};
  if (put_bytes(s, s->late.data, s->late.len * s->late.item))
    return s->err;
  s->late.len = 0;
  if (s->runs.len < LATE_RUNS)
    return 0;
  struct late_merge m;
  struct reader *from = NULL;
  uint64_t off = s->bytes, n = 0;
  size_t esz = s->late.item, nout = 0;
  char *out = malloc((size_t)RUN_BUFFER * esz);
  if (!out)
    return nomem(s);
  merge_open(s, &m);
  for (const char *h; !s->err && (h = next_head(s, &m, &from)) != NULL; n++, from->at++) {
    memcpy(out + nout * esz, h, esz);
    if (++nout == RUN_BUFFER)
      put_bytes(s, out, nout * esz), nout = 0;
  }
  if (nout && !s->err)
    put_bytes(s, out, nout * esz);
  free(out);
  merge_release(&m);
  run = s->err ? NULL : mv__vec_push(&s->runs);
  if (run)
    *run = (struct mv__tlrun){off, n};
  return s->err ? s->err : run ? 0 : nomem(s);
}

/* Location loc again, its written items merged with its late ones (the heads of m while they are
 * loc's: a late item's first 8 bytes are its location): the old blocks are read one by one and
 * the merged items written as new blocks. */
static int rewrite(struct mv__tlset *s, uint32_t loc, struct late_merge *m)
{
  struct mv__tl *x = &s->loc[loc];
  size_t isz = s->k->isz;
  struct mv__vec old = x->blocks;
  char *buf = malloc((size_t)s->block * isz);
  mv__vec_init(&x->blocks, sizeof(struct mv__tlblock));
  x->n = 0, x->ntail = 0;
  if (!buf)
    nomem(s);
  struct reader *from = NULL;
  const char *h = next_head(s, m, &from);
  for (size_t b = 0; !s->err && b <= old.len; b++) {
    const struct mv__tlblock *k = b < old.len ? &MV__VEC_AT(&old, struct mv__tlblock, b) : NULL;
    if (k && get_bytes(s, buf, (size_t)k->n * isz, k->off))
      break;
    for (uint32_t i = 0; !s->err && i < (k ? k->n : 1); i++) {
      const char *own = k ? buf + (size_t)i * isz : NULL;   /* NULL: after the last block */
      for (; h && mv__tl_key(h) == loc && (!own || mv__tl_before(s, h + sizeof(uint64_t), own));
           from->at++, h = next_head(s, m, &from))
        mv__tl_put(s, loc, h + sizeof(uint64_t));
      if (own)
        mv__tl_put(s, loc, own);
    }
  }
  free(buf);
  mv__vec_release(&old);
  return flush_tail(s, x);
}

int mv__tlset_finish(struct mv__tlset *s)
{
  for (uint32_t i = 0; i < s->nloc && !s->err; i++)
    flush_tail(s, &s->loc[i]);
  spill_late(s);
  struct late_merge m = {0};
  struct reader *from = NULL;
  if (!s->err)
    merge_open(s, &m);
  for (const char *h; !s->err && (h = next_head(s, &m, &from)) != NULL;)
    rewrite(s, (uint32_t)mv__tl_key(h), &m);
  merge_release(&m);
  mv__vec_release(&s->late);
  mv__vec_release(&s->runs);
  for (uint32_t i = 0; i < s->nloc; i++) {
    free(s->loc[i].tail);
    s->loc[i].tail = NULL;
    mv__vec_fit(&s->loc[i].blocks);
  }
  return s->err;
}

int mv__tlset_map(struct mv__tlset *s, int nparts, const uint32_t *const *maps, const uint32_t *n,
                  uint32_t (*owner)(uint32_t loc, uint32_t nloc, int nparts))
{
  size_t all = 0;
  for (int i = 0; i < nparts; i++)
    all += n[i];
  free(s->cpmap), free(s->map_off), free(s->map_part);
  s->cpmap = malloc((all ? all : 1) * sizeof *s->cpmap);
  s->map_off = malloc(((size_t)nparts + 1) * sizeof *s->map_off);
  s->map_part = calloc(s->nloc ? s->nloc : 1, sizeof *s->map_part);
  if (!s->cpmap || !s->map_off || !s->map_part)
    return nomem(s);
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
uint32_t mv__tlset_cp(const struct mv__tlset *s, uint32_t loc, uint32_t cp)
{
  if (!s->cpmap || cp >= MV__TL_PENDING || loc >= s->nloc)
    return cp;
  uint32_t p = s->map_part[loc];
  return cp < s->map_off[p + 1] - s->map_off[p] ? s->cpmap[s->map_off[p] + cp] : 0;
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
    if (!v->data && !(v->data = malloc((size_t)s->block * s->k->isz))) {
      nomem(s);
      return NULL;
    }
    if (get_bytes(s, v->data, (size_t)b->n * s->k->isz, b->off))
      return NULL;
    for (uint32_t i = 0; s->cpmap && s->k->translate && i < b->n; i++)
      s->k->translate(s, loc, v->data + (size_t)i * s->k->isz);
    if (!mv__map_put(&s->index, loc, k, best, NULL)) {
      nomem(s);
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
  c->blk = k, c->i = 0, c->n = 0, c->slot = NULL;
  if (k >= x->blocks.len)
    return 0;
  struct mv__tlslot *v = load(c->s, c->loc, k);
  if (!v)
    return 0;
  c->data = v->data, c->n = v->n, c->slot = v;
  c->next = k + 1 < x->blocks.len ? MV__VEC_AT(&x->blocks, struct mv__tlblock, k + 1).t0 : x->last;
  return 1;
}

const void *mv__tl_item(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t k)
{
  size_t blk = (size_t)(k / s->block);
  if (loc >= s->nloc || k >= s->loc[loc].n)
    return NULL;
  int same = c->s == s && c->loc == loc && c->blk == blk && c->slot && c->slot->used && c->slot->loc == loc &&
             c->slot->blk == blk;   /* the block may have left the cache since */
  if (!same) {
    c->s = s, c->loc = loc;
    if (!enter_block(c, blk))
      return NULL;
  }
  return c->data + (size_t)(k % s->block) * s->k->isz;
}

/* In block b of location loc: the first item whose key is >= key (b's count: none). */
static uint32_t find_in(struct mv__tlcur *c, size_t b, uint64_t key)
{
  if (!enter_block(c, b))
    return 0;
  uint32_t l = 0, h = c->n;
  while (l < h) {
    uint32_t mid = (l + h) / 2;
    if (mv__tl_key(c->data + (size_t)mid * c->s->k->isz) < key)
      l = mid + 1;
    else
      h = mid;
  }
  return l;
}

/* The number of blocks of x whose first key is below key (<= key when `or_equal`). */
static size_t blocks_below(const struct mv__tl *x, uint64_t key, int or_equal)
{
  const struct mv__tlblock *b = x->blocks.data;
  size_t lo = 0, hi = x->blocks.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (b[mid].t0 < key || (or_equal && b[mid].t0 == key))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint64_t mv__tl_find(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t key)
{
  const struct mv__tl *x = &s->loc[loc];
  size_t lo = blocks_below(x, key, 0);
  if (lo == 0)
    return 0;
  c->s = s, c->loc = loc;
  uint32_t i = find_in(c, lo - 1, key);
  return (uint64_t)(lo - 1) * s->block + i;
}

void mv__tl_seek(struct mv__tlcur *c, struct mv__tlset *s, uint32_t loc, uint64_t a)
{
  size_t lo = blocks_below(&s->loc[loc], a, 1);   /* first block starting after a */
  c->s = s, c->loc = loc;
  if (!enter_block(c, lo ? lo - 1 : 0))
    return;
  uint32_t l = 0, h = c->n;
  while (l < h) {   /* first point after a in the block */
    uint32_t mid = (l + h) / 2;
    if (mv__tl_key(c->data + (size_t)mid * MV__TL_POINT_BYTES) <= a)
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
  const char *p = c->data + (size_t)c->i * MV__TL_POINT_BYTES;
  *start = mv__tl_key(p);
  memcpy(cp, p + sizeof(uint64_t), sizeof *cp);
  *end = c->i + 1 < c->n ? mv__tl_key(p + MV__TL_POINT_BYTES) : c->next;
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
