/* `mpivet analyze --html`: one self-contained page (inline CSS, JSON data and script, a canvas; no
 * network): the timeline of every rank (MPI calls and computation, wait states coloured by
 * pattern, messages as lines, the critical path as a thick line with its hand-overs), the metric
 * tree x call path x rank panes and the root causes in plain words. Beyond MV__PAGE_ITEMS timeline
 * items the timeline is aggregated into bins per rank (MPI and waiting shares) so that the page
 * stays small. */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "view.h"
#include "mpivet/analyze.h"
#include "mpivet/error.h"
#include "mpivet/xml.h"

#define AGG_CELLS 400000u     /* bins of all ranks when aggregated */

static const char css[] =
  "body{font-family:sans-serif;margin:1.2em;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:1.4em}"
  "#timeline{width:100%;border:1px solid #ccc;cursor:grab;display:block}"
  ".legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;"
  "width:12px;height:10px;margin-right:4px;vertical-align:middle}#status{font-size:12px;color:#555}"
  ".cube{display:flex;gap:10px;align-items:flex-start}.cube div{flex:1;max-height:420px;overflow:auto;"
  "border:1px solid #ddd}table{border-collapse:collapse;width:100%}td{font-size:12px;padding:2px 6px;"
  "border-bottom:1px solid #eee;white-space:nowrap}td.num{text-align:right;font-family:monospace}"
  "tr{cursor:pointer}tr.sel{background:#dbe9ff}pre{background:#f6f8fa;padding:8px;font-size:12px;white-space:pre-wrap}";

struct page {
  const struct mv__view *v;
  FILE *fp;
  uint32_t *rows;       /* row -> location, by world rank */
  uint32_t *row_of;     /* location -> row */
  uint32_t nrows;
  uint64_t t0, span;
};

/* A JSON string safe inside <script>: '<', '>' and '&' as \u escapes. */
static void json_str(FILE *fp, const char *s)
{
  fputc('"', fp);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == '<' || c == '>' || c == '&')
      fprintf(fp, "\\u%04x", c);
    else if (c == '"' || c == '\\')
      fprintf(fp, "\\%c", c);
    else
      fputc(c, fp);
  }
  fputc('"', fp);
}

static const struct mv_analysis *sort_a;
static int by_rank(const void *x, const void *y)
{
  uint32_t a = sort_a->loc_rank[*(const uint32_t *)x], b = sort_a->loc_rank[*(const uint32_t *)y];
  return a != b ? (a < b ? -1 : 1) : (*(const uint32_t *)x > *(const uint32_t *)y) - (*(const uint32_t *)x < *(const uint32_t *)y);
}

static int page_init(struct page *p, const struct mv__view *v, FILE *fp)
{
  const struct mv_analysis *a = v->a;
  memset(p, 0, sizeof *p);
  p->v = v, p->fp = fp;
  p->rows = malloc((a->nloc + 1) * sizeof *p->rows);
  p->row_of = malloc((a->nloc + 1) * sizeof *p->row_of);
  if (!p->rows || !p->row_of)
    return MV_ENOMEM;
  uint64_t last = 0;
  p->t0 = UINT64_MAX;
  for (uint32_t l = 0; l < a->nloc; l++) {
    p->row_of[l] = MV__NONE;
    if (!a->tls || !a->tls->loc[l].started)
      continue;
    p->rows[p->nrows++] = l;
    p->t0 = a->tls->loc[l].first < p->t0 ? a->tls->loc[l].first : p->t0;
    last = a->tls->loc[l].last > last ? a->tls->loc[l].last : last;
  }
  sort_a = a;
  qsort(p->rows, p->nrows, sizeof *p->rows, by_rank);
  for (uint32_t r = 0; r < p->nrows; r++)
    p->row_of[p->rows[r]] = r;
  p->t0 = p->nrows ? p->t0 : 0;
  p->span = last > p->t0 ? last - p->t0 : 0;
  return 0;
}

/* The call path shown for a timeline entry: canonical index, -1 when not known. */
static long shown_cp(const struct mv__view *v, uint32_t cp)
{
  return cp < v->a->tree.n ? (long)v->canon[cp] : -1;
}

