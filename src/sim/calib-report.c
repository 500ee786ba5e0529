/* report.html of a calibration: for every network and window operation its measurements and the
 * fitted segments on log-log axes (inline SVG, no script), then the derived SMPI values and the kernel
 * models with their fit quality. */
#include <math.h>
#include <string.h>

#include "mpivet/calib.h"
#include "mpivet/error.h"

#define W 640
#define H 320
#define PAD 56

struct axes { double x0, x1, y0, y1; };

static double px(const struct axes *a, double x)
{
  return PAD + (W - 2 * PAD) * (log10(fmax(x, 1)) - a->x0) / (a->x1 - a->x0);
}

static double py(const struct axes *a, double y)
{
  return H - PAD - (H - 2 * PAD) * (log10(fmax(y, 1e-12)) - a->y0) / (a->y1 - a->y0);
}

static void bounds(const struct mv_calib_data *d, int op, struct axes *a)
{
  *a = (struct axes){0, 1, INFINITY, -INFINITY};
  for (size_t i = 0; i < d->n[op]; i++) {
    double y = log10(fmax(d->s[op][i].seconds, 1e-12));
    a->x1 = fmax(a->x1, log10(fmax(d->s[op][i].bytes, 1)));
    a->y0 = fmin(a->y0, y);
    a->y1 = fmax(a->y1, y);
  }
  a->y0 = floor(a->y0);
  a->y1 = fmax(ceil(a->y1), a->y0 + 1);
  a->x1 = ceil(a->x1);
}

static void axes_svg(FILE *fp, const struct axes *a, const char *title, const char *xlabel)
{
  fprintf(fp, "<h3>%s</h3>\n<svg width=\"%d\" height=\"%d\" font-size=\"11\">\n", title, W, H);
  fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
          PAD, PAD, W - 2 * PAD, H - 2 * PAD);
  for (int e = (int)a->x0; e <= (int)a->x1; e += 2)
    fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n", px(a, pow(10, e)),
            H - PAD + 14, e);
  for (int e = (int)a->y0; e <= (int)a->y1; e++)
    fprintf(fp, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", PAD - 4,
            py(a, pow(10, e)) + 4, e);
  fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s (bytes)</text>\n"
              "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">"
              "time (s)</text>\n", W / 2, H - 8, xlabel, H / 2, H / 2);
}

static void op_plot(FILE *fp, const struct mv_calib_data *d, const struct mv_piecewise *f, int op)
{
  static const char *const colors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                       "#e377c2", "#17becf"};
  struct axes a;
  char title[160];
  bounds(d, op, &a);
  snprintf(title, sizeof title, "%s: %s, %zu segments", mv_calib_op_name(op), mv_calib_op_what(op), f->n);
  axes_svg(fp, &a, title, op < MV_CALIB_NNET ? "message size" : "window size per rank");
  for (size_t i = 0; i < d->n[op]; i++)
    fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"#999\"/>\n",
            px(&a, d->s[op][i].bytes), py(&a, d->s[op][i].seconds));
  for (size_t s = 0; s < f->n; s++) {
    fprintf(fp, "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"%s\" points=\"", colors[s % 8]);
    double lo = fmax(f->p[s].from, 1), hi = fmax(f->p[s].to, lo);
    for (int k = 0; k <= 20; k++) {
      double x = lo * pow(hi / lo, k / 20.0), y = f->p[s].a + f->p[s].b * x;
      if (y > 0)
        fprintf(fp, "%.1f,%.1f ", px(&a, x), py(&a, y));
    }
    fprintf(fp, "\"><title>%.0f..%.0f B: %.4g s + %.4g s/B</title></polyline>\n", f->p[s].from,
            f->p[s].to, f->p[s].a, f->p[s].b);
  }
  fprintf(fp, "</svg>\n<table><tr><th>from (B)</th><th>to (B)</th><th>intercept (s)</th>"
              "<th>slope (s/B)</th><th>bandwidth (B/s)</th></tr>\n");
  for (size_t s = 0; s < f->n; s++)
    fprintf(fp, "<tr><td>%.0f</td><td>%.0f</td><td>%.4g</td><td>%.4g</td><td>%.4g</td></tr>\n",
            f->p[s].from, f->p[s].to, f->p[s].a, f->p[s].b, f->p[s].b > 0 ? 1 / f->p[s].b : INFINITY);
  fprintf(fp, "</table>\n");
}

int mv_calib_write_report(const struct mv_calibration *c, const struct mv_calib_data *d, FILE *fp)
{
  fprintf(fp, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mpivet calibration</title>"
              "<style>body{font-family:sans-serif;max-width:760px;margin:auto}td,th{padding:2px 8px;"
              "text-align:right}</style></head><body>\n<h1>mpivet calibration</h1>\n");
  fprintf(fp, "<p>MPI %s, engine %s, %d ranks, messages up to %.0f bytes, %ld measurements.</p>\n",
          c->mpi, c->engine, c->np, c->max_size, c->samples);
  fprintf(fp, "<table><tr><th>link latency (s)</th><td>%.4g</td></tr><tr><th>link bandwidth (B/s)</th>"
              "<td>%.4g</td></tr><tr><th>eager threshold (bytes)</th><td>%.0f</td></tr>"
              "<tr><th>host speed (flop/s)</th><td>%.4g</td></tr><tr><th>MPI_Test (s)</th><td>%.3g</td>"
              "</tr><tr><th>MPI_Iprobe (s)</th><td>%.3g</td></tr><tr><th>MPI_Wtime (s)</th><td>%.3g</td>"
              "</tr><tr><th>first write to a fresh page (s)</th><td>%.3g</td></tr>"
              "<tr><th>one read of the thread CPU clock (s)</th><td>%.3g</td></tr></table>\n",
          c->latency_s, c->bandwidth_Bps, c->eager_bytes, c->flops, c->test_s, c->iprobe_s, c->wtime_s,
          c->touch_s, c->cpu_clock_s);
  for (int op = 0; op < MV_CALIB_NNET; op++)
    if (d->n[op])
      op_plot(fp, d, &c->fit[op], op);
  for (int i = 0; i < MV_CALIB_NWIN; i++)
    if (d->n[MV_CALIB_WINALLOC + i] && c->win.fit[i].n)
      op_plot(fp, d, &c->win.fit[i], MV_CALIB_WINALLOC + i);
  fprintf(fp, "<h2>Kernel models</h2>\n<table><tr><th>kernel</th><th>host</th><th>model</th>"
              "<th>samples</th><th>R&sup2;</th><th>median relative error</th>"
              "<th>predicted / measured total</th></tr>\n");
  for (int i = 0; i < c->nkernels; i++)
    fprintf(fp, "<tr><td>%s</td><td>%s</td><td>%.4g</td><td>M-%d N-%d</td><td>%zu</td><td>%.4f</td>"
                "<td>%.1f %%</td><td>%.3f</td></tr>\n",
            mv_calib_op_name(c->kernels[i].op), c->kernels[i].host < 0 ? "all" : c->kernels[i].host_name,
            c->kernels[i].from_work, c->kernels[i].family, c->kernels[i].noise, c->kernels[i].n, c->kernels[i].r2,
            100 * c->kernels[i].median_rel_err, c->kernels[i].sum_ratio);
  fprintf(fp, "</table>\n</body></html>\n");
  return ferror(fp) ? MV_EIO : 0;
}
