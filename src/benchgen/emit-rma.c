/* The one-sided calls of a generated benchmark: windows of WINBYTES bytes (the largest recorded
 * operation) on the recorded communicator, created and freed where the application did; fences
 * and post/start/complete/wait epochs with the recorded groups (world ranks relative to the
 * caller); locks and flushes to the recorded targets; puts, gets and accumulates of the recorded
 * size, datatype and reduction at displacement 0 of the target's window. */
#include <inttypes.h>
#include <string.h>

#include "emit.h"

static void win(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o)
{
  uint32_t w = o->win, c = o->comm;
  if (!strcmp(s->func, "MPI_Win_create"))
    fprintf(g->out, "  wbuf[%" PRIu32 "] = calloc(win_bytes, 1);\n  MPI_Win_create(wbuf[%" PRIu32
            "], (MPI_Aint)win_bytes, 1, MPI_INFO_NULL, comm[%" PRIu32 "], &win[%" PRIu32 "]);\n", w, w, c, w);
  else if (!strcmp(s->func, "MPI_Win_allocate"))
    fprintf(g->out, "  MPI_Win_allocate((MPI_Aint)win_bytes, 1, MPI_INFO_NULL, comm[%" PRIu32
            "], &wmem[%" PRIu32 "], &win[%" PRIu32 "]);\n", c, w, w);
  else  /* MPI_Win_free: the memory of MPI_Win_create after it */
    fprintf(g->out, "  MPI_Win_free(&win[%" PRIu32 "]);\n  free(wbuf[%" PRIu32 "]);\n  wbuf[%" PRIu32
            "] = NULL;\n", w, w, w);
}

static void epoch(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o)
{
  if (!strcmp(s->func, "MPI_Win_fence"))
    fprintf(g->out, "  MPI_Win_fence(0, win[%" PRIu32 "]);\n", o->win);
  else if (!strcmp(s->func, "MPI_Win_test"))  /* the calls that found the epoch open were not kept */
    fprintf(g->out, "  for (int f = 0; !f;)\n    MPI_Win_test(win[%" PRIu32 "], &f);\n", o->win);
  else
    fprintf(g->out, "  %s(win[%" PRIu32 "]);\n", s->func, o->win);
}

/* Post or start with the group of the recorded world ranks (relative to the caller). */
static void group(struct mv__gen *g, const struct mv_mvt_sig *s)
{
  char p[96];
  fprintf(g->out, "  %slong d[] = {", g->sc ? "" : "static const ");
  for (size_t j = 0; j < s->nops; j++)
    fprintf(g->out, "%s%s", j ? ", " : "", mv__bg_num(g, s, &s->ops[j], 'p', p, sizeof p));
  fprintf(g->out, "};\n  MPI_Group grp = world_group(d, %zu);\n  %s(grp, 0, win[%" PRIu32 "]);\n"
          "  MPI_Group_free(&grp);\n", s->nops, s->func, s->ops[0].win);
}

