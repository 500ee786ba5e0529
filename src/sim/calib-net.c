/* Network part of the calibration, after SimGrid's procedure: per-size values of every operation
 * (mv_calib_typical), piecewise-linear fits whose breakpoints the shared segmented regression
 * chooses (BIC), the eager/rendezvous threshold from where Send starts to wait for a late
 * receive, SMPI's overheads (os, or, ois), and the network's own time (ping-pong minus overheads)
 * as a link latency (first segment) and bandwidth (top segment) with latency and bandwidth
 * factors per segment. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"
#include "mpivet/stats.h"

#define MIN_SIZES_PER_SEGMENT 5   /* 3 let the fits follow the noise of single sizes */
#define MAX_SEGMENTS MV_SEGREG_MAX_SEGMENTS  /* 6 left one line from 185 KB to 1 GB: -15 % at 8 MB, +22 % at 1 GB */
#define MAX_BW_FACTOR 1000.0   /* bandwidth factors stay within 1/1000 .. 1000 */
/* The link bandwidth is at most this many times the best rate any measured size achieved (its
 * bytes over its network time). A top segment that is almost flat (64 KiB at most, under load:
 * 1.85e-8 ns/B once) gave a "bandwidth" of ~10^17 B/s and factors of 1e-8 for the other segments,
 * flows far below SimGrid's solver precision, and the self-check ran for over 10 minutes. */
#define MAX_BW_OVER_BEST_RATE 10.0

struct series { double x[256], y[256]; size_t n; };

static int by_bytes(const void *a, const void *b)
{
  const struct mv_calib_sample *p = a, *q = b;
  return p->bytes < q->bytes ? -1 : p->bytes > q->bytes ? 1 : (p->seconds > q->seconds) - (p->seconds < q->seconds);
}

/* mv_calib_typical of the same-host samples of op, size by size. */
static int per_size(const struct mv_calib_data *d, int op, struct series *s)
{
  size_t n = d->n[op], m = 0;
  struct mv_calib_sample *v = malloc((n + 1) * sizeof *v);
  double *t = malloc((n + 1) * sizeof *t);
  if (!v || !t) {
    free(v);
    free(t);
    return MV_ENOMEM;
  }
  for (size_t i = 0; i < n; i++)
    if (!d->s[op][i].other)
      v[m++] = d->s[op][i];
  qsort(v, m, sizeof *v, by_bytes);
  s->n = 0;
  for (size_t i = 0, j; i < m && s->n < 256; i = j) {
    for (j = i; j < m && v[j].bytes == v[i].bytes; j++)
      ;
    for (size_t k = i; k < j; k++)
      t[k - i] = v[k].seconds;
    s->x[s->n] = v[i].bytes;
    s->y[s->n++] = mv_calib_typical(t, j - i);
  }
  free(v);
  free(t);
  return 0;
}

/* Line fit minimising relative residuals: weights 1/y^2 (SimGrid's goal is relative error), with
 * an intercept of at least 0: SMPI cannot sleep a negative time nor take a negative latency
 * factor, and clipping a negative intercept after the fit added it to every size of the segment.
 * MPICH's ping-pong from 512 KiB to 45 MiB (a cache regime ends near 1.2 MiB) fitted -99 us +
 * 0.27 ns/B; clipped, 512 KiB and 1 MiB ran 2.8 and 2.1 x their measured time under SMPI. When the
 * free intercept is negative, the line goes through 0 (b = sum w x y / sum w x^2), and its worse
 * residuals let the breakpoint search split the segment where the regime changes. */
static int rel_line(const double *x, const double *y, size_t from, size_t to, double *a, double *b,
                    double *rss)
{
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = from; i < to; i++) {
    double w = 1.0 / fmax(y[i] * y[i], 1e-30);
    sw += w, sx += w * x[i], sy += w * y[i], sxx += w * x[i] * x[i], sxy += w * x[i] * y[i];
  }
  if (sw == 0)
    return MV_ENUMERIC;
  double det = sw * sxx - sx * sx;
  *b = fabs(det) > 1e-300 * sw * sxx ? (sw * sxy - sx * sy) / det : 0;
  *a = (sy - *b * sx) / sw;
  if (*a < 0 && sxx > 0)
    *a = 0, *b = sxy / sxx;
  *rss = 0;
  for (size_t i = from; i < to; i++) {
    double r = (y[i] - *a - *b * x[i]) / fmax(fabs(y[i]), 1e-15);
    *rss += r * r;
  }
  return 0;
}

