/* Rank 0 writes DIR/compressed.mvt (docs/formats.md, "Compressed trace"): header, the region
 * names used, the communicators' members, one global signature table, one table of grammars
 * and every rank class (its ranks, its signatures as global ids, its grammar's id, its times). Rank lists and member
 * lists are written as nested arithmetic runs so that regular layouts take constant space. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctrace.h"
#include "mvt.h"
#include "trace-regions.h"

/* Nested runs: start, count, stride, reps, repstride (strides zigzag): the values
 * start + r * repstride + i * stride for r < reps, i < count, in that order. */
static void put_seq(struct mv__bytes *o, const uint64_t *v, size_t n)
{
  struct run { uint64_t start, count; int64_t stride; } *r = malloc((n + 1) * sizeof *r);
  size_t nr = 0;
  for (size_t i = 0; r && i < n;) {
    size_t j = i + 1;
    int64_t st = j < n ? (int64_t)(v[j] - v[i]) : 1;
    while (j < n && (int64_t)(v[j] - v[j - 1]) == st)
      j++;
    if (j == i + 1)
      st = 1;
    r[nr++] = (struct run){v[i], j - i, st};
    i = j;
  }
  size_t ngroups = 0;
  for (size_t pass = 0; pass < 2; pass++) {
    if (pass == 1)
      mv__bytes_put(o, r ? ngroups : 0);
    for (size_t i = 0; r && i < nr;) {
      size_t j = i + 1;
      int64_t rs = j < nr ? (int64_t)(r[j].start - r[i].start) : 0;
      while (j < nr && r[j].count == r[i].count && r[j].stride == r[i].stride &&
             (int64_t)(r[j].start - r[j - 1].start) == rs)
        j++;
      if (j == i + 1)
        rs = 0;
      if (pass == 0)
        ngroups++;
      else {
        mv__bytes_put(o, r[i].start), mv__bytes_put(o, r[i].count);
        mv__bytes_put(o, mv_mvt_zig(r[i].stride)), mv__bytes_put(o, j - i);
        mv__bytes_put(o, mv_mvt_zig(rs));
      }
      i = j;
    }
  }
  if (!r)
    o->ok = 0;
  free(r);
}

static void put_str(struct mv__bytes *o, const char *s)
{
  mv__bytes_put(o, strlen(s));
  mv__bytes_add(o, s, strlen(s));
}

/* The communicators other than the MPI_COMM_SELFs (creation number 1 on every rank). */
static void put_comms(struct mv__bytes *o, const struct mv__raw_defs *d, int nranks)
{
  size_t n = 0;
  for (size_t i = 0; i < d->ncomms; i++)
    n += d->comms[i].id / (uint32_t)nranks != 1;
  mv__bytes_put(o, n);
  for (size_t i = 0; i < d->ncomms; i++)
    if (d->comms[i].id / (uint32_t)nranks != 1) {
      mv__bytes_put(o, d->comms[i].id);
      put_seq(o, d->comms[i].members, d->comms[i].filled);
    }
}

/* Each class's signatures -> global ids (map[c][i]) in the table t. */
static int global_sigs(const struct mv__ct_set *s, struct mv__intern *t, uint64_t **map)
{
  for (size_t c = 0; c < s->n; c++) {
    const uint8_t *p = s->v[c].blob, *end = p + s->v[c].nstruct;
    uint64_t n, len;
    if (mv_mvt_get(&p, end, &n) || n > s->v[c].nstruct || !(map[c] = malloc((n + 1) * sizeof **map)))
      return -EINVAL;
    for (uint64_t i = 0; i < n; i++) {
      if (mv_mvt_get(&p, end, &len) || len > (uint64_t)(end - p))
        return -EINVAL;
      long id = mv__intern_id(t, p, len);
      if (id < 0)
        return -ENOMEM;
      map[c][i] = (uint64_t)id;
      p += len;
    }
    map[c][n] = (uint64_t)(p - s->v[c].blob);  /* where the grammar starts */
  }
  return 0;
}

