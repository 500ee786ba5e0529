/* Validation of fitted models (paper section 2.4): leading-order terms, deviation limits
 * E/D and E*D, the exact/approximate/none match, the divergence G/E, and cross-function rules
 * A <= B + C on leading-order terms with the warning when a rule is predicted to break. */
#include <math.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/expect.h"

static const char *const match_names[] = {"none", "approximate", "exact"};
static const char *const rule_names[] = {"holds", "holds in order (values break it)",
                                         "predicted to break at larger scale", "violated"};

const char *mv_match_name(enum mv_match m)
{
  return (unsigned)m < 3 ? match_names[m] : "?";
}

const char *mv_rule_status_name(enum mv_rule_status s)
{
  return (unsigned)s < 4 ? rule_names[s] : "?";
}

int mv_rule_failed(enum mv_rule_status s)
{
  return s == MV_RULE_BREAKS_LATER || s == MV_RULE_VIOLATED;
}

/* a * b^sign, factor by factor. */
static struct mv_term term_combine(const struct mv_term *a, const struct mv_term *b, double sign)
{
  struct mv_term t = *a;
  for (int i = 0; i < b->nfactors; i++) {
    int j;
    for (j = 0; j < t.nfactors && t.f[j].param != b->f[i].param; j++)
      ;
    if (j == t.nfactors)
      t.f[t.nfactors++] = (struct mv_factor){b->f[i].param, 0, 0, 0};
    t.f[j].poly += sign * b->f[i].poly;
    t.f[j].log += sign * b->f[i].log;
    t.f[j].exp2 += sign * b->f[i].exp2;
  }
  t.coef = 1.0;
  return t;
}

static struct mv_term lead_term(const struct mv_function *l, int i)
{
  static const struct mv_term one = {1.0, 0, {{0}}};
  return l->nterms ? l->terms[i] : one;
}

/* The model's terms restated in the expectation's parameters; other factors are dropped. */
static int project(const struct mv_function *model, const struct mv_function *e,
                   struct mv_function *out)
{
  *out = *model;
  out->nparams = e->nparams;
  memcpy(out->params, e->params, sizeof out->params);
  int map[MV_MODEL_MAX_PARAMS];
  for (int i = 0; i < model->nparams; i++) {
    map[i] = -1;
    for (int j = 0; j < e->nparams; j++)
      if (strcmp(model->params[i], e->params[j]) == 0)
        map[i] = j;
    if (model->nparams == 1 && e->nparams <= 1)
      map[i] = 0;
  }
  for (int t = 0; t < out->nterms; t++) {
    struct mv_term *term = &out->terms[t];
    int n = 0;
    for (int k = 0; k < term->nfactors; k++)
      if (term->f[k].param < model->nparams && map[term->f[k].param] >= 0) {
        term->f[n] = term->f[k];
        term->f[n++].param = map[term->f[k].param];
      }
    term->nfactors = n;
  }
  return 0;
}

static int same_set(const struct mv_function *a, const struct mv_function *b)
{
  int na = a->nterms ? a->nterms : 1, nb = b->nterms ? b->nterms : 1;
  for (int i = 0; i < na; i++) {
    struct mv_term ta = lead_term(a, i);
    int found = 0;
    for (int j = 0; j < nb && !found; j++) {
      struct mv_term tb = lead_term(b, j);
      found = mv_term_compare(&ta, &tb) == 0;
    }
    if (!found)
      return 0;
  }
  return na == nb;
}

/* O(1) names no parameter: it speaks about all of the model's. */
static void adopt_params(struct mv_function *f, const struct mv_function *model)
{
  if (f->nparams == 0) {
    f->nparams = model->nparams;
    memcpy(f->params, model->params, sizeof f->params);
  }
}

