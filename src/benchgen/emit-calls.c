/* One C function per call signature: the traced MPI function with the same communicator, peer
 * (an expression of the rank), tag, size and request slot; persistent requests made once and
 * started; collectives (blocking or not) with their recorded datatype and reduction and their
 * bytes turned back into counts (calls.c says how), or the point-to-point version with
 * --coll-as-p2p; one-sided calls in emit-rma.c. */
#include <inttypes.h>
#include <string.h>

#include "emit.h"
#include "scale.h"

const char *mv__bg_num(const struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o,
                       char f, char *buf, size_t n)
{
  const char *fields = mv_mvt_op_fields((unsigned)o->kind), *at = fields ? strchr(fields, f) : NULL;
  if (g->sc && at) {
    const struct mv__bg_form *form = &g->sc->ops[s - g->t->sigs][(size_t)(o - s->ops) * MV_MVT_MAXF +
                                                                 (size_t)(at - fields)];
    if (form->term >= 0) {
      mv__bg_form_c(form, 1, buf, n);
      return buf;
    }
  }
  if (f == 'p' || f == 'o')
    snprintf(buf, n, "%" PRId64, f == 'p' ? o->peer : o->root);
  else
    snprintf(buf, n, "%" PRIu64, f == 't' ? o->tag : f == 'b' ? o->bytes : f == 'r' ? o->received : o->members);
  return buf;
}

static const struct mv_mvt_opv *find(const struct mv_mvt_sig *s, int kind)
{
  for (size_t k = 0; k < s->nops; k++)
    if (s->ops[k].kind == kind)
      return &s->ops[k];
  return NULL;
}

static void p2p(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o)
{
  const char *buf = o->kind == MV_MVT_OP_IRECV ? "rslot(" : o->kind == MV_MVT_OP_RECV ? "rbuf" : "sbuf";
  fprintf(g->out, "  %s(%s", s->func, buf);
  if (o->kind == MV_MVT_OP_IRECV)
    fprintf(g->out, "%" PRIu64 ")", o->slot);
  char b[96], p[96], t[96];
  fprintf(g->out, ", elems(%s, 1), MPI_BYTE, peer(%" PRIu32 ", %s), %s, comm[%" PRIu32 "]",
          mv__bg_num(g, s, o, 'b', b, sizeof b), o->comm, mv__bg_num(g, s, o, 'p', p, sizeof p),
          mv__bg_num(g, s, o, 't', t, sizeof t), o->comm);
  if (o->kind == MV_MVT_OP_ISEND || o->kind == MV_MVT_OP_IRECV)
    fprintf(g->out, ", &rq[%" PRIu64 "]);\n", o->slot);
  else
    fprintf(g->out, "%s);\n", o->kind == MV_MVT_OP_RECV ? ", MPI_STATUS_IGNORE" : "");
}

/* Sendrecv(_replace): a missing side was MPI_PROC_NULL. */
static void sendrecv(struct mv__gen *g, const struct mv_mvt_sig *s)
{
  const struct mv_mvt_opv *a = find(s, MV_MVT_OP_SEND), *b = find(s, MV_MVT_OP_RECV);
  uint32_t c = a ? a->comm : b->comm;
  char to[128] = "MPI_PROC_NULL", from[128] = "MPI_PROC_NULL", x[96];
  char sb[96] = "0", rb[96] = "0", st[96] = "0", rt[96] = "0";
  if (a)
    snprintf(to, sizeof to, "peer(%" PRIu32 ", %s)", c, mv__bg_num(g, s, a, 'p', x, sizeof x));
  if (b)
    snprintf(from, sizeof from, "peer(%" PRIu32 ", %s)", c, mv__bg_num(g, s, b, 'p', x, sizeof x));
  if (a)
    mv__bg_num(g, s, a, 'b', sb, sizeof sb), mv__bg_num(g, s, a, 't', st, sizeof st);
  if (b)
    mv__bg_num(g, s, b, 'b', rb, sizeof rb), mv__bg_num(g, s, b, 't', rt, sizeof rt);
  if (!strcmp(s->func, "MPI_Sendrecv_replace"))
    fprintf(g->out, "  MPI_Sendrecv_replace(rbuf, elems(fmax(%s, %s), 1), MPI_BYTE, %s, %s, %s, %s, comm[%"
            PRIu32 "], MPI_STATUS_IGNORE);\n", sb, rb, to, st, from, rt, c);
  else
    fprintf(g->out, "  MPI_Sendrecv(sbuf, elems(%s, 1), MPI_BYTE, %s, %s, rbuf, elems(%s, 1), MPI_BYTE, %s, "
            "%s, comm[%" PRIu32 "], MPI_STATUS_IGNORE);\n", sb, to, st, rb, from, rt, c);
}

