/* Big-O expressions: a recursive-descent parser for O(...) (sums, products, quotients by one
 * term, powers, log/log2/ln, sqrt, 2^(c x), constants) into an mv_function, and the inverse
 * formatter "O(p^(1/2)/log p)". Coefficients are tracked while parsing, then set to 1. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/expect.h"

struct parser {
  const char *s;
  size_t len, pos;
  struct mv_function *fn;    /* owns the parameter names */
  const char *const *names;  /* the parameters allowed (NULL-terminated), NULL: any */
  size_t errcol;
  char *msg;
  size_t msgsize;
  int failed;
  int depth;
};

typedef struct mv_function expr;   /* a sum: constant + terms (params shared with p->fn) */

static int fail(struct parser *p, size_t at, const char *fmt, ...)
{
  if (!p->failed) {
    va_list ap;
    va_start(ap, fmt);
    if (p->msg && p->msgsize)
      vsnprintf(p->msg, p->msgsize, fmt, ap);
    va_end(ap);
    p->errcol = at;
    p->failed = 1;
  }
  return MV_EPARSE;
}

static void got(struct parser *p, char *buf, size_t size)
{
  if (p->pos >= p->len)
    snprintf(buf, size, "end of input");
  else
    snprintf(buf, size, "'%c'", isprint((unsigned char)p->s[p->pos]) ? p->s[p->pos] : '?');
}

static int expect_fail(struct parser *p, const char *what)
{
  char g[32];
  got(p, g, sizeof g);
  return fail(p, p->pos, "expected %s, got %s", what, g);
}

static void skip_ws(struct parser *p)
{
  while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
    p->pos++;
}

static int peek(struct parser *p)
{
  skip_ws(p);
  return p->pos < p->len ? (unsigned char)p->s[p->pos] : 0;
}

static int eat(struct parser *p, int c)
{
  if (peek(p) != c)
    return 0;
  p->pos++;
  return 1;
}

static void set_const(expr *e, double c)
{
  memset(e, 0, sizeof *e);
  e->constant = c;
}

/* "p, msize": the allowed names for a message. */
static void name_list(const char *const *names, char *buf, size_t size)
{
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; names[i] && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", names[i]);
}

static int allowed(const struct parser *p, const char *name)
{
  if (!p->names)
    return 1;
  for (int i = 0; p->names[i]; i++)
    if (strcmp(p->names[i], name) == 0)
      return 1;
  return 0;
}

static int param_index(struct parser *p, const char *name, size_t at)
{
  if (!allowed(p, name)) {
    char list[160];
    name_list(p->names, list, sizeof list);
    return fail(p, at, "expected a parameter (%s), log, log2, ln or sqrt, got '%s'", list, name);
  }
  for (int i = 0; i < p->fn->nparams; i++)
    if (strcmp(p->fn->params[i], name) == 0)
      return i;
  if (p->fn->nparams == MV_MODEL_MAX_PARAMS)
    return fail(p, at, "expected at most %d parameters, got '%s'", MV_MODEL_MAX_PARAMS, name);
  snprintf(p->fn->params[p->fn->nparams], MV_PARAM_NAME_MAX, "%s", name);
  return p->fn->nparams++;
}

static struct mv_factor *factor_of(struct mv_term *t, int param)
{
  for (int i = 0; i < t->nfactors; i++)
    if (t->f[i].param == param)
      return &t->f[i];
  t->f[t->nfactors] = (struct mv_factor){param, 0, 0, 0};
  return &t->f[t->nfactors++];
}

static int term_is_const(const struct mv_term *t)
{
  for (int i = 0; i < t->nfactors; i++)
    if (t->f[i].poly != 0 || t->f[i].log != 0 || t->f[i].exp2 != 0)
      return 0;
  return 1;
}