static void put_regions(struct mv__bytes *o, const struct mv__intern *t)
{
  unsigned char used[MV__R_COUNT] = {0};
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++) {
    size_t len;
    const uint8_t *p = mv__intern_get(t, i, &len);
    uint64_t r;
    if (mv_mvt_get(&p, p + len, &r) == 0 && r < MV__R_COUNT && !used[r])
      used[r] = 1, n++;
  }
  mv__bytes_put(o, n);
  for (unsigned r = 0; r < MV__R_COUNT; r++)
    if (used[r])
      mv__bytes_put(o, r), put_str(o, mv__regions[r].name);
}

static void put_f32(struct mv__bytes *o, double v)
{
  uint8_t b[4];
  mv__bytes_add(o, b, mv_mvt_put_f32(b, v));
}

/* A histogram as the file stores it: the mean of the values but the ranks' first ones, the
 * sum of the first values, the other values' non-empty bins with weights relative to the
 * fullest (mvt.h): nothing in it grows with the number of calls. */
static void put_file_hist(struct mv__bytes *o, const uint64_t *h, uint64_t nranks)
{
  uint64_t c[MV__CT_NBINS], n = 0, max = 0, nbins = 0;
  memcpy(c, h, sizeof c);
  for (unsigned k = 0; k < MV__CT_NBINS; k++)
    n += c[k];
  unsigned fb = mv_mvt_bin((h[MV__CT_NBINS + 1] + nranks / 2) / nranks, MV__CT_NBINS);
  c[fb] = c[fb] > nranks ? c[fb] - nranks : 0;    /* the first values are stored apart */
  for (unsigned k = 0; k < MV__CT_NBINS; k++)
    nbins += c[k] != 0, max = c[k] > max ? c[k] : max;
  uint64_t rest = n > nranks ? n - nranks : 0, sum = h[MV__CT_NBINS], first = h[MV__CT_NBINS + 1];
  double mean = rest && sum > first ? (double)(sum - first) / (double)rest * MV_MVT_MEAN_SCALE : 0;
  mv__bytes_put(o, mean < 1.8e19 ? (uint64_t)(mean + 0.5) : UINT64_MAX);
  mv__bytes_put(o, first);
  mv__bytes_put(o, nbins);
  for (unsigned k = 0, last = 0; k < MV__CT_NBINS; k++)
    if (c[k]) {
      uint64_t w = (c[k] * MV_MVT_WEIGHT_MAX + max / 2) / max;
      mv__bytes_put(o, k - last), mv__bytes_put(o, w ? w : 1), last = k;
    }
}

/* A class's times (blob from nstruct: span, number of call items, two histograms per call item)
 * as the file stores them. */
static void put_times(struct mv__bytes *o, const struct mv__ct_class *k)
{
  const uint8_t *p = k->blob + k->nstruct, *end = k->blob + k->nblob;
  uint64_t span = 0, n = 0, h[MV__CT_NBINS + 2];
  if (mv_mvt_get(&p, end, &span) || mv_mvt_get(&p, end, &n))
    o->ok = 0;
  put_f32(o, (double)span);
  for (uint64_t i = 0; o->ok && i < 2 * n; i++) {
    memset(h, 0, sizeof h);
    if (mv__ct_get_hist(&p, end, h))
      o->ok = 0;
    put_file_hist(o, h, k->nranks);
  }
}

/* Each class's grammar (blob from map[c][nsigs] to nstruct) interned in g: classes with the same
 * loops over their own signatures share one (the corners of a grid, its edges...). */
static int grammars(const struct mv__ct_set *s, uint64_t **map, struct mv__intern *g, uint64_t *id)
{
  for (size_t c = 0; c < s->n; c++) {
    const struct mv__ct_class *k = &s->v[c];
    const uint8_t *p = k->blob;
    uint64_t nsigs = 0;
    mv_mvt_get(&p, k->blob + k->nstruct, &nsigs);
    size_t at = (size_t)map[c][nsigs];
    long r = mv__intern_id(g, k->blob + at, k->nstruct - at);
    if (r < 0)
      return -ENOMEM;
    id[c] = (uint64_t)r;
  }
  return 0;
}

