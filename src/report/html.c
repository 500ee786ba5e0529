/* report.html: one self-contained page (inline CSS and SVG, no scripts, no external resources)
 * with the summary table, the rules, the guideline summary and one plot per function: measured
 * medians with interquartile and min-max spread, the fitted model, the expectation and its band. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "mpivet/report.h"
#include "mpivet/xml.h"
#include "internal.h"
#include "svg.h"

static const char *const status_words[MV_JUDGE_NSTATUS] = {"✓ match", "≈ approximate",
                                                            "✗ mismatch", "- not modeled",
                                                            "? not measured", "-",
                                                            "- too few points to judge"};
static const char *const status_class[MV_JUDGE_NSTATUS] = {"ok", "approx", "bad", "none",
                                                           "none", "none", "none"};

static const char css[] =
  "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}"
  "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
  "text-align:left;font-size:13px}th{background:#f2f2f2}.ok{color:#1a7f37}.approx{color:#9a6700}"
  ".bad{color:#cf222e;font-weight:bold}.none{color:#777}pre{background:#f6f8fa;padding:8px;"
  "overflow:auto;font-size:12px}.plots{display:flex;flex-wrap:wrap;gap:12px}"
  "figure.plot{margin:0;border:1px solid #ddd;padding:6px}figcaption{font-size:12px;"
  "max-width:440px}.verdict{font-size:20px;font-weight:bold}";

static void summary_table(FILE *fp, const struct mv_report *r)
{
  fputs("<table id=\"models\"><tr><th>function</th><th>metric</th><th>message size</th>"
        "<th>expectation</th><th>model</th><th>adj. R²</th><th>δ(p)</th><th>match</th></tr>\n",
        fp);
  for (size_t i = 0; i < r->nfns; i++) {
    const struct mv_report_fn *f = &r->fns[i];
    struct mv__fn_texts t;
    mv__fn_texts(f, &t);
    int modeled = mv_judgement_modeled(&f->j);
    fputs("<tr><td>", fp);
    mv_xml_escape(fp, f->label);
    fputs("</td><td>", fp);
    mv_xml_escape(fp, f->j.metric);
    fprintf(fp, "</td><td>%s</td><td>", f->size);
    mv_xml_escape(fp, t.expectation);
    fputs("</td><td>", fp);
    mv_xml_escape(fp, modeled ? t.model : f->j.note);
    if (f->j.nsegments) {
      fputs("<br>", fp);
      mv_xml_escape(fp, f->j.note);
    }
    fprintf(fp, "</td><td>%s</td><td>", t.ar2);
    mv_xml_escape(fp, t.divergence);
    fprintf(fp, "</td><td class=\"%s\">%s%s</td></tr>\n", status_class[f->j.status],
            status_words[f->j.status], f->rule_warning ? " ⚠" : "");
  }
  fputs("</table>\n", fp);
}

static void rules_table(FILE *fp, const struct mv_report *r)
{
  if (!r->nrules)
    return;
  fputs("<h2>Cross-function rules</h2>\n<table id=\"rules\"><tr><th>rule</th><th>metric</th>"
        "<th>message size</th><th>status</th><th>detail</th></tr>\n", fp);
  for (size_t i = 0; i < r->nrules; i++) {
    const struct mv_rule_judgement *x = &r->rules[i];
    char size[64], detail[MV_JUDGE_TEXT];
    mv_judge_size_label(x->sized, &x->size, size, sizeof size);
    mv_rule_judgement_detail(x, detail, sizeof detail);
    fputs("<tr><td>", fp);
    mv_xml_escape(fp, x->text);
    fputs("</td><td>", fp);
    mv_xml_escape(fp, x->metric);
    fprintf(fp, "</td><td>%s</td><td class=\"%s\">%s", size,
            x->failed ? "bad" : x->evaluated ? "ok" : "none", x->failed ? "⚠ " : "");
    mv_xml_escape(fp, mv_rule_judgement_status(x));
    fputs("</td><td>", fp);
    mv_xml_escape(fp, detail);
    fputs("</td></tr>\n", fp);
  }
  fputs("</table>\n", fp);
}

static int guidelines_section(FILE *fp, const struct mv_report *r)
{
  if (!r->gl || !r->catalog)
    return 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (!mem)
    return MV_ENOMEM;
  int rc = mv_gl_write_text(r->gl, r->catalog, mem);
  fclose(mem);
  fprintf(fp, "<h2>Guidelines (PGMPI) at p = %d</h2>\n<pre id=\"guidelines\">", r->gl_nprocs);
  mv_xml_escape(fp, buf);
  fputs("</pre>\n", fp);
  free(buf);
  return rc;
}

int mv_report_write_html(const struct mv_report *r, FILE *fp)
{
  const char *title = r->title[0] ? r->title : "mpivet check report";
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", fp);
  mv_xml_escape(fp, title);
  fprintf(fp, "</title><style>%s</style></head>\n<body>\n<h1>", css);
  mv_xml_escape(fp, title);
  fputs("</h1>\n<p>library: <b>", fp);
  mv_xml_escape(fp, r->library);
  fputs("</b>, engine: <b>", fp);
  mv_xml_escape(fp, r->engine);
  fputs("</b></p>\n", fp);
  for (int i = 0; i < 4; i++)
    if (r->info[i][0]) {
      fputs("<p>", fp);
      mv_xml_escape(fp, r->info[i]);
      fputs("</p>\n", fp);
    }
  const char *verdict = mv_report_verdict(r);
  fprintf(fp, "<p class=\"verdict %s\" id=\"verdict\">Verdict: %s", mv_report_failed(r) ? "bad"
          : r->n_incomplete ? "approx" : "ok", verdict);
  if (r->n_incomplete)
    fprintf(fp, " (%zu expectations not judged: not measured, not modeled or too few points)", r->n_incomplete);
  fputs("</p>\n", fp);
  fputs("<h2>Models and expectations</h2>\n", fp);
  summary_table(fp, r);
  rules_table(fp, r);
  int rc = guidelines_section(fp, r);
  fputs("<h2>Plots</h2>\n<p>Points: median of the repetitions, thick bar: interquartile range, "
        "thin bar: min-max. Solid line: fitted model. Dashed line: the expectation through the "
        "first point; shaded: the deviation band E/D to E·D.</p>\n<div class=\"plots\">\n", fp);
  for (size_t i = 0; i < r->nfns; i++)
    mv__svg_plot(fp, &r->fns[i], (int)i);
  fputs("</div>\n</body></html>\n", fp);
  return rc ? rc : (ferror(fp) ? MV_EIO : 0);
}
