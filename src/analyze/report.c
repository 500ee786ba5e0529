/* Reports of an analysis: the metric tree with inclusive totals and the top wait states with
 * their call paths and ranks as text, and the whole cube (metric x call path x rank, own
 * values) as JSON. Call paths are numbered canonically (sorted by path), so a serial and a
 * parallel analysis of one trace write identical JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "mpivet/error.h"
#include "mpivet/json.h"

struct view {
  const struct mv_analysis *a;
  char **path;        /* call path id -> "main > foo > MPI_Recv" */
  uint32_t *canon;    /* call path id -> canonical index */
  uint32_t *order;    /* canonical index -> call path id */
  mv__xsum total[MV__M_COUNT];   /* inclusive, all ranks */
};

static const char *region_name(const struct mv_analysis *a, uint32_t cp)
{
  uint32_t r = a->tree.region[cp];
  return r < a->nregions ? a->names[r] : "?";
}

static char *path_of(const struct mv_analysis *a, uint32_t cp)
{
  char n[512];
  size_t len = 1;
  for (uint32_t c = cp; c && c != MV__NONE; c = a->tree.parent[c]) {
    mv__node_label(a, c, n, sizeof n);
    len += strlen(n) + 3;
  }
  char *s = malloc(len);
  if (!s)
    return NULL;
  s[len - 1] = 0;
  size_t end = len - 1;
  for (uint32_t c = cp; c && c != MV__NONE; c = a->tree.parent[c]) {
    mv__node_label(a, c, n, sizeof n);
    size_t k = strlen(n);
    end -= k;
    memcpy(s + end, n, k);
    if (a->tree.parent[c] && a->tree.parent[c] != MV__NONE)
      end -= 3, memcpy(s + end, " > ", 3);
  }
  memmove(s, s + end, len - end);
  return s;
}

static const struct view *sort_view;
static int by_path(const void *x, const void *y)
{
  return strcmp(sort_view->path[*(const uint32_t *)x], sort_view->path[*(const uint32_t *)y]);
}

static double to_unit(const struct mv_analysis *a, int m, double v)
{
  return strcmp(mv__metric_table[m].unit, "sec") ? v : v / (double)a->resolution;
}

static int view_init(struct view *v, const struct mv_analysis *a)
{
  uint32_t n = a->tree.n;
  memset(v, 0, sizeof *v);
  v->a = a;
  v->path = calloc(n, sizeof *v->path);
  v->canon = malloc(n * sizeof *v->canon);
  v->order = malloc(n * sizeof *v->order);
  if (!v->path || !v->canon || !v->order)
    return MV_ENOMEM;
  for (uint32_t i = 0; i < n; i++) {
    v->order[i] = i;
    if (!(v->path[i] = path_of(a, i)))
      return MV_ENOMEM;
  }
  sort_view = v;
  qsort(v->order, n, sizeof *v->order, by_path);
  for (uint32_t i = 0; i < n; i++)
    v->canon[v->order[i]] = i;
  MV__MAP_FOREACH(&a->values.map, s) {
    int m = (int)(s->k1 >> 32);
    for (int p = m; p != MV__M_NONE; p = mv__metric_table[p].parent)
      if (!strcmp(mv__metric_table[p].unit, mv__metric_table[m].unit))
        v->total[p] += mv__xsum_of(mv__slot_val(s));
  }
  return 0;
}

static void view_release(struct view *v)
{
  for (uint32_t i = 0; v->path && i < v->a->tree.n; i++)
    free(v->path[i]);
  free(v->path);
  free(v->canon);
  free(v->order);
}

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
static struct hot *hot_list(const struct view *v, size_t *n)
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

static void text_tree(const struct view *v, FILE *fp, int m, int depth)
{
  if (m != MV__M_NONE) {
    const char *unit = mv__metric_table[m].unit;
    fprintf(fp, "  %*s%-*s %14.6f %s\n", 2 * depth, "", 52 - 2 * depth, mv__metric_table[m].title,
            to_unit(v->a, m, mv__xsum_value(v->total[m])), unit);
  }
  for (int c = 0; c < MV__M_COUNT; c++)
    if (mv__metric_table[c].parent == m)
      text_tree(v, fp, c, m == MV__M_NONE ? 0 : depth + 1);
}

struct cause {
  uint32_t loc, cp;
  double total, longterm;   /* delay costs (ticks), all kinds; the long-term part */
};

static int by_total(const void *x, const void *y)
{
  const struct cause *a = x, *b = y;
  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  if (a->loc != b->loc)
    return a->loc < b->loc ? -1 : 1;
  return (a->cp > b->cp) - (a->cp < b->cp);
}

