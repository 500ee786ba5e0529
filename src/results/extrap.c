/* The Extra-P text format: PARAMETER names, POINTS (numbers, or "( a b )" tuples for several
 * parameters), then REGION / METRIC blocks whose DATA lines give the repetitions of each point
 * in POINTS order. Reading validates everything with file:line:column errors; writing uses
 * round-trip number text so that a read-write-read round trip is lossless. */
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
  size_t *nv = realloc(k->nvalues, new_n * sizeof *nv);
  if (!nv)
    return MV_ENOMEM;
  k->nvalues = nv;
  double **v = realloc(k->values, new_n * sizeof *v);
  if (!v)
    return MV_ENOMEM;
  k->values = v;
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
  double *pts = realloc(x->points, (x->npoints + 1) * x->nparams * sizeof *pts);
  if (!pts)
    return MV_ENOMEM;
  x->points = pts;
  memcpy(&pts[x->npoints * x->nparams], coords, x->nparams * sizeof *coords);
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
  /* Grow by doubling: capacity is the next power of two above n. */
  if ((n & (n - 1)) == 0) {
    double *vals = realloc(k->values[point], (n ? 2 * n : 1) * sizeof *vals);
    if (!vals)
      return MV_ENOMEM;
    k->values[point] = vals;
  }
  k->values[point][n] = v;
  k->nvalues[point] = n + 1;
  return 0;
}

/* ---- parsing ---- */

struct parser {
  struct mv_extrap *x;
  const char *name;
  long line;
  const char *line_start;
  char *err;
  size_t errsize;
  struct mv_extrap_kernel *kernel;  /* current REGION/METRIC block */
  char *region;
  size_t next_point;                /* DATA lines seen in the current block */
  int have_points;
};

static int fail(struct parser *ps, const char *at, int code, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
static int fail(struct parser *ps, const char *at, int code, const char *fmt, ...)
{
  if (!ps->err || !ps->errsize)
    return code;
  int n = snprintf(ps->err, ps->errsize, "%s:%ld:%ld: ", ps->name, ps->line,
                   (long)(at - ps->line_start) + 1);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < ps->errsize)
    vsnprintf(ps->err + n, ps->errsize - (size_t)n, fmt, ap);
  va_end(ap);
  return code;
}

static const char *skip_space(const char *p, const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  return p;
}

static int parse_number(struct parser *ps, const char **pp, const char *end, double *out)
{
  const char *p = *pp;
  char buf[64];
  size_t len = 0;
  while (p + len < end && !strchr(" \t\r()", p[len]))
    len++;
  if (len == 0 || len >= sizeof buf)
    return fail(ps, p, MV_EPARSE, "expected a number");
  memcpy(buf, p, len);
  buf[len] = '\0';
  char *stop;
  errno = 0;
  double v = strtod(buf, &stop);
  if (*stop || errno == ERANGE || !isfinite(v))
    return fail(ps, p, MV_EPARSE, "expected a finite number, got \"%s\"", buf);
  *out = v;
  *pp = p + len;
  return 0;
}

/* The rest of the line after the keyword, trimmed: region and metric names may hold spaces. */
static int rest_of_line(struct parser *ps, const char *p, const char *end, char **out)
{
  p = skip_space(p, end);
  while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    end--;
  if (p == end)
    return fail(ps, p, MV_EPARSE, "expected a name");
  *out = strndup(p, (size_t)(end - p));
  return *out ? 0 : MV_ENOMEM;
}

static int parse_parameter(struct parser *ps, const char *p, const char *end)
{
  if (ps->have_points)
    return fail(ps, p, MV_EPARSE, "expected PARAMETER before POINTS");
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    const char *s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
      p++;
    if (ps->x->nparams == MV_EXTRAP_MAX_PARAMS)
      return fail(ps, s, MV_ERANGE, "expected at most %d parameters", MV_EXTRAP_MAX_PARAMS);
    if (!(ps->x->params[ps->x->nparams++] = strndup(s, (size_t)(p - s))))
      return MV_ENOMEM;
  }
  return 0;
}

static int parse_points(struct parser *ps, const char *p, const char *end)
{
  struct mv_extrap *x = ps->x;
  if (x->nparams == 0)
    return fail(ps, p, MV_EPARSE, "expected PARAMETER before POINTS");
  double coords[MV_EXTRAP_MAX_PARAMS];
  int rc;
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    int tuple = *p == '(';
    if (x->nparams > 1 && !tuple)
      return fail(ps, p, MV_EPARSE, "expected \"(\" and %zu coordinates", x->nparams);
    if (tuple)
      p = skip_space(p + 1, end);
    for (size_t i = 0; i < x->nparams; i++, p = skip_space(p, end))
      if ((rc = parse_number(ps, &p, end, &coords[i])) < 0)
        return rc;
    if (tuple) {
      if (p >= end || *p != ')')
        return fail(ps, p, MV_EPARSE, "expected \")\" after %zu coordinates", x->nparams);
      p++;
    }
    size_t before = x->npoints, idx;
    if ((rc = mv_extrap_point_index(x, coords, &idx)) < 0)
      return rc;
    if (x->npoints == before)
      return fail(ps, p, MV_EPARSE, "point listed twice");
  }
  ps->have_points = 1;
  return 0;
}

