/* Turning inputs into series to model: results.csv groups (library, op, impl, metric, msize,
 * nprocs) become one series per (library, callpath, metric[, msize]); Extra-P kernels map
 * one to one. Shared by `mpivet model` and `mpivet check`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/grow.h"
#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/extrap.h"
#include "mpivet/model.h"

void mv_kernels_init(struct mv_kernels *ks)
{
  memset(ks, 0, sizeof *ks);
}

void mv_kernels_release(struct mv_kernels *ks)
{
  for (size_t i = 0; i < ks->n; i++)
    mv_series_release(&ks->k[i].series);
  free(ks->k);
  mv_kernels_init(ks);
}

static struct mv_kernel *kernel_add(struct mv_kernels *ks)
{
  if (mv_grow(&ks->k, &ks->cap_, ks->n + 1, sizeof *ks->k, 16) < 0)
    return NULL;
  struct mv_kernel *k = &ks->k[ks->n++];
  memset(k, 0, sizeof *k);
  k->msize = -1;
  return k;
}

static void callpath_of(const struct mv_group *g, char *buf, size_t size)
{
  if (strcmp(g->impl, "default") == 0 || g->impl[0] == '\0')
    snprintf(buf, size, "%s", g->op);
  else
    snprintf(buf, size, "%s/%s", g->op, g->impl);
}

static int same_series(const struct mv_group *a, const struct mv_group *b)
{
  return strcmp(a->library, b->library) == 0 && strcmp(a->op, b->op) == 0 &&
         strcmp(a->impl, b->impl) == 0 && strcmp(a->metric, b->metric) == 0;
}

/* Groups [from, to) share (library, op, impl, metric): count their sizes. */
static int count_sizes(const struct mv_dataset *ds, size_t from, size_t to)
{
  int n = 0;
  for (size_t i = from; i < to; i++) {
    size_t j;
    for (j = from; j < i && ds->groups[j].msize != ds->groups[i].msize; j++)
      ;
    n += j == i;
  }
  return n;
}

static struct mv_kernel *find_or_add(struct mv_kernels *ks, size_t first, const char *callpath,
                                     const struct mv_group *g, long long msize, int two)
{
  for (size_t i = first; i < ks->n; i++)
    if (ks->k[i].msize == msize)
      return &ks->k[i];
  struct mv_kernel *k = kernel_add(ks);
  if (!k)
    return NULL;
  static const char *const names[2] = {"p", "msize"};
  snprintf(k->callpath, sizeof k->callpath, "%s", callpath);
  snprintf(k->metric, sizeof k->metric, "%s", g->metric);
  snprintf(k->library, sizeof k->library, "%s", g->library);
  k->msize = msize;
  mv_series_init(&k->series, two ? 2 : 1, names);
  return k;
}

int mv_kernels_from_dataset(struct mv_kernels *ks, const struct mv_dataset *ds, int with_msize)
{
  for (size_t from = 0, to; from < ds->ngroups; from = to) {
    for (to = from + 1; to < ds->ngroups && same_series(&ds->groups[from], &ds->groups[to]); to++)
      ;
    int sizes = count_sizes(ds, from, to), two = with_msize && sizes > 1;
    if (sizes > ks->nsizes)
      ks->nsizes = sizes;
    char callpath[sizeof ks->k->callpath];
    callpath_of(&ds->groups[from], callpath, sizeof callpath);
    size_t first = ks->n;
    for (size_t i = from; i < to; i++) {
      const struct mv_group *g = &ds->groups[i];
      long long msize = two || sizes == 1 ? -1 : (long long)g->msize;
      struct mv_kernel *k = find_or_add(ks, first, callpath, g, msize, two);
      if (!k)
        return MV_ENOMEM;
      double c[2] = {g->nprocs, (double)g->msize};
      for (size_t v = 0; v < g->n; v++)
        if (mv_series_add(&k->series, c, g->values[v]))
          return MV_ENOMEM;
    }
  }
  for (size_t i = 0; i < ds->ngroups; i++) {
    size_t j;
    for (j = 0; j < i && strcmp(ds->groups[j].library, ds->groups[i].library); j++)
      ;
    ks->nlibraries += j == i;
  }
  return 0;
}

int mv_kernels_from_extrap(struct mv_kernels *ks, const struct mv_extrap *x)
{
  if (x->nparams < 1 || x->nparams > MV_MODEL_MAX_PARAMS)
    return MV_EINVAL;
  for (size_t i = 0; i < x->nkernels; i++) {
    const struct mv_extrap_kernel *xk = &x->kernels[i];
    struct mv_kernel *k = kernel_add(ks);
    if (!k)
      return MV_ENOMEM;
    snprintf(k->callpath, sizeof k->callpath, "%s", xk->region);
    snprintf(k->metric, sizeof k->metric, "%s", xk->metric);
    mv_series_init(&k->series, (int)x->nparams, (const char *const *)x->params);
    for (size_t p = 0; p < x->npoints; p++)
      for (size_t v = 0; v < xk->nvalues[p]; v++)
        if (mv_series_add(&k->series, x->points + p * x->nparams, xk->values[p][v]))
          return MV_ENOMEM;
  }
  return 0;
}
