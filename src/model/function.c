/* PMNF functions: evaluation, Extra-P style formatting with exact fractional exponents, and
 * Extra-P's default one-parameter search space. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/model.h"

#define TERM(poly, lg) {1.0, 1, {{0, (poly), (lg), 0.0}}}
#define POLY3(poly) TERM(poly, 0), TERM(poly, 1), TERM(poly, 2)

static const struct mv_term default_space[] = {
  TERM(0, 1), TERM(0, 2),
  POLY3(1.0 / 4), POLY3(1.0 / 3), POLY3(1.0 / 2), POLY3(2.0 / 3), POLY3(3.0 / 4),
  POLY3(4.0 / 5), POLY3(1), POLY3(5.0 / 4), POLY3(4.0 / 3), POLY3(3.0 / 2), POLY3(5.0 / 3),
  POLY3(7.0 / 4), POLY3(2), POLY3(9.0 / 4), POLY3(7.0 / 3), POLY3(5.0 / 2), POLY3(8.0 / 3),
  POLY3(11.0 / 4), POLY3(3),
};

const struct mv_term *mv_model_default_space(size_t *n)
{
  *n = sizeof default_space / sizeof default_space[0];
  return default_space;
}

double mv_term_eval(const struct mv_term *t, const double *coords)
{
  double v = 1.0;
  for (int i = 0; i < t->nfactors; i++) {
    const struct mv_factor *f = &t->f[i];
    double x = coords[f->param];
    if (f->poly != 0.0)
      v *= pow(x, f->poly);
    if (f->log != 0.0)
      v *= pow(log2(x), f->log);
    if (f->exp2 != 0.0)
      v *= exp2(f->exp2 * x);
  }
  return v;
}

double mv_function_eval(const struct mv_function *f, const double *coords)
{
  double v = f->constant;
  for (int i = 0; i < f->nterms; i++)
    v += f->terms[i].coef * mv_term_eval(&f->terms[i], coords);
  return v;
}

void mv_exponent_format(double x, char *buf, size_t size)
{
  for (int den = 1; den <= 12; den++) {
    double num = round(x * den);
    if (fabs(x - num / den) < 1e-9) {
      if (den == 1)
        snprintf(buf, size, "%.0f", num);
      else
        snprintf(buf, size, "%.0f/%d", num, den);
      return;
    }
  }
  snprintf(buf, size, "%.6g", x);
}

/* Appends to buf at *len; keeps counting past the end so the caller can report MV_ERANGE. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, const char *a,
                const char *b)
{
  int w = snprintf(*len < size ? buf + *len : NULL, *len < size ? size - *len : 0, fmt, a, b);
  if (w > 0)
    *len += (size_t)w;
}

static void factor_format(const struct mv_function *fn, const struct mv_factor *f, char *buf,
                          size_t size, size_t *len)
{
  const char *name = fn->params[f->param];
  char e[32];
  int first = 1;
  if (f->poly != 0.0) {
    mv_exponent_format(f->poly, e, sizeof e);
    put(buf, size, len, "%s^(%s)", name, e);
    first = 0;
  }
  if (f->log != 0.0) {
    mv_exponent_format(f->log, e, sizeof e);
    put(buf, size, len, first ? "log2(%s)^(%s)" : " * log2(%s)^(%s)", name, e);
    first = 0;
  }
  if (f->exp2 != 0.0) {
    mv_exponent_format(f->exp2, e, sizeof e);
    put(buf, size, len, first ? "2^(%s*%s)" : " * 2^(%s*%s)", e, name);
  }
}

int mv_function_format(const struct mv_function *f, char *buf, size_t size)
{
  size_t len = 0;
  char num[40];
  if (size)
    buf[0] = '\0';
  snprintf(num, sizeof num, "%.6g", f->constant);
  put(buf, size, &len, "%s%s", num, "");
  for (int i = 0; i < f->nterms; i++) {
    const struct mv_term *t = &f->terms[i];
    snprintf(num, sizeof num, "%.6g", fabs(t->coef));
    put(buf, size, &len, t->coef < 0 ? " - %s" : " + %s", num, "");
    for (int j = 0; j < t->nfactors; j++) {
      put(buf, size, &len, " * ", "", "");
      factor_format(f, &t->f[j], buf, size, &len);
    }
  }
  return len < size ? (int)len : MV_ERANGE;
}
