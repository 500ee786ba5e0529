/* The multi-parameter modeler: one-parameter models along each parameter (on the longest lines
 * of points along it, as Extra-P selects them) give a few candidate terms per parameter;
 * hypotheses combine them as sums and products (every collection of parameter subsets that
 * covers the active parameters, Extra-P's scheme); the robust term-count rule picks one.
 * mv_model_fit_series dispatches here for two or more parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpivet/error.h"

#define NCAND 4            /* per parameter: absent plus up to three terms */
#define MAX_HTERMS 3
#define NLEVELS (MAX_HTERMS + 1)

struct multi {
  const struct mv_series *s;
  const struct mv_term *space;
  size_t n, ns;
  int np;
  struct mv_term cand[MV_MODEL_MAX_PARAMS][NCAND];   /* one factor; none = parameter absent */
  int ncand[MV_MODEL_MAX_PARAMS];
  double *tv;                             /* [np][NCAND][n] term values */
  const double *y;                        /* prep.ys while selecting, prep.y for the model */
  struct mv__prep prep;
};

struct mhyp {
  int choice[MV_MODEL_MAX_PARAMS];        /* index into cand per parameter */
  int nterms;
  unsigned mask[MAX_HTERMS];              /* parameters multiplied in each term */
  double coef[MAX_HTERMS + 1];
  double wrss;
};

static double *tvals(const struct multi *m, int k, int c)
{
  return m->tv + ((size_t)k * NCAND + (size_t)c) * m->n;
}

/* Same coordinates as points i and j in every parameter but k. */
static int same_line(const struct mv_series *s, int k, size_t i, size_t j)
{
  size_t np = (size_t)s->nparams;
  for (size_t d = 0; d < np; d++)
    if (d != (size_t)k && s->coords[i * np + d] != s->coords[j * np + d])
      return 0;
  return 1;
}

/* The one-parameter data along parameter k, as Extra-P selects them: the points of the longest
 * lines along k (points that differ in x_k only), or every point when no line has 3. One point
 * per x_k keeps its repetitions; several are averaged (the mean of their locations). */
static size_t line_points(const struct multi *m, int k, size_t *len, size_t *at, double *x,
                          double *avg, size_t *nv, const double **vals)
{
  const struct mv_series *s = m->s;
  size_t n = s->npoints, np = (size_t)s->nparams, cnt = 0, longest = 0, most = 0;
  for (size_t i = 0; i < n; i++) {
    len[i] = 0;
    for (size_t j = 0; j < n; j++)
      len[i] += same_line(s, k, i, j);
    longest = len[i] > longest ? len[i] : longest;
  }
  for (size_t i = 0; i < n; i++) {
    if (longest >= 3 && len[i] != longest)
      continue;
    double xi = s->coords[i * np + (size_t)k];
    size_t j = 0;
    while (j < cnt && x[j] != xi)
      j++;
    if (j == cnt) {
      x[cnt] = xi;
      avg[cnt] = 0.0;
      at[cnt] = 0;
      nv[cnt] = s->nvalues[i];
      vals[cnt++] = s->values[i];
    }
    avg[j] += m->prep.ys[i];
    most = ++at[j] > most ? at[j] : most;
  }
  for (size_t j = 0; j < cnt; j++) {
    avg[j] /= (double)at[j];
    if (most > 1) {
      vals[j] = &avg[j];
      nv[j] = 1;
    }
  }
  return cnt;
}

/* Adds a one-parameter term to parameter k's candidates, once. */
static void add_term(struct multi *m, int k, const struct mv_term *t)
{
  for (int c = 0; c < m->ncand[k]; c++) {
    const struct mv_factor *a = &m->cand[k][c].f[0], *b = &t->f[0];
    if (m->cand[k][c].nfactors && a->poly == b->poly && a->log == b->log && a->exp2 == b->exp2)
      return;
  }
  if (m->ncand[k] < NCAND) {
    m->cand[k][m->ncand[k]] = *t;
    m->cand[k][m->ncand[k]].f[0].param = 0;
    m->cand[k][m->ncand[k]++].coef = 1.0;
  }
}

/* The terms of a line's model (x^-e ones too when the line falls: strong scaling). */
static void add_terms(struct multi *m, int k, const struct mv_model *model)
{
  for (int j = 0; j < model->fn.nterms; j++)
    add_term(m, k, &model->fn.terms[j]);
}

