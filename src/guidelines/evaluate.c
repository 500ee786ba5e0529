/* Guideline verdicts (PGMPI section IV-C): per configuration (library, engine, nprocs), the
 * pattern and monotony guidelines are one-sided two-sample tests on the launch medians (or raw
 * repetitions), corrected for multiple testing, or on deterministic data (SMPI, identical
 * launches) the slowdown alone; split-robustness compares medians with a tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/grow.h"
#include "mpivet/engine.h"
#include "mpivet/error.h"
#include "mpivet/guidelines.h"

/* The values a group contributes to a test and their median; computed once per group. */
struct sample {
  int done;
  size_t n;
  double *v;
  double median;
  int launches;             /* launches with values */
  int flat;                 /* every launch median is the same value */
};

struct ctx {
  const struct mv_gl_options *opt;
  struct mv_dataset *ds;
  struct mv_gl_report *rep;
  struct sample *cache;     /* one per dataset group */
  size_t *idx;              /* groups of the current configuration, in dataset order */
  size_t nidx;
  size_t config;
  size_t first_check;       /* first check of the current configuration */
  int det_engine;           /* the configuration's engine is deterministic (mv_engine_facts) */
};

void mv_gl_report_init(struct mv_gl_report *rep)
{
  memset(rep, 0, sizeof *rep);
  mv_gl_options_init(&rep->options);
}

void mv_gl_report_release(struct mv_gl_report *rep)
{
  free(rep->checks);
  free(rep->configs);
  mv_gl_report_init(rep);
}

/* Launch medians equal up to rounding: SMPI's launches differ in the 16th digit (its clock
 * is a sum of doubles), real timers never agree to 1e-9 across launches. */
#define FLAT_RTOL 1e-9

static int all_equal(const double *v, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (!(fabs(v[i] - v[0]) <= FLAT_RTOL * fabs(v[0])))
      return 0;
  return 1;
}

/* Launch medians (after optional Tukey filtering inside each launch), or the raw values
 * (Tukey-filtered as one sample) with --per raw. */
static int sample_get(struct ctx *c, size_t gi, struct sample **out)
{
  struct sample *s = &c->cache[gi];
  const struct mv_group *g = &c->ds->groups[gi];
  *out = s;
  if (s->done)
    return 0;
  s->v = malloc((g->n ? g->n : 1) * sizeof *s->v);
  if (!s->v)
    return MV_ENOMEM;
  int launches = g->n ? mv_group_launch_medians(g, c->opt->tukey_k, s->v, g->n) : 0;
  if (launches < 0)
    return launches;
  if (launches > c->rep->configs[c->config].launches)
    c->rep->configs[c->config].launches = launches;
  s->launches = launches;
  s->flat = all_equal(s->v, (size_t)launches);
  s->n = (size_t)launches;
  if (c->opt->per == MV_GL_PER_RAW) {
    memcpy(s->v, g->values, g->n * sizeof *s->v);
    s->n = c->opt->tukey_k > 0 ? mv_stats_tukey_filter(s->v, g->n, c->opt->tukey_k) : g->n;
  }
  s->median = s->n ? mv_stats_median_inplace(s->v, s->n) : NAN;
  s->done = 1;
  return 0;
}

static struct mv_gl_check *check_push(struct ctx *c, enum mv_gl_type type, const char *id,
                                      const char *op, const char *mockup)
{
  struct mv_gl_report *rep = c->rep;
  if (mv_grow(&rep->checks, &rep->cap_checks_, rep->nchecks + 1, sizeof *rep->checks, 64) < 0)
    return NULL;
  struct mv_gl_check *ck = &rep->checks[rep->nchecks++];
  memset(ck, 0, sizeof *ck);
  ck->type = type;
  snprintf(ck->guideline, sizeof ck->guideline, "%s", id);
  snprintf(ck->op, sizeof ck->op, "%s", op);
  snprintf(ck->mockup, sizeof ck->mockup, "%s", mockup ? mockup : "");
  ck->config = c->config;
  ck->msize_small = -1;
  ck->statistic = ck->p_raw = ck->p_value = NAN;
  return ck;
}

/* H1: x is slower than y. KS: R's ks.test(y, x, alternative = "greater") says the CDF of y
 * lies above that of x, i.e. x is stochastically larger. */