static int segfit(void *ctx, size_t from, size_t to, double *rss, int *nparams)
{
  const struct series *s = ctx;
  double a, b;
  *nparams = 2;
  return rel_line(s->x, s->y, from, to, &a, &b, rss);
}

/* Segmented relative-error fit of a series into f, in at most max_segments segments. */
static int piecewise_fit(const struct series *s, size_t max_segments, struct mv_piecewise *f)
{
  struct mv_segreg_options o;
  struct mv_segreg r;
  mv_segreg_options_init(&o);
  o.min_x = MIN_SIZES_PER_SEGMENT;
  o.max_segments = max_segments;
  o.y_scale = 1;
  int rc = mv_stats_segreg(s->x, s->n, &o, segfit, (void *)s, &r);
  if (rc)
    return rc;
  f->n = r.nsegments;
  for (size_t i = 0; i < r.nsegments; i++) {
    struct mv_piece *p = &f->p[i];
    double rss;
    rel_line(s->x, s->y, r.seg[i].from, r.seg[i].to, &p->a, &p->b, &rss);
    /* SimGrid takes a piece for sizes above its start, and for the network the size is the
     * payload + 16 B: a start at the previous segment's last size gave that size (1 MiB, the
     * last of a cache regime) the next segment's line, 2.0 x its measured ping-pong. Halfway
     * between the two measured sizes each stays with its own line. */
    p->from = i ? (s->x[r.seg[i].from - 1] + s->x[r.seg[i].from]) / 2 : 0;
    p->to = s->x[r.seg[i].to - 1];
  }
  return 0;
}

/* The network's fit: the eager sizes (up to split) and the rendezvous sizes segmented apart, when
 * the rendezvous side has sizes for a segment (eager sizes too few for one: one line, below). One
 * fit over both let the eager sizes' relative noise (their network time is the small rest of the
 * ping-pong after os and or) outweigh the rendezvous regimes in BIC's sum of squares: MPICH's
 * window calibration of stop 30 got one line from 1.27 MiB to 1 GiB through rates of 4.6-8.1 GB/s
 * (simulated -26 to -31 % at 32-64 MiB, +21 % at 1 GiB). */
#define EAGER_MAX_SEGMENTS 3   /* + MAX_SEGMENTS + the leading piece = MV_CALIB_MAX_PIECES */

/* One line through the whole series, for eager sizes too few to segment (a single size: its own
 * time, constant). Until stop 32 fewer than MIN_SIZES_PER_SEGMENT eager sizes sent the eager and
 * rendezvous sizes into one segmented fit again, whose segments need 5 sizes each: an Open MPI
 * calibration with 4 eager sizes left (11, 16, 32, 181 B) put its first rendezvous size (362 B,
 * 0.85 us one way) on the eager line, 0.07 us, and the self-check's ping-pong, Send and Recv of
 * 362 B were -88 to -93 % off. The rendezvous pieces start halfway from the eager threshold (256 B
 * there), not from the last eager size left, which gave 256 B the rendezvous line. */
static int one_piece(const struct series *s, struct mv_piecewise *f)
{
  double rss;
  f->n = 1;
  f->p[0] = (struct mv_piece){0, s->x[s->n - 1], s->y[0], 0};
  return s->n > 1 ? rel_line(s->x, s->y, 0, s->n, &f->p[0].a, &f->p[0].b, &rss) : 0;
}

/* The sizes of s up to split (the eager ones) into lo, the others into hi. */
static void split_series(const struct series *s, double split, struct series *lo, struct series *hi)
{
  lo->n = hi->n = 0;
  for (size_t i = 0; i < s->n; i++) {
    struct series *t = s->x[i] <= split ? lo : hi;
    t->x[t->n] = s->x[i];
    t->y[t->n++] = s->y[i];
  }
}

/* The eager sizes' fit: one line when too few to segment, else up to EAGER_MAX_SEGMENTS. */
static int eager_fit(const struct series *lo, struct mv_piecewise *f)
{
  return lo->n < MIN_SIZES_PER_SEGMENT ? one_piece(lo, f) : piecewise_fit(lo, EAGER_MAX_SEGMENTS, f);
}

