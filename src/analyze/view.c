/* The shared view of an analysis for its reports: call paths as text, numbered canonically
 * (sorted by path) so that a serial and a parallel analysis write identical reports, inclusive
 * totals per metric, and values below a metric summed per location and call path. */
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "mpivet/error.h"

const char *mv__region_name(const struct mv_analysis *a, uint32_t cp)
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

static const struct mv__view *sort_view;
static int by_path(const void *x, const void *y)
{
  return strcmp(sort_view->path[*(const uint32_t *)x], sort_view->path[*(const uint32_t *)y]);
}

double mv__unexplained(const struct mv__view *v)
{
  double waiting = mv__xsum_value(v->total[MV__M_WDIR]) + mv__xsum_value(v->total[MV__M_WIND]);
  double u = waiting - v->a->explained;
  return u > 0 ? u : 0;
}

double mv__to_unit(const struct mv_analysis *a, int m, double v)
{
  return strcmp(mv__metric_table[m].unit, "sec") ? v : v / (double)a->resolution;
}

void mv__print_none(const struct mv_analysis *a, FILE *fp)
{
  fprintf(fp, "  none%s\n", a->partial ? " in the events that could be read: the trace is incomplete (PARTIAL "
                                         "ANALYSIS above), the rest is unknown" : "");
}

int mv__view_init(struct mv__view *v, const struct mv_analysis *a)
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

void mv__view_release(struct mv__view *v)
{
  for (uint32_t i = 0; v->path && i < v->a->tree.n; i++)
    free(v->path[i]);
  free(v->path);
  free(v->canon);
  free(v->order);
}


static int by_total(const void *x, const void *y)
{
  const struct mv__cause *a = x, *b = y;
  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  if (a->loc != b->loc)
    return a->loc < b->loc ? -1 : 1;
  return (a->cp > b->cp) - (a->cp < b->cp);
}

/* Delay costs or critical-path time per (location, call path), largest first. */
struct mv__cause *mv__causes_of(const struct mv_analysis *a, int root, size_t *n)
{
  struct mv__map idx;
  struct mv__vec cv;
  mv__map_init(&idx);
  mv__vec_init(&cv, sizeof(struct mv__cause));
  MV__MAP_FOREACH(&a->values.map, s) {
    int m = (int)(s->k1 >> 32);
    if (!mv__metric_within(m, root))
      continue;
    int inserted;
    uint64_t *slot = mv__map_put(&idx, s->k1 & 0xffffffffu, s->k2, cv.len, &inserted);
    struct mv__cause *c = slot && inserted ? mv__vec_push(&cv) : NULL;
    if (!slot || (inserted && !c)) {
      mv__map_release(&idx);
      mv__vec_release(&cv);
      return NULL;
    }
    c = &MV__VEC_AT(&cv, struct mv__cause, *slot);
    c->loc = (uint32_t)s->k1, c->cp = (uint32_t)s->k2;
    c->total += mv__slot_val(s);
    if (strstr(mv__metric_table[m].key, "_longterm"))
      c->longterm += mv__slot_val(s);
  }
  mv__map_release(&idx);
  if (cv.len)
    qsort(cv.data, cv.len, sizeof(struct mv__cause), by_total);
  *n = cv.len;
  return cv.len ? cv.data : calloc(1, sizeof(struct mv__cause));
}