static int run_test(const struct mv_gl_options *opt, const struct sample *x,
                    const struct sample *y, struct mv_test_result *res)
{
  if (opt->test == MV_GL_TEST_KS)
    return mv_stats_ks(y->v, y->n, x->v, x->n, MV_ALT_GREATER, res);
  return mv_stats_ranksum(x->v, x->n, y->v, y->n, MV_ALT_GREATER, opt->method, 1, res);
}

/* Deterministic data carry no launch-to-launch information: decide on the slowdown alone. */
static int is_deterministic(const struct ctx *c, const struct sample *x, const struct sample *y)
{
  if (c->opt->deterministic != MV_GL_DET_AUTO)
    return c->opt->deterministic == MV_GL_DET_ON;
  return c->det_engine || (x->launches >= 2 && y->launches >= 2 && x->flat && y->flat);
}

/* Compare "group gx is not slower than group gy" (a test, or the slowdown on deterministic
 * data) and record the comparison; the statistical verdict waits for the correction. */
static int compare(struct ctx *c, const struct mv_guideline *gl, size_t gx, size_t gy,
                   int *tested)
{
  struct sample *x, *y;
  int rc = sample_get(c, gx, &x);
  if (rc == 0)
    rc = sample_get(c, gy, &y);
  if (rc)
    return rc;
  int det = is_deterministic(c, x, y);
  struct mv_gl_config_summary *cs = &c->rep->configs[c->config];
  if (x->n < 1 || y->n < 1) {
    cs->untested++;
    return 0;
  }
  /* Rank-sum and one-sided KS both reach their smallest p, 1 / C(nx + ny, nx), when the
   * samples do not overlap: at or above alpha no data could ever show a violation. */
  int undecidable = !det && !(mv_stats_ranksum_min_p(x->n, y->n) < c->opt->alpha);
  struct mv_test_result res = {.statistic = NAN, .p_value = NAN};
  if (!det && !undecidable && (rc = run_test(c->opt, x, y, &res)) != 0)
    return rc;
  const struct mv_group *g = &c->ds->groups[gx];
  struct mv_gl_check *ck = check_push(c, gl->type, gl->id, g->op,
                                      gl->type == MV_GL_PATTERN ? gl->mockup : NULL);
  if (!ck)
    return MV_ENOMEM;
  ck->msize = c->ds->groups[gl->type == MV_GL_PATTERN ? gx : gy].msize;
  if (gl->type == MV_GL_MONOTONY)
    ck->msize_small = g->msize;
  ck->n = x->n;
  ck->n_ref = y->n;
  ck->median = x->median;
  ck->median_ref = y->median;
  ck->slowdown = x->median / y->median;
  ck->statistic = res.statistic;
  ck->p_raw = ck->p_value = res.p_value;
  ck->deterministic = det;
  ck->undecidable = undecidable;
  ck->violated = det && ck->slowdown > c->opt->min_slowdown;
  cs->tests += !det && !undecidable;
  cs->deterministic += (size_t)det;
  cs->undecidable += (size_t)undecidable;
  *tested |= !undecidable;
  return 0;
}

/* Indices (into c->idx) of the groups of op with impl, in increasing msize. */
static size_t series(const struct ctx *c, const char *op, const char *impl, size_t *out)
{
  size_t n = 0;
  for (size_t i = 0; i < c->nidx; i++) {
    const struct mv_group *g = &c->ds->groups[c->idx[i]];
    if (strcmp(g->op, op) == 0 && strcmp(g->impl, impl) == 0)
      out[n++] = c->idx[i];
  }
  return n;
}

static int check_monotony(struct ctx *c, const struct mv_guideline *gl, size_t *ser)
{
  for (size_t o = 0; o < gl->nops; o++) {
    size_t n = series(c, gl->ops[o], "default", ser);
    int tested = 0;
    for (size_t j = 1; j < n; j++) {
      int rc = compare(c, gl, ser[j - 1], ser[j], &tested);
      if (rc)
        return rc;
    }
    c->rep->configs[c->config].evaluated[MV_GL_MONOTONY] += tested;
  }
  return 0;
}

/* PGMPI: op(m_j) <= k op(m_i) with k = ceil(m_j / m_i), on medians with a tolerance;
 * per m_j only the largest violating m_i (smallest k) is reported. */
