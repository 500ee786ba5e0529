/* Building the result: parts packed by each analysis process are merged on process 0 by
 * re-interning call paths (region refs are global), then the own value of each MPI category
 * (point-to-point, collective, RMA) is its exclusive time minus the wait states inside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "rootcause.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"

uint32_t mv__owner(uint32_t loc, uint32_t nloc, int nparts)
{
  return (uint32_t)((uint64_t)loc * (uint64_t)nparts / (nloc ? nloc : 1));
}

int mv__part_pack(const struct mv__tree *tree, const struct mv__store *vals, const struct mv__read_result *rr,
                  uint64_t unmatched, void **buf, size_t *len)
{
  struct mv__part_hdr h = {rr->events, unmatched, vals->map.count, (uint32_t)rr->truncated, tree->n, {0}};
  memcpy(h.note, rr->note, sizeof h.note);
  *len = sizeof h + (size_t)tree->n * (2 * sizeof(uint32_t) + sizeof(uint64_t)) + h.nquads * 4 * sizeof(uint64_t);
  char *p = malloc(*len);
  if (!p)
    return MV_ENOMEM;
  *buf = p;
  memcpy(p, &h, sizeof h), p += sizeof h;
  memcpy(p, tree->parent, tree->n * sizeof(uint32_t)), p += tree->n * sizeof(uint32_t);
  memcpy(p, tree->region, tree->n * sizeof(uint32_t)), p += tree->n * sizeof(uint32_t);
  memcpy(p, tree->site, tree->n * sizeof(uint64_t)), p += tree->n * sizeof(uint64_t);
  MV__MAP_FOREACH(&vals->map, s) {
    uint64_t q[4] = {s->k1 >> 32, s->k1 & 0xffffffffu, s->k2, s->val};
    memcpy(p, q, sizeof q), p += sizeof q;
  }
  return 0;
}

struct part {
  struct mv__part_hdr h;
  const uint32_t *parent, *region;
  const char *site, *quads;
  uint32_t *gcp;   /* local call path -> global */
};

static int parse_parts(const char *buf, size_t len, int n, struct part *parts)
{
  size_t off = 0;
  for (int i = 0; i < n; i++) {
    struct part *p = &parts[i];
    if (len - off < sizeof p->h)
      return MV_EPARSE;
    memcpy(&p->h, buf + off, sizeof p->h);
    off += sizeof p->h;
    size_t tree_bytes = (size_t)p->h.ntree * (2 * sizeof(uint32_t) + sizeof(uint64_t));
    size_t need = tree_bytes + p->h.nquads * 4 * sizeof(uint64_t);
    if (len - off < need)
      return MV_EPARSE;
    p->parent = (const uint32_t *)(const void *)(buf + off);
    p->region = p->parent + p->h.ntree;
    p->site = buf + off + (size_t)p->h.ntree * 2 * sizeof(uint32_t);
    p->quads = buf + off + tree_bytes;
    off += need;
  }
  return 0;
}

static int merge_tree(struct mv_analysis *a, struct part *p)
{
  uint32_t *parent = malloc((p->h.ntree ? p->h.ntree : 1) * sizeof *parent);
  uint32_t *region = malloc((p->h.ntree ? p->h.ntree : 1) * sizeof *region);
  p->gcp = malloc((p->h.ntree ? p->h.ntree : 1) * sizeof *p->gcp);
  if (!parent || !region || !p->gcp) {
    free(parent), free(region);
    return MV_ENOMEM;
  }
  memcpy(parent, p->parent, p->h.ntree * sizeof *parent);   /* the buffer may be unaligned */
  memcpy(region, p->region, p->h.ntree * sizeof *region);
  int err = 0;
  for (uint32_t i = 0; i < p->h.ntree && !err; i++) {
    uint32_t gp = i == 0 || parent[i] >= i ? MV__NONE : p->gcp[parent[i]];
    uint64_t site;
    memcpy(&site, p->site + (size_t)i * sizeof site, sizeof site);
    p->gcp[i] = i == 0 ? 0 : mv__tree_child(&a->tree, gp == MV__NONE ? 0 : gp, region[i], site);
    err = p->gcp[i] == MV__NONE ? MV_ENOMEM : 0;
  }
  free(parent), free(region);
  return err;
}

