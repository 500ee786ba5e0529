/* Kernel models per range of call size, the thesis' piecewise family M' (chapter 4: "mostly
 * linear but only for specific parameter ranges"): one polynomial over every call of a kernel is
 * a compromise that the largest calls win (HPL's dgemm: one M-2 over N = 1000-3000 calls left the
 * calls under 2^8 of work 24 % short and those of 2^12-2^16 up to 11 % long). The calls are sorted
 * by their work w = m n k (1 for a dimension the kernel lacks); candidate ranges are cut where w
 * crosses a power of RANGE_FACTOR, each with at least RANGE_MIN samples (fewer join the range
 * below); then two neighbouring ranges are merged, the best pair first, as long as that lowers the
 * BIC of the whole (the segmented regression's criterion, src/stats/segreg.c), so a kernel that one
 * polynomial describes keeps one. Every range is fitted as a whole kernel was before
 * (kernel-model.c: family, stalls, noise, its total rescaled to the measured one), so the
 * modelled total holds per range. A range applies from its lower bound of w up to the next one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/stats.h"
#include "kernel-model.h"

#define RANGE_FACTOR 64.0   /* candidate ranges: w within a factor 64, 4 in each of m, n, k */
#define RANGE_MIN 50        /* samples at least per candidate range */
#define RANGE_MAX 16        /* candidate ranges at most (64^16 is beyond any int product) */
#define REL_FLOOR 1e-12     /* weighted residuals below 1e-12 of the total time are exact */

static double work(const struct mv_calib_sample *s) { return (double)s->m * s->n * s->k; }

static int by_work(const void *a, const void *b)
{
  double x = work(a), y = work(b);
  return (x > y) - (x < y);
}

/* One range: samples [lo, hi) of the sorted array, applied from w = from; its fit. */
struct range {
  size_t lo, hi;
  double from;
  struct mv_kernel_model km;
  double rss;   /* sum of (y - model)^2 / y over the kept samples (the fit's weights) */
  int params;   /* coefficients in use */
};

static int fit_range(const struct mv_kernel_model *proto, const struct mv_calib_sample *s,
                     struct range *r)
{
  size_t n = r->hi - r->lo;
  struct mv_calib_sample *c = malloc((n + 1) * sizeof *c);
  double *y = malloc((n + 1) * sizeof *y);
  int rc = c && y ? 0 : MV_ENOMEM;
  for (size_t i = 0; !rc && i < n; i++)
    c[i] = s[r->lo + i], y[i] = c[i].seconds;
  r->km = *proto;
  r->km.from_work = r->from;
  if (!rc)
    rc = mv__kernel_fit_samples(&r->km, c, y, n);
  r->rss = 0;
  r->params = 0;
  for (size_t i = 0; !rc && i < r->km.n; i++) {
    double e = c[i].seconds - mv_kernel_predict(&r->km, c[i].m, c[i].n, c[i].k);
    r->rss += e * e / fmax(c[i].seconds, 1e-12);
  }
  for (int t = 0; t < MV_KERNEL_TERMS; t++)
    r->params += r->km.coef[t] != 0;
  free(c);
  free(y);
  return rc;
}

/* BIC of nr ranges with weighted residual sum rss and p coefficients over n samples of total
 * time total: Gaussian residuals with variance proportional to the duration (the fit's weights),
 * every coefficient and every cut a parameter. */
static double bic(double rss, int p, int nr, size_t n, double total)
{
  return mv_stats_bic(rss, REL_FLOOR * total, n, p + nr - 1);
}

/* The largest power of RANGE_FACTOR at most w (0 for w < 1). */
static double edge_below(double w)
{
  double e = w >= 1 ? 1 : 0;
  while (e > 0 && e * RANGE_FACTOR <= w)
    e *= RANGE_FACTOR;
  return e;
}

/* Candidate ranges of the sorted samples: cut where w crosses a power of RANGE_FACTOR once the
 * range has RANGE_MIN samples (and RANGE_MIN remain); the last candidate takes the rest. */
static int candidates(const struct mv_calib_sample *s, size_t n, struct range *r)
{
  int nr = 0;
  r[0] = (struct range){.lo = 0, .from = 0};
  for (size_t i = 1; i < n; i++) {
    double edge = edge_below(work(&s[i]));
    if (edge > work(&s[i - 1]) && i - r[nr].lo >= RANGE_MIN && n - i >= RANGE_MIN &&
        nr + 1 < RANGE_MAX) {
      r[nr++].hi = i;
      r[nr] = (struct range){.lo = i, .from = edge};
    }
  }
  r[nr++].hi = n;
  return nr;
}

