/* An Extra-P experiment in memory (parameters, points, (region, metric) kernels with the
 * repetitions at each point) and its text form as Extra-P's reader accepts it: PARAMETER
 * names, POINTS (numbers, or "( a b )" tuples for several parameters), then REGION / METRIC
 * blocks whose DATA lines give the repetitions of each point in POINTS order. Writing uses
 * round-trip number text so that a read-write-read round trip is lossless. The readers are
 * extrap-text.c and extrap-json.c. */
#include "mpivet/extrap.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpivet/atomic.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/numfmt.h"
#include "extrap-read.h"

void mv_extrap_init(struct mv_extrap *x)
{
  memset(x, 0, sizeof *x);
}

void mv_extrap_release(struct mv_extrap *x)
{
  for (size_t i = 0; i < x->nparams; i++)
    free(x->params[i]);
  for (size_t k = 0; k < x->nkernels; k++) {
    struct mv_extrap_kernel *kr = &x->kernels[k];
    for (size_t p = 0; p < x->npoints && kr->values; p++)
      free(kr->values[p]);
    free(kr->values);
    free(kr->nvalues);
    free(kr->region);
    free(kr->metric);
  }
  free(x->kernels);
  free(x->points);
  mv_extrap_init(x);
}

/* Kernels hold one value list per point, so growing the point set grows every kernel. */
static int grow_kernel_points(struct mv_extrap_kernel *k, size_t old_n, size_t new_n)
{
  if (mv_grow_implied(&k->nvalues, old_n, new_n, sizeof *k->nvalues) ||
      mv_grow_implied(&k->values, old_n, new_n, sizeof *k->values))
    return MV_ENOMEM;
  for (size_t i = old_n; i < new_n; i++) {
    k->nvalues[i] = 0;
    k->values[i] = NULL;
  }
  return 0;
}

int mv_extrap_point_index(struct mv_extrap *x, const double *coords, size_t *out)
{
  for (size_t i = 0; i < x->npoints; i++)
    if (memcmp(&x->points[i * x->nparams], coords, x->nparams * sizeof *coords) == 0) {
      *out = i;
      return 0;
    }
  if (mv_grow_implied(&x->points, x->npoints, x->npoints + 1, x->nparams * sizeof *x->points))
    return MV_ENOMEM;
  memcpy(&x->points[x->npoints * x->nparams], coords, x->nparams * sizeof *coords);
  for (size_t k = 0; k < x->nkernels; k++)
    if (grow_kernel_points(&x->kernels[k], x->npoints, x->npoints + 1) < 0)
      return MV_ENOMEM;
  *out = x->npoints++;
  return 0;
}

int mv_extrap_kernel_get(struct mv_extrap *x, const char *region, const char *metric,
                         struct mv_extrap_kernel **out)
{
  for (size_t k = 0; k < x->nkernels; k++)
    if (strcmp(x->kernels[k].region, region) == 0 && strcmp(x->kernels[k].metric, metric) == 0) {
      *out = &x->kernels[k];
      return 0;
    }
  if (mv_grow(&x->kernels, &x->cap_, x->nkernels + 1, sizeof *x->kernels, 8) < 0)
    return MV_ENOMEM;
  struct mv_extrap_kernel *k = &x->kernels[x->nkernels];
  memset(k, 0, sizeof *k);
  k->region = strdup(region);
  k->metric = strdup(metric);
  if (!k->region || !k->metric || (x->npoints && grow_kernel_points(k, 0, x->npoints) < 0)) {
    free(k->region);
    free(k->metric);
    free(k->nvalues);
    free(k->values);
    return MV_ENOMEM;
  }
  x->nkernels++;
  *out = k;
  return 0;
}

int mv_extrap_add_value(struct mv_extrap *x, struct mv_extrap_kernel *k, size_t point, double v)
{
  if (point >= x->npoints)
    return MV_EINVAL;
  size_t n = k->nvalues[point];
  if (mv_grow_implied(&k->values[point], n, n + 1, sizeof *k->values[point]))
    return MV_ENOMEM;
  k->values[point][n] = v;
  k->nvalues[point] = n + 1;
  return 0;
}