/* Delay costs or critical-path time per (location, call path), largest first. */
static struct cause *causes_of(const struct mv_analysis *a, int root, size_t *n)
{
  struct mv__map idx;
  struct mv__vec cv;
  mv__map_init(&idx);
  mv__vec_init(&cv, sizeof(struct cause));
  MV__MAP_FOREACH(&a->values.map, s) {
    int m = (int)(s->k1 >> 32);
    if (!mv__metric_within(m, root))
      continue;
    int inserted;
    uint64_t *slot = mv__map_put(&idx, s->k1 & 0xffffffffu, s->k2, cv.len, &inserted);
    struct cause *c = slot && inserted ? mv__vec_push(&cv) : NULL;
    if (!slot || (inserted && !c)) {
      mv__map_release(&idx);
      mv__vec_release(&cv);
      return NULL;
    }
    c = &MV__VEC_AT(&cv, struct cause, *slot);
    c->loc = (uint32_t)s->k1, c->cp = (uint32_t)s->k2;
    c->total += mv__slot_val(s);
    if (strstr(mv__metric_table[m].key, "_longterm"))
      c->longterm += mv__slot_val(s);
  }
  mv__map_release(&idx);
  if (cv.len)
    qsort(cv.data, cv.len, sizeof(struct cause), by_total);
  *n = cv.len;
  return cv.len ? cv.data : calloc(1, sizeof(struct cause));
}

/* The top root causes and the critical path in plain words. */
static int text_causes(const struct view *v, FILE *fp, int top)
{
  const struct mv_analysis *a = v->a;
  double res = (double)a->resolution;
  size_t n = 0, ncp = 0;
  struct cause *c = causes_of(a, MV__M_DELAY, &n), *p = c ? causes_of(a, MV__M_CP, &ncp) : NULL;
  if (!c || !p) {
    free(c);
    return MV_ENOMEM;
  }
  fprintf(fp, "\nroot causes (delay costs: the waiting time each delay caused, directly and through "
              "the waits it propagated):\n");
  fprintf(fp, "  delay costs %.6f s explain %.6f s of waiting time\n",
          mv__xsum_value(v->total[MV__M_DELAY]) / res, a->explained / res);
  if (!n)
    fprintf(fp, "  none\n");
  for (size_t i = 0; i < n && (int)i < top; i++)
    fprintf(fp, "  %2zu. %.6f s of waiting is caused by %s on rank %u (%.6f s directly, %.6f s through "
                "propagated waits)\n", i + 1, c[i].total / res, v->path[c[i].cp], a->loc_rank[c[i].loc],
            (c[i].total - c[i].longterm) / res, c[i].longterm / res);
  fprintf(fp, "\ncritical path: %.6f s, from the rank that finishes last back to the start; longest on it:\n",
          mv__xsum_value(v->total[MV__M_CP]) / res);
  for (size_t i = 0; i < ncp && (int)i < top; i++)
    fprintf(fp, "  %2zu. %.6f s in %s on rank %u\n", i + 1, p[i].total / res, v->path[p[i].cp],
            a->loc_rank[p[i].loc]);
  fprintf(fp, "  critical-path imbalance %.6f s (time on the path above the call paths' average "
              "non-waiting time: what balancing them would save)\n",
          mv__xsum_value(v->total[MV__M_CPIMB]) / res);
  free(c);
  free(p);
  return 0;
}

int mv_analysis_write_text(const struct mv_analysis *a, FILE *fp, int top)
{
  struct view v;
  size_t nh = 0;
  int err = view_init(&v, a);
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
      fprintf(fp, "  none\n");
    for (size_t i = 0; i < nh && (int)i < top; i++)
      fprintf(fp, "  %2zu. %10.6f s  %-28s %s\n      on %u rank(s), most on rank %u (%.6f s)\n", i + 1,
              to_unit(a, h[i].metric, mv__xsum_value(h[i].sum)), mv__metric_table[h[i].metric].title, v.path[h[i].cp],
              h[i].nranks, h[i].max_rank, to_unit(a, h[i].metric, h[i].max));
    err = text_causes(&v, fp, top);
  }
  free(h);
  view_release(&v);
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

static void json_metrics(struct mv_json *j, const struct view *v)
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
    mv_json_kv_number(j, "inclusive", to_unit(v->a, m, mv__xsum_value(v->total[m])));
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static void json_callpaths(struct mv_json *j, const struct view *v)
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
    mv_json_kv_string(j, "region", region_name(a, cp));
    char label[512];
    mv__node_label(a, cp, label, sizeof label);
    const char *at = strchr(label, '@');
    mv_json_kv_string(j, "callsite", at ? at + 1 : NULL);
    mv_json_kv_string(j, "path", v->path[cp]);
    mv_json_object_end(j);
  }
  mv_json_array_end(j);
}

static int json_values(struct mv_json *j, const struct view *v)
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
    mv_json_kv_number(j, "value", to_unit(a, c[i].metric, c[i].v));
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
  struct view v;
  struct mv_json j;
  int err = view_init(&v, a);
  if (!err) {
    mv_json_init(&j, fp, 1);
    mv_json_object_begin(&j);
    mv_json_kv_string(&j, "tool", "mpivet analyze " MV_VERSION " (git " MV_GIT_REVISION ")");
    mv_json_kv_int(&j, "events", (long long)a->events);
    mv_json_kv_int(&j, "locations", a->nloc);
    mv_json_kv_int(&j, "timer_resolution", (long long)a->resolution);
    mv_json_key(&j, "partial");
    mv_json_bool(&j, a->partial);
    mv_json_kv_string(&j, "partial_note", a->partial ? a->note : NULL);
    mv_json_kv_int(&j, "unmatched_records", (long long)a->unmatched);
    json_metrics(&j, &v);
    json_callpaths(&j, &v);
    err = json_values(&j, &v);
    mv_json_object_end(&j);
    int ferr = mv_json_finish(&j);
    err = err ? err : ferr;
  }
  view_release(&v);
  return err;
}