static int add_term(struct parser *p, expr *e, const struct mv_term *t, size_t at)
{
  if (t->coef == 0)
    return 0;
  if (term_is_const(t)) {
    e->constant += t->coef;
    return 0;
  }
  if (e->nterms == MV_MODEL_MAX_TERMS)
    return fail(p, at, "expected at most %d terms after expansion", MV_MODEL_MAX_TERMS);
  e->terms[e->nterms++] = *t;
  return 0;
}

static struct mv_term term_mul(const struct mv_term *a, const struct mv_term *b)
{
  struct mv_term t = *a;
  t.coef *= b->coef;
  for (int i = 0; i < b->nfactors; i++) {
    struct mv_factor *f = factor_of(&t, b->f[i].param);
    f->poly += b->f[i].poly;
    f->log += b->f[i].log;
    f->exp2 += b->f[i].exp2;
  }
  return t;
}

static int mul(struct parser *p, expr *a, const expr *b, size_t at)
{
  expr r;
  set_const(&r, a->constant * b->constant);
  struct mv_term ca = {a->constant, 0, {{0}}}, cb = {b->constant, 0, {{0}}};
  for (int i = 0; i < a->nterms; i++) {
    struct mv_term t = term_mul(&a->terms[i], &cb);
    if (add_term(p, &r, &t, at))
      return MV_EPARSE;
    for (int j = 0; j < b->nterms; j++) {
      t = term_mul(&a->terms[i], &b->terms[j]);
      if (add_term(p, &r, &t, at))
        return MV_EPARSE;
    }
  }
  for (int j = 0; j < b->nterms; j++) {
    struct mv_term t = term_mul(&b->terms[j], &ca);
    if (add_term(p, &r, &t, at))
      return MV_EPARSE;
  }
  r.nparams = a->nparams;
  *a = r;
  return 0;
}

/* e^k for a single term or a constant. */
static int power(struct parser *p, expr *e, double k, size_t at)
{
  if (e->nterms == 0) {
    e->constant = pow(e->constant, k);
    return isfinite(e->constant) ? 0 : fail(p, at, "expected a finite constant power");
  }
  if (e->nterms > 1 || e->constant != 0)
    return fail(p, at, "expected a single term before '^', got a sum");
  struct mv_term *t = &e->terms[0];
  t->coef = pow(t->coef, k);
  for (int i = 0; i < t->nfactors; i++) {
    t->f[i].poly *= k;
    t->f[i].log *= k;
    t->f[i].exp2 *= k;
  }
  return 0;
}

static int number(struct parser *p, double *out)
{
  skip_ws(p);
  const char *start = p->s + p->pos;
  size_t n = 0;
  while (p->pos + n < p->len && (isdigit((unsigned char)start[n]) || start[n] == '.'))
    n++;
  if (n == 0 || n > 40)
    return expect_fail(p, "a number");
  char buf[48];
  memcpy(buf, start, n);
  buf[n] = '\0';
  char *end;
  *out = strtod(buf, &end);
  if ((size_t)(end - buf) != n)
    return expect_fail(p, "a number");
  p->pos += n;
  return 0;
}

/* A letter right after an exponent's digits: p^1e308 is no product p * e308. */
static int glued(struct parser *p)
{
  if (p->pos < p->len && isalpha((unsigned char)p->s[p->pos]))
    return expect_fail(p, "a space or an operator after the exponent (such as 2, 1/2, (5/4))");
  return 0;
}

/* An exponent: 2, 1/2, 0.67, (5/4), (-1/2), -1. */
static int exponent(struct parser *p, double *out)
{
  int paren = eat(p, '('), neg = eat(p, '-');
  double a, b = 1;
  if (number(p, &a) || glued(p))
    return MV_EPARSE;
  size_t save = p->pos;
  if (eat(p, '/')) {
    if (!isdigit(peek(p)))
      p->pos = save;   /* a quotient, not a fraction: p^0.5/log p */
    else if (number(p, &b) || glued(p))
      return MV_EPARSE;
  }
  if (b == 0)
    return fail(p, p->pos, "expected a non-zero denominator");
  if (paren && !eat(p, ')'))
    return expect_fail(p, "')'");
  *out = (neg ? -a : a) / b;
  return 0;
}