/* Parameter k's candidate terms: absent, the terms the robust rule models its line with, and
 * the term Extra-P's rule (lowest leave-one-out SMAPE) picks there; when both answer a constant,
 * the one-term fits of lowest residual, so that all points decide. */
static int line_fit(struct multi *m, int k, const struct mv_fit_options *o)
{
  size_t n = m->s->npoints;
  double *x = malloc(n * (2 * sizeof(double) + 3 * sizeof(size_t) + sizeof(double *)));
  if (!x)
    return MV_ENOMEM;
  double *avg = x + n;
  size_t *len = (size_t *)(avg + n), *at = len + n, *nv = at + n;
  const double **vals = (const double **)(nv + n);
  size_t cnt = line_points(m, k, len, at, x, avg, nv, vals);
  struct mv_model model;
  struct mv_fit_options so = *o;
  int top[NCAND - 1];
  so.select = MV_SELECT_SMAPE;
  m->ncand[k] = 1;
  m->cand[k][0] = (struct mv_term){.coef = 1.0};
  int rc = mv__fit_1p_ex(x, nv, vals, cnt, m->s->params[k], o, &model, top, NCAND - 1);
  if (rc == 0)
    add_terms(m, k, &model);
  if (rc == 0 && mv_model_fit_1p(x, nv, vals, cnt, m->s->params[k], &so, &model) == 0)
    add_terms(m, k, &model);
  for (int j = 0; rc == 0 && m->ncand[k] == 1 && j < NCAND - 1 && top[j] >= 0; j++)
    if (top[j] < (int)m->ns)   /* a falling line's x^-e terms lie past m->space */
      add_term(m, k, &m->space[top[j]]);
  free(x);
  return rc;
}

static int fit_hyp(const struct multi *m, struct mhyp *h, double *hat)
{
  double ones[1024], prod[MAX_HTERMS][1024];
  const double *cols[MAX_HTERMS + 1] = {ones};
  if (m->n > 1024)
    return MV_EINVAL;
  for (size_t i = 0; i < m->n; i++)
    ones[i] = 1.0;
  for (int t = 0; t < h->nterms; t++) {
    for (size_t i = 0; i < m->n; i++)
      prod[t][i] = 1.0;
    for (int k = 0; k < m->np; k++)
      if (h->mask[t] & (1u << k)) {
        const double *v = tvals(m, k, h->choice[k]);
        for (size_t i = 0; i < m->n; i++)
          prod[t][i] *= v[i];
      }
    cols[t + 1] = prod[t];
  }
  int rc = mv__lsq(m->n, (size_t)h->nterms + 1, cols, m->y, m->prep.sw, h->coef, &h->wrss, hat);
  if (rc == 0 && hat)
    h->wrss = mv__loo_wrss(m->n, (size_t)h->nterms + 1, cols, m->y, m->prep.sw, h->coef, hat);
  for (int t = 1; rc == 0 && t <= h->nterms; t++)
    if (!(h->coef[t] > 0.0))
      rc = MV_ENUMERIC;
  return rc;
}

/* Every collection of at most MAX_HTERMS subsets of `active` that covers it. */
static void try_structures(const struct multi *m, struct mhyp *h, unsigned active,
                           struct mhyp *best)
{
  unsigned subsets[15];
  int ns = 0;
  for (unsigned sub = 1; sub <= active; sub++)
    if ((sub & ~active) == 0)
      subsets[ns++] = sub;
  for (unsigned coll = 1; coll < (1u << ns); coll++) {
    unsigned cover = 0;
    h->nterms = 0;
    for (int j = 0; j < ns && h->nterms <= MAX_HTERMS; j++)
      if (coll & (1u << j)) {
        if (h->nterms < MAX_HTERMS)
          h->mask[h->nterms] = subsets[j];
        h->nterms++;
        cover |= subsets[j];
      }
    if (h->nterms > MAX_HTERMS || cover != active)
      continue;
    if (fit_hyp(m, h, NULL) == 0 &&
        (isnan(best[h->nterms].wrss) || h->wrss < best[h->nterms].wrss))
      best[h->nterms] = *h;
  }
}