static uint64_t rel(const struct page *p, uint64_t t)
{
  return t > p->t0 ? t - p->t0 : 0;
}

/* Per row: start, call path, start, call path, ..., end, -1. */
static int timelines(const struct page *p)
{
  const struct mv_analysis *a = p->v->a;
  fputs(",\"tl\":[", p->fp);
  for (uint32_t r = 0; r < p->nrows; r++) {
    struct mv__tlcur c;
    uint64_t s, e;
    uint32_t cp;
    fputs(r ? ",[" : "[", p->fp);
    for (mv__tl_seek(&c, a->tls, p->rows[r], 0); mv__tl_next(&c, &s, &e, &cp);)
      fprintf(p->fp, "%llu,%ld,", (unsigned long long)rel(p, s), shown_cp(p->v, cp));
    fprintf(p->fp, "%llu,-1]", (unsigned long long)rel(p, a->tls->loc[p->rows[r]].last));
  }
  fputc(']', p->fp);
  return a->tls->err;
}

/* Adds the part of [t0, t1) in each bin of width bw to acc[bin]. */
static void spread(double *acc, uint32_t nb, double bw, double t0, double t1)
{
  for (uint32_t b = (uint32_t)(t0 / bw); b < nb && b * bw < t1; b++) {
    double lo = b * bw > t0 ? b * bw : t0, hi = (b + 1) * bw < t1 ? (b + 1) * bw : t1;
    acc[b] += hi > lo ? hi - lo : 0;
  }
}

static int is_mpi(const struct mv_analysis *a, uint32_t cp)
{
  uint8_t c = cp < a->tree.n && a->tree.region[cp] < a->nregions ? a->classes[a->tree.region[cp]] : MV__RC_USER;
  return c != MV__RC_USER && c != MV__RC_COMP;
}

/* Every wait state, location by location in enter order (read back from their stream). */
struct waits {
  const struct mv_analysis *a;
  uint32_t loc;
  uint64_t k;
  struct mv__tlcur cur;
};

static int next_wait(struct waits *it, struct mv__wait *w)
{
  for (; it->loc < it->a->nloc; it->loc++, it->k = 0) {
    const void *item = mv__tl_item(&it->cur, it->a->causes.waits, it->loc, it->k);
    if (item) {
      memcpy(w, item, sizeof *w);
      it->k++;
      return 1;
    }
  }
  return 0;
}

static int tenths(double share)
{
  int d = (int)(share * 9 + 0.5);
  return d < 0 ? 0 : d > 9 ? 9 : d;
}

/* Per row a string of bins, two digits each: MPI share and waiting share (0-9, in ninths). */
static int aggregated(const struct page *p)
{
  const struct mv_analysis *a = p->v->a;
  uint32_t nb = AGG_CELLS / (p->nrows ? p->nrows : 1);
  nb = nb > 2000 ? 2000 : nb < 20 ? 20 : nb;
  double bw = p->span ? (double)p->span / nb : 1;
  double *mpi = calloc((size_t)nb * p->nrows + 1, sizeof *mpi), *wait = calloc((size_t)nb * p->nrows + 1, sizeof *wait);
  if (!mpi || !wait) {
    free(mpi), free(wait);
    return MV_ENOMEM;
  }
  for (uint32_t r = 0; r < p->nrows; r++) {
    struct mv__tlcur c;
    uint64_t s, e;
    uint32_t cp;
    for (mv__tl_seek(&c, a->tls, p->rows[r], 0); mv__tl_next(&c, &s, &e, &cp);)
      if (is_mpi(a, cp))
        spread(mpi + (size_t)r * nb, nb, bw, (double)rel(p, s), (double)rel(p, e));
  }
  struct mv__wait w;
  for (struct waits it = {a, 0, 0, {0}}; next_wait(&it, &w);) {
    uint32_t r = p->row_of[w.wloc];
    if (r != MV__NONE)
      spread(wait + (size_t)r * nb, nb, bw, (double)rel(p, w.wenter), (double)rel(p, w.wenter + w.amount));
  }
  fputs(",\"tl\":[],\"agg\":[", p->fp);
  for (uint32_t r = 0; r < p->nrows; r++) {
    fputs(r ? ",\"" : "\"", p->fp);
    for (uint32_t b = 0; b < nb; b++)
      fprintf(p->fp, "%d%d", tenths(mpi[(size_t)r * nb + b] / bw), tenths(wait[(size_t)r * nb + b] / bw));
    fputc('"', p->fp);
  }
  fputc(']', p->fp);
  free(mpi), free(wait);
  return a->tls->err;
}

