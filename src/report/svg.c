/* One inline SVG plot per function, like Extra-P's plots: x = process count on a log2 axis,
 * y = the metric on a linear axis from 0 in one unit (µs, ms, KiB, ...); measured points with
 * spread, the fitted model, the expectation anchored at the first point and its deviation band
 * (clipped to the plot area). */
#include <math.h>
#include <stdio.h>

#include "internal.h"
#include "mpivet/units.h"
#include "mpivet/xml.h"
#include "svg.h"

#define W 440
#define H 290
#define L 70      /* left margin: y labels */
#define R 12
#define T 28
#define B 42

struct frame {
  double x0, x1, ymax;
};

static double px(const struct frame *f, double x)
{
  double span = log2(f->x1) - log2(f->x0);
  return L + (span > 0 ? (log2(x) - log2(f->x0)) / span : 0.5) * (W - L - R);
}

static double py(const struct frame *f, double y)
{
  return H - B - (f->ymax > 0 ? y / f->ymax : 0) * (H - T - B);
}

/* A round step so that about 5 ticks cover [0, max]. */
static double nice_step(double max)
{
  double raw = max / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;
  return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
}

static void frame_of(const struct mv_report_fn *f, struct frame *fr)
{
  fr->x0 = f->points[0].x;
  fr->x1 = f->points[f->npoints - 1].x;
  double ymax = 0;
  for (size_t i = 0; i < f->npoints; i++)
    ymax = fmax(ymax, f->points[i].max);
  for (size_t i = 0; i < f->ncurve; i++)
    if (isfinite(f->fit[i]))
      ymax = fmax(ymax, f->fit[i]);
  fr->ymax = ymax > 0 ? nice_step(ymax * 1.05) * ceil(ymax * 1.05 / nice_step(ymax * 1.05)) : 1;
}

static void axes(FILE *fp, const struct mv_report_fn *f, const struct frame *fr)
{
  fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
          L, T, W - L - R, H - T - B);
  for (size_t i = 0; i < f->npoints; i++) {
    double x = px(fr, f->points[i].x);
    fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>"
            "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%g</text>\n",
            x, H - B, x, H - B + 4, x, H - B + 15, f->points[i].x);
  }
  /* one unit for the whole y axis, chosen by its top (µs, ms, KiB, ...) */
  double step = nice_step(fr->ymax), factor;
  const char *unit = mv_units_axis(mv_units_of_metric(f->j.metric), fr->ymax, &factor);
  for (double y = 0; y <= fr->ymax * 1.0001; y += step)
    fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
            "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.3g</text>\n",
            L, py(fr, y), W - R, py(fr, y), L - 4, py(fr, y) + 3, y * factor);
  fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">processes p</text>"
          "<text x=\"12\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 12 %d)\" "
          "text-anchor=\"middle\">", (L + W - R) / 2, H - 8, (T + H - B) / 2, (T + H - B) / 2);
  mv_xml_escape(fp, f->j.metric);
  if (unit[0])
    fprintf(fp, " (%s)", unit);
  fputs("</text>\n", fp);
}

/* Polyline of ys over the curve's x values, skipping undefined samples. */
static void curve(FILE *fp, const struct mv_report_fn *f, const struct frame *fr, const double *ys,
                  const char *style)
{
  fprintf(fp, "<polyline fill=\"none\" %s points=\"", style);
  for (size_t i = 0; i < f->ncurve; i++)
    if (isfinite(ys[i]))
      fprintf(fp, "%.1f,%.1f ", px(fr, f->cx[i]), py(fr, ys[i]));
  fputs("\"/>\n", fp);
}

static void band(FILE *fp, const struct mv_report_fn *f, const struct frame *fr, int id)
{
  fprintf(fp, "<clipPath id=\"clip%d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
          "</clipPath>\n<polygon clip-path=\"url(#clip%d)\" fill=\"#54aeff\" fill-opacity=\"0.18\" "
          "points=\"", id, L, T, W - L - R, H - T - B, id);
  for (size_t i = 0; i < f->ncurve; i++)
    if (isfinite(f->band_hi[i]))
      fprintf(fp, "%.1f,%.1f ", px(fr, f->cx[i]), py(fr, fmin(f->band_hi[i], 10 * fr->ymax)));
  for (size_t i = f->ncurve; i-- > 0;)
    if (isfinite(f->band_lo[i]))
      fprintf(fp, "%.1f,%.1f ", px(fr, f->cx[i]), py(fr, fmax(f->band_lo[i], 0)));
  fputs("\"/>\n", fp);
}

static void points(FILE *fp, const struct mv_report_fn *f, const struct frame *fr)
{
  enum mv_unit_kind unit = mv_units_of_metric(f->j.metric);
  char med[MV_UNITS_SIZE], q1[MV_UNITS_SIZE], q3[MV_UNITS_SIZE];
  for (size_t i = 0; i < f->npoints; i++) {
    const struct mv_report_point *p = &f->points[i];
    double x = px(fr, p->x);
    fprintf(fp, "<g class=\"pt\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#333\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
            "stroke-width=\"4\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#cf222e\"/>"
            "<title>p=%g median=%s q1=%s q3=%s n=%zu</title></g>\n", x, py(fr, p->min), x,
            py(fr, p->max), x, py(fr, p->q1), x, py(fr, p->q3), x, py(fr, p->median), p->x,
            mv_units_format(unit, p->median, med, sizeof med),
            mv_units_format(unit, p->q1, q1, sizeof q1), mv_units_format(unit, p->q3, q3, sizeof q3),
            p->n);
  }
}

void mv__svg_plot(FILE *fp, const struct mv_report_fn *f, int id)
{
  fprintf(fp, "<figure class=\"plot\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><text x=\"%d\" y=\"16\" "
          "font-size=\"13\" font-weight=\"bold\">", W, H, W, H, L);
  mv_xml_escape(fp, f->label);
  fprintf(fp, " (%s)</text>\n", f->size);
  if (f->npoints == 0) {
    fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"12\">no measurements</text>", L, H / 2);
  } else {
    struct frame fr;
    frame_of(f, &fr);
    if (f->ncurve) {
      band(fp, f, &fr, id);
      curve(fp, f, &fr, f->expect, "stroke=\"#0969da\" stroke-dasharray=\"5,4\" stroke-width=\"1.5\"");
      curve(fp, f, &fr, f->fit, "stroke=\"#1a7f37\" stroke-width=\"2\"");
    }
    axes(fp, f, &fr);
    points(fp, f, &fr);
  }
  struct mv__fn_texts t;
  mv__fn_texts(f, &t);
  fputs("</svg><figcaption>expectation ", fp);
  mv_xml_escape(fp, t.expectation);
  fputs(", model ", fp);
  mv_xml_escape(fp, mv_judgement_modeled(&f->j) ? t.model : f->j.note);
  if (f->j.nsegments) {   /* the regimes: the curve above is piecewise */
    fputs("; ", fp);
    mv_xml_escape(fp, f->j.note);
  }
  fputs("</figcaption></figure>\n", fp);
}
