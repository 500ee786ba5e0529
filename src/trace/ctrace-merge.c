/* Merging ranks' compressed traces: ranks whose structure (signatures and grammar) is equal form
 * one class, stored once with the sorted list of its ranks and the sum of their time
 * histograms; sets of classes are packed for the pairwise exchange at MPI_Finalize. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctrace.h"
#include "mvt.h"

#define NBINS MV__CT_NBINS

static int add_class(struct mv__ct_set *s, struct mv__ct_class c)
{
  struct mv__ct_class *v = realloc(s->v, (s->n + 1) * sizeof *v);
  if (!v)
    return -ENOMEM;
  s->v = v;
  s->v[s->n++] = c;
  return 0;
}

int mv__ct_set_add_rank(struct mv__ct_set *s, int rank, const struct mv__ct_rank *r)
{
  struct mv__ct_class c = {.ranks = malloc(sizeof *c.ranks), .nranks = 1,
                           .blob = malloc(r->blob.n + 1), .nblob = r->blob.n, .nstruct = r->nstruct};
  if (!c.ranks || !c.blob || add_class(s, c) != 0) {
    free(c.ranks);
    free(c.blob);
    return -ENOMEM;
  }
  c.ranks[0] = (uint32_t)rank;
  memcpy(c.blob, r->blob.p, r->blob.n);
  return 0;
}

int mv__ct_set_pack(const struct mv__ct_set *s, struct mv__bytes *out)
{
  mv__bytes_put(out, s->n);
  for (size_t i = 0; i < s->n; i++) {
    const struct mv__ct_class *c = &s->v[i];
    mv__bytes_put(out, c->nranks);
    for (size_t k = 0; k < c->nranks; k++)
      mv__bytes_put(out, c->ranks[k]);
    mv__bytes_put(out, c->nstruct);
    mv__bytes_put(out, c->nblob);
    mv__bytes_add(out, c->blob, c->nblob);
  }
  return out->ok ? 0 : -ENOMEM;
}

static int unpack_class(struct mv__ct_class *c, const uint8_t **p, const uint8_t *end)
{
  uint64_t n, ns, nb, v;
  if (mv_mvt_get(p, end, &n) || n == 0 || n > (uint64_t)(end - *p))
    return -EINVAL;
  if (!(c->ranks = malloc(n * sizeof *c->ranks)))
    return -ENOMEM;
  for (c->nranks = 0; c->nranks < n; c->nranks++) {
    if (mv_mvt_get(p, end, &v) || v > UINT32_MAX)
      return -EINVAL;
    c->ranks[c->nranks] = (uint32_t)v;
  }
  if (mv_mvt_get(p, end, &ns) || mv_mvt_get(p, end, &nb) || nb > (uint64_t)(end - *p) || ns > nb)
    return -EINVAL;
  if (!(c->blob = malloc(nb + 1)))
    return -ENOMEM;
  memcpy(c->blob, *p, nb);
  *p += nb;
  c->nblob = nb, c->nstruct = ns;
  return 0;
}

int mv__ct_set_unpack(struct mv__ct_set *s, const uint8_t *p, size_t n)
{
  const uint8_t *end = p + n;
  uint64_t k;
  if (mv_mvt_get(&p, end, &k) || k > n)
    return -EINVAL;
  for (uint64_t i = 0; i < k; i++) {
    struct mv__ct_class c = {0};
    int err = unpack_class(&c, &p, end);
    if (!err)
      err = add_class(s, c);
    if (err) {
      free(c.ranks);
      free(c.blob);
      return err;
    }
  }
  return 0;
}

int mv__ct_get_hist(const uint8_t **p, const uint8_t *end, uint64_t *h)
{
  uint64_t n, d, c, k = 0, sum, first;
  if (mv_mvt_get(p, end, &sum) || mv_mvt_get(p, end, &first) || mv_mvt_get(p, end, &n) || n > NBINS)
    return -EINVAL;
  h[NBINS] += sum;
  h[NBINS + 1] += first;
  for (uint64_t i = 0; i < n; i++) {
    if (mv_mvt_get(p, end, &d) || mv_mvt_get(p, end, &c) || (k += d) >= NBINS)
      return -EINVAL;
    h[k] += c;
  }
  return 0;
}

void mv__ct_put_hist(struct mv__bytes *o, const uint64_t *h)
{
  size_t n = 0;
  for (unsigned k = 0; k < NBINS; k++)
    n += h[k] != 0;
  mv__bytes_put(o, h[NBINS]);
  mv__bytes_put(o, h[NBINS + 1]);
  mv__bytes_put(o, n);
  for (unsigned k = 0, last = 0; k < NBINS; k++)
    if (h[k])
      mv__bytes_put(o, k - last), mv__bytes_put(o, h[k]), last = k;
}

/* The times of a class's blob: the span, then the number of histograms (two per call item). */
static int times_head(const struct mv__ct_class *c, const uint8_t **p, uint64_t *span, uint64_t *nhist)
{
  const uint8_t *end = c->blob + c->nblob;
  *p = c->blob + c->nstruct;
  if (mv_mvt_get(p, end, span) || mv_mvt_get(p, end, nhist) || *nhist > (uint64_t)(end - *p))
    return -EINVAL;
  *nhist *= 2;
  return 0;
}