static int network_fit(const struct series *s, double split, struct mv_piecewise *f)
{
  struct series lo, hi;
  split_series(s, split, &lo, &hi);
  if (lo.n == 0 || hi.n < MIN_SIZES_PER_SEGMENT)
    return piecewise_fit(s, MAX_SEGMENTS, f);
  struct mv_piecewise up;
  int rc = eager_fit(&lo, f);
  rc = rc ? rc : piecewise_fit(&hi, MAX_SEGMENTS, &up);
  if (rc)
    return rc;
  up.p[0].from = (split + hi.x[0]) / 2;   /* halfway from the eager threshold, as piecewise_fit does */
  for (size_t i = 0; i < up.n && f->n < MV_CALIB_MAX_PIECES; i++)
    f->p[f->n++] = up.p[i];
  return 0;
}

double mv_piecewise_eval(const struct mv_piecewise *f, double x)
{
  size_t i = 0;
  while (i + 1 < f->n && x > f->p[i + 1].from)
    i++;
  return f->n ? f->p[i].a + f->p[i].b * x : 0;
}

/* The eager threshold: the largest size before MPI_Send starts to wait for a receive posted
 * MV_CALIB_LATE_POST_S after it (late-send median of at least half that time). The split is the
 * one that misclassifies the fewest sizes, the smallest of equals: one size disturbed on either
 * side does not move it. Before, the threshold was the end of the leading Send segments whose
 * Send took less than 0.6 of the one-way ping-pong: at MPICH's eager sizes 128 B-8 KiB that
 * share was 0.3-1.0 in two runs (its ping-pong is mostly the two overheads), so two calibrations
 * minutes apart said 8192 B and 91 B; measured with a late receive, MPICH waits from 11585 B and
 * Open MPI from 362 B (docs/simulate.md, stop 30). */
static double eager_threshold(const struct series *late)
{
  size_t best = 0, best_cost = (size_t)-1;
  for (size_t k = 0; k <= late->n; k++) {
    size_t cost = 0;
    for (size_t i = 0; i < late->n; i++)
      cost += (i < k) == (late->y[i] >= MV_CALIB_LATE_POST_S / 2);
    if (cost < best_cost)
      best_cost = cost, best = k;
  }
  return best ? late->x[best - 1] : 0;
}

/* f's pieces up to limit, then its value at limit for every larger size (an overhead SMPI applies
 * only to eager messages). */
static void clip(const struct mv_piecewise *f, double limit, struct mv_piecewise *out)
{
  out->n = 0;
  for (size_t i = 0; i < f->n && f->p[i].from < limit; i++)
    out->p[out->n++] = f->p[i];
  if (out->n < MV_CALIB_MAX_PIECES)
    out->p[out->n++] = (struct mv_piece){limit, INFINITY, fmax(mv_piecewise_eval(f, limit), 0), 0};
  for (size_t i = 0; i < out->n; i++)
    if (out->p[i].a < 0)   /* SMPI cannot sleep a negative time */
      out->p[i].a = 0;
}

/* os and or: SMPI applies them to eager messages only, so they are fitted on the eager sizes
 * alone (then clipped: constant above). Until stop 35 they were the whole-range fit clipped, whose
 * first segment ran on to Open MPI's 3496 B: 56.9 ns + 17.8 ps/B against a flat 53-55 ns measured
 * up to 256 B, and the self-check's Recv below 64 KiB was 8-11 % slow at every eager size (its
 * median 10.8-18.0 % over 8 calibrations). Without eager sizes, the whole fit clipped as before. */
static int eager_overhead(const struct series *s, const struct mv_piecewise *whole, double eager,
                          struct mv_piecewise *out)
{
  struct series lo, hi;
  split_series(s, eager, &lo, &hi);
  struct mv_piecewise f = *whole;
  int rc = lo.n ? eager_fit(&lo, &f) : 0;
  if (!rc)
    clip(&f, eager, out);
  return rc;
}

/* The link latency: the intercept of the first segment with a positive one (the time of the
 * smallest messages), not the top segment's. SimGrid bounds every flow by TCP-gamma / (2 x the
 * route's raw latency) (network_cm02.cpp), and the top segment's intercept is an extrapolation
 * to 0 bytes from the largest sizes: 12.8 ms once, which capped every transfer at 160 MB/s and
 * made the self-check 40x slow. The factors carry each segment's own intercept either way. */