/* Own value of the category of each MPI call path: its time minus the waits credited to it. */
static void finalize(struct mv_analysis *a, struct mv__store *raw)
{
  MV__MAP_FOREACH(&raw->map, s) {
    int metric = (int)(s->k1 >> 32);
    uint32_t loc = (uint32_t)s->k1, cp = (uint32_t)s->k2;
    if (metric != MV__M_TIME) {
      mv__store_addf(&a->values, metric, loc, cp, mv__slot_val(s));
      continue;
    }
    uint32_t reg = cp < a->tree.n ? a->tree.region[cp] : MV__NONE;
    int cls = reg < a->nregions ? a->classes[reg] : MV__RC_USER;
    static const int cat[] = {MV__M_COMP, MV__M_MPI, MV__M_P2P, MV__M_COLL, MV__M_RSYNC, MV__M_RCOMM,
                              MV__M_IO, MV__M_COMP};
    double own = mv__slot_val(s);
    if (cls != MV__RC_USER && cls != MV__RC_COMP)
      for (int m = 0; m < MV__M_COUNT; m++)
        if (m != MV__M_MPI && mv__metric_within(m, MV__M_MPI))
          own -= mv__store_get(raw, m, loc, cp);
    mv__store_addf(&a->values, cat[cls], loc, cp, own);
  }
}

static int copy_defs(struct mv_analysis *a, struct mv__defs *d)
{
  a->resolution = d->resolution;
  a->nloc = d->nloc;
  a->nranks = d->nranks;
  a->nregions = d->nregions;
  a->loc_rank = malloc((d->nloc ? d->nloc : 1) * sizeof *a->loc_rank);
  a->names = calloc(d->nregions ? d->nregions : 1, sizeof *a->names);
  a->classes = calloc(d->nregions ? d->nregions : 1, 1);
  if (!a->loc_rank || !a->names || !a->classes)
    return MV_ENOMEM;
  memcpy(a->loc_rank, d->loc_rank, d->nloc * sizeof *a->loc_rank);
  for (uint32_t i = 0; i < d->nregions; i++) {
    a->classes[i] = d->regions[i].cls;
    if (!(a->names[i] = strdup(mv__defs_string(d, d->regions[i].name))))
      return MV_ENOMEM;
  }
  return mv__tree_init(&a->tree);
}

/* The timelines and the waits are read through the translation of each part's call paths to
 * the global tree. */
static int map_streams(struct mv__tlset *const *sets, int nsets, struct part *parts, int nparts,
                       uint32_t (*owner)(uint32_t, uint32_t, int))
{
  const uint32_t **maps = malloc((size_t)nparts * sizeof *maps);
  uint32_t *n = malloc((size_t)nparts * sizeof *n);
  int err = maps && n ? 0 : MV_ENOMEM;
  for (int i = 0; !err && i < nparts; i++)
    maps[i] = parts[i].gcp, n[i] = parts[i].h.ntree;
  for (int k = 0; !err && k < nsets; k++)
    err = mv__tlset_map(sets[k], nparts, maps, n, owner);
  free(maps), free(n);
  return err;
}

static int rc_passes(struct mv_analysis *a, struct mv__defs *d, struct mv__tlset *tls, const struct mv__causes *c)
{
  struct mv__rc_input in;
  double t0 = mv__now(), t1 = t0;
  mv__rc_input_build(&in, d, tls, c);
  int err = mv__rootcause(&in, a->tree.n, &a->values, &a->explained, &a->blames);
  t1 = mv__now();
  if (!err && (a->cpath = malloc(sizeof *a->cpath)) == NULL)
    err = MV_ENOMEM;
  err = err ? err : mv__tlset_init_kind(a->cpath, 1, &mv__tl_cpath);
  err = err ? err : mv__critpath(&in, a->tree.n, &a->values, a->cpath);
  a->pass_sec[MV__PASS_ROOTCAUSE] = t1 - t0;
  a->pass_sec[MV__PASS_CRITPATH] = mv__now() - t1;
  return err ? err : tls->err;
}

/* The root-cause and critical-path passes on the input of all parts, which moves into the result. */
static int root_causes(struct mv_analysis *a, struct mv__defs *d, struct part *parts, int nparts,
                       uint32_t (*owner)(uint32_t, uint32_t, int), struct mv__rc_direct *direct)
{
  a->causes = *direct->causes;
  direct->causes->waits = NULL, direct->causes->syncs = NULL;
  mv__vec_init(&direct->causes->msgs, sizeof(struct mv__msg));
  struct mv__tlset *sets[2] = {*direct->tls, a->causes.waits};
  int err = map_streams(sets, 2, parts, nparts, owner);
  return err ? err : rc_passes(a, d, *direct->tls, &a->causes);
}