/* a's times += b's (same structure): span max, histograms summed. */
static int merge_times(struct mv__ct_class *a, const struct mv__ct_class *b)
{
  const uint8_t *pa, *pb, *ea = a->blob + a->nblob, *eb = b->blob + b->nblob;
  uint64_t n, nb, sa, sb, h[NBINS + 2];
  if (times_head(a, &pa, &sa, &n) || times_head(b, &pb, &sb, &nb) || n != nb)
    return -EINVAL;
  struct mv__bytes o = {0};
  mv__bytes_add(&o, a->blob, a->nstruct);
  mv__bytes_put(&o, sa > sb ? sa : sb);
  mv__bytes_put(&o, n / 2);
  for (uint64_t i = 0; i < n; i++) {
    memset(h, 0, sizeof h);
    if (mv__ct_get_hist(&pa, ea, h) || mv__ct_get_hist(&pb, eb, h)) {
      mv__bytes_release(&o);
      return -EINVAL;
    }
    mv__ct_put_hist(&o, h);
  }
  if (!o.ok) {
    mv__bytes_release(&o);
    return -ENOMEM;
  }
  free(a->blob);
  a->blob = o.p, a->nblob = o.n;
  return 0;
}

/* Means of the computation before each call item within 10 % or 1 us of each other: ranks
 * whose structure is equal but whose computation differs more (a slow rank, a load imbalance)
 * stay separate classes, so that the benchmark keeps the imbalance. */
static int compatible(const struct mv__ct_class *a, const struct mv__ct_class *b)
{
  const uint8_t *pa, *pb, *ea = a->blob + a->nblob, *eb = b->blob + b->nblob;
  uint64_t n, nb, span, ha[NBINS + 2], hb[NBINS + 2];
  if (times_head(a, &pa, &span, &n) || times_head(b, &pb, &span, &nb) || n != nb)
    return 0;
  for (uint64_t i = 0; i < n; i++) {
    memset(ha, 0, sizeof ha), memset(hb, 0, sizeof hb);
    if (mv__ct_get_hist(&pa, ea, ha) || mv__ct_get_hist(&pb, eb, hb))
      return 0;
    uint64_t na = 0, nb = 0;
    for (unsigned k = 0; k < NBINS; k++)
      na += ha[k], nb += hb[k];
    double ma = na ? (double)ha[NBINS] / (double)na : 0, mb = nb ? (double)hb[NBINS] / (double)nb : 0;
    double d = ma > mb ? ma - mb : mb - ma, m = ma > mb ? ma : mb;
    if (i % 2 == 0 && d > 1000 && d > 0.1 * m)
      return 0;
  }
  return 1;
}

static int cmp_u32(const void *x, const void *y)
{
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return (a > b) - (a < b);
}

static int join(struct mv__ct_class *a, struct mv__ct_class *b)
{
  uint32_t *r = realloc(a->ranks, (a->nranks + b->nranks) * sizeof *r);
  if (!r)
    return -ENOMEM;
  a->ranks = r;
  memcpy(r + a->nranks, b->ranks, b->nranks * sizeof *r);
  a->nranks += b->nranks;
  qsort(r, a->nranks, sizeof *r, cmp_u32);
  return merge_times(a, b);
}

int mv__ct_set_merge(struct mv__ct_set *a, struct mv__ct_set *b)
{
  int err = 0;
  for (size_t i = 0; i < b->n; i++) {
    struct mv__ct_class *c = &b->v[i];
    size_t j = 0;
    while (j < a->n && (a->v[j].nstruct != c->nstruct || memcmp(a->v[j].blob, c->blob, c->nstruct) ||
                        !compatible(&a->v[j], c)))
      j++;
    int moved = j == a->n, e = moved ? add_class(a, *c) : join(&a->v[j], c);
    if (e == 0 && moved) {
      *c = (struct mv__ct_class){0};
      continue;
    }
    err = err ? err : e;
  }
  mv__ct_set_release(b);
  return err;
}

void mv__ct_set_release(struct mv__ct_set *s)
{
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i].ranks), free(s->v[i].blob);
  free(s->v);
  *s = (struct mv__ct_set){0};
}
