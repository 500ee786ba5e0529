/* Asymptotic order of PMNF terms: comparison, leading-order terms, the paper's function
 * classes, the default deviation D(x) and the expectation-driven search space (section 2.3). */
#include <math.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/expect.h"

#define EPS 1e-9

static int cmp_num(double a, double b)
{
  return a < b - EPS ? -1 : a > b + EPS ? 1 : 0;
}

static struct mv_factor factor_or_zero(const struct mv_term *t, int param)
{
  for (int i = 0; i < t->nfactors; i++)
    if (t->f[i].param == param)
      return t->f[i];
  return (struct mv_factor){param, 0, 0, 0};
}

/* Growth order of one factor: exponential first, then polynomial, then logarithm. */
static int cmp_factor(const struct mv_factor *a, const struct mv_factor *b)
{
  int c = cmp_num(a->exp2, b->exp2);
  if (!c)
    c = cmp_num(a->poly, b->poly);
  if (!c)
    c = cmp_num(a->log, b->log);
  return c;
}

int mv_term_compare(const struct mv_term *a, const struct mv_term *b)
{
  int less = 0, more = 0;
  for (int param = 0; param < MV_MODEL_MAX_PARAMS; param++) {
    struct mv_factor fa = factor_or_zero(a, param), fb = factor_or_zero(b, param);
    int c = cmp_factor(&fa, &fb);
    less |= c < 0;
    more |= c > 0;
  }
  return less && more ? 2 : less ? -1 : more ? 1 : 0;
}

void mv_function_leading(const struct mv_function *f, struct mv_function *out)
{
  static const struct mv_term one = {1.0, 0, {{0}}};
  struct mv_function r = *f;
  int has_const = f->constant != 0 || f->nterms == 0, grows = 0;
  r.nterms = 0;
  r.constant = 0;
  for (int i = 0; i < f->nterms; i++) {
    const struct mv_term *t = &f->terms[i];
    int c1 = mv_term_compare(t, &one), dominated = t->coef == 0 || c1 == 0;
    has_const |= t->coef != 0 && c1 == 0;
    for (int j = 0; j < f->nterms && !dominated; j++)
      dominated = f->terms[j].coef != 0 && mv_term_compare(t, &f->terms[j]) == -1;
    for (int j = 0; j < r.nterms && !dominated; j++)
      dominated = mv_term_compare(t, &r.terms[j]) == 0;
    if (!dominated) {
      grows |= c1 != -1;
      r.terms[r.nterms] = *t;
      r.terms[r.nterms++].coef = 1.0;
    }
  }
  /* Terms that shrink (1/log p) lead only when nothing else, not even a constant, is there. */
  if (has_const && !grows)
    r.nterms = 0;
  if (r.nterms == 0)
    r.constant = 1.0;
  *out = r;
}

enum mv_fclass mv_term_class(const struct mv_term *t, double *exponent)
{
  struct mv_factor f = t->nfactors ? t->f[0] : (struct mv_factor){0, 0, 0, 0};
  if (f.exp2 != 0) {
    *exponent = f.exp2;
    return MV_FCLASS_EXP;
  }
  if (f.poly != 0) {
    *exponent = f.poly;
    return MV_FCLASS_POLY;
  }
  *exponent = f.log;
  return MV_FCLASS_LOG;
}

/* The single-parameter term of class c with exponent e (and lower-class part lower). */
static struct mv_term class_term(enum mv_fclass c, double e, double lower)
{
  struct mv_term t = {1.0, 1, {{0, 0, 0, 0}}};
  if (c == MV_FCLASS_EXP) {
    t.f[0].exp2 = e;
    t.f[0].poly = lower;
  } else if (c == MV_FCLASS_POLY) {
    t.f[0].poly = e;
    t.f[0].log = lower;
  } else {
    t.f[0].log = e;
  }
  return t;
}

static int single_lead(const struct mv_function *e, struct mv_term *lead)
{
  struct mv_function l;
  mv_function_leading(e, &l);
  if (l.nterms > 1 || e->nparams > 1)
    return MV_EINVAL;
  *lead = l.nterms ? l.terms[0] : (struct mv_term){1.0, 0, {{0}}};
  return 0;
}

int mv_expect_default_deviation(const struct mv_function *expect, struct mv_function *out)
{
  struct mv_function l;
  mv_function_leading(expect, &l);
  *out = l;
  out->nterms = l.nterms ? 1 : 0;
  if (!l.nterms)
    return 0;
  /* Halve the class exponent of every factor of the (first) leading term. */
  struct mv_term *t = &out->terms[0];
  for (int j = 0; j < t->nfactors; j++) {
    struct mv_term one = {1.0, 1, {t->f[j]}};
    double e;
    enum mv_fclass c = mv_term_class(&one, &e);
    struct mv_term h = class_term(c, e / 2, 0);
    h.f[0].param = t->f[j].param;
    t->f[j] = h.f[0];
  }
  return 0;
}

int mv_expect_search_space(const struct mv_function *expect, int steps, struct mv_term *out,
                           size_t cap, size_t *n)
{
  struct mv_term lead;
  if (steps < 0 || steps > 8 || single_lead(expect, &lead))
    return MV_EINVAL;
  double e;
  enum mv_fclass c = mv_term_class(&lead, &e);
  size_t nt = 2;
  double ticks[1 + (2u << 8)];
  ticks[0] = 0;
  ticks[1] = e;
  ticks[2] = 2 * e;
  nt = e == 0 ? 1 : 3;
  for (int s = 0; s < steps && nt > 1; s++) {
    for (size_t i = nt - 1; i > 0; i--)
      ticks[2 * i] = ticks[i];
    for (size_t i = 1; i < 2 * nt - 1; i += 2)
      ticks[i] = (ticks[i - 1] + ticks[i + 1]) / 2;
    nt = 2 * nt - 1;
  }
  *n = 0;
  for (size_t i = 0; i < nt; i++) {
    int small = c != MV_FCLASS_LOG && i + 1 < nt;
    if (*n + 1 + (size_t)small > cap)
      return MV_ERANGE;
    out[(*n)++] = class_term(c, ticks[i], 0);
    if (small)
      out[(*n)++] = class_term(c, ticks[i], 1);
  }
  return 0;
}
