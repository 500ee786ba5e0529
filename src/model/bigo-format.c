/* Big-O text for terms, functions and search spaces, in the notation the parser reads back:
 * "p^(1/4) log p", "O(p^(1/2)/log p)", "{1, log p, p^(1/4), ...}". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/expect.h"

struct out {
  char *buf;
  size_t size, len;
};

static void emit(struct out *o, const char *s)
{
  size_t n = strlen(s);
  if (o->len + n < o->size)
    memcpy(o->buf + o->len, s, n + 1);
  o->len += n;
}

static void part(char *buf, size_t size, const char *name, int kind, double e)
{
  char x[32];
  double a = fabs(e);
  mv_exponent_format(a, x, sizeof x);
  int plain = a == 1.0, integer = a == floor(a) && a < 1e6;
  if (kind == 2)          /* exponential */
    snprintf(buf, size, plain ? "2^%s" : "2^(%s %s)", plain ? name : x, name);
  else if (kind == 0)     /* polynomial */
    snprintf(buf, size, plain ? "%s" : integer ? "%s^%s" : "%s^(%s)", name, x);
  else if (plain)
    snprintf(buf, size, "log %s", name);
  else
    snprintf(buf, size, integer ? "log^%s %s" : "log^(%s) %s", x, name);
}

/* Writes the factors whose exponents have the wanted sign; returns how many. */
static int parts(struct out *o, const struct mv_function *f, const struct mv_term *t, int sign)
{
  int count = 0;
  for (int i = 0; i < t->nfactors; i++) {
    const struct mv_factor *fa = &t->f[i];
    const char *name = fa->param < f->nparams ? f->params[fa->param] : "x";
    double e[3] = {fa->poly, fa->log, fa->exp2};
    for (int k = 0; k < 3; k++) {
      if (e[k] == 0 || (e[k] > 0) != (sign > 0))
        continue;
      char p[96];
      part(p, sizeof p, name, k, e[k]);
      if (count++)
        emit(o, " ");
      emit(o, p);
    }
  }
  return count;
}

static int count_parts(const struct mv_function *f, const struct mv_term *t, int sign)
{
  char tmp[512];
  struct out o = {tmp, sizeof tmp, 0};
  return parts(&o, f, t, sign);
}

static void term_bigo(struct out *o, const struct mv_function *f, const struct mv_term *t)
{
  if (parts(o, f, t, 1) == 0)
    emit(o, "1");
  int den = count_parts(f, t, -1);
  if (den == 0)
    return;
  emit(o, den > 1 ? "/(" : "/");
  parts(o, f, t, -1);
  if (den > 1)
    emit(o, ")");
}

static int finish(struct out *o)
{
  return o->len < o->size ? (int)o->len : MV_ERANGE;
}

int mv_bigo_format(const struct mv_function *f, char *buf, size_t size)
{
  struct out o = {buf, size, 0};
  if (size)
    buf[0] = '\0';
  emit(&o, "O(");
  for (int i = 0; i < f->nterms; i++) {
    if (i)
      emit(&o, " + ");
    term_bigo(&o, f, &f->terms[i]);
  }
  if (f->nterms == 0)
    emit(&o, "1");
  emit(&o, ")");
  return finish(&o);
}

int mv_search_space_format(const struct mv_function *expect, const struct mv_term *terms,
                           size_t n, char *buf, size_t size)
{
  struct out o = {buf, size, 0};
  if (size)
    buf[0] = '\0';
  emit(&o, "{");
  for (size_t i = 0; i < n; i++) {
    if (i)
      emit(&o, ", ");
    term_bigo(&o, expect, &terms[i]);
  }
  emit(&o, "}");
  return finish(&o);
}