static int split_one(struct ctx *c, const struct mv_guideline *gl, const size_t *ser, size_t j)
{
  struct sample *big, *small;
  int rc = sample_get(c, ser[j], &big);
  for (size_t i = j; rc == 0 && i-- > 0;) {
    const struct mv_group *gi = &c->ds->groups[ser[i]], *gj = &c->ds->groups[ser[j]];
    if (gi->msize <= 0 || (rc = sample_get(c, ser[i], &small)) != 0)
      break;
    if (big->n == 0 || small->n == 0)
      continue;
    int64_t k = (gj->msize + gi->msize - 1) / gi->msize;
    double bound = (double)k * small->median;
    if (!(big->median > (1 + c->opt->split_tolerance) * bound))
      continue;
    struct mv_gl_check *ck = check_push(c, MV_GL_SPLIT, gl->id, gj->op, NULL);
    if (!ck)
      return MV_ENOMEM;
    ck->msize = gj->msize;
    ck->msize_small = gi->msize;
    ck->k = (int)k;
    ck->n = big->n;
    ck->n_ref = small->n;
    ck->median = big->median;
    ck->median_ref = bound;
    ck->slowdown = big->median / bound;
    ck->violated = 1;
    break;
  }
  return rc;
}

static int check_split(struct ctx *c, const struct mv_guideline *gl, size_t *ser)
{
  for (size_t o = 0; o < gl->nops; o++) {
    size_t n = series(c, gl->ops[o], "default", ser);
    c->rep->configs[c->config].evaluated[MV_GL_SPLIT] += n >= 2;
    for (size_t j = 1; j < n; j++) {
      int rc = split_one(c, gl, ser, j);
      if (rc)
        return rc;
    }
  }
  return 0;
}

static int check_pattern(struct ctx *c, const struct mv_guideline *gl, size_t *ser,
                         size_t *mock)
{
  size_t n = series(c, gl->ops[0], "default", ser);
  size_t nm = series(c, gl->ops[0], gl->mockup, mock);
  int tested = 0;
  for (size_t i = 0, j = 0; i < n; i++) {
    while (j < nm && c->ds->groups[mock[j]].msize < c->ds->groups[ser[i]].msize)
      j++;
    if (j == nm || c->ds->groups[mock[j]].msize != c->ds->groups[ser[i]].msize)
      continue;
    int rc = compare(c, gl, ser[i], mock[j], &tested);
    if (rc)
      return rc;
  }
  c->rep->configs[c->config].evaluated[MV_GL_PATTERN] += tested;
  return 0;
}

/* Multiple testing: the family is every test of the configuration; a NaN p-value (no test:
 * split, deterministic, or every value tied) stays out of the family, as NA in R's p.adjust. */
static int in_family(const struct mv_gl_check *ck)
{
  return !isnan(ck->p_raw);
}

static int correct_config(struct ctx *c)
{
  struct mv_gl_report *rep = c->rep;
  size_t n = 0;
  for (size_t i = c->first_check; i < rep->nchecks; i++)
    n += in_family(&rep->checks[i]);
  double *p = malloc((n ? n : 1) * sizeof *p);
  if (!p)
    return MV_ENOMEM;
  size_t k = 0;
  for (size_t i = c->first_check; i < rep->nchecks; i++)
    if (in_family(&rep->checks[i]))
      p[k++] = rep->checks[i].p_raw;
  int rc = n ? mv_stats_p_adjust(p, n, c->opt->correction) : 0;
  k = 0;
  for (size_t i = c->first_check; rc == 0 && i < rep->nchecks; i++) {
    struct mv_gl_check *ck = &rep->checks[i];
    if (!in_family(ck))
      continue;
    ck->p_value = p[k++];
    ck->violated = ck->p_value < c->opt->alpha && ck->slowdown > c->opt->min_slowdown;
  }
  free(p);
  return rc;
}

/* Key under which a violation counts once: the function (monotony, split) or the guideline. */
static const char *count_key(const struct mv_gl_check *ck)
{
  return ck->type == MV_GL_PATTERN ? ck->guideline : ck->op;
}

static void summarise_config(struct ctx *c)
{
  struct mv_gl_report *rep = c->rep;
  struct mv_gl_config_summary *cs = &rep->configs[c->config];
  for (size_t i = c->first_check; i < rep->nchecks; i++) {
    const struct mv_gl_check *ck = &rep->checks[i];
    rep->nundecidable += (size_t)ck->undecidable;
    if (!ck->violated)
      continue;
    rep->nviolations++;
    int seen = 0;
    for (size_t j = c->first_check; j < i && !seen; j++)
      seen = rep->checks[j].violated && rep->checks[j].type == ck->type &&
             strcmp(count_key(&rep->checks[j]), count_key(ck)) == 0;
    cs->violated[ck->type] += !seen;
  }
}