/* Wait states [row, start, end, metric], messages [from, send, to, receive], critical path
 * [row, start, end] (from the end backwards). Aggregated: no wait states or messages. */
static int events(const struct page *p, int agg)
{
  const struct mv_analysis *a = p->v->a;
  fputs(",\"waits\":[", p->fp);
  const char *sep = "";
  struct mv__wait w;
  for (struct waits it = {a, 0, 0, {0}}; !agg && next_wait(&it, &w); sep = ",")
    fprintf(p->fp, "%s%u,%llu,%llu,%u", sep, p->row_of[w.wloc], (unsigned long long)rel(p, w.wenter),
            (unsigned long long)rel(p, w.wenter + w.amount), w.metric);
  fputs("],\"msgs\":[", p->fp);
  sep = "";
  for (size_t i = 0; !agg && i < a->causes.msgs.len; i++, sep = ",") {
    const struct mv__msg *m = &MV__VEC_AT(&a->causes.msgs, struct mv__msg, i);
    fprintf(p->fp, "%s%u,%llu,%u,%llu", sep, p->row_of[m->from], (unsigned long long)rel(p, m->send),
            p->row_of[m->to], (unsigned long long)rel(p, m->recv));
  }
  fputs("],\"cpath\":[", p->fp);
  struct mv__tlcur cur = {0};
  struct mv__cpseg c;
  for (uint64_t i = 0; mv__cpath_at(a, &cur, i, &c); i++)
    fprintf(p->fp, "%s%u,%llu,%llu", i ? "," : "", p->row_of[c.loc], (unsigned long long)rel(p, c.t0),
            (unsigned long long)rel(p, c.t1));
  fputc(']', p->fp);
  return a->cpath ? a->cpath->err : 0;
}

/* Metrics [key, title, parent, unit, inclusive], call paths (canonical order) with their class
 * (1: MPI), wait-state titles by metric, own values [metric, call path, rank, value]. */
static void cube(const struct page *p)
{
  const struct mv__view *v = p->v;
  const struct mv_analysis *a = v->a;
  fputs(",\"metrics\":[", p->fp);
  for (int m = 0; m < MV__M_COUNT; m++) {
    fputs(m ? ",[" : "[", p->fp);
    json_str(p->fp, mv__metric_table[m].key);
    fputc(',', p->fp);
    json_str(p->fp, mv__metric_table[m].title);
    fprintf(p->fp, ",%d,", mv__metric_table[m].parent);
    json_str(p->fp, mv__metric_table[m].unit);
    fprintf(p->fp, ",%.9g]", mv__to_unit(a, m, mv__xsum_value(v->total[m])));
  }
  fputs("],\"paths\":[", p->fp);
  for (uint32_t i = 0; i < a->tree.n; i++) {
    fputs(i ? "," : "", p->fp);
    json_str(p->fp, i ? v->path[v->order[i]] : "(outside any region)");
  }
  fputs("],\"cls\":[", p->fp);
  for (uint32_t i = 0; i < a->tree.n; i++)
    fprintf(p->fp, "%s%d", i ? "," : "", is_mpi(a, v->order[i]));
  fputs("],\"vals\":[", p->fp);
  const char *sep = "";
  MV__MAP_FOREACH(&a->values.map, s) {
    int m = (int)(s->k1 >> 32);
    uint32_t loc = (uint32_t)s->k1, cp = (uint32_t)s->k2;
    if (mv__slot_val(s) == 0 || cp >= a->tree.n)
      continue;
    fprintf(p->fp, "%s%d,%u,%d,%.9g", sep, m, v->canon[cp], a->loc_rank[loc] == MV__NONE ? -1 : (int)a->loc_rank[loc],
            mv__to_unit(a, m, mv__slot_val(s)));
    sep = ",";
  }
  fputc(']', p->fp);
}

