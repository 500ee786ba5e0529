/* One rank's compressed trace from its raw records (docs/formats.md, "Compressed trace"): each
 * replayable call becomes a signature (function, call site, operations with symbolic
 * communicator, relative peer and recycled request slot), interned and pushed into the grammar
 * (first pass over the raw file). A second pass walks the finished grammar beside the same
 * calls and puts each call's computation before it and its own duration into the log bins of
 * its position in the grammar (the call's item in a loop body or the main sequence): one
 * signature issued after short work at one place of a loop and after long work at another
 * keeps both where they were. Two passes keep the memory bounded by the grammar, not the
 * calls. A call without operations (MPI_Init, communicator management, a Test that completed
 * nothing, an exchange with MPI_PROC_NULL) is not replayed: its time counts as computation. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctrace.h"
#include "mvt.h"
#include "rawfmt.h"
#include "trace-regions.h"

#define NBINS MV__CT_NBINS
#define MAX_OPS 4096

struct op { uint64_t f[1 + MV_MVT_MAXF]; }; /* f[0] kind (enum mv_mvt_op), then its fields */
struct call {
  uint32_t region;
  uint64_t site, comp, dur;              /* ns */
  struct op *ops; size_t nops, cap;
  int pending;                           /* IRECVs waiting for their completion */
};
struct vec { uint64_t *v; size_t n, cap; };     /* a v-collective's counts (COLL_COUNTS) */
struct slot { uint64_t req; size_t call, op; int used; struct vec vec[2]; };  /* vec: a non-blocking one's */
/* The times of one grammar position: their sum, the first, and the non-empty log bins. */
struct acc { uint64_t sum, first, n; struct bin { uint32_t bin; uint64_t n; } *b; size_t nb; };
/* The finished grammar walked call by call (second pass): frames over rule bodies or the main
 * sequence; base is the flattened index of the body's first item (item_at). */
struct frame { const struct mv__ct_item *it; size_t n, base, at; uint64_t left; };
struct builder {
  const struct mv__ct_input *in;
  struct call *q; size_t qhead, qn, qcap;   /* calls waiting for their receives' completions */
  struct slot *slots; size_t nslots;
  struct mv__ct_rma rma;
  struct vec vec[2];                        /* sent, received: for the coming v-collective */
  struct mv__intern sigs;
  struct mv__grammar g;
  int pass;                                  /* 1: signatures and grammar; 2: times */
  size_t nitems;                             /* flattened: rule bodies in order, then main */
  struct acc (*acc)[2];                      /* per flattened item: computation, call time */
  struct frame *stack; size_t depth;
  uint64_t tprev, tstart, tend;
  int started, err;
};

static const struct mv__ct_comm *comm_of(const struct mv__ct_input *in, uint32_t id)
{
  for (size_t i = 0; i < in->ncomms; i++)
    if (in->comms[i].id == id)
      return &in->comms[i];
  return NULL;
}

uint64_t mv__ct_comm_sym(const struct mv__ct_input *in, uint32_t id)
{
  return id == UINT32_MAX ? UINT32_MAX : id / (uint32_t)in->size;
}

static uint64_t comm_sym(const struct builder *b, uint32_t id)
{
  return mv__ct_comm_sym(b->in, id);
}

uint64_t mv__ct_peer(const struct mv__ct_input *in, uint32_t comm, uint32_t peer)
{
  struct mv__ct_comm world = {0, in->size, in->rank};
  const struct mv__ct_comm *c = comm == 0 ? &world : comm_of(in, comm);
  if (!c || c->size <= 0)
    return mv_mvt_zig((int64_t)peer) << 1 | 1;   /* unknown communicator: absolute, flagged */
  int64_t d = ((int64_t)peer - c->rank) % c->size;
  if (d < 0)
    d += c->size;
  if (d > c->size / 2)
    d -= c->size;
  return mv_mvt_zig(d) << 1;
}

