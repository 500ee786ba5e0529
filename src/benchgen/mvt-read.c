/* Reader of the compressed trace (docs/formats.md, "Compressed trace"; codec in
 * src/trace/mvt.h): every count is checked against the bytes left, every reference against
 * what it refers to, rules may only refer to earlier rules (so expanding one terminates), and a
 * failure names the byte offset and what was expected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/benchgen.h"
#include "mpivet/error.h"
#include "mpivet/grow.h"
#include "mvt.h"

struct cur {
  const uint8_t *p, *start, *end;
  struct mv_error *e;
  int rc;
};

static int fail(struct cur *c, int rc, const char *what)
{
  if (!c->rc)
    mv_error_set(c->e, rc, NULL, 0, 0, "byte %zu: %s", (size_t)(c->p - c->start), what);
  c->rc = c->rc ? c->rc : rc;
  return c->rc;
}

/* A varint no larger than max; on failure *v = 0 and the error is set. */
static int get(struct cur *c, uint64_t *v, uint64_t max, const char *what)
{
  *v = 0;
  if (c->rc)
    return c->rc;
  if (mv_mvt_get(&c->p, c->end, v) != 0)
    return fail(c, MV_EPARSE, what);
  if (*v > max) {
    *v = 0;
    return fail(c, MV_EPARSE, what);
  }
  return 0;
}

/* A count of items of at least one byte each: no more than the bytes left. */
static int count(struct cur *c, uint64_t *n, const char *what)
{
  if (get(c, n, UINT64_MAX, what) == 0 && *n > (uint64_t)(c->end - c->p)) {
    *n = 0;
    return fail(c, MV_EPARSE, what);
  }
  return c->rc;
}

static void *array(struct cur *c, uint64_t n, size_t elem)
{
  void *p = c->rc ? NULL : calloc(n + 1, elem);
  if (!p && !c->rc)
    fail(c, MV_ENOMEM, "out of memory");
  return p;
}

static char *str(struct cur *c, const char *what)
{
  uint64_t n;
  count(c, &n, what);
  char *s = array(c, n, 1);
  if (s)
    memcpy(s, c->p, n), c->p += n;
  return s;
}

/* Nested runs (ctrace-write.c) into a list of at most max values below limit. */
static uint32_t *seq(struct cur *c, size_t *n, uint64_t max, uint64_t limit, const char *what)
{
  uint64_t ng, total = 0;
  uint32_t *v = array(c, max, sizeof *v);
  count(c, &ng, what);
  for (uint64_t g = 0; g < ng && !c->rc; g++) {
    uint64_t start, cnt, st, reps, rs;
    get(c, &start, limit, what), get(c, &cnt, max, what), get(c, &st, UINT64_MAX, what);
    get(c, &reps, max, what), get(c, &rs, UINT64_MAX, what);
    if (c->rc || cnt == 0 || reps == 0 || cnt * reps > max - total)
      return fail(c, MV_EPARSE, what), free(v), NULL;
    for (uint64_t r = 0; r < reps; r++)
      for (uint64_t i = 0; i < cnt; i++) {
        int64_t x = (int64_t)start + (int64_t)r * mv_mvt_unzig(rs) + (int64_t)i * mv_mvt_unzig(st);
        if (x < 0 || (uint64_t)x >= limit)
          return fail(c, MV_EPARSE, what), free(v), NULL;
        v[total++] = (uint32_t)x;
      }
  }
  *n = total;
  if (c->rc)
    free(v), v = NULL;
  return v;
}

