/* Expectation files (*.expect): one expectation or rule per line, '#' comments.
 *   <callpath> [<metric>] O(<expr>) [deviation=<expr>] [msize=<bytes>|<bytes>p]
 *   rule <A> <= <B> + <C> ... [metric=<metric>] [msize=<bytes>|<bytes>p]
 * (message-size specs: src/results/sizelist.c). Errors read "file:line:column: expected ...,
 * got ...". */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/expect.h"
#include "mpivet/grow.h"

const char *const mv_expect_default_params[] = {"p", "msize", NULL};

struct line {
  const char *name;
  const char *const *params;  /* names allowed in expressions */
  int lineno;
  const char *s;     /* the line, without newline */
  size_t len, pos;
  struct mv_error *e;
};

static int lfail(struct line *l, size_t col, const char *fmt, ...)
{
  char msg[sizeof l->e->what];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return mv_error_set(l->e, MV_EPARSE, l->name, l->lineno, (long)col + 1, "%s", msg);
}

/* The rest of the line starts with word (lines are not NUL-terminated). */
static int starts(const struct line *l, const char *word)
{
  size_t n = strlen(word);
  return l->len - l->pos >= n && memcmp(l->s + l->pos, word, n) == 0;
}

static void skip(struct line *l)
{
  while (l->pos < l->len && isspace((unsigned char)l->s[l->pos]))
    l->pos++;
}

/* A whitespace-delimited token that stops at `stop` characters; length in *n. */
static const char *token(struct line *l, const char *stop, size_t *n)
{
  skip(l);
  size_t start = l->pos;
  while (l->pos < l->len && !isspace((unsigned char)l->s[l->pos]) &&
         !strchr(stop, l->s[l->pos]))
    l->pos++;
  *n = l->pos - start;
  return l->s + start;
}

static int copy_name(struct line *l, char *dst, const char *src, size_t n, const char *what)
{
  if (n == 0) {
    char g[32];
    snprintf(g, sizeof g, l->pos < l->len ? "'%c'" : "end of line", l->pos < l->len ? l->s[l->pos] : ' ');
    return lfail(l, l->pos, "expected %s, got %s", what, g);
  }
  if (n >= MV_EXPECT_NAME_MAX)
    return lfail(l, l->pos - n, "expected %s of at most %d characters", what,
                 MV_EXPECT_NAME_MAX - 1);
  memcpy(dst, src, n);
  dst[n] = '\0';
  return 0;
}

/* An expression up to the end of the line or whitespace outside parentheses. */
static int expression(struct line *l, struct mv_function *f)
{
  skip(l);
  size_t start = l->pos;
  int depth = 0;
  while (l->pos < l->len && (depth > 0 || !isspace((unsigned char)l->s[l->pos]) ||
                             (l->pos > start && strchr("^*/+(", l->s[l->pos - 1])))) {
    depth += l->s[l->pos] == '(' ? 1 : l->s[l->pos] == ')' ? -1 : 0;
    l->pos++;
  }
  char msg[200];
  size_t col = 0;
  if (mv_bigo_parse_in(l->s + start, l->pos - start, l->params, f, &col, msg, sizeof msg))
    return lfail(l, start + col, "%s", msg);
  return 0;
}

/* "msize=<spec>" at the current position (already checked to start there). */
static int msize_option(struct line *l, struct mv_msize_spec *out, int *given)
{
  if (*given)
    return lfail(l, l->pos, "expected one msize= per line, got a second one");
  l->pos += 6;
  size_t n;
  const char *t = token(l, "", &n);
  size_t col = 0;
  char msg[200];
  if (n == 0)
    return lfail(l, l->pos, "expected a size such as 800 or 800p after msize=, got %s",
                 l->pos < l->len ? "a space" : "end of line");
  if (mv_msize_spec_parse(t, n, out, &col, msg, sizeof msg))
    return lfail(l, (size_t)(t - l->s) + col, "%s", msg);
  *given = 1;
  return 0;
}

static int parse_rule(struct line *l, struct mv_rule *r)
{
  size_t n;
  const char *t = token(l, "<", &n);
  memset(r, 0, sizeof *r);
  r->line = l->lineno;
  strcpy(r->metric, "*");
  if (copy_name(l, r->lhs, t, n, "a function name"))
    return MV_EPARSE;
  skip(l);
  if (l->pos + 1 >= l->len || l->s[l->pos] != '<' || l->s[l->pos + 1] != '=')
    return lfail(l, l->pos, "expected '<=' after %s", r->lhs);
  l->pos += 2;
  do {
    if (r->nrhs == MV_RULE_MAX_RHS)
      return lfail(l, l->pos, "expected at most %d functions on the right", MV_RULE_MAX_RHS);
    t = token(l, "+", &n);
    if (copy_name(l, r->rhs[r->nrhs++], t, n, "a function name"))
      return MV_EPARSE;
    skip(l);
  } while (l->pos < l->len && l->s[l->pos] == '+' && ++l->pos);
  int metric_given = 0;
  for (; l->pos < l->len; skip(l)) {
    if (starts(l, "msize=")) {
      if (msize_option(l, &r->msize, &r->msize_given))
        return MV_EPARSE;
    } else if (starts(l, "metric=") && !metric_given) {
      l->pos += 7;
      t = token(l, "", &n);
      if (copy_name(l, r->metric, t, n, "a metric name"))
        return MV_EPARSE;
      metric_given = 1;
    } else {
      return lfail(l, l->pos, "expected '+', metric=, msize= or end of line, got '%c'",
                   l->s[l->pos]);
    }
  }
  return 0;
}