static struct op *add_op(struct builder *b, struct call *c, uint64_t kind)
{
  if (c->nops == c->cap) {
    size_t n = c->cap ? c->cap * 2 : 4;
    struct op *p = n <= MAX_OPS ? realloc(c->ops, n * sizeof *p) : NULL;
    if (!p)
      return b->err = -ENOMEM, NULL;
    c->ops = p, c->cap = n;
  }
  struct op *o = &c->ops[c->nops++];
  memset(o, 0, sizeof *o);
  o->f[0] = kind;
  return o;
}

static long slot_find(const struct builder *b, uint64_t req)
{
  for (size_t i = 0; i < b->nslots; i++)
    if (b->slots[i].used && b->slots[i].req == req)
      return (long)i;
  return -1;
}

/* The lowest free slot for request req (the symbolic request id); -1 when out of memory. */
static long slot_take(struct builder *b, uint64_t req)
{
  size_t i = 0;
  while (i < b->nslots && b->slots[i].used)
    i++;
  if (i == b->nslots) {
    struct slot *p = realloc(b->slots, (b->nslots + 1) * sizeof *p);
    if (!p)
      return b->err = -ENOMEM, -1;
    b->slots = p, b->nslots++;
  }
  b->slots[i] = (struct slot){req, 0, 0, 1, {{0}, {0}}};
  return (long)i;
}

static void p2p_fields(const struct builder *b, struct op *o, const struct mv__raw_rec *r)
{
  o->f[1] = comm_sym(b, r->b);
  o->f[2] = mv__ct_peer(b->in, r->b, r->a);
  o->f[3] = r->c;
  o->f[4] = r->x;
}

/* The fields of a collective (COLL_END, ICOLL_COMPLETE) from f[1]: comm root bytes received
 * type op (mvt.h). */
static void coll_fields(const struct builder *b, struct op *o, const struct mv__raw_rec *r)
{
  o->f[1] = comm_sym(b, r->b);
  o->f[2] = r->a == UINT32_MAX ? 0 : (uint64_t)r->a + 1;
  o->f[3] = r->x, o->f[4] = r->y;
  o->f[5] = r->c & 0xff, o->f[6] = r->c >> 8 & 0xff;
}

/* COLL_COUNTS: three members' bytes of the coming v-collective, kept until its COLL_END (or
 * its request, which keeps them until its completion names the communicator). */
static void keep_counts(struct builder *b, const struct mv__raw_rec *r)
{
  struct vec *v = &b->vec[r->sub & 1];
  size_t need = (size_t)r->a + 3;
  if (r->a >= 1u << 24)
    return;
  if (need > v->cap) {
    uint64_t *p = realloc(v->v, need * 2 * sizeof *p);
    if (!p) {
      b->err = -ENOMEM;
      return;
    }
    memset(p + v->cap, 0, (need * 2 - v->cap) * sizeof *p);
    v->v = p, v->cap = need * 2;
  }
  v->v[r->a] = r->x, v->v[r->a + 1] = r->y, v->v[r->a + 2] = r->z;
  v->n = need > v->n ? need : v->n;
}

static uint64_t count_at(const struct vec *v, int i)
{
  return (size_t)i < v->n ? v->v[i] : 0;
}

/* After a v-collective's COLL (ICOLL): its counts as VEC runs, members in rank order from the
 * caller; the counts are used up. */
static void put_counts(struct builder *b, struct call *c, uint32_t comm, struct vec vec[2])
{
  const struct mv__ct_comm *cm = comm == 0 ? NULL : comm_of(b->in, comm);
  int n = cm ? cm->size : b->in->size, me = cm ? cm->rank : b->in->rank;
  for (int w = 0; w < 2; w++) {
    for (int d = 0; vec[w].n && d < n;) {
      uint64_t v = count_at(&vec[w], (me + d) % n);
      int k = d + 1;
      while (k < n && count_at(&vec[w], (me + k) % n) == v)
        k++;
      struct op *o = add_op(b, c, MV_MVT_OP_VEC);
      if (o)
        o->f[1] = (uint64_t)w, o->f[2] = (uint64_t)(k - d), o->f[3] = v;
      d = k;
    }
    vec[w].n = 0;
  }
}