/* One field (mvt.h's letter f) of an operation into o. */
static void field(struct cur *c, struct mv_mvt_opv *o, char f)
{
  uint64_t v;
  get(c, &v, UINT64_MAX, "expected an operation field");
  switch (f) {
  case 'c': o->comm = v > 1u << 16 ? UINT32_MAX : (uint32_t)v; break;
  case 'p':
    o->peer = mv_mvt_unzig(v >> 1);
    if (v & 1)
      fail(c, MV_EPARSE, "a peer in an unknown communicator");
    break;
  case 't': o->tag = v; break;
  case 'b': o->bytes = v; break;
  case 'r': o->received = v; break;
  case 's': o->slot = v; break;
  case 'o': o->root = v > INT32_MAX ? INT64_MAX : (int64_t)v - 1; break;
  case 'y': o->type = v > 255 ? 256 : (uint32_t)v; break;
  case 'x': o->op = v > 255 ? 256 : (uint32_t)v; break;
  case 'w': o->win = v > 1u << 16 ? UINT32_MAX : (uint32_t)v; break;
  case 'f': o->flags = v > 3 ? 4 : (uint32_t)v; break;
  case 'n': o->members = v; break;
  default: o->other = v;
  }
}

static void op(struct cur *c, struct mv_mvt_opv *o)
{
  uint64_t k;
  get(c, &k, MV_MVT_OP_COUNT - 1, "expected an operation kind");
  *o = (struct mv_mvt_opv){.kind = (int)k, .root = -1};
  for (const char *f = mv_mvt_op_fields((unsigned)k); !c->rc && *f; f++)
    field(c, o, *f);
  if (o->slot > 1u << 20)
    fail(c, MV_EPARSE, "a request slot over 2^20");
  if (o->comm > 1u << 16 || o->win > 1u << 16 || o->peer > INT32_MAX || o->peer < -INT32_MAX ||
      o->tag > INT32_MAX || o->root > INT32_MAX || o->bytes > (uint64_t)1 << 48 ||
      o->received > (uint64_t)1 << 48 || o->type > 255 || o->op > 255 || o->flags > 3 ||
      o->members > 1u << 24)
    fail(c, MV_EPARSE, "an operation field out of range (communicator, window, peer, tag, root, "
         "bytes, datatype, operation or flags)");
}

static const char *region_name(const struct mv_mvt *t, uint64_t id)
{
  for (size_t i = 0; i < t->nregions; i++)
    if (t->region_ids[i] == id)
      return t->region_names[i];
  return "?";
}

static void sig(struct cur *c, const struct mv_mvt *t, struct mv_mvt_sig *s)
{
  uint64_t len, region, n;
  count(c, &len, "expected a signature length");
  struct cur sub = *c;
  sub.end = c->p + len;
  get(&sub, &region, UINT32_MAX, "expected a function id");
  get(&sub, &s->site, UINT64_MAX, "expected a call site");
  count(&sub, &n, "expected a number of operations");
  s->region = (uint32_t)region;
  s->func = region_name(t, region);
  s->ops = array(&sub, n, sizeof *s->ops);
  for (s->nops = 0; s->ops && s->nops < n && !sub.rc; s->nops++)
    op(&sub, &s->ops[s->nops]);
  if (!sub.rc && sub.p != sub.end)
    fail(&sub, MV_EPARSE, "signature longer than its operations");
  c->rc = sub.rc;
  c->p = sub.rc ? c->p : sub.end;
}

static void rule(struct cur *c, struct mv_mvt_rule *r, uint64_t nsigs, uint64_t nrules)
{
  uint64_t n;
  count(c, &n, "expected a rule length");
  r->items = array(c, n, sizeof *r->items);
  for (r->n = 0; r->items && r->n < n && !c->rc; r->n++) {
    struct mv_mvt_item *it = &r->items[r->n];
    get(c, &it->sym, UINT64_MAX, "expected a symbol");
    get(c, &it->count, UINT64_MAX, "expected a repeat count");
    if (!c->rc && ((it->sym & 1) ? it->sym >> 1 >= nrules : it->sym >> 1 >= nsigs))
      fail(c, MV_EPARSE, "a symbol referring to a later rule or an unknown signature");
    if (!c->rc && it->count == 0)
      fail(c, MV_EPARSE, "a repeat count of 0");
  }
}