static int same_config(const struct mv_group *g, const struct mv_gl_config_summary *cs)
{
  return g->nprocs == cs->nprocs && strcmp(g->library, cs->library) == 0 &&
         strcmp(g->engine, cs->engine) == 0;
}

/* The distinct (library, engine, nprocs) of the groups with the metric, in dataset order. */
static int find_configs(struct ctx *c)
{
  struct mv_gl_report *rep = c->rep;
  for (size_t i = 0; i < c->ds->ngroups; i++) {
    const struct mv_group *g = &c->ds->groups[i];
    if (strcmp(g->metric, c->opt->metric) != 0)
      continue;
    size_t k = 0;
    while (k < rep->nconfigs && !same_config(g, &rep->configs[k]))
      k++;
    if (k < rep->nconfigs)
      continue;
    if (mv_grow(&rep->configs, &rep->cap_configs_, k + 1, sizeof *rep->configs, 4) < 0)
      return MV_ENOMEM;
    struct mv_gl_config_summary *bigger = rep->configs;
    memset(&bigger[k], 0, sizeof bigger[k]);
    snprintf(bigger[k].library, sizeof bigger[k].library, "%s", g->library);
    snprintf(bigger[k].engine, sizeof bigger[k].engine, "%s", g->engine);
    bigger[k].nprocs = g->nprocs;
    rep->nconfigs++;
  }
  return 0;
}

static int evaluate_config(struct ctx *c, const struct mv_catalog *cat, size_t *ser, size_t *mock)
{
  c->nidx = 0;
  c->first_check = c->rep->nchecks;
  const struct mv_engine_facts *f = mv_engine_facts(c->rep->configs[c->config].engine);
  c->det_engine = f && f->deterministic;
  for (size_t i = 0; i < c->ds->ngroups; i++)
    if (strcmp(c->ds->groups[i].metric, c->opt->metric) == 0 &&
        same_config(&c->ds->groups[i], &c->rep->configs[c->config]))
      c->idx[c->nidx++] = i;
  int rc = 0;
  for (size_t g = 0; rc == 0 && g < cat->n; g++) {
    const struct mv_guideline *gl = &cat->items[g];
    if (gl->type == MV_GL_MONOTONY)
      rc = check_monotony(c, gl, ser);
    else if (gl->type == MV_GL_SPLIT)
      rc = check_split(c, gl, ser);
    else
      rc = check_pattern(c, gl, ser, mock);
  }
  if (rc == 0)
    rc = correct_config(c);
  if (rc == 0)
    summarise_config(c);
  struct mv_gl_config_summary *cs = &c->rep->configs[c->config];
  c->rep->ndecided += cs->tests + cs->deterministic;
  return rc;
}

int mv_gl_evaluate(const struct mv_catalog *cat, struct mv_dataset *ds,
                   const struct mv_gl_options *opt, struct mv_gl_report *rep)
{
  if (!(opt->alpha > 0 && opt->alpha < 1) || !(opt->split_tolerance >= 0) ||
      !(opt->tukey_k >= 0) || !(opt->min_slowdown > 0))
    return MV_EINVAL;
  mv_dataset_sort(ds);
  rep->options = *opt;
  size_t n = ds->ngroups ? ds->ngroups : 1;
  struct ctx c = {.opt = opt, .ds = ds, .rep = rep, .cache = calloc(n, sizeof *c.cache),
                  .idx = malloc(n * sizeof *c.idx)};
  size_t *ser = malloc(n * sizeof *ser), *mock = malloc(n * sizeof *mock);
  int rc = c.cache && c.idx && ser && mock ? find_configs(&c) : MV_ENOMEM;
  for (c.config = 0; rc == 0 && c.config < rep->nconfigs; c.config++)
    rc = evaluate_config(&c, cat, ser, mock);
  for (size_t i = 0; c.cache && i < ds->ngroups; i++)
    free(c.cache[i].v);
  free(c.cache);
  free(c.idx);
  free(ser);
  free(mock);
  return rc;
}