/* A completion (ISEND_COMPLETE, IRECV, ICOLL_COMPLETE, REQUEST_CANCELLED) in the current call c. */
static void complete(struct builder *b, struct call *c, const struct mv__raw_rec *r)
{
  long s = slot_find(b, r->kind == MV__K_ICOLL_COMPLETE ? r->z : r->y);
  if (s < 0)
    return;  /* a request started before tracing or not recorded */
  struct slot *sl = &b->slots[s];
  if (sl->call != SIZE_MAX) {  /* an Irecv waiting for its peer, tag and bytes */
    struct call *ic = &b->q[sl->call];
    struct op *o = &ic->ops[sl->op];
    if (r->kind == MV__K_IRECV)
      p2p_fields(b, o, r);
    else if (r->kind == MV__K_ICOLL_COMPLETE) {
      coll_fields(b, o, r);
      put_counts(b, ic, r->b, sl->vec);
    }
    else
      o->f[0] = MV_MVT_OP_LOST, o->f[1] = (uint64_t)s;
    ic->pending--;
  }
  struct op *o = add_op(b, c, MV_MVT_OP_DONE);
  if (o)
    o->f[1] = (uint64_t)s;
  free(sl->vec[0].v), free(sl->vec[1].v);
  sl->vec[0] = sl->vec[1] = (struct vec){0};
  sl->used = 0;
}

static void request(struct builder *b, struct call *c, const struct mv__raw_rec *r)
{
  long s = slot_take(b, r->y);
  int kind = r->kind == MV__K_ISEND ? MV_MVT_OP_ISEND
             : r->kind == MV__K_ICOLL_REQUEST ? MV_MVT_OP_ICOLL : MV_MVT_OP_IRECV;
  struct op *o = s >= 0 ? add_op(b, c, (uint64_t)kind) : NULL;
  if (!o)
    return;
  if (r->kind == MV__K_ISEND) {
    p2p_fields(b, o, r);
    b->slots[s].call = SIZE_MAX;
  } else {
    b->slots[s].call = (size_t)(c - b->q), b->slots[s].op = c->nops - 1;
    c->pending++;
  }
  for (int w = 0; r->kind == MV__K_ICOLL_REQUEST && w < 2; w++)   /* a v-collective's counts */
    b->slots[s].vec[w] = b->vec[w], b->vec[w] = (struct vec){0};
  o->f[mv_mvt_op_nfields((unsigned)kind)] = (uint64_t)s;  /* the slot is the last field */
}

struct adder { struct builder *b; struct call *c; };
static uint64_t *add_fields(void *arg, uint64_t kind)
{
  struct adder *a = arg;
  struct op *o = add_op(a->b, a->c, kind);
  return o ? o->f : NULL;
}

static void event(struct builder *b, struct call *c, const struct mv__raw_rec *r)
{
  struct op *o;
  struct adder ad = {b, c};
  int rc;
  switch (r->kind) {
  case MV__K_SEND: case MV__K_RECV:
    if ((o = add_op(b, c, r->kind == MV__K_SEND ? MV_MVT_OP_SEND : MV_MVT_OP_RECV)))
      p2p_fields(b, o, r);
    break;
  case MV__K_ISEND: case MV__K_IRECV_REQUEST: case MV__K_ICOLL_REQUEST:
    request(b, c, r);
    break;
  case MV__K_ISEND_COMPLETE: case MV__K_IRECV: case MV__K_REQUEST_CANCELLED: case MV__K_ICOLL_COMPLETE:
    complete(b, c, r);
    break;
  case MV__K_COLL_END:
    if ((o = add_op(b, c, MV_MVT_OP_COLL)))
      coll_fields(b, o, r);
    put_counts(b, c, r->b, b->vec);
    break;
  case MV__K_COLL_COUNTS:
    keep_counts(b, r);
    break;
  case MV__K_COLL_BEGIN: case MV__K_RMA_COLL_BEGIN: case MV__K_RMA_COMPLETE_NB:
  case MV__K_RMA_COMPLETE_REMOTE:
    break;  /* implied by the calls that start and complete the operations */
  default:
    rc = mv__ct_rma(&b->rma, b->in, r, (int)c->region, add_fields, &ad);
    if (rc < 0)
      b->err = rc;
    else if (rc == 0 && (o = add_op(b, c, MV_MVT_OP_OTHER)))
      o->f[1] = r->kind;  /* MPI-IO, and what a later tracer may add */
  }
}