static double link_latency(const struct mv_piecewise *net)
{
  for (size_t i = 0; i < net->n; i++)
    if (net->p[i].a > 1e-9)
      return net->p[i].a;
  return 1e-9;
}

/* The network's own time: ping-pong minus os and or at eager sizes. Where the overheads measured
 * apart leave less than NET_MIN_SHARE of the round trip, the split is not identifiable and the
 * size is left out: floored at 5 % of the ping-pong (as before), 10 sizes up to 256 B of Open MPI
 * (os + or 0.36 us against a 0.24 us half round trip) had relative residuals of 10-20 against any
 * line, so BIC chose one segment from 0 B to 1 GiB and the self-check was 22-27 % off above
 * 64 KiB. With fewer than 2 x MIN_SIZES_PER_SEGMENT sizes left, the ping-pong itself is fitted. */
#define NET_MIN_SHARE 0.05

static int fit_links(const struct series *pp, struct mv_calibration *c)
{
  struct series net = {.n = 0};
  for (size_t i = 0; i < pp->n; i++) {
    double over = pp->x[i] <= c->eager_bytes
                      ? mv_piecewise_eval(&c->os, pp->x[i]) + mv_piecewise_eval(&c->orecv, pp->x[i]) : 0;
    if (pp->y[i] - over <= NET_MIN_SHARE * pp->y[i])
      continue;
    net.x[net.n] = pp->x[i];
    net.y[net.n++] = pp->y[i] - over;
  }
  /* The smallest sizes left out: the measured overheads alone fill their one-way time, so the
   * network adds nothing there (a piece of latency 0). Without it the first fitted segment, from
   * MPICH's rendezvous sizes (11 KiB up: 5.2 us), reached down to 0 B, and every message up to
   * 8 KiB took os + 5.2 us + or under SMPI against a measured 0.6-2.7 us half round trip. */
  double lead_to = net.n && net.x[0] > pp->x[0] ? net.x[0] : 0, lead_end = 0;
  for (size_t i = 0; lead_to > 0 && i < pp->n && pp->x[i] < lead_to; i++)
    lead_end = pp->x[i];
  if (net.n < 2 * MIN_SIZES_PER_SEGMENT)
    net = *pp, lead_to = 0;
  int rc = network_fit(&net, c->eager_bytes, &c->net);
  if (rc)
    return rc;
  if (lead_to > 0 && c->net.n < MV_CALIB_MAX_PIECES) {
    memmove(&c->net.p[1], &c->net.p[0], c->net.n++ * sizeof c->net.p[0]);
    c->net.p[1].from = (lead_end + lead_to) / 2;   /* halfway, as piecewise_fit's own pieces */
    c->net.p[0] = (struct mv_piece){0, lead_end, 0, 0};
  }
  const struct mv_piece *top = &c->net.p[c->net.n - 1];
  double best = 0;
  for (size_t i = 0; i < net.n; i++)
    if (net.y[i] > 0)
      best = fmax(best, net.x[i] / net.y[i]);
  double cap = best > 0 ? MAX_BW_OVER_BEST_RATE * best : 1e12;
  c->bandwidth_Bps = top->b > 0 ? fmin(1.0 / top->b, cap) : cap;
  c->latency_s = link_latency(&c->net);
  c->lat_factor.n = c->bw_factor.n = c->net.n;
  for (size_t i = 0; i < c->net.n; i++) {
    const struct mv_piece *p = &c->net.p[i];
    c->lat_factor.p[i] = (struct mv_piece){p->from, p->to, fmax(p->a, 0) / c->latency_s, 0};
    double f = p->b > 0 ? 1.0 / (p->b * c->bandwidth_Bps) : MAX_BW_FACTOR;
    f = fmin(fmax(f, 1.0 / MAX_BW_FACTOR), MAX_BW_FACTOR);
    c->bw_factor.p[i] = (struct mv_piece){p->from, p->to, f, 0};
  }
  return 0;
}

