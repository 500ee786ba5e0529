/* The guideline catalog: a line-oriented text file (share/mpivet/guidelines.catalog) naming
 * the monotony and split-robustness functions and, for each pattern guideline, the function,
 * its mock-up id in results.csv and the calls the mock-up is made of. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/guidelines.h"
#include "mpivet/paths.h"

#define MAX_TOKENS 8

struct token {
  const char *s;
  size_t len;
  int col;
};

struct parser {
  struct mv_catalog *cat;
  const char *name;
  int line;
  struct mv_error *e;
};

static int fail(struct parser *p, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int col, const char *fmt, ...)
{
  char what[MV_ERROR_PART_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return mv_error_set(p->e, MV_EPARSE, p->name, p->line, col, "%s", what);
}

void mv_catalog_init(struct mv_catalog *cat)
{
  memset(cat, 0, sizeof *cat);
}

void mv_catalog_release(struct mv_catalog *cat)
{
  free(cat->items);
  mv_catalog_init(cat);
}

size_t mv_catalog_count(const struct mv_catalog *cat, enum mv_gl_type type)
{
  size_t count = 0;
  for (size_t i = 0; i < cat->n; i++)
    count += cat->items[i].type == type;
  return count;
}

/* Copy a token into a fixed buffer, failing when it does not fit. */
static int copy_token(struct parser *p, const struct token *t, char *dst, size_t size,
                      const char *what)
{
  if (t->len == 0 || t->len >= size)
    return fail(p, t->col, "expected %s of 1 to %zu characters, got %zu", what, size - 1, t->len);
  memcpy(dst, t->s, t->len);
  dst[t->len] = '\0';
  return 0;
}

static int parse_id(struct parser *p, const struct token *t, struct mv_guideline *gl)
{
  int digits = t->len > 2 && t->s[0] == 'G' && t->s[1] == 'L';
  for (size_t i = 2; digits && i < t->len; i++)
    digits = t->s[i] >= '0' && t->s[i] <= '9';
  if (!digits)
    return fail(p, t->col, "expected a guideline id like GL3, got \"%.*s\"", (int)t->len, t->s);
  int rc = copy_token(p, t, gl->id, sizeof gl->id, "a guideline id");
  for (size_t i = 0; rc == 0 && i < p->cat->n; i++)
    if (strcmp(p->cat->items[i].id, gl->id) == 0)
      return fail(p, t->col, "guideline %s already defined on line %d", gl->id,
                  p->cat->items[i].line);
  return rc;
}

static int parse_type(struct parser *p, const struct token *t, enum mv_gl_type *type)
{
  for (int k = MV_GL_MONOTONY; k <= MV_GL_PATTERN; k++) {
    const char *name = mv_gl_type_name((enum mv_gl_type)k);
    if (strlen(name) == t->len && memcmp(name, t->s, t->len) == 0) {
      *type = (enum mv_gl_type)k;
      return 0;
    }
  }
  return fail(p, t->col, "expected monotony, split or pattern, got \"%.*s\"", (int)t->len, t->s);
}

/* "MPI_A,MPI_B,...": the functions of a monotony or split-robustness guideline. */
static int parse_op_list(struct parser *p, const struct token *t, struct mv_guideline *gl)
{
  size_t start = 0;
  for (size_t i = 0; i <= t->len; i++) {
    if (i < t->len && t->s[i] != ',')
      continue;
    if (gl->nops == MV_GL_MAX_OPS)
      return fail(p, t->col + (int)start, "more than %d functions in one guideline", MV_GL_MAX_OPS);
    struct token item = {t->s + start, i - start, t->col + (int)start};
    int rc = copy_token(p, &item, gl->ops[gl->nops], MV_NAME_MAX, "a function name");
    if (rc)
      return rc;
    gl->nops++;
    start = i + 1;
  }
  return 0;
}