/* A block ends when REGION, METRIC or the file changes it: it must have one DATA per point. */
static int end_block(struct parser *ps, const char *at)
{
  if (ps->kernel && ps->next_point != ps->x->npoints)
    return fail(ps, at, MV_EPARSE, "expected %zu DATA lines for region \"%s\" metric \"%s\", got %zu",
                ps->x->npoints, ps->kernel->region, ps->kernel->metric, ps->next_point);
  ps->kernel = NULL;
  ps->next_point = 0;
  return 0;
}

static int parse_data(struct parser *ps, const char *kw, const char *p, const char *end)
{
  if (!ps->kernel)
    return fail(ps, kw, MV_EPARSE, "expected REGION and METRIC before DATA");
  if (ps->next_point >= ps->x->npoints)
    return fail(ps, kw, MV_EPARSE, "expected at most %zu DATA lines (one per point)", ps->x->npoints);
  size_t point = ps->next_point++;
  int rc, any = 0;
  for (p = skip_space(p, end); p < end; p = skip_space(p, end), any = 1) {
    double v;
    if ((rc = parse_number(ps, &p, end, &v)) < 0 || (rc = mv_extrap_add_value(ps->x, ps->kernel, point, v)) < 0)
      return rc;
  }
  return any ? 0 : fail(ps, p, MV_EPARSE, "expected at least one value after DATA");
}

static int start_block(struct parser *ps, const char *at, char *region, char *metric)
{
  int rc = end_block(ps, at);
  if (rc == 0 && region) {
    free(ps->region);
    ps->region = region;
    region = NULL;
  }
  if (rc == 0 && metric) {
    if (!ps->have_points)
      rc = fail(ps, at, MV_EPARSE, "expected POINTS before METRIC");
    else if (!ps->region)
      rc = fail(ps, at, MV_EPARSE, "expected REGION before METRIC");
    else
      rc = mv_extrap_kernel_get(ps->x, ps->region, metric, &ps->kernel);
  }
  free(region);
  free(metric);
  return rc;
}

static int parse_line(struct parser *ps, const char *p, const char *end)
{
  p = skip_space(p, end);
  if (p == end || *p == '#')
    return 0;
  const char *kw = p;
  while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
    p++;
  size_t len = (size_t)(p - kw);
#define IS(word) (len == sizeof word - 1 && memcmp(kw, word, len) == 0)
  char *name = NULL;
  int rc;
  if (IS("PARAMETER"))
    return parse_parameter(ps, p, end);
  if (IS("POINTS"))
    return ps->have_points ? fail(ps, kw, MV_EPARSE, "expected one POINTS line") : parse_points(ps, p, end);
  if (IS("DATA"))
    return parse_data(ps, kw, p, end);
  if (IS("REGION"))
    return (rc = rest_of_line(ps, p, end, &name)) < 0 ? rc : start_block(ps, kw, name, NULL);
  if (IS("METRIC"))
    return (rc = rest_of_line(ps, p, end, &name)) < 0 ? rc : start_block(ps, kw, NULL, name);
#undef IS
  return fail(ps, kw, MV_EPARSE, "expected PARAMETER, POINTS, REGION, METRIC or DATA");
}

int mv_extrap_parse(struct mv_extrap *x, const char *name, const char *text, size_t len,
                    char *err, size_t errsize)
{
  struct parser ps = {.x = x, .name = name, .err = err, .errsize = errsize};
  const char *p = text, *end = text + len;
  int rc = 0;
  if (err && errsize)
    err[0] = '\0';
  while (rc == 0 && p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    ps.line++;
    ps.line_start = p;
    if (memchr(p, '\0', (size_t)(eol - p)))
      rc = fail(&ps, p, MV_EPARSE, "expected text, got a NUL byte");
    else
      rc = parse_line(&ps, p, eol);
    p = nl ? nl + 1 : end;
  }
  if (rc == 0) {
    /* End-of-input errors point just past the last line's text. */
    const char *last = len && text[len - 1] == '\n' ? end - 1 : end;
    ps.line_start = last;
    while (ps.line_start > text && ps.line_start[-1] != '\n')
      ps.line_start--;
    p = last;
    rc = end_block(&ps, p);
  }
  if (rc == 0 && x->nkernels == 0)
    rc = fail(&ps, p, MV_EPARSE, "expected at least one REGION with METRIC and DATA");
  free(ps.region);
  return rc;
}

int mv_extrap_read(struct mv_extrap *x, const char *path, char *err, size_t errsize)
{
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    if (err)
      snprintf(err, errsize, "%s: cannot open: %s", path, strerror(errno));
    return errno == ENOENT ? MV_ENOENT : MV_EIO;
  }
  char *buf = NULL;
  size_t len = 0;
  int rc = mv_read_stream(fp, &buf, &len);
  fclose(fp);
  if (rc == 0)
    rc = mv_extrap_parse(x, path, buf, len, err, errsize);
  free(buf);
  return rc;
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

static int write_stream(const struct mv_extrap *x, FILE *fp)
{
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
