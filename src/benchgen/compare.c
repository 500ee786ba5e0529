/* Validation of a generated benchmark: its re-traced compressed trace against the original's,
 * rank by rank and call by call: function, and per operation its kind, communicator (by its
 * members, not its number), peer (as a world rank), tag, bytes, root, request slot, window,
 * lock flags, reduction and datatype (a derived one is replayed as a predefined one). Call
 * sites, times and the numbering of signatures may differ. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "mpivet/error.h"

struct side {
  const struct mv_mvt *t;
  struct mv__bg_iter it;
};

/* A communicator as seen by rank r: its members' hash (0: unknown), its size, r's rank in it. */
static uint64_t comm_key(const struct mv_mvt *t, uint32_t sym, uint32_t r, size_t *n, size_t *me,
                         const uint32_t **m)
{
  if (sym == 1) {
    *n = 1, *me = 0, *m = NULL;
    return 1;
  }
  *m = mv__bg_members(t, sym, r, n, me);
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; *m && i < *n; i++)
    h = (h ^ (*m)[i]) * 1099511628211u;
  return *m ? h : 0;
}

/* Op of side x at rank r as comparable values: world peer, communicator key. */
static void resolve(const struct mv_mvt *t, const struct mv_mvt_opv *o, uint32_t r, uint64_t *key,
                    int64_t *peer)
{
  size_t n = 0, me = 0;
  const uint32_t *m;
  *key = comm_key(t, o->comm, r, &n, &me, &m);
  *peer = -1;
  if (n && strchr(mv_mvt_op_fields((unsigned)o->kind), 'p')) {
    int64_t i = (((int64_t)me + o->peer) % (int64_t)n + (int64_t)n) % (int64_t)n;
    *peer = m ? m[i] : r;
  }
}

static int same_op(const struct mv_mvt *a, const struct mv_mvt_opv *x, const struct mv_mvt *b,
                   const struct mv_mvt_opv *y, uint32_t r)
{
  uint64_t ka, kb;
  int64_t pa, pb;
  if (x->kind != y->kind)
    return 0;
  if (x->kind == MV_MVT_OP_DONE || x->kind == MV_MVT_OP_LOST)
    return x->slot == y->slot;
  resolve(a, x, r, &ka, &pa);
  resolve(b, y, r, &kb, &pb);
  return ka == kb && pa == pb && x->tag == y->tag && x->bytes == y->bytes && x->root == y->root &&
         x->received == y->received && x->slot == y->slot && x->win == y->win &&
         x->flags == y->flags && x->op == y->op && x->members == y->members &&
         (x->type == y->type || x->type < 2);
}

static int same_call(const struct mv_mvt *a, long sa, const struct mv_mvt *b, long sb, uint32_t r)
{
  const struct mv_mvt_sig *x = &a->sigs[sa], *y = &b->sigs[sb];
  if (strcmp(x->func, y->func) || x->nops != y->nops)
    return 0;
  for (size_t i = 0; i < x->nops; i++)
    if (!same_op(a, &x->ops[i], b, &y->ops[i], r))
      return 0;
  return 1;
}

static int compare_rank(const struct mv_mvt *a, const struct mv_mvt *b, uint32_t r, uint64_t *calls,
                        char *msg, size_t msgsize)
{
  long ca = mv__bg_class_of(a, r), cb = mv__bg_class_of(b, r);
  if (ca < 0 || cb < 0) {
    snprintf(msg, msgsize, "rank %" PRIu32 " has no calls in the %s trace", r, ca < 0 ? "first" : "second");
    return 1;
  }
  struct mv__bg_iter ia, ib;
  if (mv__bg_iter_init(&ia, &a->classes[ca]) || mv__bg_iter_init(&ib, &b->classes[cb])) {
    mv__bg_iter_release(&ia);
    return MV_ENOMEM;
  }
  int rc = 0;
  for (uint64_t n = 0;; n++) {
    long sa = mv__bg_next(&ia), sb = mv__bg_next(&ib);
    if (sa < 0 && sb < 0)
      break;
    if (sa < 0 || sb < 0 || !same_call(a, sa, b, sb, r)) {
      snprintf(msg, msgsize, "rank %" PRIu32 ", call %" PRIu64 ": %s (signature s%ld) in the first trace, "
               "%s (s%ld) in the second", r, n + 1, sa < 0 ? "nothing" : a->sigs[sa].func, sa,
               sb < 0 ? "nothing" : b->sigs[sb].func, sb);
      rc = 1;
      break;
    }
    ++*calls;
  }
  mv__bg_iter_release(&ia);
  mv__bg_iter_release(&ib);
  return rc;
}

int mv_benchgen_compare(const struct mv_mvt *a, const struct mv_mvt *b, uint64_t *calls, char *msg,
                        size_t msgsize)
{
  *calls = 0;
  if (a->nranks != b->nranks) {
    snprintf(msg, msgsize, "%" PRIu32 " ranks in the first trace, %" PRIu32 " in the second", a->nranks, b->nranks);
    return 1;
  }
  for (uint32_t r = 0; r < a->nranks; r++) {
    int rc = compare_rank(a, b, r, calls, msg, msgsize);
    if (rc)
      return rc;
  }
  return 0;
}
