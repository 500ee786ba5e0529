/* Grouping results.csv rows by configuration (library, engine, op, impl, metric, msize, nprocs)
 * with a hash index, so that a million rows load in one pass; plus per-launch medians, the
 * robust location every verdict starts from. */
#include "mpivet/dataset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/stats.h"



static uint64_t hash_str(uint64_t h, const char *s)
{
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

static uint64_t key_hash(const char *library, const char *engine, const char *op, const char *impl,
                         const char *metric, int64_t msize, int nprocs)
{
  uint64_t h = 1469598103934665603ull;
  h = hash_str(h, library);
  h = hash_str(h, engine);
  h = hash_str(h, op);
  h = hash_str(h, impl);
  h = hash_str(h, metric);
  h = (h ^ (uint64_t)msize) * 1099511628211ull;
  h = (h ^ (uint64_t)nprocs) * 1099511628211ull;
  return h;
}

static int group_is(const struct mv_group *g, const struct mv_row *r)
{
  return g->msize == r->msize && g->nprocs == r->nprocs && strcmp(g->op, r->op) == 0 &&
         strcmp(g->impl, r->impl) == 0 && strcmp(g->metric, r->metric) == 0 &&
         strcmp(g->library, r->library) == 0 && strcmp(g->engine, r->engine) == 0;
}

void mv_dataset_init(struct mv_dataset *ds)
{
  memset(ds, 0, sizeof *ds);
}

void mv_dataset_release(struct mv_dataset *ds)
{
  for (size_t i = 0; i < ds->ngroups; i++) {
    free(ds->groups[i].values);
    free(ds->groups[i].runs);
  }
  free(ds->groups);
  free(ds->index_);
  mv_dataset_init(ds);
}

size_t mv_dataset_nvalues(const struct mv_dataset *ds)
{
  size_t n = 0;
  for (size_t i = 0; i < ds->ngroups; i++)
    n += ds->groups[i].n;
  return n;
}

static uint64_t group_hash(const struct mv_group *g)
{
  return key_hash(g->library, g->engine, g->op, g->impl, g->metric, g->msize, g->nprocs);
}

static int rehash(struct mv_dataset *ds)
{
  size_t cap = ds->index_cap_ ? ds->index_cap_ * 2 : 64;
  size_t *slot = calloc(cap, sizeof *slot);
  if (!slot)
    return MV_ENOMEM;
  for (size_t i = 0; i < ds->ngroups; i++) {
    size_t h = (size_t)group_hash(&ds->groups[i]) & (cap - 1);
    while (slot[h])
      h = (h + 1) & (cap - 1);
    slot[h] = i + 1;
  }
  free(ds->index_);
  ds->index_ = slot;
  ds->index_cap_ = cap;
  return 0;
}

static int new_group(struct mv_dataset *ds, const struct mv_row *r, struct mv_group **out)
{
  if (mv_grow(&ds->groups, &ds->cap_, ds->ngroups + 1, sizeof *ds->groups, 16) < 0)
    return MV_ENOMEM;
  struct mv_group *g = &ds->groups[ds->ngroups++];
  memset(g, 0, sizeof *g);
  memcpy(g->library, r->library, sizeof g->library);
  memcpy(g->engine, r->engine, sizeof g->engine);
  memcpy(g->op, r->op, sizeof g->op);
  memcpy(g->impl, r->impl, sizeof g->impl);
  memcpy(g->metric, r->metric, sizeof g->metric);
  g->msize = r->msize;
  g->nprocs = r->nprocs;
  if (2 * ds->ngroups > ds->index_cap_) {
    int rc = rehash(ds);
    if (rc < 0)
      return rc;
  } else {
    size_t h = (size_t)group_hash(g) & (ds->index_cap_ - 1);
    while (ds->index_[h])
      h = (h + 1) & (ds->index_cap_ - 1);
    ds->index_[h] = ds->ngroups;
  }
  *out = g;
  return 0;
}

static struct mv_group *lookup(struct mv_dataset *ds, const struct mv_row *r)
{
  if (!ds->index_cap_)
    return NULL;
  size_t h = (size_t)key_hash(r->library, r->engine, r->op, r->impl, r->metric, r->msize, r->nprocs) &
             (ds->index_cap_ - 1);
  for (; ds->index_[h]; h = (h + 1) & (ds->index_cap_ - 1))
    if (group_is(&ds->groups[ds->index_[h] - 1], r))
      return &ds->groups[ds->index_[h] - 1];
  return NULL;
}

int mv_dataset_add(struct mv_dataset *ds, const struct mv_row *row)
{
  struct mv_group *g = lookup(ds, row);
  int rc;
  if (!g && (rc = new_group(ds, row, &g)) < 0)
    return rc;
  ds->rows++;
  if (!row->valid) {
    g->n_invalid++;
    return 0;
  }
  if (g->n == g->cap_) {
    /* values and runs grow together: grow runs to the capacity values got */
    size_t vcap = g->cap_, rcap = g->cap_;
    if (mv_grow(&g->values, &vcap, g->n + 1, sizeof *g->values, 8) < 0 ||
        mv_grow(&g->runs, &rcap, vcap, sizeof *g->runs, 8) < 0)
      return MV_ENOMEM;
    g->cap_ = vcap;
  }
  g->values[g->n] = row->value;
  g->runs[g->n] = row->run;
  g->n++;
  return 0;
}

int mv_dataset_load(struct mv_dataset *ds, const char *path, struct mv_error *e)
{
  struct mv_results_reader *r = NULL;
  struct mv_row row;
  int rc = mv_results_reader_open(&r, path);
  while (rc == 0 && (rc = mv_results_reader_next(r, &row)) == 1)
    rc = mv_dataset_add(ds, &row);
  if (rc < 0 && r && mv_results_reader_error(r)->code && e)
    *e = *mv_results_reader_error(r);
  else if (rc < 0)
    mv_error_set(e, rc, path, 0, 0, "%s", mv_strerror(rc));
  mv_results_reader_close(r);
  return rc < 0 ? rc : 0;
}

struct mv_group *mv_dataset_find(struct mv_dataset *ds, const char *library, const char *op,
                                 const char *impl, const char *metric, int64_t msize, int nprocs)
{
  for (size_t i = 0; i < ds->ngroups; i++) {
    struct mv_group *g = &ds->groups[i];
    if (g->msize == msize && g->nprocs == nprocs && strcmp(g->op, op) == 0 &&
        strcmp(g->impl, impl) == 0 && strcmp(g->metric, metric) == 0 &&
        (!library || strcmp(g->library, library) == 0))
      return g;
  }
  return NULL;
}

static int cmp_group(const void *a, const void *b)
{
  const struct mv_group *x = a, *y = b;
  int c;
  if ((c = strcmp(x->library, y->library)) || (c = strcmp(x->engine, y->engine)) ||
      (c = strcmp(x->op, y->op)) || (c = strcmp(x->impl, y->impl)) ||
      (c = strcmp(x->metric, y->metric)))
    return c;
  if (x->msize != y->msize)
    return x->msize < y->msize ? -1 : 1;
  return (x->nprocs > y->nprocs) - (x->nprocs < y->nprocs);
}

size_t mv_groups_insert_by_nprocs(const struct mv_group **out, size_t n, const struct mv_group *g)
{
  size_t k = n;
  for (; k > 0 && out[k - 1]->nprocs > g->nprocs; k--)
    out[k] = out[k - 1];
  out[k] = g;
  return n + 1;
}

void mv_groups_points(const struct mv_group *const *gs, size_t n, double *x, size_t *nv,
                      const double **vals)
{
  for (size_t i = 0; i < n; i++) {
    x[i] = gs[i]->nprocs;
    nv[i] = gs[i]->n;
    vals[i] = gs[i]->values;
  }
}

void mv_dataset_sort(struct mv_dataset *ds)
{
  if (ds->ngroups > 1)
    qsort(ds->groups, ds->ngroups, sizeof *ds->groups, cmp_group);
  if (ds->index_cap_) {
    ds->index_cap_ /= 2;  /* rehash doubles it back */
    if (rehash(ds) < 0) {
      free(ds->index_);
      ds->index_ = NULL;
      ds->index_cap_ = 0;
    }
  }
}

int mv_group_launch_medians(const struct mv_group *g, double tukey_k, double *out, size_t cap)
{
  double *buf = malloc((g->n ? g->n : 1) * sizeof *buf);
  int *seen = malloc((g->n ? g->n : 1) * sizeof *seen);
  size_t nout = 0, nseen = 0;
  if (!buf || !seen) {
    free(buf);
    free(seen);
    return MV_ENOMEM;
  }
  for (size_t i = 0; i < g->n; i++) {
    int run = g->runs[i], dup = 0;
    for (size_t s = 0; s < nseen && !dup; s++)
      dup = seen[s] == run;
    if (dup)
      continue;
    seen[nseen++] = run;
    size_t m = 0;
    for (size_t k = i; k < g->n; k++)
      if (g->runs[k] == run)
        buf[m++] = g->values[k];
    if (tukey_k > 0)
      m = mv_stats_tukey_filter(buf, m, tukey_k);
    if (m == 0 || nout == cap)
      continue;
    out[nout++] = mv_stats_median_inplace(buf, m);
  }
  free(buf);
  free(seen);
  return (int)nout;
}