static int parse_fields(struct parser *p, const struct token *t, size_t n, struct mv_guideline *gl)
{
  size_t want = gl->type == MV_GL_PATTERN ? 5 : 3;
  if (n != want) {
    int col = n > want ? t[want].col : t[n - 1].col + (int)t[n - 1].len;
    return fail(p, col, "expected %zu fields for a %s guideline (%s), got %zu", want,
                mv_gl_type_name(gl->type),
                gl->type == MV_GL_PATTERN ? "ID pattern OP MOCKUP PARTS" : "ID TYPE OP,OP,...", n);
  }
  if (gl->type != MV_GL_PATTERN)
    return parse_op_list(p, &t[2], gl);
  gl->nops = 1;
  int rc = copy_token(p, &t[2], gl->ops[0], MV_NAME_MAX, "a function name");
  if (rc == 0)
    rc = copy_token(p, &t[3], gl->mockup, sizeof gl->mockup, "a mock-up id");
  if (rc == 0)
    rc = copy_token(p, &t[4], gl->parts, sizeof gl->parts, "the mock-up's calls");
  return rc;
}

static int add_guideline(struct parser *p, const struct token *t, size_t n)
{
  if (mv_grow(&p->cat->items, &p->cat->cap_, p->cat->n + 1, sizeof *p->cat->items, 32) < 0)
    return MV_ENOMEM;
  struct mv_guideline *gl = &p->cat->items[p->cat->n];
  memset(gl, 0, sizeof *gl);
  gl->line = p->line;
  int rc = parse_id(p, &t[0], gl);
  if (rc == 0 && n < 2)
    rc = fail(p, t[0].col + (int)t[0].len, "expected a guideline type after %s", gl->id);
  if (rc == 0)
    rc = parse_type(p, &t[1], &gl->type);
  if (rc == 0)
    rc = parse_fields(p, t, n, gl);
  if (rc == 0)
    p->cat->n++;
  return rc;
}

/* Split one line (without its newline) into blank-separated tokens, dropping a '#' comment. */
static int parse_line(struct parser *p, const char *s, size_t len)
{
  struct token t[MAX_TOKENS];
  size_t n = 0;
  for (size_t i = 0; i < len && s[i] != '#';) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
      i++;
      continue;
    }
    if (s[i] == '\0' || (unsigned char)s[i] < 0x20)
      return fail(p, (int)i + 1, "unexpected control character 0x%02x", (unsigned char)s[i]);
    size_t start = i;
    while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '#' &&
           (unsigned char)s[i] >= 0x20)
      i++;
    if (n == MAX_TOKENS)
      return fail(p, (int)start + 1, "too many fields");
    t[n++] = (struct token){s + start, i - start, (int)start + 1};
  }
  return n ? add_guideline(p, t, n) : 0;
}

int mv_catalog_parse(struct mv_catalog *cat, const char *text, size_t len, const char *name,
                     struct mv_error *e)
{
  struct parser p = {cat, name ? name : "catalog", 0, e};
  mv_error_clear(e);
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - text) : len;
    p.line++;
    int rc = parse_line(&p, text + pos, end - pos);
    if (rc) {
      return mv_error_ensure(e, rc, p.name);
    }
    pos = end + 1;
  }
  if (cat->n == 0)
    return mv_error_set(e, MV_EPARSE, p.name, 0, 0, "no guideline found");
  return 0;
}

int mv_catalog_load(struct mv_catalog *cat, const char *path, struct mv_error *e)
{
  char share[4096];
  if (!path) {
    int rc = mv_path_share("guidelines.catalog", share, sizeof share);
    if (rc)
      return mv_error_set(e, rc, "guidelines.catalog", 0, 0, "not found in share/mpivet");
    path = share;
  }
  char *text = NULL;
  size_t len = 0;
  int rc = mv_read_file(path, 0, &text, &len, e);
  if (rc == 0)
    rc = mv_catalog_parse(cat, text, len, path, e);
  free(text);
  return rc;
}

void mv_guideline_label(const struct mv_guideline *gl, char *buf, size_t size)
{
  if (gl->type != MV_GL_PATTERN) {
    snprintf(buf, size, "%s", gl->nops ? gl->ops[0] : gl->id);
    return;
  }
  /* PGMPI's tables drop the MPI_ prefix on the right-hand side: "Reduce+Bcast". */
  char rhs[MV_NAME_MAX];
  size_t o = 0;
  for (const char *s = gl->parts; *s && o + 1 < sizeof rhs;) {
    if (strncmp(s, "MPI_", 4) == 0 && (s == gl->parts || s[-1] == '+'))
      s += 4;
    else
      rhs[o++] = *s++;
  }
  rhs[o] = '\0';
  snprintf(buf, size, "%s <= %s", gl->ops[0], rhs);
}