static void put_classes(struct mv__bytes *o, const struct mv__ct_set *s, uint64_t **map, const uint64_t *gid)
{
  mv__bytes_put(o, s->n);
  for (size_t c = 0; c < s->n; c++) {
    const struct mv__ct_class *k = &s->v[c];
    uint64_t *ranks = malloc((k->nranks + 1) * sizeof *ranks), nsigs = 0;
    const uint8_t *p = k->blob;
    for (size_t i = 0; ranks && i < k->nranks; i++)
      ranks[i] = k->ranks[i];
    if (ranks)
      put_seq(o, ranks, k->nranks);
    else
      o->ok = 0;
    free(ranks);
    mv_mvt_get(&p, k->blob + k->nstruct, &nsigs);
    mv__bytes_put(o, nsigs);
    for (uint64_t i = 0; i < nsigs; i++)
      mv__bytes_put(o, map[c][i]);
    mv__bytes_put(o, gid[c]);
    put_times(o, k);
  }
}

static void put_table(struct mv__bytes *o, const struct mv__intern *t)
{
  mv__bytes_put(o, t->n);
  for (size_t i = 0; i < t->n; i++) {
    size_t len;
    const uint8_t *p = mv__intern_get(t, i, &len);
    mv__bytes_put(o, len);
    mv__bytes_add(o, p, len);
  }
}

static int write_file(const char *dir, const struct mv__bytes *o)
{
  char path[4200], tmp[4300];
  snprintf(path, sizeof path, "%s/" MV_MVT_FILE, dir);
  snprintf(tmp, sizeof tmp, "%s.part", path);
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return -errno;
  int err = fwrite(o->p, 1, o->n, f) == o->n ? 0 : -EIO;
  if (fclose(f) != 0 && !err)
    err = -EIO;
  if (!err && rename(tmp, path) != 0)
    err = -errno;
  if (err)
    remove(tmp);
  return err;
}

/* Why the run is incomplete ("rank 1: signal 11, ..."; "" when every rank finished). */
static void put_truncated(struct mv__bytes *o, const struct mv__raw_defs *d)
{
  char why[512] = "";
  size_t n = 0;
  for (int r = 0; d->ranks && r < d->nranks && n < sizeof why; r++)
    if (d->ranks[r].truncated[0]) {
      int k = snprintf(why + n, sizeof why - n, "%srank %d: %s", n ? ", " : "", r, d->ranks[r].truncated);
      n = k < 0 ? sizeof why : n + (size_t)k;
    }
  put_str(o, why);
}

/* The longest span (MPI_Init to MPI_Finalize) of any class. */
static uint64_t elapsed(const struct mv__ct_set *s)
{
  uint64_t max = 0, v;
  for (size_t c = 0; c < s->n; c++) {
    const uint8_t *p = s->v[c].blob + s->v[c].nstruct;
    if (mv_mvt_get(&p, s->v[c].blob + s->v[c].nblob, &v) == 0 && v > max)
      max = v;
  }
  return max;
}

int mv__ct_write(const char *dir, const struct mv__ct_set *s, const struct mv__raw_defs *defs, int nranks)
{
  struct mv__intern t = {0}, g = {0};
  uint64_t **map = calloc(s->n + 1, sizeof *map), *gid = calloc(s->n + 1, sizeof *gid);
  int err = map && gid ? global_sigs(s, &t, map) : -ENOMEM;
  if (!err)
    err = grammars(s, map, &g, gid);
  struct mv__bytes o = {0};
  if (!err) {
    mv__bytes_add(&o, MV_MVT_MAGIC, 4);
    mv__bytes_put(&o, MV_MVT_VERSION);
    mv__bytes_put(&o, (uint64_t)nranks);
    put_f32(&o, (double)elapsed(s));
    put_str(&o, defs->meta);
    put_truncated(&o, defs);
    put_regions(&o, &t);
    put_comms(&o, defs, nranks);
    put_table(&o, &t);
    put_table(&o, &g);
    put_classes(&o, s, map, gid);
    mv__bytes_add(&o, MV_MVT_TRAILER, 4);
    err = o.ok ? write_file(dir, &o) : -ENOMEM;
  }
  for (size_t c = 0; map && c < s->n; c++)
    free(map[c]);
  free(map);
  free(gid);
  mv__intern_release(&t);
  mv__intern_release(&g);
  mv__bytes_release(&o);
  return err;
}
