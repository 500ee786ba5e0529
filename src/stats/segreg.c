/* Segmented regression: the RSS-optimal breakpoints for every number of segments by dynamic
 * programming over the distinct x values (Bai & Perron 2003), the number of segments by BIC.
 * The per-segment fit is the caller's (stats.h states the contract); mv_stats_segfit_line is
 * the straight line used by the network calibration and the tests. */
#include "mpivet/stats.h"

#include <math.h>
#include <stdlib.h>

#include "mpivet/error.h"


/* Fits of every admissible range of distinct values [i, j), packed row by row. */
struct segtab {
  size_t m;            /* distinct x values */
  size_t *start;       /* [m + 1]: first point of each distinct value, start[m] = n */
  size_t *row;         /* [m]: offset of row i in rss/np */
  double *rss;         /* INFINITY: not admissible */
  int *np;
};

static void segtab_release(struct segtab *t) {
  free(t->start);
  free(t->row);
  free(t->rss);
  free(t->np);
}

static size_t cell(const struct segtab *t, size_t i, size_t j) {
  return t->row[i] + (j - i - 1);
}

/* Distinct values of sorted x: fills t->start and t->m. */
static int segtab_index(struct segtab *t, const double *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]) || (i > 0 && x[i] < x[i - 1]))
      return MV_EINVAL;
  t->start = malloc((n + 1) * sizeof *t->start);
  if (!t->start)
    return MV_ENOMEM;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (i == 0 || x[i] != x[i - 1])
      t->start[m++] = i;
  t->start[m] = n;
  t->m = m;
  return m > MV_SEGREG_MAX_X ? MV_ERANGE : 0;
}

static int segtab_fill(struct segtab *t, size_t min_x, mv_segfit_fn fit, void *ctx) {
  size_t m = t->m, cells = m * (m + 1) / 2;
  t->row = malloc(m * sizeof *t->row);
  t->rss = malloc(cells * sizeof *t->rss);
  t->np = malloc(cells * sizeof *t->np);
  if (!t->row || !t->rss || !t->np)
    return MV_ENOMEM;
  for (size_t i = 0, off = 0; i < m; off += m - i, i++)
    t->row[i] = off;
  for (size_t i = 0; i < m; i++)
    for (size_t j = i + 1; j <= m; j++) {
      size_t c = cell(t, i, j);
      t->rss[c] = INFINITY;
      t->np[c] = 0;
      if (j - i < min_x)
        continue;
      double rss;
      int np = 0;
      int rc = fit(ctx, t->start[i], t->start[j], &rss, &np);
      if (rc == MV_ENUMERIC || (rc == 0 && !(rss >= 0)))
        continue;
      if (rc)
        return rc;
      t->rss[c] = rss;
      t->np[c] = np;
    }
  return 0;
}

/* best[k * (m + 1) + j]: least RSS of distinct values [0, j) in k segments; from[...]: where the
 * last of those segments starts. */
static void segtab_dp(const struct segtab *t, size_t kmax, double *best, size_t *from) {
  size_t m = t->m, w = m + 1;
  for (size_t k = 0; k <= kmax; k++)
    for (size_t j = 0; j <= m; j++)
      best[k * w + j] = (k == 0 && j == 0) ? 0.0 : INFINITY;
  for (size_t k = 1; k <= kmax; k++)
    for (size_t j = k; j <= m; j++)
      for (size_t i = k - 1; i < j; i++) {
        double v = best[(k - 1) * w + i] + t->rss[cell(t, i, j)];
        if (v < best[k * w + j]) {
          best[k * w + j] = v;
          from[k * w + j] = i;
        }
      }
}

/* Segments of the k-segment optimum, into out (nsegments, seg[], rss); returns the parameter
 * count including the k - 1 breakpoints. */
static int segtab_trace(const struct segtab *t, size_t k, const double *best, const size_t *from,
                        struct mv_segreg *out) {
  size_t w = t->m + 1, j = t->m;
  int np = (int)k - 1;
  out->nsegments = k;
  out->rss = best[k * w + t->m];
  for (size_t s = k; s >= 1; s--) {
    size_t i = from[s * w + j], c = cell(t, i, j);
    out->seg[s - 1] = (struct mv_segment){t->start[i], t->start[j], t->rss[c], t->np[c]};
    np += t->np[c];
    j = i;
  }
  return np;
}