int mv__extrap_complete(const struct mv_extrap *x, const char *name, struct mv_error *e)
{
  if (x->npoints == 0 || x->nkernels == 0)
    return mv_error_set(e, MV_EPARSE, name, 0, 0, "expected %s",
                        x->npoints ? "DATA for at least one REGION" : "PARAMETER and POINTS");
  for (size_t k = 0; k < x->nkernels; k++)
    for (size_t p = 0; p < x->npoints; p++)
      if (x->kernels[k].nvalues[p] == 0)
        return mv_error_set(e, MV_EPARSE, name, 0, 0, "expected values for every point, got none "
                            "for region \"%s\" metric \"%s\" at point %zu",
                            x->kernels[k].region, x->kernels[k].metric, p + 1);
  return 0;
}

/* ---- writing ---- */

static void write_points(const struct mv_extrap *x, FILE *fp)
{
  char num[MV_NUMFMT_SIZE];
  fputs("POINTS", fp);
  for (size_t i = 0; i < x->npoints; i++) {
    if (x->nparams > 1)
      fputs(" (", fp);
    for (size_t j = 0; j < x->nparams; j++)
      fprintf(fp, " %s", mv_numfmt(x->points[i * x->nparams + j], num));
    if (x->nparams > 1)
      fputs(" )", fp);
  }
  fputc('\n', fp);
}

/* Can Extra-P's text reader give this name back unchanged? It collapses white space and splits
 * parameter names at spaces; no line can hold a control character. */
static int text_safe(const char *s, int word)
{
  if (word && !*s)
    return 0;
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || (*p == ' ' && (word || p == s || !p[1] || p[1] == ' ')))
      return 0;
  return 1;
}

static int writable(const struct mv_extrap *x)
{
  if (x->nparams < 1 || x->nparams > MV_EXTRAP_MAX_PARAMS)
    return 0;
  for (size_t i = 0; i < x->nparams; i++)
    if (!text_safe(x->params[i], 1))
      return 0;
  for (size_t k = 0; k < x->nkernels; k++)
    if (!text_safe(x->kernels[k].region, 0) || !text_safe(x->kernels[k].metric, 0))
      return 0;
  return 1;
}

static int write_stream(const struct mv_extrap *x, FILE *fp)
{
  if (!writable(x))
    return MV_EINVAL;
  fputs("PARAMETER", fp);
  for (size_t i = 0; i < x->nparams; i++)
    fprintf(fp, " %s", x->params[i]);
  fputc('\n', fp);
  write_points(x, fp);
  const char *region = NULL;
  char num[MV_NUMFMT_SIZE];
  for (size_t k = 0; k < x->nkernels; k++) {
    const struct mv_extrap_kernel *kr = &x->kernels[k];
    for (size_t p = 0; p < x->npoints; p++)
      if (kr->nvalues[p] == 0)
        return MV_EINVAL; /* the text format needs at least one value per point */
    if (!region || strcmp(region, kr->region) != 0)
      fprintf(fp, "REGION %s\n", kr->region);
    region = kr->region;
    fprintf(fp, "METRIC %s\n", kr->metric);
    for (size_t p = 0; p < x->npoints; p++) {
      fputs("DATA", fp);
      for (size_t v = 0; v < kr->nvalues[p]; v++)
        fprintf(fp, " %s", mv_numfmt(kr->values[p][v], num));
      fputc('\n', fp);
    }
  }
  return ferror(fp) ? MV_EIO : 0;
}

static int write_fp(FILE *fp, void *x)
{
  return write_stream(x, fp);
}

int mv_extrap_write(const struct mv_extrap *x, const char *path, void *stream)
{
  if (!path)
    return write_stream(x, stream);
  return mv_atomic_write(path, write_fp, (void *)x);
}