/* A binary32 time (mvt.h): finite, not negative. */
static double f32(struct cur *c, const char *what)
{
  double v = 0;
  if (!c->rc && mv_mvt_get_f32(&c->p, c->end, &v) != 0)
    fail(c, MV_EPARSE, what);
  return v;
}

static uint64_t ns_of(double v)
{
  return v < 1.8e19 ? (uint64_t)(v + 0.5) : UINT64_MAX;
}

/* mean of the other values, first, bins with weights; values and sum follow from the grammar */
static void hist(struct cur *c, struct mv_mvt_hist *h, double *mean)
{
  uint64_t n, d, k = 0, m;
  get(c, &m, UINT64_MAX, "expected a mean time");
  *mean = (double)m / MV_MVT_MEAN_SCALE;
  get(c, &h->first, UINT64_MAX, "expected a first time");
  get(c, &n, 256, "expected a number of bins");
  h->bin = array(c, n, sizeof *h->bin);
  h->weight = array(c, n, sizeof *h->weight);
  for (h->n = 0; h->bin && h->weight && h->n < n && !c->rc; h->n++) {
    get(c, &d, 256, "expected a bin"), get(c, &h->weight[h->n], MV_MVT_WEIGHT_MAX, "expected a bin weight (1..127)");
    if ((k += d) >= 256 || (h->n > 0 && d == 0))
      fail(c, MV_EPARSE, "bins out of order");
    if (!c->rc && h->weight[h->n] == 0)
      fail(c, MV_EPARSE, "expected a bin weight (1..127)");
    h->bin[h->n] = (uint32_t)k;
  }
}

/* Values of each call item's histograms (its runs per rank x ranks) and their sums. */
static void totals(struct cur *c, struct mv_mvt_class *k, const double *mean)
{
  uint64_t *runs = array(c, k->nitems, sizeof *runs);
  if (runs && mv_mvt_item_runs(k, runs) != 0)
    fail(c, MV_ENOMEM, "out of memory");
  for (size_t r = 0, i = 0; runs && !c->rc && r <= k->nrules; r++) {
    const struct mv_mvt_rule *rule = r < k->nrules ? &k->rules[r] : &k->main;
    for (size_t at = 0; at < rule->n; at++, i++)
      for (int d = 0; d < 2 && !(rule->items[at].sym & 1); d++) {  /* a loop has no times */
        struct mv_mvt_hist *h = d ? &k->dur[i] : &k->comp[i];
        h->values = runs[i] > UINT64_MAX / k->nranks ? UINT64_MAX : runs[i] * k->nranks;
        double rest = h->values > k->nranks ? (double)(h->values - k->nranks) * mean[2 * i + d] : 0;
        h->sum = ns_of((double)h->first + rest);
      }
  }
  free(runs);
}

/* The loops of a class: grammar g of the table (checked against the class's signatures). */
static void grammar(struct cur *c, struct mv_mvt_class *k, const struct cur *g)
{
  struct cur sub = *g;
  uint64_t nr;
  count(&sub, &nr, "expected a number of rules");
  k->rules = array(&sub, nr, sizeof *k->rules);
  for (k->nrules = 0; k->rules && k->nrules < nr && !sub.rc; k->nrules++)
    rule(&sub, &k->rules[k->nrules], k->nsigs, k->nrules);
  rule(&sub, &k->main, k->nsigs, k->nrules);
  if (!sub.rc && sub.p != sub.end)
    fail(&sub, MV_EPARSE, "a grammar longer than its rules");
  if (sub.rc && !c->rc)
    c->rc = sub.rc;
}