int mv_expect_evaluate(const struct mv_expectation *e, const struct mv_function *model,
                       struct mv_verdict *v)
{
  struct mv_function g, el, dl, ex = e->expect, dx = e->deviation;
  memset(v, 0, sizeof *v);
  adopt_params(&ex, model);
  adopt_params(&dx, &ex);
  project(model, &ex, &g);
  mv_function_leading(&g, &v->lead);
  mv_function_leading(&ex, &el);
  mv_function_leading(&dx, &dl);
  struct mv_term et = lead_term(&el, 0), dt = lead_term(&dl, 0);
  v->lower = v->upper = v->divergence = el;
  v->lower.nterms = v->upper.nterms = 1;
  v->lower.constant = v->upper.constant = 0;
  v->lower.terms[0] = term_combine(&et, &dt, -1);
  v->upper.terms[0] = term_combine(&et, &dt, 1);
  v->divergence.constant = 0;
  int n = v->lead.nterms ? v->lead.nterms : 1, inside = 1;
  v->divergence.nterms = n;
  for (int i = 0; i < n; i++) {
    struct mv_term gt = lead_term(&v->lead, i);
    v->divergence.terms[i] = term_combine(&gt, &et, -1);
    int lo = mv_term_compare(&gt, &v->lower.terms[0]), hi = mv_term_compare(&gt, &v->upper.terms[0]);
    inside &= (lo == 0 || lo == 1) && (hi == 0 || hi == -1);
  }
  v->match = same_set(&v->lead, &el) ? MV_MATCH_EXACT : inside ? MV_MATCH_APPROX : MV_MATCH_NONE;
  return 0;
}

static double rhs_sum(const struct mv_function *const *rhs, size_t nrhs, const double *x)
{
  double s = 0.0;
  for (size_t i = 0; i < nrhs; i++)
    s += mv_function_eval(rhs[i], x);
  return s;
}

static int breaks_at(const struct mv_function *lhs, const struct mv_function *const *rhs,
                     size_t nrhs, const double *x)
{
  double a = mv_function_eval(lhs, x), b = rhs_sum(rhs, nrhs, x);
  return a > b + 1e-9 * fabs(b);
}

int mv_rule_evaluate(const struct mv_function *lhs, const struct mv_function *const *rhs,
                     size_t nrhs, const double *xs, size_t npts, struct mv_rule_verdict *v)
{
  if (nrhs == 0 || nrhs > MV_RULE_MAX_RHS)
    return MV_EINVAL;
  memset(v, 0, sizeof *v);
  mv_function_leading(lhs, &v->lhs_lead);
  struct mv_function all = *rhs[0];
  all.nterms = 0;
  all.constant = 0;
  for (size_t i = 0; i < nrhs; i++) {
    struct mv_function l;
    mv_function_leading(rhs[i], &l);
    all.constant += l.constant;
    for (int j = 0; j < l.nterms && all.nterms < MV_MODEL_MAX_TERMS; j++)
      all.terms[all.nterms++] = l.terms[j];
  }
  mv_function_leading(&all, &v->rhs_lead);
  int order_ok = 1;
  for (int i = 0; i < (v->lhs_lead.nterms ? v->lhs_lead.nterms : 1); i++) {
    struct mv_term a = lead_term(&v->lhs_lead, i);
    int covered = 0;
    for (int j = 0; j < (v->rhs_lead.nterms ? v->rhs_lead.nterms : 1) && !covered; j++) {
      struct mv_term b = lead_term(&v->rhs_lead, j);
      int c = mv_term_compare(&a, &b);
      covered = c == 0 || c == -1;
    }
    order_ok &= covered;
  }
  int measured_ok = 1;
  double xmax = 1;
  for (size_t i = 0; i < npts; i++) {
    measured_ok &= !breaks_at(lhs, rhs, nrhs, xs + i * (size_t)lhs->nparams);
    xmax = fmax(xmax, xs[i * (size_t)lhs->nparams]);
  }
  v->crossover = NAN;
  if (lhs->nparams == 1)
    for (double x = exp2(ceil(log2(xmax))); x <= 0x1p40 && isnan(v->crossover); x *= 2)
      if (breaks_at(lhs, rhs, nrhs, &x))
        v->crossover = x;
  v->status = order_ok ? (measured_ok ? MV_RULE_HOLDS : MV_RULE_HOLDS_ORDER)
                       : (measured_ok ? MV_RULE_BREAKS_LATER : MV_RULE_VIOLATED);
  return 0;
}
