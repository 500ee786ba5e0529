/* One C function per call signature: the traced MPI function with the same communicator, peer
 * (an expression of the rank), tag, size and request slot; collectives with their recorded
 * bytes turned back into counts (calls.c says how), reductions on doubles, ints or bytes as the
 * size allows, or the point-to-point version with --coll-as-p2p. */
#include <inttypes.h>
#include <string.h>

#include "emit.h"

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
  fprintf(g->out, ", elems(%" PRIu64 ", 1), MPI_BYTE, peer(%" PRIu32 ", %" PRId64 "), %" PRIu64
          ", comm[%" PRIu32 "]", o->bytes, o->comm, o->peer, o->tag, o->comm);
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
  char to[64] = "MPI_PROC_NULL", from[64] = "MPI_PROC_NULL";
  if (a)
    snprintf(to, sizeof to, "peer(%" PRIu32 ", %" PRId64 ")", c, a->peer);
  if (b)
    snprintf(from, sizeof from, "peer(%" PRIu32 ", %" PRId64 ")", c, b->peer);
  uint64_t sb = a ? a->bytes : 0, rb = b ? b->bytes : 0, st = a ? a->tag : 0, rt = b ? b->tag : 0;
  if (!strcmp(s->func, "MPI_Sendrecv_replace"))
    fprintf(g->out, "  MPI_Sendrecv_replace(rbuf, elems(%" PRIu64 ", 1), MPI_BYTE, %s, %" PRIu64
            ", %s, %" PRIu64 ", comm[%" PRIu32 "], MPI_STATUS_IGNORE);\n", sb > rb ? sb : rb, to, st,
            from, rt, c);
  else
    fprintf(g->out, "  MPI_Sendrecv(sbuf, elems(%" PRIu64 ", 1), MPI_BYTE, %s, %" PRIu64 ", rbuf, elems(%"
            PRIu64 ", 1), MPI_BYTE, %s, %" PRIu64 ", comm[%" PRIu32 "], MPI_STATUS_IGNORE);\n",
            sb, to, st, rb, from, rt, c);
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

/* Element size and MPI datatype of a reduction over bytes bytes. */
static const char *rtype(uint64_t bytes, int *unit)
{
  *unit = bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : 1;
  return *unit == 8 ? "MPI_DOUBLE" : *unit == 4 ? "MPI_INT" : "MPI_UNSIGNED_CHAR";
}

static int as_p2p(const struct mv__gen *g, const char *func)
{
  const char *w = g->o->coll_as_p2p;
  return w && (!strcmp(w, "all") || !strcmp(w, func));
}

static void coll(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv__bg_call *k)
{
  const struct mv_mvt_opv *o = find(s, MV_MVT_OP_COLL);
  uint32_t c = o->comm;
  char n[160];
  int unit = 1;
  const char *type = k->reduce ? rtype(k->count == MV__BG_RECEIVED ? o->received : o->bytes, &unit) : "MPI_BYTE";
  switch (k->count) {
  case MV__BG_SENT: snprintf(n, sizeof n, "elems(%" PRIu64 ", %d)", o->bytes, unit); break;
  case MV__BG_RECEIVED: snprintf(n, sizeof n, "elems(%" PRIu64 ", %d)", o->received, unit); break;
  case MV__BG_SENT_PER_RANK: snprintf(n, sizeof n, "elems(%" PRIu64 ".0 / csize[%" PRIu32 "], 1)", o->bytes, c); break;
  case MV__BG_ROOTED_BCAST:
    snprintf(n, sizeof n, "elems(%" PRIu64 " ? %" PRIu64 ".0 : csize[%" PRIu32 "] > 1 ? %" PRIu64
             ".0 / (csize[%" PRIu32 "] - 1) : 0, 1)", o->received, o->received, c, o->bytes, c);
    break;
  default: snprintf(n, sizeof n, "0");
  }
  int64_t root = o->root < 0 ? 0 : o->root;
  if (as_p2p(g, s->func)) {
    int kind = !strcmp(s->func, "MPI_Alltoall") ? 3 : !strcmp(s->func, "MPI_Bcast") || !strcmp(s->func, "MPI_Scatter") ? 0
               : !strcmp(s->func, "MPI_Gather") || !strcmp(s->func, "MPI_Reduce") ? 1 : 2;
    fprintf(g->out, "  p2p_coll(%d, %" PRIu32 ", %" PRId64 ", %s * %d);\n", kind, c, root, n, unit);
    return;
  }
  const char *f = s->func;
  if (!strcmp(f, "MPI_Barrier"))
    fprintf(g->out, "  MPI_Barrier(comm[%" PRIu32 "]);\n", c);
  else if (!strcmp(f, "MPI_Bcast"))
    fprintf(g->out, "  MPI_Bcast(rbuf, %s, MPI_BYTE, %" PRId64 ", comm[%" PRIu32 "]);\n", n, root, c);
  else if (!strcmp(f, "MPI_Gather") || !strcmp(f, "MPI_Scatter"))
    fprintf(g->out, "  %s(sbuf, %s, MPI_BYTE, rbuf, %s, MPI_BYTE, %" PRId64 ", comm[%" PRIu32 "]);\n", f, n, n, root, c);
  else if (!strcmp(f, "MPI_Allgather") || !strcmp(f, "MPI_Alltoall"))
    fprintf(g->out, "  %s(sbuf, %s, MPI_BYTE, rbuf, %s, MPI_BYTE, comm[%" PRIu32 "]);\n", f, n, n, c);
  else if (!strcmp(f, "MPI_Reduce"))
    fprintf(g->out, "  MPI_Reduce(sbuf, rbuf, %s, %s, MPI_SUM, %" PRId64 ", comm[%" PRIu32 "]);\n", n, type, root, c);
  else  /* Allreduce, Scan, Exscan, Reduce_scatter_block */
    fprintf(g->out, "  %s(sbuf, rbuf, %s, %s, MPI_SUM, comm[%" PRIu32 "]);\n", f, n, type, c);
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
  case MV__BG_COLL: coll(g, s, k); break;
  default: break;  /* MPI_Finalize: only the computation before it */
  }
  fprintf(g->out, "}\n\n");
}