static int data(const struct page *p)
{
  const struct mv_analysis *a = p->v->a;
  size_t items = a->causes.msgs.len;
  for (uint32_t l = 0; l < a->nloc; l++)
    items += a->causes.waits->loc[l].n;
  for (uint32_t r = 0; r < p->nrows; r++)
    items += a->tls->loc[p->rows[r]].n;
  int agg = items > MV__PAGE_ITEMS, err = 0;
  fprintf(p->fp, "<script type=\"application/json\" id=\"data\">{\"res\":%llu,\"span\":%llu,\"rows\":[",
          (unsigned long long)a->resolution, (unsigned long long)p->span);
  for (uint32_t r = 0; r < p->nrows; r++)
    fprintf(p->fp, "%s%u", r ? "," : "", a->loc_rank[p->rows[r]]);
  fputc(']', p->fp);
  if (agg)
    err = aggregated(p);
  else
    err = timelines(p);
  int eerr = events(p, agg);
  err = err ? err : eerr;
  cube(p);
  fputs(",\"wnames\":{", p->fp);
  for (int m = 0, n = 0; m < MV__M_COUNT; m++)
    if (mv__metric_is_wait(m)) {
      fprintf(p->fp, "%s\"%d\":", n++ ? "," : "", m);
      json_str(p->fp, mv__metric_table[m].title);
    }
  fputs("}}</script>\n", p->fp);
  return err ? err : a->causes.waits->err;
}

static int causes(const struct page *p)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (!mem)
    return MV_ENOMEM;
  int err = mv__text_causes(p->v, mem, 10);
  fclose(mem);
  fputs("<h2>Root causes and critical path</h2>\n<pre id=\"causes\">", p->fp);
  mv_xml_escape(p->fp, buf ? buf : "");
  fputs("</pre>\n", p->fp);
  free(buf);
  return err;
}

static const char timeline_part[] =
  "<h2>Timeline</h2>\n<p class=\"legend\"><span><i style=\"background:#7cc47c\"></i>computation</span>"
  "<span><i style=\"background:#d9534f\"></i>MPI</span><span id=\"wait-legend\"></span>"
  "<span><i style=\"background:#111;height:3px\"></i>critical path</span><span>lines: messages</span>"
  "<button id=\"reset\">whole run</button> (wheel: zoom, drag: pan, double-click: whole run)</p>\n"
  "<canvas id=\"timeline\" height=\"200\"></canvas>\n<p id=\"status\"></p>\n";
static const char cube_panes[] =
  "<h2>Metric \u00d7 call path \u00d7 rank</h2>\n<p>Selected: <b id=\"cube-sel\"></b> (click a metric, then a "
  "call path; values are the metric with its sub-metrics of the same unit)</p>\n<div class=\"cube\">"
  "<div><table id=\"metrics\"><tbody id=\"metric-rows\"></tbody></table></div>"
  "<div><table id=\"callpaths\"><tbody id=\"callpath-rows\"></tbody></table></div>"
  "<div><table id=\"ranks\"><tbody id=\"rank-rows\"></tbody></table></div></div>\n";

int mv_analysis_write_html(const struct mv_analysis *a, FILE *fp, const char *title)
{
  struct mv__view v;
  struct page p = {0};
  int err = mv__view_init(&v, a);
  err = err ? err : page_init(&p, &v, fp);
  if (!err) {
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", fp);
    mv_xml_escape(fp, title);
    fprintf(fp, "</title><style>%s</style></head>\n<body>\n<h1>", css);
    mv_xml_escape(fp, title);
    fprintf(fp, "</h1>\n<p>%llu events, %u ranks, run of %.6g s%s", (unsigned long long)a->events, p.nrows,
            (double)p.span / (double)a->resolution, a->partial ? "; PARTIAL ANALYSIS: " : "");
    mv_xml_escape(fp, a->partial ? a->note : "");
    fputs("</p>\n", fp);
    fputs(timeline_part, fp);
    err = causes(&p);
    fputs(cube_panes, fp);
    err = err ? err : data(&p);
    fprintf(fp, "<script>%s</script>\n</body></html>\n", mv__html_script);
  }
  free(p.rows), free(p.row_of);
  mv__view_release(&v);
  return err ? err : ferror(fp) ? MV_EIO : 0;
}
