/* Conversion between results.csv rows and the Extra-P text format. A results.csv kernel is
 * (op[:impl], metric); the parameters are nprocs ("p") and, when several message sizes are
 * present, msize. Only valid rows carry over; Extra-P has no notion of launches. */
#include "mpivet/convert.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"

static void callpath(const struct mv_row *row, char *buf, size_t size)
{
  if (strcmp(row->impl, "default") == 0)
    snprintf(buf, size, "%s", row->op);
  else
    snprintf(buf, size, "%s:%s", row->op, row->impl);
}

/* The reader's "file:line:column: ..." (it names the place itself), or the value's text. */
static void reader_failed(const struct mv_results_reader *r, int rc, struct mv_error *e)
{
  if (r && mv_results_reader_error(r)->code && e)
    *e = *mv_results_reader_error(r);
  else
    mv_error_set(e, rc, NULL, 0, 0, "%s", mv_strerror(rc));
}

/* A reader over the text in memory (fp is closed after the reader: close_text). */
static int open_text(struct mv_results_reader **r, FILE **fp, const char *name, const char *text,
                     size_t len)
{
  *r = NULL;
  *fp = fmemopen((void *)text, len, "r");   /* glibc >= 2.22 takes len 0: an empty stream */
  if (!*fp)
    return MV_ENOMEM;
  return mv_results_reader_open_stream(r, *fp, name);
}

static void close_text(struct mv_results_reader *r, FILE *fp)
{
  mv_results_reader_close(r);
  if (fp)
    fclose(fp);
}

int mv_convert_results_to_extrap(const char *path, const char *text, size_t len,
                                 const struct mv_convert_options *opt, struct mv_extrap *x,
                                 struct mv_error *e)
{
  struct mv_results_reader *r;
  FILE *fp;
  struct mv_row row;
  int rc, two = 0;
  int64_t first_msize = -1;
  char library[MV_NAME_MAX] = "";
  int have_library = 0;
  /* First pass: decide the parameters (one or two) and check there is one library. */
  rc = open_text(&r, &fp, path, text, len);
  while (rc == 0 && (rc = mv_results_reader_next(r, &row)) == 1) {
    if (opt->library && strcmp(row.library, opt->library) != 0)
      continue;
    if (!have_library) {
      snprintf(library, sizeof library, "%s", row.library);
      have_library = 1;
    } else if (strcmp(library, row.library) != 0) {
      mv_error_set(e, MV_EINVAL, path, 0, 0, "holds results of several libraries (\"%s\", "
                   "\"%s\"): choose one with --library", library, row.library);
      close_text(r, fp);
      return MV_EINVAL;
    }
    if (first_msize < 0)
      first_msize = row.msize;
    else if (row.msize != first_msize)
      two = 1;
  }
  if (rc < 0) {
    reader_failed(r, rc, e);
    close_text(r, fp);
    return rc;
  }
  close_text(r, fp);
  if (!have_library)
    return mv_error_set(e, MV_EINVAL, path, 0, 0, "no rows to convert");
  x->params[x->nparams++] = strdup("p");
  if (two)
    x->params[x->nparams++] = strdup("msize");
  if (!x->params[0] || (two && !x->params[1]))
    return mv_error_set(e, MV_ENOMEM, NULL, 0, 0, "%s", mv_strerror(MV_ENOMEM));
  /* Second pass: the values. */
  rc = open_text(&r, &fp, path, text, len);
  while (rc == 0 && (rc = mv_results_reader_next(r, &row)) == 1) {
    if (!row.valid || (opt->library && strcmp(row.library, opt->library) != 0))
      continue;
    char cp[2 * MV_NAME_MAX + 2];
    callpath(&row, cp, sizeof cp);
    double coords[2] = {row.nprocs, (double)row.msize};
    struct mv_extrap_kernel *k;
    size_t point;
    if ((rc = mv_extrap_point_index(x, coords, &point)) < 0 ||
        (rc = mv_extrap_kernel_get(x, cp, row.metric, &k)) < 0 ||
        (rc = mv_extrap_add_value(x, k, point, row.value)) < 0)
      break;
  }
  if (rc < 0)
    reader_failed(r, rc, e);
  close_text(r, fp);
  return rc < 0 ? rc : 0;
}