static void search(const struct multi *m, struct mhyp *best)
{
  int choice[MV_MODEL_MAX_PARAMS] = {0};
  for (;;) {
    struct mhyp h = {{0}, 0, {0}, {0}, 0};
    unsigned active = 0;
    for (int k = 0; k < m->np; k++) {
      h.choice[k] = choice[k];
      if (m->cand[k][choice[k]].nfactors > 0)
        active |= 1u << k;
    }
    if (active)
      try_structures(m, &h, active, best);
    int k = 0;
    while (k < m->np && ++choice[k] == m->ncand[k])
      choice[k++] = 0;
    if (k == m->np)
      break;
  }
}

static void to_model(const struct multi *m, const struct mhyp *h, struct mv_model *out)
{
  memset(out, 0, sizeof *out);
  out->fn.nparams = m->np;
  memcpy(out->fn.params, m->s->params, sizeof out->fn.params);
  out->fn.constant = h->coef[0];
  out->fn.nterms = h->nterms;
  for (int t = 0; t < h->nterms; t++) {
    struct mv_term *term = &out->fn.terms[t];
    term->coef = h->coef[t + 1];
    for (int k = 0; k < m->np; k++)
      if (h->mask[t] & (1u << k)) {
        term->f[term->nfactors] = m->cand[k][h->choice[k]].f[0];
        term->f[term->nfactors++].param = k;
      }
  }
  mv__model_stats(out, m->s->coords, m->np, m->prep.y, m->n);
  out->cv_smape = NAN;
}

static int prepare(struct multi *m, const struct mv_fit_options *o)
{
  for (int k = 0; k < m->np; k++) {
    int rc = line_fit(m, k, o);
    if (rc)
      return rc;
  }
  m->tv = malloc((size_t)m->np * NCAND * m->n * sizeof *m->tv);
  if (!m->tv)
    return MV_ENOMEM;
  for (int k = 0; k < m->np; k++)
    for (int c = 0; c < m->ncand[k]; c++)
      for (size_t i = 0; i < m->n; i++) {
        double xk = m->s->coords[i * (size_t)m->np + (size_t)k];
        tvals(m, k, c)[i] = mv_term_eval(&m->cand[k][c], &xk);
      }
  return 0;
}

static int fit_multi(const struct mv_series *s, const struct mv_fit_options *o,
                     struct mv_model *out)
{
  struct multi m = {.s = s, .n = s->npoints, .np = s->nparams, .space = o->space, .ns = o->nspace};
  if (!m.space)
    m.space = mv_model_default_space(&m.ns);
  struct mv_fit_options robust = *o;
  robust.select = MV_SELECT_ROBUST;
  int rc = mv__prep_init(&m.prep, s->nvalues, (const double *const *)s->values, m.n, &robust);
  m.y = m.prep.ys;
  if (rc == 0)
    rc = prepare(&m, &robust);
  if (rc == 0) {
    struct mhyp best[NLEVELS];
    double rss[NLEVELS], cv[NLEVELS], hat[1024];
    for (int l = 0; l < NLEVELS; l++)
      best[l] = (struct mhyp){{0}, l, {0}, {0}, NAN};
    fit_hyp(&m, &best[0], NULL);
    search(&m, best);
    for (int l = 0; l < NLEVELS; l++) {
      rss[l] = best[l].wrss;
      struct mhyp g = best[l];
      cv[l] = !isnan(rss[l]) && m.n > (size_t)l + 2 && fit_hyp(&m, &g, hat) == 0 ? g.wrss : NAN;
    }
    struct mhyp h = best[mv__choose_level(&m.prep, rss, cv, NLEVELS, o->alpha)];
    m.y = m.prep.y;
    fit_hyp(&m, &h, NULL);   /* the chosen hypothesis on the measure; its signs are not re-judged */
    to_model(&m, &h, out);
  }
  free(m.tv);
  mv__prep_release(&m.prep);
  return rc;
}

int mv_model_fit_series(const struct mv_series *s, const struct mv_fit_options *o,
                        struct mv_model *out)
{
  struct mv_fit_options def;
  if (!o) {
    mv_fit_options_init(&def);
    o = &def;
  }
  if (s->nparams < 1 || s->nparams > MV_MODEL_MAX_PARAMS || s->npoints > 1024)
    return MV_EINVAL;
  if (s->nparams == 1)
    return mv_model_fit_1p(s->coords, s->nvalues, (const double *const *)s->values, s->npoints,
                           s->params[0], o, out);
  return fit_multi(s, o, out);
}