/* Merge r[i] and r[i + 1] into r[i] (fitted by the caller), closing the gap. */
static void join(struct range *r, int *nr, int i)
{
  r[i].hi = r[i + 1].hi;
  memmove(&r[i + 1], &r[i + 2], (size_t)(*nr - i - 2) * sizeof *r);
  (*nr)--;
}

/* Fit every candidate; one that its samples cannot identify joins its neighbour. Then the
 * neighbours whose merge lowers the BIC most are merged, while any does. */
static int fit_ranges(const struct mv_kernel_model *proto, const struct mv_calib_sample *s,
                      size_t n, struct range *r, int *nr)
{
  double total = 0;
  for (size_t i = 0; i < n; i++)
    total += s[i].seconds;
  for (int i = 0; i < *nr;) {
    int rc = fit_range(proto, s, &r[i]);
    if (rc == MV_ENUMERIC && *nr > 1) {
      join(r, nr, i == *nr - 1 ? --i : i);
      continue;
    }
    if (rc)
      return rc;
    i++;
  }
  while (*nr > 1) {
    double rss = 0;
    int p = 0, best = -1;
    for (int i = 0; i < *nr; i++)
      rss += r[i].rss, p += r[i].params;
    double best_bic = bic(rss, p, *nr, n, total);
    struct range merged, best_range;
    for (int i = 0; i + 1 < *nr; i++) {
      merged = (struct range){.lo = r[i].lo, .hi = r[i + 1].hi, .from = r[i].from};
      if (fit_range(proto, s, &merged))
        continue;
      double b = bic(rss - r[i].rss - r[i + 1].rss + merged.rss,
                     p - r[i].params - r[i + 1].params + merged.params, *nr - 1, n, total);
      if (b < best_bic)
        best_bic = b, best = i, best_range = merged;
    }
    if (best < 0)
      break;
    r[best] = best_range;
    join(r, nr, best);
  }
  return 0;
}

int mv_kernel_fit_ranges(const struct mv_calib_data *d, enum mv_calib_op op, int family,
                         int noise, int host, struct mv_kernel_model *km, int max, int *nkm)
{
  if (family < 0 || family > 2 || noise < 0 || noise > 2 || op >= MV_CALIB_NOPS ||
      !mv_calib_op_shape(op) || host >= d->nhosts || max < 1)
    return MV_EINVAL;
  struct mv_calib_sample *s;
  double *y;
  size_t n;
  struct range r[RANGE_MAX];
  int nr, rc = mv__kernel_samples(d, op, host, &s, &y, &n);
  if (rc)
    return rc;
  free(y);
  qsort(s, n, sizeof *s, by_work);
  struct mv_kernel_model proto = {.op = op, .family = family, .noise = noise, .host = host};
  if (host >= 0)
    snprintf(proto.host_name, sizeof proto.host_name, "%s", d->hosts[host]);
  nr = candidates(s, n, r);
  rc = n ? fit_ranges(&proto, s, n, r, &nr) : MV_ENUMERIC;
  free(s);
  if (!rc && nr > max)
    rc = MV_ERANGE;
  for (int i = 0; !rc && i < nr; i++)
    km[i] = r[i].km;
  *nkm = rc ? 0 : nr;
  return rc;
}

/* Every kernel with samples: pooled, then per host when there are several, each in ranges of
 * call size. A kernel with too few samples gets no model (it runs under SMPI and is timed);
 * dgemm's and dtrsm's fits must work. */
int mv_calib_fit_kernels(const struct mv_calib_data *d, struct mv_calibration *c)
{
  c->nkernels = 0;
  for (int op = 0; op < MV_CALIB_NOPS; op++)
    for (int h = -1; h < (d->nhosts > 1 ? d->nhosts : 0); h++) {
      if (!mv_calib_op_shape(op) || d->n[op] == 0)
        continue;
      int got = 0, rc = mv_kernel_fit_ranges(d, op, c->family, c->noise, h, &c->kernels[c->nkernels],
                                             MV_CALIB_MAX_MODELS - c->nkernels, &got);
      if (rc == MV_ENUMERIC && (h >= 0 || (op != MV_CALIB_DGEMM && op != MV_CALIB_DTRSM)))
        continue;
      if (rc)
        return rc;
      c->nkernels += got;
    }
  struct mv_kernel_model m0;
  if (d->n[MV_CALIB_DGEMM] && mv_kernel_fit(d, MV_CALIB_DGEMM, 0, 0, -1, &m0) == 0 && m0.coef[0] > 0)
    c->flops = 2.0 / m0.coef[0];
  return 0;
}