/* Locks, unlocks, flushes; lk_lock / lk_unlock (emit-prelude.c) keep SMPI's locks right. */
static void sync_call(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv_mvt_opv *o)
{
  char t[120], target[160], p[96];
  snprintf(t, sizeof t, "peer(%" PRIu32 ", %s)", o->comm, mv__bg_num(g, s, o, 'p', p, sizeof p));
  snprintf(target, sizeof target, "%s, ", t);
  const char *f = s->func;
  uint32_t w = o->win, c = o->comm;
  int excl = (o->flags & MV_MVT_EXCLUSIVE) != 0;
  g->locks |= !strcmp(f, "MPI_Win_lock") || !strcmp(f, "MPI_Win_lock_all");
  if (!strcmp(f, "MPI_Win_lock"))
    fprintf(g->out, "  lk_lock(%" PRIu32 ", %" PRIu32 ", %s, %d);\n  MPI_Win_lock(%s, %s0, win[%" PRIu32 "]);\n",
            w, c, t, excl, excl ? "MPI_LOCK_EXCLUSIVE" : "MPI_LOCK_SHARED", target, w);
  else if (!strcmp(f, "MPI_Win_lock_all"))
    fprintf(g->out, "  for (int t = 0; t < csize[%" PRIu32 "]; t++)\n    lk_lock(%" PRIu32 ", %" PRIu32
            ", t, 0);\n  MPI_Win_lock_all(0, win[%" PRIu32 "]);\n", c, w, c, w);
  else if (!strcmp(f, "MPI_Win_unlock"))
    fprintf(g->out, "  MPI_Win_unlock(%swin[%" PRIu32 "]);\n  lk_unlock(%" PRIu32 ", %" PRIu32 ", %s);\n",
            target, w, w, c, t);
  else if (!strcmp(f, "MPI_Win_unlock_all"))
    fprintf(g->out, "  MPI_Win_unlock_all(win[%" PRIu32 "]);\n  for (int t = 0; t < csize[%" PRIu32 "]; t++)\n"
            "    lk_unlock(%" PRIu32 ", %" PRIu32 ", t);\n", w, c, w, c);
  else  /* flush, flush_local (a target); flush_all, flush_local_all, Win_sync (none) */
    fprintf(g->out, "  %s(%swin[%" PRIu32 "]);\n", f,
            !strcmp(f, "MPI_Win_flush") || !strcmp(f, "MPI_Win_flush_local") ? target : "", w);
}

static void rma_op(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv__bg_call *k,
                   const struct mv_mvt_opv *o)
{
  char t[48], op[48], n[160], m[160], to[160], x[96];
  mv__bg_type(o, k->reduce, o->bytes, t, sizeof t);
  mv__bg_op(o, op, sizeof op);
  snprintf(n, sizeof n, "elems(%s, tsz(%s))", mv__bg_num(g, s, o, 'b', x, sizeof x), t);
  snprintf(m, sizeof m, "elems(%s, tsz(%s))", mv__bg_num(g, s, o, 'r', x, sizeof x), t);
  snprintf(to, sizeof to, "peer(%" PRIu32 ", %s)", o->comm, mv__bg_num(g, s, o, 'p', x, sizeof x));
  const char *f = s->func;
  uint32_t w = o->win;
  if (!strcmp(f, "MPI_Put"))
    fprintf(g->out, "  MPI_Put(sbuf, %s, %s, %s, 0, %s, %s, win[%" PRIu32 "]);\n", n, t, to, n, t, w);
  else if (!strcmp(f, "MPI_Get"))
    fprintf(g->out, "  MPI_Get(rbuf, %s, %s, %s, 0, %s, %s, win[%" PRIu32 "]);\n", n, t, to, n, t, w);
  else if (!strcmp(f, "MPI_Accumulate"))
    fprintf(g->out, "  MPI_Accumulate(sbuf, %s, %s, %s, 0, %s, %s, %s, win[%" PRIu32 "]);\n", n, t, to,
            n, t, op, w);
  else if (!strcmp(f, "MPI_Get_accumulate"))
    fprintf(g->out, "  MPI_Get_accumulate(sbuf, %s, %s, rbuf, %s, %s, %s, 0, %s, %s, %s, win[%" PRIu32
            "]);\n", n, t, m, t, to, n, t, op, w);
  else if (!strcmp(f, "MPI_Fetch_and_op"))
    fprintf(g->out, "  MPI_Fetch_and_op(sbuf, rbuf, %s, %s, 0, %s, win[%" PRIu32 "]);\n", t, to, op, w);
  else  /* MPI_Compare_and_swap */
    fprintf(g->out, "  MPI_Compare_and_swap(sbuf, sbuf + 64, rbuf, %s, %s, 0, win[%" PRIu32 "]);\n", t,
            to, w);
}

void mv__bg_emit_rma(struct mv__gen *g, const struct mv_mvt_sig *s, const struct mv__bg_call *k)
{
  const struct mv_mvt_opv *o = &s->ops[0];
  switch (k->cls) {
  case MV__BG_WIN: win(g, s, o); break;
  case MV__BG_EPOCH: epoch(g, s, o); break;
  case MV__BG_GROUP: group(g, s); break;
  case MV__BG_SYNC: sync_call(g, s, o); break;
  default: rma_op(g, s, k, o);
  }
}