int mv__result_build(struct mv__defs *d, const void *buf, size_t len, int nparts,
                     uint32_t (*owner)(uint32_t, uint32_t, int), struct mv__rc_direct *direct,
                     struct mv_analysis **out)
{
  struct mv_analysis *a = calloc(1, sizeof *a);
  struct part *parts = calloc((size_t)nparts, sizeof *parts);
  struct mv__store raw = {0};
  if (a) {
    mv__vec_init(&a->causes.msgs, sizeof(struct mv__msg));
    mv__vec_init(&a->blames, sizeof(struct mv__blame));
  }
  int err = !a || !parts ? MV_ENOMEM : copy_defs(a, d);
  if (!err)
    err = parse_parts(buf, len, nparts, parts);
  for (int i = 0; i < nparts && !err; i++) {
    struct part *p = &parts[i];
    a->events += p->h.events;
    a->unmatched += p->h.unmatched;
    if (p->h.truncated && !a->partial) {
      a->partial = 1;
      memcpy(a->note, p->h.note, sizeof p->h.note);
      a->note[sizeof p->h.note - 1] = 0;
    }
    err = merge_tree(a, p);
  }
  for (int i = 0; i < nparts && !err; i++) {
    for (uint64_t q = 0; q < parts[i].h.nquads; q++) {
      uint64_t v[4];
      memcpy(v, parts[i].quads + q * sizeof v, sizeof v);
      uint32_t loc = (uint32_t)v[1], cp = (uint32_t)v[2];
      if (loc >= d->nloc)
        continue;
      struct part *o = &parts[owner(loc, d->nloc, nparts)];
      if (cp < o->h.ntree) {
        double d;
        memcpy(&d, &v[3], sizeof d);
        mv__store_addf(&raw, (int)v[0], loc, o->gcp[cp], d);
      }
    }
  }
  if (!err) {
    finalize(a, &raw);
    err = raw.nomem || a->values.nomem ? MV_ENOMEM : 0;
  }
  if (!err)
    err = root_causes(a, d, parts, nparts, owner, direct);
  for (int i = 0; parts && i < nparts; i++)
    free(parts[i].gcp);
  free(parts);
  mv__map_release(&raw.map);
  if (err) {
    mv_analysis_free(a);
    return err;
  }
  a->tls = *direct->tls;   /* the result owns the timelines now */
  *direct->tls = NULL;
  *out = a;
  return 0;
}

int mv__result_load_sites(struct mv_analysis *a, const char *anchor)
{
  char path[4096], line[1024];
  const char *slash = strrchr(anchor, '/');
  int n = slash ? snprintf(path, sizeof path, "%.*s/callsites.txt", (int)(slash - anchor), anchor)
                : snprintf(path, sizeof path, "callsites.txt");
  FILE *f = n > 0 && (size_t)n < sizeof path ? fopen(path, "r") : NULL;
  if (!f)
    return 0;
  int err = 0;
  while (!err && fgets(line, sizeof line, f)) {
    char *end, *label;
    unsigned long long hash = strtoull(line, &end, 16);
    if (line[0] == '#' || end == line || *end != ' ')
      continue;
    label = end + 1;
    label[strcspn(label, "\n")] = 0;
    if (mv_grow_implied(&a->site_labels, a->nsites, a->nsites + 1, sizeof *a->site_labels) ||
        !(a->site_labels[a->nsites] = strdup(label))) {
      err = MV_ENOMEM;
      break;
    }
    if (!mv__map_put(&a->sites, hash, 0, a->nsites++, NULL))
      err = MV_ENOMEM;
  }
  fclose(f);
  return err;
}

void mv__node_label(const struct mv_analysis *a, uint32_t cp, char *buf, size_t size)
{
  uint32_t r = a->tree.region[cp];
  const char *name = r < a->nregions ? a->names[r] : "?";
  uint64_t site = a->tree.site[cp];
  if (!site) {
    snprintf(buf, size, "%s", name);
    return;
  }
  uint64_t *idx = mv__map_get((struct mv__map *)&a->sites, site, 0);
  if (idx)
    snprintf(buf, size, "%s@%s", name, a->site_labels[*idx]);
  else
    snprintf(buf, size, "%s@%016llx", name, (unsigned long long)site);
}

int mv__cpath_at(const struct mv_analysis *a, struct mv__tlcur *c, uint64_t k, struct mv__cpseg *s)
{
  const void *item = a->cpath ? mv__tl_item(c, a->cpath, 0, k) : NULL;
  if (item)
    memcpy(s, item, sizeof *s);
  return item != NULL;
}

void mv_analysis_free(struct mv_analysis *a)
{
  if (!a)
    return;
  if (a->tls)
    mv__tlset_release(a->tls);
  free(a->tls);
  mv__causes_release(&a->causes);
  if (a->cpath)
    mv__tlset_release(a->cpath);
  free(a->cpath);
  mv__vec_release(&a->blames);
  for (uint32_t i = 0; i < a->nsites; i++)
    free(a->site_labels[i]);
  free(a->site_labels);
  mv__map_release(&a->sites);
  for (uint32_t i = 0; a->names && i < a->nregions; i++)
    free(a->names[i]);
  free(a->names);
  free(a->classes);
  free(a->loc_rank);
  mv__tree_release(&a->tree);
  mv__map_release(&a->values.map);
  free(a);
}