double mv_stats_bic(double rss, double rss_floor, size_t n, double nparams) {
  return (double)n * log(fmax(rss, rss_floor) / (double)n) + nparams * log((double)n);
}

static double bic(double rss, size_t n, int np, const struct mv_segreg_options *o) {
  double floor = (double)n * (o->rel_floor * o->y_scale) * (o->rel_floor * o->y_scale);
  return mv_stats_bic(rss, floor, n, np);
}

/* Chooses the number of segments by BIC over the DP's optima. */
static int segreg_choose(const struct segtab *t, size_t n, const struct mv_segreg_options *o,
                         const double *best, const size_t *from, struct mv_segreg *out) {
  struct mv_segreg cand;
  int found = 0;
  for (size_t k = 0; k <= MV_SEGREG_MAX_SEGMENTS; k++)
    out->bic_by_k[k] = NAN;
  for (size_t k = 1; k <= o->max_segments; k++) {
    if (!isfinite(best[k * (t->m + 1) + t->m]))
      continue;
    int np = segtab_trace(t, k, best, from, &cand);
    cand.bic = bic(cand.rss, n, np, o);
    out->bic_by_k[k] = cand.bic;
    if (!found || cand.bic < out->bic) {
      for (size_t s = 0; s < cand.nsegments; s++)
        out->seg[s] = cand.seg[s];
      out->nsegments = cand.nsegments;
      out->rss = cand.rss;
      out->bic = cand.bic;
      found = 1;
    }
  }
  return found ? 0 : MV_ENUMERIC;
}

void mv_segreg_options_init(struct mv_segreg_options *o) {
  o->min_x = 2;
  o->max_segments = 3;
  o->y_scale = 0.0;
  o->rel_floor = 1e-9;   /* rounding noise of an exact fit */
}

int mv_stats_segreg(const double *x, size_t n, const struct mv_segreg_options *o,
                    mv_segfit_fn fit, void *ctx, struct mv_segreg *out) {
  if (!x || !fit || !out || n == 0 || o->min_x < 1 || o->max_segments < 1 ||
      o->max_segments > MV_SEGREG_MAX_SEGMENTS || !(o->y_scale >= 0) || !(o->rel_floor >= 0))
    return MV_EINVAL;
  struct segtab t = {0};
  double *best = NULL;
  size_t *from = NULL;
  int rc = segtab_index(&t, x, n);
  if (!rc)
    rc = segtab_fill(&t, o->min_x, fit, ctx);
  if (!rc) {
    size_t cells = (o->max_segments + 1) * (t.m + 1);
    best = malloc(cells * sizeof *best);
    from = calloc(cells, sizeof *from);
    rc = best && from ? 0 : MV_ENOMEM;
  }
  if (!rc) {
    segtab_dp(&t, o->max_segments, best, from);
    rc = segreg_choose(&t, n, o, best, from, out);
  }
  free(best);
  free(from);
  segtab_release(&t);
  return rc;
}

int mv_stats_line(const double *x, const double *y, size_t n, double *a, double *b,
                  double *rss) {
  if (n == 0)
    return MV_ENUMERIC;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= (double)n;
  my /= (double)n;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  /* One distinct x: only the mean is estimable, the slope is 0. */
  double slope = sxx > 0 ? sxy / sxx : 0.0, r = 0;
  for (size_t i = 0; i < n; i++) {
    double e = y[i] - (my + slope * (x[i] - mx));
    r += e * e;
  }
  *a = my - slope * mx;
  *b = slope;
  *rss = r;
  return sxx > 0 ? 2 : 1;
}

int mv_stats_segfit_line(void *ctx, size_t from, size_t to, double *rss, int *nparams) {
  const struct mv_segline_ctx *c = ctx;
  double a, b;
  int rc = mv_stats_line(c->x + from, c->y + from, to - from, &a, &b, rss);
  if (rc < 0)
    return rc;
  *nparams = rc;
  return 0;
}
