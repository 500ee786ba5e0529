/* PMNF functions: evaluation, Extra-P style formatting with exact fractional exponents, and
 * Extra-P's default one-parameter search space. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/model.h"

#define TERM(poly, lg) {1.0, 1, {{0, (poly), (lg), 0.0}}}

/* Extra-P 4.2.5's default building blocks, in its order (extrap/modelers/single_parameter/basic.py,
 * create_default_building_blocks with log terms): 42 terms, not every exponent times every log
 * power. Log factors go with 1/4, 1/3, 1/2, 2/3, 3/4, 1, 3/2, 2, 5/2 (log^1 also with 5/4, 4/3, 3);
 * none with 4/5, 5/3, 7/4, 9/4, 7/3, 8/3, 11/4. Until stop 28 mpivet searched all 59 products,
 * and a log factor on an exponent between grid points bent it onto a neighbour: x^(5/3) log2(x)^2
 * won on 4 points of Extra-P's synthetic 1 + 0.2 x^2 (docs/model.md). */
static const struct mv_term default_space[] = {
  TERM(0, 1),         TERM(0, 2),         TERM(1.0 / 4, 0),   TERM(1.0 / 3, 0),
  TERM(1.0 / 4, 1),   TERM(1.0 / 3, 1),   TERM(1.0 / 4, 2),   TERM(1.0 / 3, 2),
  TERM(1.0 / 2, 0),   TERM(1.0 / 2, 1),   TERM(1.0 / 2, 2),   TERM(2.0 / 3, 0),
  TERM(3.0 / 4, 0),   TERM(2.0 / 3, 1),   TERM(3.0 / 4, 1),   TERM(4.0 / 5, 0),
  TERM(2.0 / 3, 2),   TERM(3.0 / 4, 2),   TERM(1, 0),         TERM(1, 1),
  TERM(1, 2),         TERM(5.0 / 4, 0),   TERM(5.0 / 4, 1),   TERM(4.0 / 3, 0),
  TERM(4.0 / 3, 1),   TERM(3.0 / 2, 0),   TERM(3.0 / 2, 1),   TERM(3.0 / 2, 2),
  TERM(5.0 / 3, 0),   TERM(7.0 / 4, 0),   TERM(2, 0),         TERM(2, 1),
  TERM(2, 2),         TERM(9.0 / 4, 0),   TERM(7.0 / 3, 0),   TERM(5.0 / 2, 0),
  TERM(5.0 / 2, 1),   TERM(5.0 / 2, 2),   TERM(8.0 / 3, 0),   TERM(11.0 / 4, 0),
  TERM(3, 0),         TERM(3, 1),
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