static int sum(struct parser *p, expr *e);
static int primary(struct parser *p, expr *e);

static int ident(struct parser *p, char *buf, size_t size)
{
  size_t n = 0;
  while (p->pos < p->len && (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')) {
    if (n + 1 < size)
      buf[n++] = p->s[p->pos];
    p->pos++;
  }
  buf[n] = '\0';
  return (int)n;
}

/* The argument of log must be one parameter (or a power of one). */
static int log_of(struct parser *p, expr *e, double k, size_t at)
{
  expr arg;
  size_t argat = (skip_ws(p), p->pos);
  if (primary(p, &arg))
    return MV_EPARSE;
  if (arg.nterms != 1 || arg.constant != 0 || arg.terms[0].nfactors != 1 ||
      arg.terms[0].f[0].log != 0 || arg.terms[0].f[0].exp2 != 0)
    return fail(p, argat, "expected a parameter as the argument of log");
  set_const(e, 0);
  struct mv_term t = {1.0, 1, {{arg.terms[0].f[0].param, 0, k, 0}}};
  (void)at;
  return add_term(p, e, &t, at);
}

static int function_call(struct parser *p, const char *name, expr *e, size_t at)
{
  if (strcmp(name, "log") == 0 || strcmp(name, "log2") == 0 || strcmp(name, "ln") == 0 ||
      strcmp(name, "lg") == 0) {
    double k = 1;
    if (eat(p, '^') && exponent(p, &k))
      return MV_EPARSE;
    return log_of(p, e, k, at);
  }
  if (strcmp(name, "sqrt") == 0) {
    if (peek(p) != '(')
      return expect_fail(p, "'(' after sqrt");
    return primary(p, e) || power(p, e, 0.5, at);
  }
  if (p->pos < p->len && p->s[p->pos] == '(')   /* name( is a call: exp(p), max(p) */
    return fail(p, at, "expected log, log2, ln, sqrt or a parameter, got the unknown function "
                "'%s'", name);
  set_const(e, 0);
  int idx = param_index(p, name, at);
  if (idx < 0)
    return idx;
  struct mv_term t = {1.0, 1, {{idx, 1, 0, 0}}};
  return add_term(p, e, &t, at);
}

/* base^(c x): an exponential factor. */
static int exponential(struct parser *p, expr *e, double base, size_t at)
{
  expr x;
  size_t xat = (skip_ws(p), p->pos);
  if (primary(p, &x))
    return MV_EPARSE;
  if (x.nterms == 0) {
    set_const(e, pow(base, x.constant));
    return 0;
  }
  const struct mv_factor *f = &x.terms[0].f[0];
  if (x.nterms != 1 || x.constant != 0 || x.terms[0].nfactors != 1 || f->poly != 1 ||
      f->log != 0 || f->exp2 != 0 || !(base > 1))
    return fail(p, xat, "expected an exponent linear in one parameter, as in 2^(p/2)");
  set_const(e, 0);
  struct mv_term t = {1.0, 1, {{f->param, 0, 0, x.terms[0].coef * log2(base)}}};
  return add_term(p, e, &t, at);
}

static int primary(struct parser *p, expr *e)
{
  if (++p->depth > 64)
    return fail(p, p->pos, "expected less nesting");
  int c = peek(p), rc;
  size_t at = p->pos;
  if (c == '(') {
    p->pos++;
    rc = sum(p, e);
    if (rc == 0 && !eat(p, ')'))
      rc = expect_fail(p, "')'");
  } else if (isdigit(c) || c == '.') {
    double v;
    rc = number(p, &v);
    if (rc == 0 && peek(p) == '^' && p->s[p->pos] == '^' && v > 1) {
      p->pos++;
      rc = exponential(p, e, v, at);
    } else if (rc == 0) {
      set_const(e, v);
    }
  } else if (isalpha(c)) {
    char name[MV_PARAM_NAME_MAX];
    ident(p, name, sizeof name);
    rc = function_call(p, name, e, at);
  } else {
    rc = expect_fail(p, "a number, a parameter, log, sqrt or '('");
  }
  p->depth--;
  return rc;
}

static int factor(struct parser *p, expr *e)
{
  size_t at = (skip_ws(p), p->pos);
  if (primary(p, e))
    return MV_EPARSE;
  double k;
  if (eat(p, '^'))
    return exponent(p, &k) || power(p, e, k, at);
  return 0;
}

static int starts_primary(int c)
{
  return c == '(' || isalnum(c) || c == '.';
}

static int product(struct parser *p, expr *e)
{
  if (factor(p, e))
    return MV_EPARSE;
  for (;;) {
    int c = peek(p), div = c == '/';
    size_t at = p->pos;
    if (c == '*' || div)
      p->pos++;
    else if (!starts_primary(c))
      return 0;
    expr r;
    if (factor(p, &r))
      return MV_EPARSE;
    if (div && (r.nterms > 1 || (r.nterms == 1 && r.constant != 0) ||
                (r.nterms == 0 && r.constant == 0)))
      return fail(p, at, "expected a single non-zero term after '/'");
    if (div && power(p, &r, -1, at))
      return MV_EPARSE;
    if (mul(p, e, &r, at))
      return MV_EPARSE;
  }
}

static int sum(struct parser *p, expr *e)
{
  if (product(p, e))
    return MV_EPARSE;
  while (eat(p, '+')) {
    size_t at = p->pos;
    expr r;
    if (product(p, &r))
      return MV_EPARSE;
    e->constant += r.constant;
    for (int i = 0; i < r.nterms; i++)
      if (add_term(p, e, &r.terms[i], at))
        return MV_EPARSE;
  }
  return 0;
}

/* Merge equal terms, set every coefficient (and a present constant) to 1. */
static void normalise(struct mv_function *f)
{
  int n = 0;
  for (int i = 0; i < f->nterms; i++) {
    int j;
    for (j = 0; j < n; j++)
      if (mv_term_compare(&f->terms[j], &f->terms[i]) == 0)
        break;
    if (j == n)
      f->terms[n++] = f->terms[i];
  }
  f->nterms = n;
  for (int i = 0; i < n; i++)
    f->terms[i].coef = 1.0;
  f->constant = f->constant != 0 || n == 0 ? 1.0 : 0.0;
}

int mv_bigo_parse(const char *text, size_t len, struct mv_function *out, size_t *errcol,
                  char *msg, size_t msgsize)
{
  return mv_bigo_parse_in(text, len, NULL, out, errcol, msg, msgsize);
}

int mv_bigo_parse_in(const char *text, size_t len, const char *const *params,
                     struct mv_function *out, size_t *errcol, char *msg, size_t msgsize)
{
  struct mv_function names;
  memset(&names, 0, sizeof names);
  struct parser p = {text, len, 0, &names, params, 0, msg, msgsize, 0, 0};
  skip_ws(&p);
  int wrapped = p.pos + 1 < len && text[p.pos] == 'O' && (eat(&p, 'O'), peek(&p) == '(');
  if (wrapped)
    p.pos++;
  expr e;
  int rc = sum(&p, &e);
  if (rc == 0 && wrapped && !eat(&p, ')'))
    rc = expect_fail(&p, "')' closing O(");
  if (rc == 0 && peek(&p) != 0)
    rc = expect_fail(&p, wrapped ? "end of expression after O(...)" : "an operator");
  if (rc) {
    if (errcol)
      *errcol = p.errcol;
    return MV_EPARSE;
  }
  e.nparams = names.nparams;
  memcpy(e.params, names.params, sizeof e.params);
  normalise(&e);
  *out = e;
  return 0;
}