/* The signature of c as bytes: region, site, number of operations, each operation's fields. */
static void signature(const struct call *c, struct mv__bytes *s)
{
  mv__bytes_put(s, c->region);
  mv__bytes_put(s, c->site);
  mv__bytes_put(s, c->nops);
  for (size_t i = 0; i < c->nops; i++) {
    int nf = mv_mvt_op_nfields((unsigned)c->ops[i].f[0]);
    mv__bytes_put(s, c->ops[i].f[0]);
    for (int k = 1; k <= nf; k++)
      mv__bytes_put(s, c->ops[i].f[k]);
  }
}

static int acc_add(struct acc *a, uint64_t v)
{
  uint32_t bin = mv_mvt_bin(v, NBINS);
  if (a->n++ == 0)
    a->first = v;
  a->sum += v;
  for (size_t i = 0; i < a->nb; i++)
    if (a->b[i].bin == bin)
      return (int)(++a->b[i].n, 0);
  struct bin *p = realloc(a->b, (a->nb + 1) * sizeof *p);
  if (!p)
    return -ENOMEM;
  a->b = p;
  a->b[a->nb++] = (struct bin){bin, 1};
  return 0;
}

/* The flattened index of the next call in the finished grammar and its symbol; -1 at the end. */
static long walk_next(struct builder *b, uint64_t *sym)
{
  while (b->depth) {
    struct frame *f = &b->stack[b->depth - 1];
    if (f->at >= f->n) {
      b->depth--;
      continue;
    }
    if (f->left == 0) {
      if (++f->at < f->n)
        f->left = f->it[f->at].count;
      continue;
    }
    f->left--;
    const struct mv__ct_item *x = &f->it[f->at];
    if (!(x->sym & 1))
      return *sym = x->sym, (long)(f->base + f->at);
    size_t r = x->sym >> 1;
    const struct mv__ct_item *body = b->g.items + b->g.body_off[r];
    b->stack[b->depth++] = (struct frame){body, b->g.body_len[r], b->g.body_off[r], 0, body[0].count};
  }
  return -1;
}

/* Between the passes: the flattened items of the finished grammar, their times, the walk. */
static int walk_start(struct builder *b)
{
  size_t nr = b->g.rules.n;
  b->stack = malloc((nr + 2) * sizeof *b->stack);
  if (!b->stack)
    return -ENOMEM;
  b->nitems = b->g.nitems + b->g.ntop;
  if (!(b->acc = calloc(b->nitems + 1, sizeof *b->acc)))
    return -ENOMEM;
  b->depth = b->g.ntop ? 1 : 0;
  b->stack[0] = (struct frame){b->g.top, b->g.ntop, b->g.nitems, 0, b->g.ntop ? b->g.top[0].count : 0};
  return 0;
}

