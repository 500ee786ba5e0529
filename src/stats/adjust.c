/* Multiple-testing corrections as R's p.adjust (Holm, Benjamini-Hochberg) and the
 * significance stars R prints next to p-values. NaN p-values stay NaN and do not count. */
#include "mpivet/stats.h"

#include <math.h>
#include <stdlib.h>

#include "mpivet/error.h"

struct ranked { double p; size_t at; };

static int by_p(const void *a, const void *b) {
  const struct ranked *u = a, *v = b;
  if (u->p != v->p)
    return (u->p > v->p) - (u->p < v->p);
  return (u->at > v->at) - (u->at < v->at);   /* stable, like R's order() */
}

/* Holm: p_(i) * (m - i + 1), made non-decreasing from the smallest p up. */
static void holm(struct ranked *r, size_t m) {
  double run = 0.0;
  for (size_t i = 0; i < m; i++) {
    run = fmax(run, (double)(m - i) * r[i].p);
    r[i].p = fmin(1.0, run);
  }
}

/* BH: p_(i) * m / i, made non-increasing from the largest p down. */
static void bh(struct ranked *r, size_t m) {
  double run = INFINITY;
  for (size_t i = m; i-- > 0;) {
    run = fmin(run, (double)m / (double)(i + 1) * r[i].p);
    r[i].p = fmin(1.0, run);
  }
}

int mv_stats_p_adjust(double *p, size_t n, enum mv_correction method) {
  if (method == MV_CORR_NONE || n == 0)
    return 0;
  if (method != MV_CORR_HOLM && method != MV_CORR_BH)
    return MV_EINVAL;
  struct ranked *r = malloc(n * sizeof *r);
  if (!r)
    return MV_ENOMEM;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan(p[i]))
      r[m++] = (struct ranked){p[i], i};
  qsort(r, m, sizeof *r, by_p);
  (method == MV_CORR_HOLM ? holm : bh)(r, m);
  for (size_t i = 0; i < m; i++)
    p[r[i].at] = r[i].p;
  free(r);
  return 0;
}

/* R's symnum cut points for printCoefmat: intervals closed on the right, [0, 0.001] -> "***". */
const char *mv_stats_stars(double p) {
  static const struct { double upto; const char *stars; } cut[] = {
    {0.001, "***"}, {0.01, "**"}, {0.05, "*"}, {0.1, "."},
  };
  for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++)
    if (p >= 0.0 && p <= cut[i].upto)
      return cut[i].stars;
  return "";
}
