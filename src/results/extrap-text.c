/* Reading Extra-P input as Extra-P 4.x reads it (its text_file_reader.py): keywords PARAMETER,
 * POINTS, REGION, METRIC and DATA in any order that makes sense, blank lines and # comments
 * anywhere. PARAMETER lines add parameters; POINTS lines add points, one number per point for
 * one parameter or "( a b )" tuples (with or without spaces between them); REGION and METRIC
 * each set the current name (a metric persists across regions; before any, both are "") and
 * restart the point count; each DATA line gives the repetitions of the next point. In the end
 * every (region, metric) must have exactly one DATA line per point, as Extra-P's validation
 * requires. JSON and JSON Lines input (first character "{") go to extrap-json.c. */
#include "mpivet/extrap.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "extrap-read.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

struct parser {
  struct mv_extrap *x;
  const char *name;
  long line;
  const char *line_start;
  struct mv_error *e;
  char *region, *metric;   /* current names, NULL until given ("" then) */
  size_t next_point;       /* DATA lines since the last REGION or METRIC */
};

static int fail(struct parser *ps, const char *at, int code, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
static int fail(struct parser *ps, const char *at, int code, const char *fmt, ...)
{
  char what[sizeof ps->e->what];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return mv_error_set(ps->e, code, ps->name, ps->line, (long)(at - ps->line_start) + 1, "%s", what);
}

static int is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static const char *skip_space(const char *p, const char *end)
{
  while (p < end && is_space(*p))
    p++;
  return p;
}

static int parse_number(struct parser *ps, const char **pp, const char *end, double *out)
{
  const char *p = *pp;
  char buf[64];
  size_t len = 0;
  while (p + len < end && !is_space(p[len]) && p[len] != '(' && p[len] != ')')
    len++;
  if (len == 0 || len >= sizeof buf)
    return fail(ps, p, MV_EPARSE, "expected a number");
  memcpy(buf, p, len);
  buf[len] = '\0';
  char *stop;
  errno = 0;
  double v = strtod(buf, &stop);
  /* Python's float() reads no hexadecimal: neither do we. */
  if (*stop || errno == ERANGE || !isfinite(v) || strpbrk(buf, "xX"))
    return fail(ps, p, MV_EPARSE, "expected a finite number, got \"%s\"", buf);
  *out = v;
  *pp = p + len;
  return 0;
}

/* The rest of the line, trimmed, runs of white space made one space (as Extra-P does). */
static int rest_of_line(const char *p, const char *end, char **out)
{
  p = skip_space(p, end);
  while (end > p && is_space(end[-1]))
    end--;
  char *s = malloc((size_t)(end - p) + 1);
  if (!s)
    return MV_ENOMEM;
  size_t n = 0;
  for (; p < end; p++)
    if (!is_space(*p))
      s[n++] = *p;
    else if (!is_space(p[-1]))
      s[n++] = ' ';
  s[n] = '\0';
  *out = s;
  return 0;
}

static int parse_parameter(struct parser *ps, const char *p, const char *end)
{
  struct mv_extrap *x = ps->x;
  if (x->npoints)
    return fail(ps, p, MV_EPARSE, "expected PARAMETER before POINTS");
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    const char *s = p;
    while (p < end && !is_space(*p))
      p++;
    if (x->nparams == MV_EXTRAP_MAX_PARAMS)
      return fail(ps, s, MV_ERANGE, "expected at most %d parameters", MV_EXTRAP_MAX_PARAMS);
    for (size_t i = 0; i < x->nparams; i++)
      if (strlen(x->params[i]) == (size_t)(p - s) && memcmp(x->params[i], s, (size_t)(p - s)) == 0)
        return fail(ps, s, MV_EPARSE, "expected a new parameter name, got \"%s\" again", x->params[i]);
    if (!(x->params[x->nparams++] = strndup(s, (size_t)(p - s))))
      return MV_ENOMEM;
  }
  return 0;
}

static int add_point(struct parser *ps, const char *at, const double *coords)
{
  size_t before = ps->x->npoints, idx;
  int rc = mv_extrap_point_index(ps->x, coords, &idx);
  if (rc == 0 && ps->x->npoints == before)
    return fail(ps, at, MV_EPARSE, "point listed twice");
  return rc;
}

static int parse_points(struct parser *ps, const char *p, const char *end)
{
  struct mv_extrap *x = ps->x;
  if (x->nparams == 0)
    return fail(ps, p, MV_EPARSE, "expected PARAMETER before POINTS");
  double coords[MV_EXTRAP_MAX_PARAMS];
  int rc, tuples = memchr(p, '(', (size_t)(end - p)) != NULL;
  if (x->nparams > 1 && !tuples)
    return fail(ps, skip_space(p, end), MV_EPARSE, "expected \"(\" and %zu coordinates", x->nparams);
  for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
    const char *at = p;
    if (tuples && *p != '(')
      return fail(ps, p, MV_EPARSE, "expected \"(\"");
    if (tuples)
      p = skip_space(p + 1, end);
    for (size_t i = 0; i < x->nparams; i++, p = skip_space(p, end))
      if ((rc = parse_number(ps, &p, end, &coords[i])) < 0)
        return rc;
    if (tuples && (p >= end || *p++ != ')'))
      return fail(ps, p - (p > at && p[-1] != ')'), MV_EPARSE,
                  "expected \")\" after %zu coordinates", x->nparams);
    if ((rc = add_point(ps, at, coords)) < 0)
      return rc;
  }
  return 0;
}

