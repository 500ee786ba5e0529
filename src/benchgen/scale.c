/* Aligning traces of one program at several process counts (scale.h): the layout whose regions
 * explain every class, the class of each trace that plays each template class, the same
 * grammar and signatures in all of them, and the forms of their numbers: operation fields,
 * loop counts and mean computation times. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/error.h"
#include "scale.h"

struct ctx {
  struct mv__bg_scale *sc;
  long *map;                  /* map[j * template classes + k]: trace j's class for class k, or -1 */
  char *msg;
  size_t msgsize;
  uint32_t *p;                /* fit points */
  double *v;
  uint32_t *m;                /* for peers: the size of their communicator at p */
};

static int refuse(struct ctx *x, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(struct ctx *x, int rc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->msg, x->msgsize, fmt, ap);
  va_end(ap);
  return rc;
}

/* The regions of class c as a mask, or 0 when its ranks are not whole regions. */
static unsigned class_mask(const struct mv_mvt *t, const struct mv_mvt_class *c, int dims)
{
  unsigned mask = 0;
  size_t in = 0;
  for (size_t i = 0; i < c->nranks; i++)
    mask |= 1u << mv__bg_region(dims, t->nranks, c->ranks[i]);
  for (uint32_t r = 0; r < t->nranks; r++)
    in += mask >> mv__bg_region(dims, t->nranks, r) & 1;
  return in == c->nranks ? mask : 0;
}

static int layout_fits(const struct mv__bg_scale *sc, int dims)
{
  for (size_t j = 0; j < sc->n; j++)
    for (size_t k = 0; k < sc->t[j]->nclasses; k++)
      if (!class_mask(sc->t[j], &sc->t[j]->classes[k], dims))
        return 0;
  return 1;
}

static void names(int dims, unsigned mask, char *buf, size_t size)
{
  size_t at = 0;
  buf[0] = 0;
  for (unsigned r = 0; r < 27 && at < size; r++)
    if (mask >> r & 1)
      at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? ", " : "", mv__bg_region_name(dims, r));
}

/* The first signature of t that communicates on communicator sym, or NULL. */
static const struct mv_mvt_sig *user_of(const struct mv_mvt *t, uint32_t sym)
{
  for (size_t s = 0; s < t->nsigs; s++)
    for (size_t i = 0; i < t->sigs[s].nops; i++) {
      const char *fl = mv_mvt_op_fields((unsigned)t->sigs[s].ops[i].kind);
      if (fl && strchr(fl, 'c') && t->sigs[s].ops[i].comm == sym)
        return &t->sigs[s];
    }
  return NULL;
}

static int is_world(const struct mv_mvt *t, const struct mv_mvt_comm *c)
{
  int world = c->n == t->nranks;
  for (size_t m = 0; world && m < c->n; m++)
    world = c->members[m] == m;
  return world;
}

/* Whether the communicators numbered sym of t are those split makes: every rank in one of them,
 * each the ranks of one colour in the key's order. */
static int split_fits(const struct mv_mvt *t, uint32_t sym, struct mv__bg_split sp)
{
  uint32_t w = (uint32_t)mv__bg_term(sp.term, t->nranks), covered = 0;
  for (size_t i = 0; w && i < t->ncomms; i++) {
    const struct mv_mvt_comm *c = &t->comms[i];
    if (c->sym != sym || !c->n)
      continue;
    uint32_t col = sp.mod ? c->members[0] % w : c->members[0] / w, in = 0;
    for (size_t m = 0; m < c->n; m++)
      if ((sp.mod ? c->members[m] % w : c->members[m] / w) != col ||
          (m && (sp.desc ? c->members[m] >= c->members[m - 1] : c->members[m] <= c->members[m - 1])))
        return 0;
    for (uint32_t r = 0; r < t->nranks; r++)
      in += (sp.mod ? r % w : r / w) == col;
    if (in != c->n)
      return 0;
    covered += in;
  }
  return w && covered == t->nranks;
}

static const char *split_name(struct mv__bg_split sp, char *buf, size_t size)
{
  snprintf(buf, size, "colour r %s %s, key %s", sp.mod ? "%" : "/", mv__bg_term_name(sp.term),
           sp.desc ? "P - r" : "r");
  return buf;
}

/* The split that makes communicator number sym at every traced count (sc->split[sym]); refused
 * when none does or two different ones do. */
