/* Extra-P's JSON input as its json_file_reader.py and jsonlines_file_reader.py read it:
 * - current layout: {"parameters": [names], "measurements": {callpath: {metric: [{"point":
 *   [coordinates] or a number, "values": [repetitions]}]}}};
 * - legacy layout (has "callpaths"): parameters, callpaths, metrics and coordinates as lists of
 *   objects with an "id" (sorted by id, id k is the k-th), coordinates as "parameter_value_pairs",
 *   and measurements {"coordinate_id", "callpath_id", "metric_id", "value"}, one per repetition;
 * - JSON Lines (a file that is not one JSON value but whose lines are objects): one object per
 *   line, {"params": {name: value}, "callpath"?: "...", "metric"?: "...", "value": number or
 *   list}; the first line fixes the parameters and their order, the callpath defaults to
 *   "<root>" and the metric to "<default>".
 * Numbers may be given as numeric strings where Extra-P converts with float() or int(). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap-read.h"
#include "mpivet/error.h"
#include "mpivet/json-read.h"

struct jctx {
  struct mv_extrap *x;
  const char *name;
  struct mv_error *e;
};

static int fail(struct jctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct jctx *c, const char *fmt, ...)
{
  char what[sizeof c->e->what];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return mv_error_set(c->e, MV_EPARSE, c->name, 0, 0, "%s", what);
}

/* A number, or a string that is one (Python's float() of it). */
static int num(const struct mv_jval *v, double *out)
{
  if (v && v->type == MV_JNUMBER) {
    *out = v->num;
    return 0;
  }
  if (!v || v->type != MV_JSTRING || !v->str[0] || strpbrk(v->str, "xX"))
    return MV_EPARSE;
  char *end;
  errno = 0;
  *out = strtod(v->str, &end);
  while (*end == ' ' || *end == '\t' || *end == '\n')
    end++;
  return *end || errno == ERANGE || !isfinite(*out) ? MV_EPARSE : 0;
}

static const struct mv_jval *member(const struct mv_jval *v, const char *key, enum mv_jtype t)
{
  const struct mv_jval *m = mv_jval_get(v, key);
  return m && m->type == t ? m : NULL;
}

static int add_values(struct jctx *c, struct mv_extrap_kernel *k, size_t point,
                      const struct mv_jval *v, const char *where)
{
  size_t n = v->type == MV_JARRAY ? v->n : 1;
  for (size_t i = 0; i < n; i++) {
    double d;
    if (num(v->type == MV_JARRAY ? &v->items[i] : v, &d) < 0)
      return fail(c, "%s: expected numbers as values", where);
    int rc = mv_extrap_add_value(c->x, k, point, d);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static int set_params(struct jctx *c, const char *const *names, size_t n)
{
  if (n == 0 || n > MV_EXTRAP_MAX_PARAMS)
    return fail(c, "expected 1 to %d parameters, got %zu", MV_EXTRAP_MAX_PARAMS, n);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0)
        return fail(c, "expected distinct parameter names, got \"%s\" twice", names[i]);
    if (!(c->x->params[i] = strdup(names[i])))
      return MV_ENOMEM;
    c->x->nparams = i + 1;
  }
  return 0;
}

/* ---- the current layout ---- */

static int current_point(struct jctx *c, const struct mv_jval *pt, size_t *idx, const char *where)
{
  double coords[MV_EXTRAP_MAX_PARAMS];
  size_t n = pt && pt->type == MV_JARRAY ? pt->n : 1;
  if (!pt || n != c->x->nparams)
    return fail(c, "%s: expected \"point\" with %zu coordinates", where, c->x->nparams);
  for (size_t i = 0; i < n; i++)
    if (num(pt->type == MV_JARRAY ? &pt->items[i] : pt, &coords[i]) < 0)
      return fail(c, "%s: expected numbers as coordinates", where);
  return mv_extrap_point_index(c->x, coords, idx);
}

