/* Reports of an analysis: the metric tree with inclusive totals and the top wait states with
 * their call paths and ranks as text, and the whole cube (metric x call path x rank, own
 * values) as JSON. Call paths are numbered canonically (sorted by path), so a serial and a
 * parallel analysis of one trace write identical JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "mpivet/error.h"
#include "mpivet/json.h"

static const struct mv__view *sort_view;

struct hot {
  int metric;
  uint32_t cp, nranks, max_rank;
  mv__xsum sum;
  double max;
};

static int by_sum(const void *x, const void *y)
{
  const struct hot *a = x, *b = y;
  if (a->sum != b->sum)
    return a->sum > b->sum ? -1 : 1;
  if (a->metric != b->metric)
    return a->metric - b->metric;
  return strcmp(sort_view->path[a->cp], sort_view->path[b->cp]);
}

/* Wait states per (metric, call path), summed over ranks, largest first. */
static struct hot *hot_list(const struct mv__view *v, size_t *n)
{
  struct mv__map idx;
  mv__map_init(&idx);
  struct mv__vec hv;
  mv__vec_init(&hv, sizeof(struct hot));
  *n = 0;
  MV__MAP_FOREACH(&v->a->values.map, s) {
    int m = (int)(s->k1 >> 32);
    uint32_t loc = (uint32_t)s->k1, cp = (uint32_t)s->k2;
    double val = mv__slot_val(s);
    if (!mv__metric_is_wait(m) || val <= 0)
      continue;
    int inserted;
    uint64_t *slot = mv__map_put(&idx, (uint64_t)m, cp, hv.len, &inserted);
    struct hot *h = slot && inserted ? mv__vec_push(&hv) : NULL;
    if (!slot || (inserted && !h)) {
      mv__map_release(&idx);
      mv__vec_release(&hv);
      *n = 1;   /* tells the caller it was out of memory */
      return NULL;
    }
    if (inserted)
      *h = (struct hot){m, cp, 0, 0, 0, -1};
    h = &MV__VEC_AT(&hv, struct hot, *slot);
    h->sum += mv__xsum_of(val);
    h->nranks++;
    if (val > h->max)
      h->max = val, h->max_rank = v->a->loc_rank[loc];
  }
  mv__map_release(&idx);
  sort_view = v;
  if (hv.len)
    qsort(hv.data, hv.len, sizeof(struct hot), by_sum);
  *n = hv.len;
  return hv.data;
}

static void text_tree(const struct mv__view *v, FILE *fp, int m, int depth)
{
  if (m != MV__M_NONE) {
    const char *unit = mv__metric_table[m].unit;
    fprintf(fp, "  %*s%-*s %14.6f %s\n", 2 * depth, "", 52 - 2 * depth, mv__metric_table[m].title,
            mv__to_unit(v->a, m, mv__xsum_value(v->total[m])), unit);
  }
  for (int c = 0; c < MV__M_COUNT; c++)
    if (mv__metric_table[c].parent == m)
      text_tree(v, fp, c, m == MV__M_NONE ? 0 : depth + 1);
}

int mv_analysis_write_text(const struct mv_analysis *a, FILE *fp, int top)
{
  struct mv__view v;
  size_t nh = 0;
  int err = mv__view_init(&v, a);
  struct hot *h = err ? NULL : hot_list(&v, &nh);
  if (!err && !h && nh)
    err = MV_ENOMEM;
  if (!err) {
    fprintf(fp, "wait-state analysis: %llu events, %u locations, timer %llu ticks/s%s%s\n",
            (unsigned long long)a->events, a->nloc, (unsigned long long)a->resolution,
            a->partial ? "\nPARTIAL ANALYSIS (trace truncated): " : "", a->partial ? a->note : "");
    if (a->unmatched)
      fprintf(fp, "note: %llu communication records stayed unmatched\n", (unsigned long long)a->unmatched);
    fprintf(fp, "\nmetric tree (inclusive, all ranks):\n");
    text_tree(&v, fp, MV__M_NONE, 0);
    fprintf(fp, "\ntop wait states:\n");
    if (!nh)
      mv__print_none(a, fp);
    for (size_t i = 0; i < nh && (int)i < top; i++)
      fprintf(fp, "  %2zu. %10.6f s  %-28s %s\n      on %u rank(s), most on rank %u (%.6f s)\n", i + 1,
              mv__to_unit(a, h[i].metric, mv__xsum_value(h[i].sum)), mv__metric_table[h[i].metric].title, v.path[h[i].cp],
              h[i].nranks, h[i].max_rank, mv__to_unit(a, h[i].metric, h[i].max));
    err = mv__text_causes(&v, fp, top);
  }
  free(h);
  mv__view_release(&v);
  if (err)
    return err;
  return ferror(fp) ? MV_EIO : 0;
}

struct cell {
  int metric;
  uint32_t rank, canon;
  double v;
};

