/* The cross-function rules of an expectation file on judged series: a rule applies to each
 * modeled lhs series of its metric (and size, with msize=); its rhs are the modeled series of
 * the same metric, size and library; a missing one leaves the rule not evaluated. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mpivet/judge.h"
#include "internal.h"

static int same_size(const struct mv_judgement *a, const struct mv_judgement *b)
{
  return a->sized == b->sized && (!a->sized || mv_msize_spec_equal(&a->size, &b->size));
}

/* The modeled judgement of function name beside lhs, or NULL. */
static const struct mv_judgement *partner(const struct mv_judgements *js,
                                          const struct mv_judgement *lhs, const char *name)
{
  for (size_t i = 0; i < js->n; i++) {
    const struct mv_judgement *j = &js->j[i];
    if (strcmp(j->function, name) == 0 && strcmp(j->metric, lhs->metric) == 0 &&
        strcmp(j->library, lhs->library) == 0 && same_size(j, lhs) && mv_judgement_modeled(j))
      return j;
  }
  return NULL;
}

static int applies(const struct mv_rule *r, const struct mv_judgement *j)
{
  return mv_judgement_modeled(j) && j->kernel != SIZE_MAX && strcmp(r->lhs, j->function) == 0 &&
         (strcmp(r->metric, "*") == 0 || strcmp(r->metric, j->metric) == 0) &&
         (!r->msize_given || (j->sized && mv_msize_spec_equal(&r->msize, &j->size)));
}

static void rule_text(const struct mv_rule *r, char *buf, size_t size)
{
  size_t len = (size_t)snprintf(buf, size, "%s <=", r->lhs);
  for (int i = 0; i < r->nrhs && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s %s", i ? " +" : "", r->rhs[i]);
}

/* Evaluate rule r on lhs judgement i into out. */
static int evaluate(const struct mv_judgements *js, const struct mv_rule *r, size_t i,
                    struct mv_rule_judgement *out)
{
  const struct mv_judgement *lhs = &js->j[i];
  const struct mv_function *rhs[MV_RULE_MAX_RHS];
  memset(out, 0, sizeof *out);
  rule_text(r, out->text, sizeof out->text);
  out->lhs = i;
  snprintf(out->metric, sizeof out->metric, "%s", lhs->metric);
  out->sized = lhs->sized;
  out->size = lhs->size;
  snprintf(out->param, sizeof out->param, "%s", lhs->model.fn.params[0]);
  for (int k = 0; k < r->nrhs; k++) {
    const struct mv_judgement *p = partner(js, lhs, r->rhs[k]);
    if (!p) {
      snprintf(out->missing, sizeof out->missing, "%s", r->rhs[k]);
      return 0;
    }
    rhs[k] = &p->model.fn;
  }
  const struct mv_series *s = &js->ks.k[lhs->kernel].series;
  int rc = mv_rule_evaluate(&lhs->model.fn, rhs, (size_t)r->nrhs, s->coords, s->npoints, &out->v);
  if (rc)
    return rc;
  out->evaluated = 1;
  out->failed = mv_rule_failed(out->v.status);
  return 0;
}

int mv__judge_rules(struct mv_judgements *js, const struct mv_expect_file *ef)
{
  for (size_t r = 0; r < ef->nrules; r++)
    for (size_t i = 0; i < js->n; i++) {
      if (!applies(&ef->rules[r], &js->j[i]))
        continue;
      if (mv_grow(&js->rules, &js->rcap_, js->nrules + 1, sizeof *js->rules, 8) < 0)
        return MV_ENOMEM;
      int rc = evaluate(js, &ef->rules[r], i, &js->rules[js->nrules]);
      if (rc)
        return rc;
      js->nrules++;
    }
  return 0;
}

const char *mv_rule_judgement_status(const struct mv_rule_judgement *r)
{
  return r->evaluated ? mv_rule_status_name(r->v.status) : "not evaluated";
}

void mv_rule_judgement_detail(const struct mv_rule_judgement *r, char *buf, size_t size)
{
  char a[96], b[96];
  if (!r->evaluated) {
    snprintf(buf, size, "no model for %s", r->missing);
    return;
  }
  mv_bigo_format(&r->v.lhs_lead, a, sizeof a);
  mv_bigo_format(&r->v.rhs_lead, b, sizeof b);
  if (isnan(r->v.crossover))
    snprintf(buf, size, "leading order %s vs %s", a, b);
  else
    snprintf(buf, size, "leading order %s vs %s; lhs exceeds rhs from %s = %g", a, b, r->param,
             r->v.crossover);
}