static void wait(struct mv__gen *g, const struct mv_mvt_sig *s, size_t i)
{
  static const char *const names[] = {"MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome",
                                      "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome"};
  int how = 0;
  while (how < 7 && strcmp(names[how], s->func))
    how++;
  fprintf(g->out, "  static const int sl%zu[] = {", i);
  size_t k = 0;
  for (size_t j = 0; j < s->nops; j++)
    if (s->ops[j].kind == MV_MVT_OP_DONE)
      fprintf(g->out, "%s%" PRIu64, k++ ? ", " : "", s->ops[j].slot);
  fprintf(g->out, "};\n  complete(%d, %zu, sl%zu);\n", how, k, i);
}

/* The datatype of an operation as C: the recorded predefined one; for a derived datatype (or
 * none) bytes, or for a reduction the widest of doubles, ints or bytes that divides the size. */
const char *mv__bg_type(const struct mv_mvt_opv *o, int reduce, uint64_t bytes, char *buf, size_t n)
{
  const char *name = mv_mvt_type_name(o->type);
  if (name)
    snprintf(buf, n, "MPI_%s", name);
  else
    snprintf(buf, n, "%s", !reduce || bytes % 4 ? "MPI_BYTE" : bytes % 8 ? "MPI_INT" : "MPI_DOUBLE");
  return buf;
}

/* The reduction as C: the recorded predefined one, a user-defined one as the benchmark's own
 * (user_op, which does nothing), none as MPI_SUM. */
const char *mv__bg_op(const struct mv_mvt_opv *o, char *buf, size_t n)
{
  const char *name = mv_mvt_redop_name(o->op);
  snprintf(buf, n, "%s%s", name ? "MPI_" : "", name ? name : o->op == MV_MVT_USER ? "user_op" : "MPI_SUM");
  return buf;
}

static int as_p2p(const struct mv__gen *g, const char *func)
{
  const char *w = g->o->coll_as_p2p;
  return w && (!strcmp(w, "all") || !strcmp(w, func));
}

/* The element count of a collective as C, from the bytes the tracer recorded (calls.c). */
static void coll_count(const struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o,
                       int how, const char *t, char *n, size_t size)
{
  uint32_t c = o->comm;
  char b[96], r[96];
  mv__bg_num(g, s, o, 'b', b, sizeof b), mv__bg_num(g, s, o, 'r', r, sizeof r);
  switch (how) {
  case MV__BG_SENT: snprintf(n, size, "elems(%s, tsz(%s))", b, t); break;
  case MV__BG_RECEIVED: snprintf(n, size, "elems(%s, tsz(%s))", r, t); break;
  case MV__BG_SENT_PER_RANK: snprintf(n, size, "elems(%s / (double)csize[%" PRIu32 "], tsz(%s))", b, c, t); break;
  case MV__BG_ROOTED_BCAST:
    snprintf(n, size, "elems(%s ? (double)%s : csize[%" PRIu32 "] > 1 ? %s / (csize[%" PRIu32
             "] - 1.0) : 0, tsz(%s))", r, r, c, b, c, t);
    break;
  default: snprintf(n, size, "0");
  }
}

/* The runs of a v-collective's counts (VEC operations, which: 0 sent, 1 received) as a static
 * array of (members, bytes) pairs named name; the number of runs. */
static size_t vec_runs(struct mv__gen *g, const struct mv_mvt_sig *s, int which, const char *name)
{
  size_t n = 0;
  char m[96], b[96];
  fprintf(g->out, "  %slong %s[] = {", g->sc ? "" : "static const ", name);
  for (size_t j = 0; j < s->nops; j++)
    if (s->ops[j].kind == MV_MVT_OP_VEC && (int)s->ops[j].flags == which)
      fprintf(g->out, "%s%s, %s", n++ ? ", " : "", mv__bg_num(g, s, &s->ops[j], 'n', m, sizeof m),
              mv__bg_num(g, s, &s->ops[j], 'b', b, sizeof b));
  fprintf(g->out, "%s};\n", n ? "" : "0, 0");
  return n;
}

