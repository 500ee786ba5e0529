/* CUBE4 report (.cubex) of an analysis for the Cube GUI / CubeLib: a tar archive holding
 * anchor.xml (metric tree, regions, call tree, system tree) and per metric <id>.index (the
 * call-tree nodes that have values, as a sparse index) and <id>.data (one value per location for
 * each of them). Values are inclusive along the metric tree and exclusive along the call tree
 * (metric type EXCLUSIVE), as Scalasca's reports store them. */
#include <stdlib.h>
#include <string.h>

#include "cube-tar.h"
#include "result.h"
#include <math.h>

#include "mpivet/error.h"
#include "mpivet/xml.h"

struct cube {
  const struct mv_analysis *a;
  uint32_t *first, *next;   /* children of each call-tree node, sorted by label */
  uint32_t *node;           /* cube cnode id (depth-first preorder) -> call-tree node */
  uint32_t *cid;            /* call-tree node -> cube cnode id */
  uint32_t n;
};

static const struct cube *sort_cube;
static int by_label(const void *x, const void *y)
{
  char a[512], b[512];
  mv__node_label(sort_cube->a, *(const uint32_t *)x, a, sizeof a);
  mv__node_label(sort_cube->a, *(const uint32_t *)y, b, sizeof b);
  int c = strcmp(a, b);
  return c ? c : (*(const uint32_t *)x > *(const uint32_t *)y) - (*(const uint32_t *)x < *(const uint32_t *)y);
}

/* Children lists in label order and the preorder numbering; node 0 (above every location's
 * outermost region) becomes the single root cnode, so the cube has one call tree. */
static int cube_init(struct cube *c, const struct mv_analysis *a)
{
  uint32_t n = a->tree.n;
  memset(c, 0, sizeof *c);
  c->a = a;
  c->first = malloc(n * sizeof *c->first);
  c->next = malloc(n * sizeof *c->next);
  c->node = malloc(n * sizeof *c->node);
  c->cid = malloc(n * sizeof *c->cid);
  uint32_t *sorted = malloc(n * sizeof *sorted), *stack = malloc(n * sizeof *stack);
  int err = c->first && c->next && c->node && c->cid && sorted && stack ? 0 : MV_ENOMEM;
  for (uint32_t i = 0; !err && i < n; i++)
    sorted[i] = i, c->first[i] = c->next[i] = MV__NONE;
  if (!err) {
    sort_cube = c;
    qsort(sorted, n, sizeof *sorted, by_label);
    for (uint32_t k = n; k-- > 0;) {   /* prepend in reverse label order */
      uint32_t i = sorted[k], p = a->tree.parent[i];
      if (i != 0 && p != MV__NONE && p < n)
        c->next[i] = c->first[p], c->first[p] = i;
    }
    uint32_t top = 0;
    stack[top++] = 0;
    while (top) {
      uint32_t i = stack[--top], k = 0;
      c->cid[i] = c->n, c->node[c->n++] = i;
      for (uint32_t ch = c->first[i]; ch != MV__NONE; ch = c->next[ch])
        sorted[k++] = ch;
      while (k)   /* push in reverse so that the first child comes next */
        stack[top++] = sorted[--k];
    }
  }
  free(sorted);
  free(stack);
  return err;
}

static void cube_release(struct cube *c)
{
  free(c->first);
  free(c->next);
  free(c->node);
  free(c->cid);
}

static void xml_elem(FILE *fp, const char *tag, const char *text)
{
  fprintf(fp, "<%s>", tag);
  mv_xml_escape(fp, text);
  fprintf(fp, "</%s>\n", tag);
}

static int is_occ(int m)
{
  return strcmp(mv__metric_table[m].unit, "sec") != 0;
}