static int find_split(struct ctx *x, uint32_t sym, const struct mv_mvt_sig *u, uint32_t at)
{
  static const int terms[] = {MV__BG_T_D1, MV__BG_T_T2, MV__BG_T_T12};
  struct mv__bg_scale *sc = x->sc;
  struct mv__bg_split found = {-1, 0, 0};
  char a[64], b[64];
  for (size_t k = 0; k < 12; k++) {
    struct mv__bg_split sp = {terms[k / 4], (int)(k / 2 % 2), (int)(k % 2)};
    size_t j = 0;
    while (j < sc->n && split_fits(sc->t[j], sym, sp))
      j++;
    if (j < sc->n)
      continue;
    if (found.term >= 0)
      return refuse(x, MV_EUNSUP, "communicator %" PRIu32 " (used by %s, call site %016" PRIx64 ") is made "
                    "at every traced count both by MPI_Comm_split with %s and with %s: trace a process "
                    "count that tells them apart", sym, u->func, u->site, split_name(found, a, sizeof a),
                    split_name(sp, b, sizeof b));
    found = sp;
  }
  if (found.term < 0)
    return refuse(x, MV_EUNSUP, "%s (call site %016" PRIx64 ") at %" PRIu32 " ranks communicates on "
                  "communicator %" PRIu32 ", a subset of the ranks that no split of the grids explains "
                  "(colour r / x or r %% x, x = D1, T2 or T1*T2, key r or P - r, at every traced count): "
                  "benchmarks for any process count replay only such communicators", u->func, u->site,
                  at, sym);
  sc->split[sym] = found;
  return 0;
}

/* Which layout, and how each communicator used is made at any count. */
static int layout(struct ctx *x)
{
  struct mv__bg_scale *sc = x->sc;
  for (size_t j = 0; j < sc->n; j++)
    for (size_t i = 0; i < sc->t[j]->ncomms; i++)
      sc->nsyms = sc->t[j]->comms[i].sym >= sc->nsyms ? sc->t[j]->comms[i].sym + 1 : sc->nsyms;
  if (!(sc->split = calloc(sc->nsyms + 1, sizeof *sc->split)))
    return MV_ENOMEM;
  for (size_t s = 0; s < sc->nsyms; s++)
    sc->split[s] = (struct mv__bg_split){-1, 0, 0};
  for (size_t j = 0; j < sc->n; j++)
    for (size_t i = 0; i < sc->t[j]->ncomms; i++) {
      const struct mv_mvt_comm *c = &sc->t[j]->comms[i];
      const struct mv_mvt_sig *u = c->sym >= 2 && !is_world(sc->t[j], c) ? user_of(sc->t[j], c->sym) : NULL;
      int rc;  /* one made and never used is not made by the benchmark (emit.c) */
      if (u && sc->split[c->sym].term < 0 && (rc = find_split(x, c->sym, u, sc->t[j]->nranks)))
        return rc;
    }
  sc->dims = layout_fits(sc, 1) ? 1 : layout_fits(sc, 2) ? 2 : layout_fits(sc, 3) ? 3 : 0;
  if (!sc->dims)
    return refuse(x, MV_EUNSUP, "the ranks behave irregularly: some class of ranks is neither whole "
                  "regions of a line (rank 0, interior, last) nor of the grid MPI_Dims_create(P, 2) or "
                  "MPI_Dims_create(P, 3) makes (corners, edges, interior), so its calls cannot be extrapolated "
                  "to other process counts");
  return 0;
}

/* Each template class's counterpart in every trace, by regions. */
static int classes(struct ctx *x)
{
  struct mv__bg_scale *sc = x->sc;
  const struct mv_mvt *tt = sc->t[sc->n - 1];
  char buf[256];
  for (size_t k = 0; k < tt->nclasses; k++)
    sc->mask[k] = class_mask(tt, &tt->classes[k], sc->dims), sc->present |= sc->mask[k];
  for (size_t j = 0; j < sc->n; j++) {
    const struct mv_mvt *t = sc->t[j];
    for (size_t k = 0; k < tt->nclasses; k++)
      x->map[j * tt->nclasses + k] = -1;
    for (size_t i = 0; i < t->nclasses; i++) {
      unsigned m = class_mask(t, &t->classes[i], sc->dims);
      size_t k = 0;
      while (k < tt->nclasses && sc->mask[k] != m)
        k++;
      names(sc->dims, m, buf, sizeof buf);
      if (k == tt->nclasses)
        return refuse(x, MV_EUNSUP, "at %" PRIu32 " ranks, %s make the same calls, at %" PRIu32
                      " ranks not: the classes of ranks change with the process count", t->nranks, buf,
                      tt->nranks);
      x->map[j * tt->nclasses + k] = (long)i;
    }
  }
  for (size_t k = 0; k < tt->nclasses; k++) {
    size_t seen = 0;
    for (size_t j = 0; j < sc->n; j++)
      seen += x->map[j * tt->nclasses + k] >= 0;
    names(sc->dims, sc->mask[k], buf, sizeof buf);
    if (seen < 3)
      return refuse(x, MV_EUNSUP, "%s (class %zu) appear at only %zu of the traced process counts; "
                    "trace 3 or more counts where they exist", buf, k, seen);
  }
  return 0;
}

