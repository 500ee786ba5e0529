/* The pooled sample behind the rank-sum and Kolmogorov-Smirnov tests: both samples in one
 * array sorted by value, each value tagged with its sample, so ties are runs of equal values. */
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "mpivet/error.h"

static int by_value(const void *a, const void *b) {
  double u = ((const struct mv__obs *)a)->v, v = ((const struct mv__obs *)b)->v;
  return (u > v) - (u < v);
}

static int fill(struct mv__obs *o, const double *v, size_t n, int from_x) {
  for (size_t i = 0; i < n; i++) {
    if (isnan(v[i]))
      return MV_EINVAL;
    o[i].v = v[i];
    o[i].from_x = from_x;
  }
  return 0;
}

int mv__stats_pool(const double *x, size_t nx, const double *y, size_t ny, struct mv__obs **out) {
  *out = NULL;
  if (nx == 0 || ny == 0)
    return MV_EINVAL;
  struct mv__obs *o = malloc((nx + ny) * sizeof *o);
  if (!o)
    return MV_ENOMEM;
  int rc = fill(o, x, nx, 1);
  if (!rc)
    rc = fill(o + nx, y, ny, 0);
  if (rc) {
    free(o);
    return rc;
  }
  qsort(o, nx + ny, sizeof *o, by_value);
  *out = o;
  return 0;
}

size_t mv__stats_tie_end(const struct mv__obs *o, size_t n, size_t i) {
  size_t j = i + 1;
  while (j < n && o[j].v == o[i].v)
    j++;
  return j;
}