static void xml_metric(FILE *fp, int m)
{
  const struct mv__metric_info *mi = &mv__metric_table[m];
  fprintf(fp, "<metric id=\"%d\" type=\"EXCLUSIVE\">\n", m);
  xml_elem(fp, "disp_name", mi->title);
  xml_elem(fp, "uniq_name", mi->key);
  xml_elem(fp, "dtype", is_occ(m) ? "UINT64" : "DOUBLE");
  xml_elem(fp, "uom", mi->unit);
  fputs("<url></url>\n", fp);
  xml_elem(fp, "descr", mi->title);
  for (int k = 0; k < MV__M_COUNT; k++)
    if (mv__metric_table[k].parent == m)
      xml_metric(fp, k);
  fputs("</metric>\n", fp);
}

/* Regions: the trace's (ids = region refs) and the artificial root (id nregions). */
static void xml_program(FILE *fp, const struct cube *c)
{
  const struct mv_analysis *a = c->a;
  fputs("<program>\n", fp);
  for (uint32_t r = 0; r <= a->nregions; r++) {
    const char *name = r < a->nregions ? a->names[r] : "program";
    int mpi = r < a->nregions && strncmp(name, "MPI_", 4) == 0;
    fprintf(fp, "<region id=\"%u\" mod=\"\" begin=\"-1\" end=\"-1\">\n", r);
    xml_elem(fp, "name", name);
    xml_elem(fp, "mangled_name", name);
    xml_elem(fp, "paradigm", mpi ? "mpi" : "user");
    xml_elem(fp, "role", r < a->nregions ? "function" : "artificial");
    fputs("<url></url>\n", fp);
    xml_elem(fp, "descr", r < a->nregions ? "" : "root of all call paths (added by mpivet)");
    fputs("</region>\n", fp);
  }
  /* cnodes in preorder; the call site label goes to the mod attribute */
  uint32_t depth = 0, *open = malloc((c->n + 1) * sizeof *open);
  for (uint32_t k = 0; open && k < c->n; k++) {
    uint32_t i = c->node[k], p = i ? a->tree.parent[i] : MV__NONE;
    while (depth && open[depth - 1] != p)
      depth--, fputs("</cnode>\n", fp);
    uint32_t r = i ? a->tree.region[i] : a->nregions;
    char label[512];
    mv__node_label(a, i, label, sizeof label);
    const char *at = i ? strchr(label, '@') : NULL;
    fprintf(fp, "<cnode id=\"%u\" mod=\"", k);
    mv_xml_escape(fp, at ? at + 1 : "");
    fprintf(fp, "\" calleeId=\"%u\">\n", r < a->nregions ? r : a->nregions);
    open[depth++] = i;
  }
  while (depth--)
    fputs("</cnode>\n", fp);
  free(open);
  fputs("</program>\n", fp);
}

static void xml_system(FILE *fp, const struct mv_analysis *a)
{
  fputs("<system>\n<systemtreenode Id=\"0\">\n<name>machine</name>\n<class>machine</class>\n", fp);
  for (uint32_t l = 0; l < a->nloc; l++) {
    fprintf(fp, "<locationgroup Id=\"%u\">\n<name>MPI Rank %u</name>\n<rank>%u</rank>\n<type>process</type>\n",
            l, a->loc_rank[l], a->loc_rank[l]);
    fprintf(fp, "<location Id=\"%u\">\n<name>Master thread</name>\n<rank>0</rank>\n<type>thread</type>\n"
                "</location>\n</locationgroup>\n", l);
  }
  fputs("</systemtreenode>\n</system>\n", fp);
}

/* Rows (one value per location) of metric m, inclusive of its sub-metrics, by cube cnode. */
static mv__xsum **metric_rows(const struct cube *c, int m)
{
  const struct mv_analysis *a = c->a;
  mv__xsum **rows = calloc(c->n, sizeof *rows);
  if (!rows)
    return NULL;
  rows[0] = calloc(a->nloc ? a->nloc : 1, sizeof **rows);  /* the root always has a row */
  int ok = rows[0] != NULL;
  MV__MAP_FOREACH(&a->values.map, s) {
    uint32_t loc = (uint32_t)s->k1, cp = (uint32_t)s->k2;
    if (!ok || !mv__metric_within((int)(s->k1 >> 32), m) || cp >= a->tree.n || loc >= a->nloc)
      continue;
    mv__xsum **row = &rows[c->cid[cp]];
    if (!*row && !(*row = calloc(a->nloc, sizeof **row)))
      ok = 0;
    else
      (*row)[loc] += mv__xsum_of(mv__slot_val(s));
  }
  if (!ok) {
    for (uint32_t k = 0; k < c->n; k++)
      free(rows[k]);
    free(rows);
    return NULL;
  }
  return rows;
}