static int same_sig(const struct mv_mvt_sig *a, const struct mv_mvt_sig *b)
{
  if (strcmp(a->func, b->func) || a->site != b->site || a->nops != b->nops)
    return 0;
  for (size_t i = 0; i < a->nops; i++)
    if (a->ops[i].kind != b->ops[i].kind)
      return 0;
  return 1;
}

static int same_rule(const struct mv_mvt_rule *a, const struct mv_mvt_rule *b)
{
  if (a->n != b->n)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->items[i].sym != b->items[i].sym)
      return 0;
  return 1;
}

static int same_shape(const struct mv_mvt *ta, const struct mv_mvt_class *a, const struct mv_mvt *tb,
                      const struct mv_mvt_class *b)
{
  if (a->nsigs != b->nsigs || a->nrules != b->nrules || !same_rule(&a->main, &b->main))
    return 0;
  for (size_t r = 0; r < a->nrules; r++)
    if (!same_rule(&a->rules[r], &b->rules[r]))
      return 0;
  for (size_t s = 0; s < a->nsigs; s++)
    if (!same_sig(&ta->sigs[a->sigs[s]], &tb->sigs[b->sigs[s]]))
      return 0;
  return 1;
}

static int shapes(struct ctx *x)
{
  struct mv__bg_scale *sc = x->sc;
  const struct mv_mvt *tt = sc->t[sc->n - 1];
  char buf[256];
  for (size_t k = 0; k < tt->nclasses; k++)
    for (size_t j = 0; j + 1 < sc->n; j++) {
      long i = x->map[j * tt->nclasses + k];
      if (i >= 0 && !same_shape(tt, &tt->classes[k], sc->t[j], &sc->t[j]->classes[i])) {
        names(sc->dims, sc->mask[k], buf, sizeof buf);
        return refuse(x, MV_EUNSUP, "%s make different calls or loops at %" PRIu32 " and %" PRIu32
                      " ranks (other functions, call sites or loop structure): not a regular code",
                      buf, sc->t[j]->nranks, tt->nranks);
      }
    }
  return 0;
}

static double field(const struct mv_mvt_opv *o, char f)
{
  switch (f) {
  case 'c': return o->comm;
  case 'p': return (double)o->peer;
  case 't': return (double)o->tag;
  case 'b': return (double)o->bytes;
  case 'r': return (double)o->received;
  case 's': return (double)o->slot;
  case 'o': return (double)o->root;
  case 'y': return o->type;
  case 'x': return o->op;
  case 'w': return o->win;
  case 'f': return o->flags;
  case 'n': return (double)o->members;
  default: return (double)o->other;
  }
}

static const char *const fitted = "ptbron";  /* the fields that may change with the count */

static void points_fail(struct ctx *x, size_t n, const char *what, size_t k, int rc, int t1, int t2)
{
  char buf[256], pts[256];
  size_t at = 0;
  for (size_t i = 0; i < n && at < sizeof pts; i++)
    at += (size_t)snprintf(pts + at, sizeof pts - at, "%s%.0f at %" PRIu32, i ? ", " : "", x->v[i], x->p[i]);
  names(x->sc->dims, x->sc->mask[k], buf, sizeof buf);
  if (rc == -2)
    refuse(x, MV_EUNSUP, "%s of %s (class %zu) is %s ranks: both %s and %s fit; trace a process "
           "count that tells them apart", what, buf, k, pts, mv__bg_term_name(t1), mv__bg_term_name(t2));
  else
    refuse(x, MV_EUNSUP, "%s of %s (class %zu) is %s ranks: no form a + b*x (x = 1, P, D1, D0, 1/P, "
           "log2 P, floor or ceil of log2 P) gives these at every traced count", what, buf, k, pts);
}

/* The size of communicator number sym in t (those of one number have one size: find_split). */
static uint32_t comm_size(const struct mv_mvt *t, uint32_t sym)
{
  for (size_t i = 0; sym >= 2 && i < t->ncomms; i++)
    if (t->comms[i].sym == sym)
      return (uint32_t)t->comms[i].n;
  return sym == 1 ? 1 : t->nranks;
}

/* The points of class k: field f of operation i of local signature s, or (f = 0) item i of the
 * flattened rules. */