/* A v-collective (blocking: f the function; non-blocking: f its blocking twin, with the count
 * arrays of its request slot, which must stay until it completes, and the slot's receive
 * buffer): its per-member counts and displacements built from the recorded runs. */
static void vcoll(struct mv__gen *g, const struct mv_mvt_sig *s, const char *f, const char *n,
                  const char *t, const char *op, const char *root, const struct mv_mvt_opv *o, int nb)
{
  uint32_t c = o->comm;
  size_t ns = vec_runs(g, s, 0, "sr"), nr = vec_runs(g, s, 1, "rr");
  const char *v = nb ? "vq" : "vc";
  char rb[48] = "rbuf", tail[48] = "";
  if (nb) {
    fprintf(g->out, "  int **vq = vslot(%" PRIu64 ");\n", o->slot);
    snprintf(rb, sizeof rb, "rslot(%" PRIu64 ")", o->slot);
    snprintf(tail, sizeof tail, ", &rq[%" PRIu64 "]", o->slot);
  }
  fprintf(g->out, "  vcounts(%" PRIu32 ", sr, %zu, %s, %s[0], %s[1]);\n  vcounts(%" PRIu32 ", rr, %zu, %s, %s[2], "
          "%s[3]);\n  %s(", c, ns, t, v, v, c, nr, t, v, v, s->func);
  if (!strcmp(f, "MPI_Gatherv"))
    fprintf(g->out, "sbuf, %s, %s, %s, %s[2], %s[3], %s, %s", n, t, rb, v, v, t, root);
  else if (!strcmp(f, "MPI_Scatterv"))
    fprintf(g->out, "sbuf, %s[0], %s[1], %s, %s, %s, %s, %s", v, v, t, rb, n, t, root);
  else if (!strcmp(f, "MPI_Allgatherv"))
    fprintf(g->out, "sbuf, %s, %s, %s, %s[2], %s[3], %s", n, t, rb, v, v, t);
  else if (!strcmp(f, "MPI_Alltoallv"))
    fprintf(g->out, "sbuf, %s[0], %s[1], %s, %s, %s[2], %s[3], %s", v, v, t, rb, v, v, t);
  else  /* MPI_Reduce_scatter */
    fprintf(g->out, "sbuf, %s, %s[2], %s, %s", rb, v, t, op);
  fprintf(g->out, ", comm[%" PRIu32 "]%s);\n", c, tail);
}

/* A blocking or (with a request slot) non-blocking collective. */
static void coll(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv__bg_call *k)
{
  int nb = k->cls == MV__BG_ICOLL;
  const struct mv_mvt_opv *o = find(s, nb ? MV_MVT_OP_ICOLL : MV_MVT_OP_COLL);
  uint32_t c = o->comm;
  char n[400], t[48], op[48], f[64], rb[48] = "rbuf", tail[48] = "", root[96];
  mv__bg_type(o, k->reduce, k->count == MV__BG_RECEIVED ? o->received : o->bytes, t, sizeof t);
  mv__bg_op(o, op, sizeof op);
  coll_count(g, s, o, k->count, t, n, sizeof n);
  if (o->root < 0)
    snprintf(root, sizeof root, "0");
  else
    mv__bg_num(g, s, o, 'o', root, sizeof root);
  snprintf(f, sizeof f, "MPI_%s", s->func + 4 + nb);  /* the blocking version's name */
  f[4] = (char)(f[4] >= 'a' && f[4] <= 'z' ? f[4] - 'a' + 'A' : f[4]);
  if (f[strlen(f) - 1] == 'v' || !strcmp(f, "MPI_Reduce_scatter")) {
    vcoll(g, s, f, n, t, op, root, o, nb);
    return;
  }
  if (as_p2p(g, s->func) && !nb) {
    int kind = !strcmp(s->func, "MPI_Alltoall") ? 3 : !strcmp(s->func, "MPI_Bcast") || !strcmp(s->func, "MPI_Scatter") ? 0
               : !strcmp(s->func, "MPI_Gather") || !strcmp(s->func, "MPI_Reduce") ? 1 : 2;
    fprintf(g->out, "  p2p_coll(%d, %" PRIu32 ", %s, %s * tsz(%s));\n", kind, c, root, n, t);
    return;
  }
  if (nb) {
    snprintf(rb, sizeof rb, "rslot(%" PRIu64 ")", o->slot);
    snprintf(tail, sizeof tail, ", &rq[%" PRIu64 "]", o->slot);
  }
  const char *x = s->func;
  fprintf(g->out, "  %s(", x);
  if (!strcmp(f, "MPI_Barrier"))
    fprintf(g->out, "comm[%" PRIu32 "]", c);
  else if (!strcmp(f, "MPI_Bcast"))
    fprintf(g->out, "%s, %s, %s, %s, comm[%" PRIu32 "]", rb, n, t, root, c);
  else if (!strcmp(f, "MPI_Gather") || !strcmp(f, "MPI_Scatter"))
    fprintf(g->out, "sbuf, %s, %s, %s, %s, %s, %s, comm[%" PRIu32 "]", n, t, rb, n, t, root, c);
  else if (!strcmp(f, "MPI_Allgather") || !strcmp(f, "MPI_Alltoall"))
    fprintf(g->out, "sbuf, %s, %s, %s, %s, %s, comm[%" PRIu32 "]", n, t, rb, n, t, c);
  else if (!strcmp(f, "MPI_Reduce"))
    fprintf(g->out, "sbuf, %s, %s, %s, %s, %s, comm[%" PRIu32 "]", rb, n, t, op, root, c);
  else  /* Allreduce, Scan, Exscan, Reduce_scatter_block */
    fprintf(g->out, "sbuf, %s, %s, %s, %s, comm[%" PRIu32 "]", rb, n, t, op, c);
  fprintf(g->out, "%s);\n", tail);
}