/* Which coordinate is nprocs and which msize: by name, else by position. */
static void param_roles(const struct mv_extrap *x, int *np_idx, int *ms_idx)
{
  static const char *const np_names[] = {"p", "nprocs", "np", "procs", "processes", NULL};
  static const char *const ms_names[] = {"msize", "size", "bytes", "m", "n", NULL};
  *np_idx = *ms_idx = -1;
  for (size_t i = 0; i < x->nparams; i++) {
    for (int k = 0; np_names[k]; k++)
      if (*np_idx < 0 && strcmp(x->params[i], np_names[k]) == 0)
        *np_idx = (int)i;
    for (int k = 0; ms_names[k]; k++)
      if (*ms_idx < 0 && (int)i != *np_idx && strcmp(x->params[i], ms_names[k]) == 0)
        *ms_idx = (int)i;
  }
  if (*np_idx < 0)
    *np_idx = *ms_idx == 0 ? 1 : 0;
  if (*ms_idx < 0 && x->nparams > 1)
    *ms_idx = *np_idx == 0 ? 1 : 0;
}

static int integral(double v, double lo)
{
  return isfinite(v) && v >= lo && v <= 9.0e15 && floor(v) == v;
}

int mv_convert_extrap_to_results(const struct mv_extrap *x, struct mv_results_writer *w,
                                 struct mv_error *e)
{
  int np_idx, ms_idx, rc;
  if (x->nparams > 2)
    return mv_error_set(e, MV_EINVAL, NULL, 0, 0, "results.csv holds at most two parameters "
                        "(nprocs, msize), the file has %zu", x->nparams);
  param_roles(x, &np_idx, &ms_idx);
  for (size_t p = 0; p < x->npoints; p++) {
    double np = x->points[p * x->nparams + (size_t)np_idx];
    double ms = ms_idx >= 0 ? x->points[p * x->nparams + (size_t)ms_idx] : 0;
    if (!integral(np, 1) || np > 2147483647.0 || !integral(ms, 0))
      return mv_error_set(e, MV_ERANGE, NULL, 0, 0, "point %zu: expected integer coordinates "
                          "(nprocs >= 1, msize >= 0)", p + 1);
  }
  for (size_t k = 0; k < x->nkernels; k++) {
    const struct mv_extrap_kernel *kr = &x->kernels[k];
    struct mv_row row;
    mv_row_init(&row);
    strcpy(row.engine, "extrap");
    const char *colon = strchr(kr->region, ':');
    size_t oplen = colon ? (size_t)(colon - kr->region) : strlen(kr->region);
    if (oplen >= MV_NAME_MAX || (colon && strlen(colon + 1) >= MV_NAME_MAX) || strlen(kr->metric) >= MV_NAME_MAX)
      return mv_error_set(e, MV_ERANGE, NULL, 0, 0, "region \"%s\": name longer than %d characters",
                          kr->region, MV_NAME_MAX - 1);
    memcpy(row.op, kr->region, oplen);
    row.op[oplen] = '\0';
    if (colon)
      snprintf(row.impl, sizeof row.impl, "%s", colon + 1);
    snprintf(row.metric, sizeof row.metric, "%s", kr->metric);
    for (size_t p = 0; p < x->npoints; p++) {
      row.nprocs = (int)x->points[p * x->nparams + (size_t)np_idx];
      row.msize = ms_idx >= 0 ? (int64_t)x->points[p * x->nparams + (size_t)ms_idx] : 0;
      for (size_t v = 0; v < kr->nvalues[p]; v++) {
        row.rep = (int)v;
        row.value = kr->values[p][v];
        if ((rc = mv_results_writer_write(w, &row)) < 0)
          return mv_error_set(e, rc, NULL, 0, 0, "%s", mv_strerror(rc));
      }
    }
  }
  return 0;
}