static size_t points(struct ctx *x, size_t k, size_t s, size_t i, char f)
{
  const struct mv__bg_scale *sc = x->sc;
  size_t n = 0, nk = sc->t[sc->n - 1]->nclasses;
  for (size_t j = 0; j < sc->n; j++) {
    long c = x->map[j * nk + k];
    if (c < 0)
      continue;
    const struct mv_mvt *t = sc->t[j];
    const struct mv_mvt_class *cl = &t->classes[c];
    x->p[n] = t->nranks;
    if (f) {
      const struct mv_mvt_opv *o = &t->sigs[cl->sigs[s]].ops[i];
      x->m[n] = comm_size(t, o->comm);
      x->v[n++] = field(o, f);
      continue;
    }
    size_t at = i;
    for (size_t r = 0; r <= cl->nrules; r++) {
      const struct mv_mvt_rule *rule = r < cl->nrules ? &cl->rules[r] : &cl->main;
      if (at < rule->n) {
        x->v[n++] = (double)rule->items[at].count;
        break;
      }
      at -= rule->n;
    }
  }
  return n;
}

static int same_form(const struct mv__bg_form *a, const struct mv__bg_form *b)
{
  return a->term == b->term && a->a == b->a && a->b == b->b;
}

/* The forms of the operations of class k's signatures. */
static int op_forms(struct ctx *x, size_t k)
{
  const struct mv_mvt *tt = x->sc->t[x->sc->n - 1];
  const struct mv_mvt_class *c = &tt->classes[k];
  char what[160];
  for (size_t s = 0; s < c->nsigs; s++) {
    const struct mv_mvt_sig *g = &tt->sigs[c->sigs[s]];
    struct mv__bg_form *forms = x->sc->ops[c->sigs[s]];
    for (size_t i = 0; i < g->nops; i++) {
      const char *fl = mv_mvt_op_fields((unsigned)g->ops[i].kind);
      for (size_t f = 0; fl && fl[f]; f++) {
        struct mv__bg_form form, *slot = &forms[i * MV_MVT_MAXF + f];
        size_t n = points(x, k, s, i, fl[f]);
        int free_field = strchr(fitted, fl[f]) != NULL;
        snprintf(what, sizeof what, "field %c of %s (call site %016" PRIx64 ")", fl[f], g->func, g->site);
        int other, rc = mv__bg_fit_int(x->sc->dims, x->p, x->v, n, fl[f] == 'p' ? x->m : NULL, &form, &other);
        if (rc || (!free_field && form.term != MV__BG_T_ONE)) {
          points_fail(x, n, what, k, rc, form.term, other);
          return MV_EUNSUP;
        }
        if (slot->term >= 0 && !same_form(slot, &form))
          return refuse(x, MV_EUNSUP, "%s is shared by classes whose numbers change differently with "
                        "the process count", what);
        *slot = form;
      }
    }
  }
  return 0;
}

static int count_forms(struct ctx *x, size_t k)
{
  const struct mv_mvt_class *c = &x->sc->t[x->sc->n - 1]->classes[k];
  size_t items = c->main.n;
  for (size_t r = 0; r < c->nrules; r++)
    items += c->rules[r].n;
  if (!(x->sc->counts[k] = calloc(items + 1, sizeof **x->sc->counts)))
    return MV_ENOMEM;
  for (size_t i = 0; i < items; i++) {
    size_t n = points(x, k, 0, i, 0);
    struct mv__bg_form *f = &x->sc->counts[k][i];
    int other, rc = mv__bg_fit_int(x->sc->dims, x->p, x->v, n, NULL, f, &other);
    if (rc) {
      points_fail(x, n, "a repeat count", k, rc, f->term, other);
      return MV_EUNSUP;
    }
  }
  return 0;
}

/* Computation before each call item of class k: the ranks' first value (it holds the set-up,
 * which changes with the count otherwise than the rest), then the mean of the others. The
 * classes matched have the same grammar, so their items correspond one to one. */