static int current_metric(struct jctx *c, const char *callpath, const char *metric,
                          const struct mv_jval *list)
{
  char where[300];
  snprintf(where, sizeof where, "measurements of \"%.100s\" \"%.100s\"", callpath, metric);
  if (list->type != MV_JARRAY)
    return fail(c, "%s: expected a list", where);
  for (size_t i = 0; i < list->n; i++) {
    struct mv_extrap_kernel *k;
    const struct mv_jval *vals = mv_jval_get(&list->items[i], "values");
    size_t point;
    int rc = current_point(c, mv_jval_get(&list->items[i], "point"), &point, where);
    if (rc == 0 && !vals)
      rc = fail(c, "%s: expected \"values\"", where);
    if (rc == 0)
      rc = mv_extrap_kernel_get(c->x, callpath, metric, &k);
    if (rc == 0)
      rc = add_values(c, k, point, vals, where);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static int read_current(struct jctx *c, const struct mv_jval *root)
{
  const struct mv_jval *params = member(root, "parameters", MV_JARRAY);
  const struct mv_jval *meas = member(root, "measurements", MV_JOBJECT);
  if (!params || !meas)
    return fail(c, "expected \"parameters\" (a list) and \"measurements\" (an object)");
  const char *names[MV_EXTRAP_MAX_PARAMS];
  for (size_t i = 0; i < params->n && i < MV_EXTRAP_MAX_PARAMS; i++) {
    if (params->items[i].type != MV_JSTRING)
      return fail(c, "expected parameter names as strings");
    names[i] = params->items[i].str;
  }
  int rc = set_params(c, names, params->n);
  for (size_t i = 0; rc == 0 && i < meas->n; i++) {
    const struct mv_jval *metrics = &meas->items[i];
    if (metrics->type != MV_JOBJECT)
      return fail(c, "measurements of \"%s\": expected an object of metrics", meas->keys[i]);
    for (size_t j = 0; rc == 0 && j < metrics->n; j++)
      rc = current_metric(c, meas->keys[i], metrics->keys[j], &metrics->items[j]);
  }
  return rc;
}

/* ---- the legacy layout ---- */

struct byid { long long id; const struct mv_jval *v; };

static int cmp_id(const void *a, const void *b)
{
  long long x = ((const struct byid *)a)->id, y = ((const struct byid *)b)->id;
  return (x > y) - (x < y);
}

/* The objects of list l sorted by their idkey (Extra-P then uses id k as the k-th). */
static int sorted_list(struct jctx *c, const struct mv_jval *l, const char *what,
                       const char *idkey, struct byid **out, size_t *n)
{
  if (!l || l->type != MV_JARRAY)
    return fail(c, "expected \"%s\" as a list", what);
  struct byid *b = calloc(l->n ? l->n : 1, sizeof *b);
  if (!b)
    return MV_ENOMEM;
  for (size_t i = 0; i < l->n; i++) {
    double id;
    if (num(mv_jval_get(&l->items[i], idkey), &id) < 0 || id != floor(id) || fabs(id) > 1e15) {
      free(b);
      return fail(c, "%s: expected an integer \"%s\" in every item", what, idkey);
    }
    b[i] = (struct byid){(long long)id, &l->items[i]};
  }
  qsort(b, l->n, sizeof *b, cmp_id);
  *out = b;
  *n = l->n;
  return 0;
}

/* The "name" of every item of a sorted list. */
static int names_of(struct jctx *c, const struct byid *b, size_t n, const char *what, const char **names)
{
  for (size_t i = 0; i < n; i++) {
    const struct mv_jval *s = member(b[i].v, "name", MV_JSTRING);
    if (!s)
      return fail(c, "%s: expected a \"name\" string in every item", what);
    names[i] = s->str;
  }
  return 0;
}

/* Points of the sorted coordinates; pidx[k] gets the point of the k-th. */
static int legacy_coords(struct jctx *c, const struct byid *co, size_t nco, size_t *pidx)
{
  for (size_t i = 0; i < nco; i++) {
    struct byid *pairs;
    size_t np;
    double coords[MV_EXTRAP_MAX_PARAMS];
    int rc = sorted_list(c, mv_jval_get(co[i].v, "parameter_value_pairs"), "parameter_value_pairs",
                         "parameter_id", &pairs, &np);
    if (rc < 0)
      return rc;
    if (np != c->x->nparams)
      rc = fail(c, "coordinates: expected %zu parameter values per coordinate, got %zu", c->x->nparams, np);
    for (size_t j = 0; rc == 0 && j < np; j++)
      if (num(mv_jval_get(pairs[j].v, "parameter_value"), &coords[j]) < 0)
        rc = fail(c, "coordinates: expected a number as \"parameter_value\"");
    free(pairs);
    if (rc == 0)
      rc = mv_extrap_point_index(c->x, coords, &pidx[i]);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* An id field of a measurement as a 0-based position below n. */
static int position(const struct mv_jval *m, const char *key, size_t n, size_t *out)
{
  double id;
  if (num(mv_jval_get(m, key), &id) < 0 || id != floor(id) || id < 1 || id > (double)n)
    return MV_EPARSE;
  *out = (size_t)id - 1;
  return 0;
}

struct legacy {
  struct byid *par, *cp, *met, *co;
  size_t npar, ncp, nmet, nco;
  const char **cpname, **metname;
  size_t *pidx;
};

static int legacy_measurements(struct jctx *c, const struct legacy *L, const struct mv_jval *ms)
{
  if (!ms || ms->type != MV_JARRAY)
    return fail(c, "expected \"measurements\" as a list");
  for (size_t i = 0; i < ms->n; i++) {
    size_t co, cp, me;
    double v;
    const struct mv_jval *m = &ms->items[i];
    if (position(m, "coordinate_id", L->nco, &co) < 0 || position(m, "callpath_id", L->ncp, &cp) < 0 ||
        position(m, "metric_id", L->nmet, &me) < 0 || num(mv_jval_get(m, "value"), &v) < 0)
      return fail(c, "measurement %zu: expected coordinate_id, callpath_id and metric_id within their lists and a numeric value", i + 1);
    struct mv_extrap_kernel *k;
    int rc = mv_extrap_kernel_get(c->x, L->cpname[cp], L->metname[me], &k);
    if (rc == 0)
      rc = mv_extrap_add_value(c->x, k, L->pidx[co], v);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static void legacy_release(struct legacy *L)
{
  free(L->par);
  free(L->cp);
  free(L->met);
  free(L->co);
  free(L->cpname);
  free(L->metname);
  free(L->pidx);
}

static int read_legacy(struct jctx *c, const struct mv_jval *root)
{
  struct legacy L = {0};
  const char *pnames[MV_EXTRAP_MAX_PARAMS];
  int rc = sorted_list(c, mv_jval_get(root, "parameters"), "parameters", "id", &L.par, &L.npar);
  if (rc == 0 && (L.npar == 0 || L.npar > MV_EXTRAP_MAX_PARAMS))
    rc = fail(c, "expected 1 to %d parameters, got %zu", MV_EXTRAP_MAX_PARAMS, L.npar);
  if (rc == 0 && (rc = names_of(c, L.par, L.npar, "parameters", pnames)) == 0)
    rc = set_params(c, pnames, L.npar);
  if (rc == 0)
    rc = sorted_list(c, mv_jval_get(root, "callpaths"), "callpaths", "id", &L.cp, &L.ncp);
  if (rc == 0)
    rc = sorted_list(c, mv_jval_get(root, "metrics"), "metrics", "id", &L.met, &L.nmet);
  if (rc == 0)
    rc = sorted_list(c, mv_jval_get(root, "coordinates"), "coordinates", "id", &L.co, &L.nco);
  if (rc == 0) {
    L.cpname = calloc(L.ncp + 1, sizeof *L.cpname);
    L.metname = calloc(L.nmet + 1, sizeof *L.metname);
    L.pidx = calloc(L.nco + 1, sizeof *L.pidx);
    rc = L.cpname && L.metname && L.pidx ? 0 : MV_ENOMEM;
  }
  if (rc == 0 && (rc = names_of(c, L.cp, L.ncp, "callpaths", L.cpname)) == 0)
    rc = names_of(c, L.met, L.nmet, "metrics", L.metname);
  if (rc == 0)
    rc = legacy_coords(c, L.co, L.nco, L.pidx);
  if (rc == 0)
    rc = legacy_measurements(c, &L, mv_jval_get(root, "measurements"));
  legacy_release(&L);
  return rc;
}

/* ---- JSON Lines ---- */

static int jsonl_params(struct jctx *c, const struct mv_jval *params)
{
  const char *names[MV_EXTRAP_MAX_PARAMS];
  if (params->n > MV_EXTRAP_MAX_PARAMS)
    return fail(c, "expected 1 to %d parameters, got %zu", MV_EXTRAP_MAX_PARAMS, params->n);
  for (size_t i = 0; i < params->n; i++)
    names[i] = params->keys[i];
  return set_params(c, names, params->n);
}

static int jsonl_record(struct jctx *c, const struct mv_jval *o, char *where)
{
  const struct mv_jval *params = member(o, "params", MV_JOBJECT), *value = mv_jval_get(o, "value");
  const struct mv_jval *cp = mv_jval_get(o, "callpath"), *me = mv_jval_get(o, "metric");
  if (!params || !value)
    return fail(c, "%s: expected an object with \"params\" and \"value\"", where);
  if ((cp && cp->type != MV_JSTRING) || (me && me->type != MV_JSTRING))
    return fail(c, "%s: expected \"callpath\" and \"metric\" as strings", where);
  int rc = c->x->nparams ? 0 : jsonl_params(c, params);
  double coords[MV_EXTRAP_MAX_PARAMS];
  for (size_t i = 0; rc == 0 && i < c->x->nparams; i++)
    if (num(mv_jval_get(params, c->x->params[i]), &coords[i]) < 0)
      rc = fail(c, "%s: expected a number for parameter \"%s\"", where, c->x->params[i]);
  size_t point;
  struct mv_extrap_kernel *k;
  if (rc == 0)
    rc = mv_extrap_point_index(c->x, coords, &point);
  if (rc == 0)
    rc = mv_extrap_kernel_get(c->x, cp ? cp->str : "<root>", me ? me->str : "<default>", &k);
  return rc < 0 ? rc : add_values(c, k, point, value, where);
}

static int read_jsonl(struct jctx *c, const char *text, size_t len)
{
  const char *p = text, *end = text + len;
  int rc = 0;
  for (long line = 1; rc == 0 && p < end; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
    const char *q = p;
    while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
      q++;
    if (q < eol) {
      struct mv_jval v;
      size_t at;
      const char *what;
      char where[64];
      snprintf(where, sizeof where, "line %ld", line);
      rc = mv_jread_parse(p, (size_t)(eol - p), &v, &at, &what);
      if (rc == MV_EPARSE)
        mv_error_set(c->e, rc, c->name, line, (long)at + 1, "expected %s", what);
      else if (rc == 0)
        rc = jsonl_record(c, &v, where);
      mv_jval_release(&v);
    }
    p = nl ? nl + 1 : end;
  }
  return rc;
}

/* Not one JSON value, but every non-blank line starts with "{": JSON Lines. */
static int looks_jsonl(const char *text, size_t len)
{
  int start = 1, any = 0;
  for (size_t i = 0; i < len; i++) {
    char ch = text[i];
    if (ch == '\n')
      start = 1;
    else if (start && ch != ' ' && ch != '\t' && ch != '\r') {
      if (ch != '{')
        return 0;
      any = 1;
      start = 0;
    }
  }
  return any;
}

static void line_col(const char *text, size_t at, long *line, long *col)
{
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < at; i++)
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
}

int mv__extrap_parse_json(struct mv_extrap *x, const char *name, const char *text, size_t len,
                          struct mv_error *e)
{
  struct jctx c = {x, name, e};
  struct mv_jval root;
  size_t at;
  const char *what;
  int rc = mv_jread_parse(text, len, &root, &at, &what);
  if (rc == MV_EPARSE && looks_jsonl(text, len)) {
    rc = read_jsonl(&c, text, len);
  } else if (rc == MV_EPARSE) {
    long line, col;
    line_col(text, at, &line, &col);
    return mv_error_set(e, rc, name, line, col, "expected %s", what);
  } else if (rc == 0) {
    if (root.type != MV_JOBJECT)
      rc = fail(&c, "expected a JSON object");
    else
      rc = mv_jval_get(&root, "callpaths") ? read_legacy(&c, &root) : read_current(&c, &root);
    mv_jval_release(&root);
  }
  return rc ? rc : mv__extrap_complete(x, name, e);
}