static int by_cell(const void *x, const void *y)
{
  const struct cell *a = x, *b = y;
  if (a->metric != b->metric)
    return a->metric - b->metric;
  if (a->rank != b->rank)
    return a->rank < b->rank ? -1 : 1;
  return (a->canon > b->canon) - (a->canon < b->canon);
}

static void json_metrics(struct mv_json *j, const struct mv__view *v)
{
  mv_json_key(j, "metrics");
  mv_json_array_begin(j);
  for (int m = 0; m < MV__M_COUNT; m++) {
    mv_json_object_begin(j);
    mv_json_kv_string(j, "key", mv__metric_table[m].key);
    mv_json_kv_string(j, "title", mv__metric_table[m].title);
    mv_json_kv_string(j, "unit", mv__metric_table[m].unit);
    int p = mv__metric_table[m].parent;
    mv_json_kv_string(j, "parent", p == MV__M_NONE ? NULL : mv__metric_table[p].key);
    mv_json_kv_number(j, "inclusive", mv__to_unit(v->a, m, mv__xsum_value(v->total[m])));
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static void json_callpaths(struct mv_json *j, const struct mv__view *v)
{
  const struct mv_analysis *a = v->a;
  mv_json_key(j, "callpaths");
  mv_json_array_begin(j);
  for (uint32_t i = 1; i < a->tree.n; i++) {   /* index 0 is the empty root path */
    uint32_t cp = v->order[i];
    mv_json_object_begin(j);
    mv_json_kv_int(j, "id", i);
    uint32_t par = a->tree.parent[cp];
    mv_json_kv_int(j, "parent", par && par != MV__NONE ? (long long)v->canon[par] : -1);
    mv_json_kv_string(j, "region", mv__region_name(a, cp));
    char label[512];
    mv__node_label(a, cp, label, sizeof label);
    const char *at = strchr(label, '@');
    mv_json_kv_string(j, "callsite", at ? at + 1 : NULL);
    mv_json_kv_string(j, "path", v->path[cp]);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static int json_values(struct mv_json *j, const struct mv__view *v)
{
  const struct mv_analysis *a = v->a;
  struct cell *c = malloc((a->values.map.count ? a->values.map.count : 1) * sizeof *c);
  size_t n = 0;
  if (!c)
    return MV_ENOMEM;
  MV__MAP_FOREACH(&a->values.map, s) {
    if (mv__slot_val(s) != 0)
      c[n++] = (struct cell){(int)(s->k1 >> 32), a->loc_rank[(uint32_t)s->k1], v->canon[(uint32_t)s->k2],
                             mv__slot_val(s)};
  }
  qsort(c, n, sizeof *c, by_cell);
  mv_json_key(j, "values");
  mv_json_array_begin(j);
  for (size_t i = 0; i < n; i++) {
    mv_json_object_begin(j);
    mv_json_kv_string(j, "metric", mv__metric_table[c[i].metric].key);
    mv_json_kv_int(j, "callpath", c[i].canon);
    mv_json_kv_int(j, "rank", c[i].rank == MV__NONE ? -1 : (long long)c[i].rank);
    mv_json_kv_number(j, "value", mv__to_unit(a, c[i].metric, c[i].v));
    if (c[i].v == (double)llround(c[i].v))
      mv_json_kv_int(j, "ticks", llround(c[i].v));
    else   /* delay costs and critical-path shares are fractions of ticks */
      mv_json_kv_number(j, "ticks", c[i].v);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
  free(c);
  return 0;
}

int mv_analysis_write_json(const struct mv_analysis *a, FILE *fp)
{
  struct mv__view v;
  struct mv_json j;
  int err = mv__view_init(&v, a);
  if (!err) {
    mv_json_document_begin(&j, fp, 1, MV_JSON_ANALYSIS);
    mv_json_kv_string(&j, "tool", "mpivet analyze " MV_VERSION " (git " MV_GIT_REVISION ")");
    mv_json_kv_int(&j, "events", (long long)a->events);
    mv_json_kv_int(&j, "locations", a->nloc);
    mv_json_kv_int(&j, "timer_resolution", (long long)a->resolution);
    mv_json_key(&j, "partial");
    mv_json_bool(&j, a->partial);
    mv_json_kv_string(&j, "partial_note", a->partial ? a->note : NULL);
    mv_json_kv_int(&j, "unmatched_records", (long long)a->unmatched);
    /* the waiting time the delay costs explain (s): "delay" adds up to it */
    mv_json_kv_number(&j, "explained_waiting_time", a->explained / (double)a->resolution);
    json_metrics(&j, &v);
    json_callpaths(&j, &v);
    err = json_values(&j, &v);
    mv_json_object_end(&j);
    int ferr = mv_json_finish(&j);
    err = err ? err : ferr;
  }
  mv__view_release(&v);
  return err;
}