static void emit(struct builder *b, const struct call *c)
{
  struct mv__bytes s = {0};
  signature(c, &s);
  size_t before = b->sigs.n;
  long id = s.ok ? mv__intern_id(&b->sigs, s.p, s.n) : -1;
  mv__bytes_release(&s);
  if (id < 0) {
    b->err = -ENOMEM;
    return;
  }
  if (b->pass == 1) {
    if (mv__grammar_push(&b->g, (uint64_t)id * 2) != 0)
      b->err = -ENOMEM;
    return;
  }
  uint64_t sym = 0;
  long at = b->sigs.n == before ? walk_next(b, &sym) : -1;
  if (at < 0 || sym != (uint64_t)id * 2) {  /* the raw file changed between the passes */
    b->err = -EIO;
    return;
  }
  if (acc_add(&b->acc[at][0], c->comp) != 0 || acc_add(&b->acc[at][1], c->dur) != 0)
    b->err = -ENOMEM;
}

/* Signatures of the calls at the head of the queue whose receives all completed. */
static void drain(struct builder *b, int all)
{
  while (b->qhead < b->qn && (all || b->q[b->qhead].pending == 0)) {
    emit(b, &b->q[b->qhead]);
    free(b->q[b->qhead].ops);
    b->qhead++;
  }
  if (b->qhead == b->qn)
    b->qhead = b->qn = 0;
}

static struct call *enter(struct builder *b, const struct mv__raw_rec *r, uint64_t t)
{
  if (b->qn == b->qcap) {
    size_t n = b->qcap ? b->qcap * 2 : 64;
    struct call *p = realloc(b->q, n * sizeof *p);
    if (!p)
      return b->err = -ENOMEM, NULL;
    b->q = p, b->qcap = n;
  }
  struct call *c = &b->q[b->qn++];
  *c = (struct call){.region = r->a, .site = r->x, .comp = t > b->tprev ? t - b->tprev : 0};
  return c;
}

/* The call at the queue's tail ends at t: replayed (kept, its time recorded) or dropped. */
static void leave(struct builder *b, uint64_t t, uint64_t tenter)
{
  struct call *c = &b->q[b->qn - 1];
  int init = c->region == MV__R_MPI_Init || c->region == MV__R_MPI_Init_thread;
  if (init && !b->started)
    b->started = 1, b->tstart = t;
  if (c->nops == 0 && c->region != MV__R_MPI_Finalize) {
    free(c->ops);
    b->qn--;
    if (init)
      b->tprev = t;
    return;
  }
  c->dur = t > tenter ? t - tenter : 0;
  b->tprev = t;
  if (c->region == MV__R_MPI_Finalize)
    b->tend = tenter;
  drain(b, 0);
}

static int read_rank(struct builder *b)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/" MV__RAW_DIR "/rank-%d.raw", b->in->dir, b->in->rank);
  struct mv__raw_reader *rd = malloc(sizeof *rd);
  FILE *f = rd ? fopen(path, "rb") : NULL;
  if (!f) {
    free(rd);
    return rd ? -errno : -ENOMEM;
  }
  rd->f = f, rd->n = rd->pos = 0;
  struct mv__raw_rec r;
  uint64_t tenter = 0;
  int open = 0;
  while (!b->err && mv__raw_next(rd, &r)) {
    uint64_t t = mv__clock_map(b->in->clk, r.t);
    if (r.kind == MV__K_ENTER) {
      if (open)  /* a call without Leave (cut trace): ends where the next begins */
        leave(b, t, tenter);
      open = enter(b, &r, t) != NULL, tenter = t;
    } else if (r.kind == MV__K_LEAVE && open) {
      leave(b, t, tenter);
      open = 0;
    } else if (open) {
      event(b, &b->q[b->qn - 1], &r);
    }
  }
  if (open && !b->err) {  /* MPI_Finalize: the raw file closes inside it */
    b->tend = tenter;
    leave(b, tenter, tenter);
  }
  fclose(f);
  free(rd);
  if (b->tend == 0)  /* no MPI_Finalize (a crash): the span ends at the last call */
    b->tend = b->tprev;
  for (size_t i = 0; i < b->nslots; i++)  /* receives never completed */
    if (b->slots[i].used && b->slots[i].call != SIZE_MAX) {
      struct op *o = &b->q[b->slots[i].call].ops[b->slots[i].op];
      o->f[0] = MV_MVT_OP_LOST, o->f[1] = i;
    }
  drain(b, 1);
  return b->err;
}