/* <m>.index: marker, endianness probe 1, version 0, sparse format, count, cnode ids;
 * <m>.data: marker, then the rows in index order (native byte order, told by the probe). */
static int write_metric(struct mv__tar *t, const struct cube *c, int m)
{
  const struct mv_analysis *a = c->a;
  mv__xsum **rows = metric_rows(c, m);
  if (!rows)
    return MV_ENOMEM;
  struct mv__membuf idx, dat;
  mv__membuf_init(&idx);
  mv__membuf_init(&dat);
  uint32_t count = 0, one = 1;
  uint16_t version = 0;
  uint8_t sparse = 1;
  for (uint32_t k = 0; k < c->n; k++)
    count += rows[k] != NULL;
  mv__membuf_add(&idx, "CUBEX.INDEX", 11);
  mv__membuf_add(&idx, &one, 4);
  mv__membuf_add(&idx, &version, 2);
  mv__membuf_add(&idx, &sparse, 1);
  mv__membuf_add(&idx, &count, 4);
  mv__membuf_add(&dat, "CUBEX.DATA", 10);
  for (uint32_t k = 0; k < c->n; k++) {
    if (!rows[k])
      continue;
    mv__membuf_add(&idx, &k, 4);
    for (uint32_t l = 0; l < a->nloc; l++) {
      double d = mv__xsum_value(rows[k][l]) / (double)a->resolution;
      uint64_t u = (uint64_t)llround(mv__xsum_value(rows[k][l]));
      mv__membuf_add(&dat, is_occ(m) ? (const void *)&u : (const void *)&d, 8);
    }
    free(rows[k]);
  }
  free(rows);
  char name[32];
  snprintf(name, sizeof name, "%d.index", m);
  int err = idx.err || dat.err ? MV_ENOMEM : mv__tar_add(t, name, idx.data, idx.len);
  snprintf(name, sizeof name, "%d.data", m);
  err = err ? err : mv__tar_add(t, name, dat.data, dat.len);
  mv__membuf_release(&idx);
  mv__membuf_release(&dat);
  return err;
}

static int write_anchor(struct mv__tar *t, const struct cube *c)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  if (!fp)
    return MV_ENOMEM;
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n", fp);
  fputs("<attr key=\"Creator\" value=\"mpivet analyze " MV_VERSION " (git " MV_GIT_REVISION ")\"/>\n", fp);
  fputs("<attr key=\"CUBE_CT_AGGR\" value=\"SUM\"/>\n", fp);
  if (c->a->partial) {
    fputs("<attr key=\"mpivet::partial\" value=\"", fp);
    mv_xml_escape(fp, c->a->note);
    fputs("\"/>\n", fp);
  }
  fputs("<metrics>\n", fp);
  for (int m = 0; m < MV__M_COUNT; m++)
    if (mv__metric_table[m].parent == MV__M_NONE)
      xml_metric(fp, m);
  fputs("</metrics>\n", fp);
  xml_program(fp, c);
  xml_system(fp, c->a);
  fputs("</cube>\n", fp);
  int err = fclose(fp) != 0 || !buf ? MV_ENOMEM : mv__tar_add(t, "anchor.xml", buf, len);
  free(buf);
  return err;
}

int mv_analysis_write_cube(const struct mv_analysis *a, FILE *fp)
{
  struct cube c;
  struct mv__tar t;
  mv__tar_init(&t, fp);
  int err = cube_init(&c, a);
  err = err ? err : write_anchor(&t, &c);
  for (int m = 0; !err && m < MV__M_COUNT; m++)
    err = write_metric(&t, &c, m);
  err = err ? err : mv__tar_finish(&t);
  cube_release(&c);
  return err;
}
