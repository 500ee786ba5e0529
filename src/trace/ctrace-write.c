/* Rank 0 writes DIR/compressed.mvt (docs/formats.md, "Compressed trace"): header, the region
 * names used, the communicators' members, one global signature table and every rank class
 * (its ranks, its signatures as global ids, its grammar and times). Rank lists and member
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

static void put_classes(struct mv__bytes *o, const struct mv__ct_set *s, uint64_t **map)
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
    size_t g = (size_t)map[c][nsigs];
    mv__bytes_add(o, k->blob + g, k->nblob - g);   /* grammar, then times */
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
  struct mv__intern t = {0};
  uint64_t **map = calloc(s->n + 1, sizeof *map);
  int err = map ? global_sigs(s, &t, map) : -ENOMEM;
  struct mv__bytes o = {0};
  if (!err) {
    mv__bytes_add(&o, MV_MVT_MAGIC, 4);
    mv__bytes_put(&o, MV_MVT_VERSION);
    mv__bytes_put(&o, (uint64_t)nranks);
    mv__bytes_put(&o, elapsed(s));
    put_str(&o, defs->meta);
    put_truncated(&o, defs);
    put_regions(&o, &t);
    put_comms(&o, defs, nranks);
    mv__bytes_put(&o, t.n);
    for (size_t i = 0; i < t.n; i++) {
      size_t len;
      const uint8_t *p = mv__intern_get(&t, i, &len);
      mv__bytes_put(&o, len);
      mv__bytes_add(&o, p, len);
    }
    put_classes(&o, s, map);
    mv__bytes_add(&o, MV_MVT_TRAILER, 4);
    err = o.ok ? write_file(dir, &o) : -ENOMEM;
  }
  for (size_t c = 0; map && c < s->n; c++)
    free(map[c]);
  free(map);
  mv__intern_release(&t);
  mv__bytes_release(&o);
  return err;
}