static void klass(struct cur *c, const struct mv_mvt *t, struct mv_mvt_class *k, const struct cur *gs,
                  size_t ngs)
{
  uint64_t n, g;
  k->ranks = seq(c, &k->nranks, t->nranks, t->nranks, "expected the class's ranks");
  if (!c->rc && k->nranks == 0)
    fail(c, MV_EPARSE, "a rank class without ranks");
  count(c, &n, "expected the class's number of signatures");
  k->sigs = array(c, n, sizeof *k->sigs);
  for (k->nsigs = 0; k->sigs && k->nsigs < n && !c->rc; k->nsigs++) {
    get(c, &g, t->nsigs ? t->nsigs - 1 : 0, "expected a signature id");
    if (!t->nsigs)
      fail(c, MV_EPARSE, "a signature id but no signatures");
    k->sigs[k->nsigs] = (uint32_t)g;
  }
  get(c, &g, ngs ? ngs - 1 : 0, "expected a grammar id");
  if (!c->rc && !ngs)
    fail(c, MV_EPARSE, "a grammar id but no grammars");
  if (!c->rc)
    grammar(c, k, &gs[g]);
  k->span_ns = ns_of(f32(c, "expected the span"));
  k->nitems = k->main.n;
  for (size_t r = 0; r < k->nrules; r++)
    k->nitems += k->rules[r].n;
  k->comp = array(c, k->nitems, sizeof *k->comp);
  k->dur = array(c, k->nitems, sizeof *k->dur);
  double *mean = array(c, 2 * k->nitems, sizeof *mean);
  for (size_t r = 0, i = 0; mean && k->comp && k->dur && r <= k->nrules; r++) {
    const struct mv_mvt_rule *rule = r < k->nrules ? &k->rules[r] : &k->main;
    for (size_t at = 0; at < rule->n && !c->rc; at++, i++)
      if (!(rule->items[at].sym & 1))   /* a call: its computation before, its time */
        hist(c, &k->comp[i], &mean[2 * i]), hist(c, &k->dur[i], &mean[2 * i + 1]);
  }
  if (!c->rc)
    totals(c, k, mean);
  free(mean);
}

/* The grammar table: where each grammar's bytes are (parsed per class that uses it). */
static struct cur *grammar_table(struct cur *c, size_t *n)
{
  uint64_t ng, len;
  count(c, &ng, "expected the number of grammars");
  struct cur *g = array(c, ng, sizeof *g);
  for (*n = 0; g && *n < ng && !c->rc; (*n)++) {
    count(c, &len, "expected a grammar length");
    g[*n] = *c;
    g[*n].end = c->p + len;
    c->p += len;
  }
  return g;
}

static void header(struct cur *c, struct mv_mvt *t)
{
  uint64_t v;
  if (c->end - c->p < 8 || memcmp(c->p, MV_MVT_MAGIC, 4) != 0) {
    fail(c, MV_EPARSE, "not a compressed trace (no MVCT magic)");
    return;
  }
  c->p += 4;
  get(c, &v, UINT32_MAX, "expected the format version");
  t->version = (unsigned)v;
  if (!c->rc && v != MV_MVT_VERSION)
    fail(c, MV_EUNSUP, "format version not supported by this mpivet (it reads version " MV_MVT_VERSION_STR " only)");
  get(c, &v, 1u << 24, "expected the number of ranks (1..2^24)");
  t->nranks = (uint32_t)v;
  if (!c->rc && v == 0)
    fail(c, MV_EPARSE, "expected the number of ranks (1..2^24)");
  t->elapsed_ns = ns_of(f32(c, "expected the elapsed time"));
  t->meta = str(c, "expected the meta string");
  t->truncated = str(c, "expected the truncation string");
}