static int comp_forms(struct ctx *x, size_t k)
{
  const struct mv__bg_scale *sc = x->sc;
  size_t nk = sc->t[sc->n - 1]->nclasses, nitems = sc->t[sc->n - 1]->classes[k].nitems;
  if (!(sc->comp[k] = calloc(2 * nitems + 1, sizeof **sc->comp)))
    return MV_ENOMEM;
  double *rest = malloc(sc->n * sizeof *rest);
  if (!rest)
    return MV_ENOMEM;
  for (size_t i = 0; i < nitems; i++) {
    size_t n = 0;
    for (size_t j = 0; j < sc->n; j++) {
      long c = x->map[j * nk + k];
      if (c < 0)
        continue;
      const struct mv_mvt_class *cl = &sc->t[j]->classes[c];
      const struct mv_mvt_hist *h = &cl->comp[i];
      double first = (double)h->first / (double)cl->nranks, calls = (double)h->values - (double)cl->nranks;
      x->p[n] = sc->t[j]->nranks, x->v[n] = first;
      rest[n++] = calls > 0 ? ((double)h->sum - (double)h->first) / calls : 0;
    }
    mv__bg_fit_real(sc->dims, x->p, x->v, n, &sc->comp[k][2 * i]);
    mv__bg_fit_real(sc->dims, x->p, rest, n, &sc->comp[k][2 * i + 1]);
  }
  free(rest);
  return 0;
}

static int forms(struct ctx *x)
{
  struct mv__bg_scale *sc = x->sc;
  const struct mv_mvt *tt = sc->t[sc->n - 1];
  for (size_t g = 0; g < tt->nsigs; g++) {
    size_t m = tt->sigs[g].nops * MV_MVT_MAXF + 1;
    if (!(sc->ops[g] = malloc(m * sizeof **sc->ops)))
      return MV_ENOMEM;
    for (size_t i = 0; i < m; i++)
      sc->ops[g][i] = (struct mv__bg_form){-1, 0, 0};
  }
  int rc = 0;
  for (size_t k = 0; k < tt->nclasses && !rc; k++)
    if (!(rc = op_forms(x, k)) && !(rc = count_forms(x, k)))
      rc = comp_forms(x, k);
  return rc;
}

static int by_ranks(const void *a, const void *b)
{
  uint32_t x = (*(const struct mv_mvt *const *)a)->nranks, y = (*(const struct mv_mvt *const *)b)->nranks;
  return x < y ? -1 : x > y;
}

int mv__bg_scale_build(struct mv__bg_scale *sc, const struct mv_mvt *const *t, size_t n, char *msg,
                       size_t msgsize)
{
  memset(sc, 0, sizeof *sc);
  struct ctx x = {.sc = sc, .msg = msg, .msgsize = msgsize};
  const struct mv_mvt **sorted = malloc((n + 1) * sizeof *sorted);
  if (!sorted)
    return MV_ENOMEM;
  memcpy(sorted, t, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, by_ranks);
  sc->t = sorted, sc->n = n;
  for (size_t j = 1; j < n; j++)
    if (sorted[j]->nranks == sorted[j - 1]->nranks)
      return refuse(&x, MV_EINVAL, "two traces of %" PRIu32 " ranks: trace distinct process counts",
                    sorted[j]->nranks);
  if (n < 3)
    return refuse(&x, MV_EINVAL, "a benchmark for any process count needs traces at 3 or more "
                  "process counts (got %zu)", n);
  const struct mv_mvt *tt = sorted[n - 1];
  sc->mask = calloc(tt->nclasses + 1, sizeof *sc->mask);
  sc->ops = calloc(tt->nsigs + 1, sizeof *sc->ops);
  sc->counts = calloc(tt->nclasses + 1, sizeof *sc->counts);
  sc->comp = calloc(tt->nclasses + 1, sizeof *sc->comp);
  x.map = malloc((n * tt->nclasses + 1) * sizeof *x.map);
  x.p = malloc(n * sizeof *x.p);
  x.v = malloc(n * sizeof *x.v);
  x.m = malloc(n * sizeof *x.m);
  int rc = sc->mask && sc->ops && sc->counts && sc->comp && x.map && x.p && x.v && x.m ? 0 : MV_ENOMEM;
  if (!rc && !(rc = layout(&x)) && !(rc = classes(&x)) && !(rc = shapes(&x)))
    rc = forms(&x);
  free(x.map);
  free(x.p);
  free(x.v);
  free(x.m);
  return rc;
}

void mv__bg_scale_release(struct mv__bg_scale *sc)
{
  const struct mv_mvt *tt = sc->t && sc->n ? sc->t[sc->n - 1] : NULL;
  for (size_t i = 0; tt && sc->ops && i < tt->nsigs; i++)
    free(sc->ops[i]);
  for (size_t k = 0; tt && k < tt->nclasses; k++) {
    free(sc->counts ? sc->counts[k] : NULL);
    free(sc->comp ? sc->comp[k] : NULL);
  }
  free(sc->ops);
  free(sc->counts);
  free(sc->comp);
  free(sc->mask);
  free(sc->split);
  free((void *)sc->t);
  memset(sc, 0, sizeof *sc);
}
