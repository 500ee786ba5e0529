/* Turning inputs into series to judge: results.csv groups (library, op, impl, metric, msize,
 * nprocs) become one series per (library, function, metric[, msize]) by the one size rule;
 * Extra-P kernels map one to one. The series of mv_judge (judge.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/grow.h"
#include "mpivet/dataset.h"
#include "mpivet/error.h"
#include "mpivet/expect.h"
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

/* The name of a row's function, as expectation files write it: the op, or the impl id of a
 * mock-up or variant (unique across ops: bcast_as_binomial). */
static void callpath_of(const struct mv_group *g, char *buf, size_t size)
{
  snprintf(buf, size, "%s", strcmp(g->impl, "default") == 0 || g->impl[0] == '\0' ? g->op : g->impl);
}

static int same_series(const struct mv_group *a, const struct mv_group *b)
{
  return strcmp(a->library, b->library) == 0 && strcmp(a->op, b->op) == 0 &&
         strcmp(a->impl, b->impl) == 0 && strcmp(a->metric, b->metric) == 0;
}

/* Distinct process counts among groups [from, to) measured at this size. */
static int nprocs_at(const struct mv_dataset *ds, size_t from, size_t to,
                     const struct mv_msize_spec *size)
{
  int n = 0;
  for (size_t i = from; i < to; i++) {
    const struct mv_group *g = &ds->groups[i];
    if (!mv_msize_spec_has(size, g->msize, g->nprocs))
      continue;
    size_t j;
    for (j = from; j < i && !(mv_msize_spec_has(size, ds->groups[j].msize, ds->groups[j].nprocs) &&
                               ds->groups[j].nprocs == g->nprocs); j++)
      ;
    n += j == i;
  }
  return n;
}

/* The series of group g among the groups [from, to) of its function (see model.h). */
static struct mv_msize_spec size_of(const struct mv_dataset *ds, size_t from, size_t to,
                                    const struct mv_group *g, const struct mv_msize_spec *pp,
                                    size_t npp)
{
  struct mv_msize_spec total = {g->msize, 0};
  for (size_t i = 0; i < npp; i++)
    if (pp[i].per_process && mv_msize_spec_has(&pp[i], g->msize, g->nprocs))
      return pp[i];
  if (nprocs_at(ds, from, to, &total) >= 2 || g->nprocs <= 0 || g->msize <= 0 ||
      g->msize % g->nprocs != 0)
    return total;
  struct mv_msize_spec per = {g->msize / g->nprocs, 1};
  return nprocs_at(ds, from, to, &per) >= 2 ? per : total;
}

static struct mv_kernel *find_or_add(struct mv_kernels *ks, size_t first, const char *callpath,
                                     const struct mv_group *g, struct mv_msize_spec key, int two)
{
  for (size_t i = first; i < ks->n; i++)
    if (ks->k[i].msize == key.bytes && ks->k[i].per_process == key.per_process)
      return &ks->k[i];
  struct mv_kernel *k = kernel_add(ks);
  if (!k)
    return NULL;
  static const char *const names[2] = {"p", "msize"};
  snprintf(k->callpath, sizeof k->callpath, "%s", callpath);
  snprintf(k->metric, sizeof k->metric, "%s", g->metric);
  snprintf(k->library, sizeof k->library, "%s", g->library);
  k->msize = key.bytes;
  k->per_process = key.per_process;
  mv_series_init(&k->series, two ? 2 : 1, names);
  return k;
}

/* Distinct totals among groups [from, to): more than one makes two-parameter series. */
static int count_totals(const struct mv_dataset *ds, size_t from, size_t to)
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

int mv_kernels_from_dataset(struct mv_kernels *ks, const struct mv_dataset *ds, int with_msize,
                            const struct mv_msize_spec *pp, size_t npp)
{
  for (size_t from = 0, to; from < ds->ngroups; from = to) {
    for (to = from + 1; to < ds->ngroups && same_series(&ds->groups[from], &ds->groups[to]); to++)
      ;
    int two = with_msize && count_totals(ds, from, to) > 1;
    char callpath[sizeof ks->k->callpath];
    callpath_of(&ds->groups[from], callpath, sizeof callpath);
    size_t first = ks->n;
    for (size_t i = from; i < to; i++) {
      const struct mv_group *g = &ds->groups[i];
      struct mv_msize_spec key = two ? (struct mv_msize_spec){-1, 0} : size_of(ds, from, to, g, pp, npp);
      struct mv_kernel *k = find_or_add(ks, first, callpath, g, key, two);
      if (!k)
        return MV_ENOMEM;
      double c[2] = {g->nprocs, (double)g->msize};
      for (size_t v = 0; v < g->n; v++)
        if (mv_series_add(&k->series, c, g->values[v]))
          return MV_ENOMEM;
    }
    int sizes = (int)(ks->n - first);
    for (size_t i = first; i < ks->n; i++)
      ks->k[i].only_size = sizes == 1;
    if (sizes > ks->nsizes)
      ks->nsizes = sizes;
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