static int parse_data(struct parser *ps, const char *kw, const char *p, const char *end)
{
  struct mv_extrap *x = ps->x;
  if (x->nparams == 0)
    return fail(ps, kw, MV_EPARSE, "expected PARAMETER and POINTS before DATA");
  if (ps->next_point >= x->npoints)
    return fail(ps, kw, MV_EPARSE, "expected at most %zu DATA lines (one per point) after REGION or METRIC",
                x->npoints);
  struct mv_extrap_kernel *k;
  int rc = mv_extrap_kernel_get(x, ps->region ? ps->region : "", ps->metric ? ps->metric : "", &k);
  if (rc < 0)
    return rc;
  size_t point = ps->next_point++;
  if (k->nvalues[point])
    return fail(ps, kw, MV_EPARSE, "expected one DATA line per point for region \"%s\" metric \"%s\", got a second one for point %zu",
                k->region, k->metric, point + 1);
  int any = 0;
  for (p = skip_space(p, end); p < end; p = skip_space(p, end), any = 1) {
    double v;
    if ((rc = parse_number(ps, &p, end, &v)) < 0 || (rc = mv_extrap_add_value(x, k, point, v)) < 0)
      return rc;
  }
  return any ? 0 : fail(ps, p, MV_EPARSE, "expected at least one value after DATA");
}

static int set_name(struct parser *ps, char **slot, const char *p, const char *end)
{
  char *name;
  int rc = rest_of_line(p, end, &name);
  if (rc < 0)
    return rc;
  free(*slot);
  *slot = name;
  ps->next_point = 0;
  return 0;
}

static int parse_line(struct parser *ps, const char *p, const char *end)
{
  p = skip_space(p, end);
  if (p == end || *p == '#')
    return 0;
  const char *kw = p;
  while (p < end && !is_space(*p))
    p++;
  size_t len = (size_t)(p - kw);
#define IS(word) (len == sizeof word - 1 && memcmp(kw, word, len) == 0)
  if (IS("PARAMETER"))
    return parse_parameter(ps, p, end);
  if (IS("POINTS"))
    return parse_points(ps, p, end);
  if (IS("DATA"))
    return parse_data(ps, kw, p, end);
  if (IS("REGION"))
    return set_name(ps, &ps->region, p, end);
  if (IS("METRIC"))
    return set_name(ps, &ps->metric, p, end);
#undef IS
  return fail(ps, kw, MV_EPARSE, "expected PARAMETER, POINTS, REGION, METRIC or DATA");
}

static int parse_text(struct mv_extrap *x, const char *name, const char *text, size_t len,
                      struct mv_error *e)
{
  struct parser ps = {.x = x, .name = name, .e = e};
  const char *p = text, *end = text + len;
  int rc = 0;
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
  free(ps.region);
  free(ps.metric);
  return rc ? rc : mv__extrap_complete(x, name, e);
}

int mv_extrap_parse(struct mv_extrap *x, const char *name, const char *text, size_t len,
                    struct mv_error *e)
{
  mv_error_clear(e);
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
    i++;
  int rc = i < len && text[i] == '{' ? mv__extrap_parse_json(x, name, text, len, e)
                                     : parse_text(x, name, text, len, e);
  return mv_error_ensure(e, rc, name);
}

static int parse_any(void *x, const char *name, const char *text, size_t len, struct mv_error *e)
{
  return mv_extrap_parse(x, name, text, len, e);
}

int mv_extrap_read(struct mv_extrap *x, const char *path, struct mv_error *e)
{
  return mv_parse_file(path, 0, parse_any, x, e);
}

/* The first word that is not blank or in a # comment line: "{" or an Extra-P keyword. */
static int sniff_stream(FILE *fp)
{
  char word[16] = "";
  int r;
  /* Skip # comment lines: fscanf's " %15s" reads the next word, "%*[^\n]" the rest of a line. */
  while ((r = fscanf(fp, " %15s", word)) == 1 && word[0] == '#')
    if (fscanf(fp, "%*[^\n]") < 0)
      break;
  if (r != 1 || word[0] == '#')
    return 0;
  static const char *const first[] = {"PARAMETER", "POINTS", "REGION", "METRIC", "DATA"};
  for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
    if (strcmp(word, first[i]) == 0)
      return 1;
  return word[0] == '{';
}

int mv_extrap_sniff(const char *path)
{
  /* A pipe (`<(...)`) or FIFO can be read once: looking into it would leave nothing to read. */
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  FILE *fp = fopen(path, "r");
  if (!fp)
    return 0;
  int yes = sniff_stream(fp);
  fclose(fp);
  return yes;
}

int mv_extrap_sniff_text(const char *text, size_t len)
{
  FILE *fp = len ? fmemopen((void *)text, len, "r") : NULL;
  if (!fp)
    return 0;
  int yes = sniff_stream(fp);
  fclose(fp);
  return yes;
}