static int parse_expectation(struct line *l, struct mv_expectation *e)
{
  size_t n;
  memset(e, 0, sizeof *e);
  e->line = l->lineno;
  const char *t = token(l, "", &n);
  if (copy_name(l, e->callpath, t, n, "a function name"))
    return MV_EPARSE;
  skip(l);
  strcpy(e->metric, "*");
  if (!(l->pos + 1 < l->len && l->s[l->pos] == 'O' && l->s[l->pos + 1] == '(')) {
    t = token(l, "", &n);
    if (copy_name(l, e->metric, t, n, "a metric name"))
      return MV_EPARSE;
    skip(l);
    if (!(l->pos + 1 < l->len && l->s[l->pos] == 'O' && l->s[l->pos + 1] == '('))
      return lfail(l, l->pos, "expected an expectation O(...) after the metric");
  }
  if (expression(l, &e->expect))
    return MV_EPARSE;
  for (skip(l); l->pos < l->len; skip(l)) {
    if (starts(l, "msize=")) {
      if (msize_option(l, &e->msize, &e->msize_given))
        return MV_EPARSE;
      continue;
    }
    if (!starts(l, "deviation=") || e->deviation_given)
      return lfail(l, l->pos, "expected %smsize=<size> or end of line",
                   e->deviation_given ? "" : "deviation=<expression>, ");
    l->pos += 10;
    if (expression(l, &e->deviation))
      return MV_EPARSE;
    e->deviation_given = 1;
  }
  return e->deviation_given ? 0 : mv_expect_default_deviation(&e->expect, &e->deviation);
}

/* Two lines for one function, metric ("*" covers every metric) and size: which one judges? */
static int check_duplicate(const struct mv_expect_file *f, struct line *l,
                           const struct mv_expectation *e)
{
  for (size_t i = 0; i < f->n; i++) {
    const struct mv_expectation *o = &f->items[i];
    int metric = strcmp(o->metric, e->metric) == 0 || strcmp(o->metric, "*") == 0 ||
                 strcmp(e->metric, "*") == 0;
    if (strcmp(o->callpath, e->callpath) == 0 && metric && o->msize_given == e->msize_given &&
        (!e->msize_given || mv_msize_spec_equal(&o->msize, &e->msize)))
      return lfail(l, 0, "expected one expectation per function, metric and size, got a second "
                   "one for %s (first on line %d)", e->callpath, o->line);
  }
  return 0;
}

static int parse_line(struct mv_expect_file *f, struct line *l)
{
  size_t n;
  skip(l);
  if (l->pos == l->len)
    return 0;
  size_t save = l->pos;
  const char *t = token(l, "", &n);
  if (n == 4 && memcmp(t, "rule", 4) == 0) {
    if (mv_grow(&f->rules, &f->cap_rules_, f->nrules + 1, sizeof *f->rules, 4))
      return MV_ENOMEM;
    int rc = parse_rule(l, &f->rules[f->nrules]);
    f->nrules += rc == 0;
    return rc;
  }
  l->pos = save;
  if (mv_grow(&f->items, &f->cap_items_, f->n + 1, sizeof *f->items, 8))
    return MV_ENOMEM;
  int rc = parse_expectation(l, &f->items[f->n]);
  if (rc == 0)
    rc = check_duplicate(f, l, &f->items[f->n]);
  f->n += rc == 0;
  return rc;
}

void mv_expect_file_init(struct mv_expect_file *f)
{
  memset(f, 0, sizeof *f);
}

void mv_expect_file_release(struct mv_expect_file *f)
{
  free(f->items);
  free(f->rules);
  memset(f, 0, sizeof *f);
}

int mv_expect_parse(struct mv_expect_file *f, const char *name, const char *text, size_t len,
                    struct mv_error *e)
{
  size_t pos = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;  /* UTF-8 BOM */
  for (int lineno = 1; pos < len; lineno++) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - text) : len, stop = end;
    const char *hash = memchr(text + pos, '#', end - pos);
    if (hash)
      stop = (size_t)(hash - text);
    if (stop > pos && text[stop - 1] == '\r')
      stop--;
    struct line l = {name, f->params ? f->params : mv_expect_default_params, lineno, text + pos,
                     stop - pos, 0, e};
    if (memchr(l.s, '\0', l.len))
      return lfail(&l, (size_t)((const char *)memchr(l.s, '\0', l.len) - l.s),
                   "expected text, got a NUL byte");
    int rc = parse_line(f, &l);
    if (rc)
      return rc;
    pos = end + 1;
  }
  return 0;
}

int mv_expect_parse_file(struct mv_expect_file *f, const char *path, struct mv_error *e)
{
  char *buf = NULL;
  size_t len = 0;
  int rc = mv_read_file(path, 0, &buf, &len, e);
  if (rc == 0)
    rc = mv_expect_parse(f, path, buf, len, e);
  free(buf);
  return rc;
}

const struct mv_expectation *mv_expect_find(const struct mv_expect_file *f, const char *callpath,
                                            const char *metric, const struct mv_msize_spec *size)
{
  for (int sized = 1; sized >= 0; sized--)  /* a line for this very size first */
    for (size_t i = 0; i < f->n; i++) {
      const struct mv_expectation *e = &f->items[i];
      if (strcmp(e->callpath, callpath) == 0 &&
          (strcmp(e->metric, "*") == 0 || strcmp(e->metric, metric) == 0) &&
          e->msize_given == sized && (!sized || (size && mv_msize_spec_equal(&e->msize, size))))
        return e;
    }
  return NULL;
}