double mv_calib_typical(double *v, size_t n)
{
  return n < MV_CALIB_TRIM_MIN ? mv_stats_median_inplace(v, n)
                               : mv_stats_trimmed_mean_inplace(v, n, MV_CALIB_TRIM);
}

double mv_calib_split_noise(const double *v, size_t n)
{
  size_t half = (n + 1) / 2;
  if (n / 2 < MV_CALIB_TRIM_MIN)
    return NAN;
  double *h = malloc(n * sizeof *h);
  if (!h)
    return NAN;
  for (size_t i = 0; i < n; i++)
    h[i % 2 ? half + i / 2 : i / 2] = v[i];
  double a = mv_calib_typical(h, half), b = mv_calib_typical(h + half, n - half);
  memcpy(h, v, n * sizeof *h);
  double all = mv_calib_typical(h, n);
  free(h);
  return all > 0 ? fabs(a - b) / (2 * all) : NAN;
}

double mv_calib_op_typical(const struct mv_calib_data *d, int op)
{
  double *v = malloc((d->n[op] + 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; v && i < d->n[op]; i++)
    v[n++] = d->s[op][i].seconds;
  double m = v && n ? mv_calib_typical(v, n) : 0;
  free(v);
  return m;
}

int mv_calib_windows_any(const struct mv_calib_windows *w)
{
  for (int i = 0; i < MV_CALIB_NWIN; i++)
    if (w->fit[i].n)
      return 1;
  return 0;
}

/* The window ops' fits, as the network operations' (relative error, BIC breakpoints); an op with
 * too few sizes for a segment (a calibration with --max-size below 16 B, or made before stop 32)
 * gets none, and simulate charges nothing for it. */
static int fit_windows(const struct mv_calib_data *d, struct mv_calib_windows *w)
{
  struct series s;
  for (int i = 0; i < MV_CALIB_NWIN; i++) {
    w->fit[i].n = 0;
    int rc = per_size(d, MV_CALIB_WINALLOC + i, &s);
    if (rc)
      return rc;
    if (s.n < MIN_SIZES_PER_SEGMENT || piecewise_fit(&s, MAX_SEGMENTS, &w->fit[i]) != 0) {
      w->fit[i].n = 0;
      continue;
    }
    double err[256];
    for (size_t k = 0; k < s.n; k++)
      err[k] = fabs(mv_piecewise_eval(&w->fit[i], s.x[k]) - s.y[k]) / fmax(s.y[k], 1e-15);
    w->median_rel_err[i] = mv_stats_median_inplace(err, s.n);
  }
  return 0;
}

int mv_calib_fit_network(const struct mv_calib_data *d, struct mv_calibration *c)
{
  struct series *s = calloc(MV_CALIB_NNET, sizeof *s);
  if (!s)
    return MV_ENOMEM;
  int rc = 0;
  for (int op = 0; op < MV_CALIB_NNET && !rc; op++) {
    rc = per_size(d, op, &s[op]);
    rc = rc ? rc : piecewise_fit(&s[op], MAX_SEGMENTS, &c->fit[op]);
  }
  if (!rc) {
    c->eager_bytes = eager_threshold(&s[MV_CALIB_LATESEND]);
    rc = eager_overhead(&s[MV_CALIB_SEND], &c->fit[MV_CALIB_SEND], c->eager_bytes, &c->os);
    rc = rc ? rc : eager_overhead(&s[MV_CALIB_RECV], &c->fit[MV_CALIB_RECV], c->eager_bytes, &c->orecv);
  }
  if (!rc) {
    c->ois = c->fit[MV_CALIB_ISEND];
    for (size_t i = 0; i < c->ois.n; i++)
      c->ois.p[i].a = fmax(c->ois.p[i].a, 0);
    rc = fit_links(&s[MV_CALIB_PINGPONG], c);
  }
  c->test_s = mv_calib_op_typical(d, MV_CALIB_TEST);
  c->iprobe_s = mv_calib_op_typical(d, MV_CALIB_IPROBE);
  c->wtime_s = mv_calib_op_typical(d, MV_CALIB_WTIME);
  c->touch_s = mv_calib_op_typical(d, MV_CALIB_TOUCH);
  c->cpu_clock_s = mv_calib_op_typical(d, MV_CALIB_CPUCLOCK);
  if (!rc)
    rc = fit_windows(d, &c->win);
  free(s);
  return rc;
}