/* Persistent requests (MPI_Start, MPI_Startall): made at the signature's first call with the
 * recorded peers, tags and sizes, kept in pers[] (freed at the end), then started. */
static void start(struct mv__gen *g, const struct mv_mvt_sig *s)
{
  size_t base = g->npers;
  fprintf(g->out, "  if (pers[%zu] == MPI_REQUEST_NULL) {\n", base);
  for (size_t j = 0; j < s->nops; j++) {
    const struct mv_mvt_opv *o = &s->ops[j];
    int recv = o->kind == MV_MVT_OP_IRECV;
    fprintf(g->out, "    %s(", recv ? "MPI_Recv_init" : "MPI_Send_init");
    if (recv)
      fprintf(g->out, "rslot(%" PRIu64 ")", o->slot);
    else
      fprintf(g->out, "sbuf");
    char b[96], p[96], t[96];
    fprintf(g->out, ", elems(%s, 1), MPI_BYTE, peer(%" PRIu32 ", %s), %s, comm[%" PRIu32 "], &pers[%zu]);\n",
            mv__bg_num(g, s, o, 'b', b, sizeof b), o->comm, mv__bg_num(g, s, o, 'p', p, sizeof p),
            mv__bg_num(g, s, o, 't', t, sizeof t), o->comm, base + j);
  }
  fprintf(g->out, "  }\n");
  if (!strcmp(s->func, "MPI_Start"))
    fprintf(g->out, "  MPI_Start(&pers[%zu]);\n", base);
  else
    fprintf(g->out, "  MPI_Startall(%zu, &pers[%zu]);\n", s->nops, base);
  for (size_t j = 0; j < s->nops; j++)
    fprintf(g->out, "  rq[%" PRIu64 "] = pers[%zu];\n", s->ops[j].slot, base + j);
  g->npers += s->nops;
}

void mv__bg_emit_sig(struct mv__gen *g, size_t i)
{
  const struct mv_mvt_sig *s = &g->t->sigs[i];
  const struct mv__bg_call *k = mv__bg_call_of(s->func);
  fprintf(g->out, "static void s%zu(void)  /* site %016" PRIx64 " */\n{\n", i, s->site);
  switch (k->cls) {
  case MV__BG_SEND: case MV__BG_RECV: case MV__BG_ISEND: case MV__BG_IRECV:
    for (size_t j = 0; j < s->nops; j++)
      p2p(g, s, &s->ops[j]);
    break;
  case MV__BG_SENDRECV: sendrecv(g, s); break;
  case MV__BG_WAIT: wait(g, s, i); break;
  case MV__BG_COLL: case MV__BG_ICOLL: coll(g, s, k); break;
  case MV__BG_START: start(g, s); break;
  case MV__BG_WIN: case MV__BG_EPOCH: case MV__BG_GROUP: case MV__BG_SYNC: case MV__BG_RMA:
    mv__bg_emit_rma(g, s, k);
    break;
  default: break;  /* MPI_Finalize: only the computation before it */
  }
  fprintf(g->out, "}\n\n");
}