static void tables(struct cur *c, struct mv_mvt *t)
{
  uint64_t n;
  count(c, &n, "expected the number of functions");
  t->region_ids = array(c, n, sizeof *t->region_ids);
  t->region_names = array(c, n, sizeof *t->region_names);
  for (t->nregions = 0; t->region_names && t->region_ids && t->nregions < n && !c->rc; t->nregions++) {
    uint64_t id;
    get(c, &id, UINT32_MAX, "expected a function id");
    t->region_ids[t->nregions] = (uint32_t)id;
    t->region_names[t->nregions] = str(c, "expected a function name");
  }
  count(c, &n, "expected the number of communicators");
  t->comms = array(c, n, sizeof *t->comms);
  for (t->ncomms = 0; t->comms && t->ncomms < n && !c->rc; t->ncomms++) {
    struct mv_mvt_comm *m = &t->comms[t->ncomms];
    uint64_t id;
    get(c, &id, UINT32_MAX, "expected a communicator id");
    m->id = (uint32_t)id, m->sym = (uint32_t)(id / t->nranks);
    if (!c->rc && m->sym >= n + 2)   /* each creation raises the largest counter by one at most */
      fail(c, MV_EPARSE, "a communicator's creation number beyond the number of communicators + 1");
    m->members = seq(c, &m->n, t->nranks, t->nranks, "expected the communicator's members");
  }
  count(c, &n, "expected the number of signatures");
  t->sigs = array(c, n, sizeof *t->sigs);
  for (t->nsigs = 0; t->sigs && t->nsigs < n && !c->rc; t->nsigs++)
    sig(c, t, &t->sigs[t->nsigs]);
}

int mv_mvt_parse(const uint8_t *p, size_t n, struct mv_mvt *t, struct mv_error *e)
{
  struct cur c = {p, p, p + n, e, 0};
  uint64_t nc;
  memset(t, 0, sizeof *t);
  header(&c, t);
  tables(&c, t);
  size_t ngs = 0;
  struct cur *gs = grammar_table(&c, &ngs);
  count(&c, &nc, "expected the number of rank classes");
  t->classes = array(&c, nc, sizeof *t->classes);
  for (t->nclasses = 0; t->classes && t->nclasses < nc && !c.rc; t->nclasses++)
    klass(&c, t, &t->classes[t->nclasses], gs, ngs);
  free(gs);
  if (!c.rc && (c.end - c.p != 4 || memcmp(c.p, MV_MVT_TRAILER, 4) != 0))
    fail(&c, MV_EPARSE, "expected the MVCE trailer at the end (file cut or garbled)");
  if (c.rc)
    mv_mvt_release(t);
  return c.rc;
}

int mv_mvt_read(const char *path, struct mv_mvt *t, struct mv_error *e)
{
  char *buf = NULL;
  size_t n = 0;
  memset(t, 0, sizeof *t);
  int rc = mv_read_file(path, 0, &buf, &n, e);
  if (rc == 0 && (rc = mv_mvt_parse((const uint8_t *)buf, n, t, e)) != 0 && e)
    snprintf(e->where, sizeof e->where, "%s", path);   /* the parser knows bytes, not names */
  free(buf);
  return rc;
}

static void free_rule(struct mv_mvt_rule *r)
{
  free(r->items);
}

void mv_mvt_release(struct mv_mvt *t)
{
  for (size_t i = 0; t->region_names && i < t->nregions + 1; i++)
    free(t->region_names[i]);
  for (size_t i = 0; t->comms && i < t->ncomms + 1; i++)
    free(t->comms[i].members);
  for (size_t i = 0; t->sigs && i < t->nsigs + 1; i++)
    free(t->sigs[i].ops);
  for (size_t i = 0; t->classes && i < t->nclasses + 1; i++) {
    struct mv_mvt_class *k = &t->classes[i];
    for (size_t r = 0; k->rules && r < k->nrules + 1; r++)
      free_rule(&k->rules[r]);
    for (size_t s = 0; k->comp && k->dur && s < k->nitems + 1; s++)
      free(k->comp[s].bin), free(k->comp[s].weight), free(k->dur[s].bin), free(k->dur[s].weight);
    free(k->ranks), free(k->sigs), free(k->rules), free_rule(&k->main), free(k->comp), free(k->dur);
  }
  free(t->meta), free(t->truncated), free(t->region_ids), free(t->region_names), free(t->comms), free(t->sigs);
  free(t->classes);
  memset(t, 0, sizeof *t);
}