/* Flattened item i: the rule bodies lie in g.items in rule order, the main sequence follows. */
static const struct mv__ct_item *item_at(const struct builder *b, size_t i)
{
  return i < b->g.nitems ? &b->g.items[i] : &b->g.top[i - b->g.nitems];
}

/* The times as mv__ct_put_hist writes them: dense bins, the sum, the first value. */
static void put_acc(struct mv__bytes *o, const struct acc *a)
{
  uint64_t h[NBINS + 2] = {0};
  for (size_t i = 0; i < a->nb; i++)
    h[a->b[i].bin] += a->b[i].n;
  h[NBINS] = a->sum, h[NBINS + 1] = a->first;
  mv__ct_put_hist(o, h);
}

/* Structure (signatures, grammar), then the times: span, number of calls in the grammar's
 * items, and per call item (flattened order) its computation and call-time histograms. */
static void encode(const struct builder *b, struct mv__ct_rank *out)
{
  struct mv__bytes *o = &out->blob;
  mv__bytes_put(o, b->sigs.n);
  for (size_t i = 0; i < b->sigs.n; i++) {
    size_t n;
    const uint8_t *p = mv__intern_get(&b->sigs, i, &n);
    mv__bytes_put(o, n);
    mv__bytes_add(o, p, n);
  }
  mv__grammar_encode(&b->g, o);
  out->nstruct = o->n;
  mv__bytes_put(o, b->tend > b->tstart ? b->tend - b->tstart : 0);
  size_t ncalls = 0;
  for (size_t i = 0; i < b->nitems; i++)
    ncalls += !(item_at(b, i)->sym & 1);
  mv__bytes_put(o, ncalls);
  for (size_t i = 0; i < b->nitems; i++)
    if (!(item_at(b, i)->sym & 1))
      put_acc(o, &b->acc[i][0]), put_acc(o, &b->acc[i][1]);
}

/* The state a pass over the raw file starts from (the signatures and grammar stay). */
static void rewind_state(struct builder *b)
{
  for (size_t i = 0; i < b->nslots; i++)   /* a request's v-counts left by the first pass */
    free(b->slots[i].vec[0].v), free(b->slots[i].vec[1].v);
  b->qhead = b->qn = 0, b->nslots = 0, b->vec[0].n = b->vec[1].n = 0;
  free(b->rma.wins);
  b->rma = (struct mv__ct_rma){0};
  b->tprev = b->tstart = b->tend = 0, b->started = 0;
}

int mv__ct_build(const struct mv__ct_input *in, struct mv__ct_rank *out)
{
  struct builder b = {.in = in, .pass = 1};
  *out = (struct mv__ct_rank){0};
  int err = read_rank(&b);
  if (!err)
    err = walk_start(&b);
  if (!err) {
    rewind_state(&b);
    b.pass = 2;
    err = read_rank(&b);
  }
  uint64_t sym;
  if (!err && walk_next(&b, &sym) >= 0)
    err = -EIO;  /* fewer calls than in the first pass: the raw file changed */
  if (!err)
    encode(&b, out);
  if (!err && !out->blob.ok)
    err = -ENOMEM;
  for (size_t i = b.qhead; i < b.qn; i++)
    free(b.q[i].ops);
  free(b.q);
  for (size_t i = 0; i < b.nslots; i++)
    free(b.slots[i].vec[0].v), free(b.slots[i].vec[1].v);
  free(b.slots);
  free(b.rma.wins);
  free(b.vec[0].v);
  free(b.vec[1].v);
  for (size_t i = 0; b.acc && i < b.nitems; i++)
    free(b.acc[i][0].b), free(b.acc[i][1].b);
  free(b.acc);
  free(b.stack);
  mv__intern_release(&b.sigs);
  mv__grammar_release(&b.g);
  if (err)
    mv__bytes_release(&out->blob);
  return err;
}
