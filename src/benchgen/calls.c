/* What benchgen can replay: one table from MPI function name to how the check and the emitter
 * treat it (internal.h). A function not in the table is refused by both, by name. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"

#include "internal.h"

static const struct mv__bg_call table[] = {
  {"MPI_Send", MV__BG_SEND, 0, 0}, {"MPI_Ssend", MV__BG_SEND, 0, 0},
  {"MPI_Rsend", MV__BG_SEND, 0, 0},
  {"MPI_Recv", MV__BG_RECV, 0, 0},
  {"MPI_Sendrecv", MV__BG_SENDRECV, 0, 0},
  {"MPI_Sendrecv_replace", MV__BG_SENDRECV, 0, 0},
  {"MPI_Isend", MV__BG_ISEND, 0, 0}, {"MPI_Issend", MV__BG_ISEND, 0, 0},
  {"MPI_Irsend", MV__BG_ISEND, 0, 0},
  {"MPI_Irecv", MV__BG_IRECV, 0, 0},
  {"MPI_Wait", MV__BG_WAIT, 0, 0}, {"MPI_Waitall", MV__BG_WAIT, 0, 0},
  {"MPI_Waitany", MV__BG_WAIT, 0, 0}, {"MPI_Waitsome", MV__BG_WAIT, 0, 0},
  {"MPI_Test", MV__BG_WAIT, 0, 0}, {"MPI_Testall", MV__BG_WAIT, 0, 0},
  {"MPI_Testany", MV__BG_WAIT, 0, 0}, {"MPI_Testsome", MV__BG_WAIT, 0, 0},
  /* collectives: count = bytes of the rank as the tracer records them (mpi-functions.spec)
   * divided as `div` says; reduce: needs a datatype and an operation */
  {"MPI_Barrier", MV__BG_COLL, MV__BG_NONE, 0},
  {"MPI_Bcast", MV__BG_COLL, MV__BG_ROOTED_BCAST, 0},
  {"MPI_Gather", MV__BG_COLL, MV__BG_SENT, 0},
  {"MPI_Scatter", MV__BG_COLL, MV__BG_RECEIVED, 0},
  {"MPI_Allgather", MV__BG_COLL, MV__BG_SENT, 0},
  {"MPI_Alltoall", MV__BG_COLL, MV__BG_SENT_PER_RANK, 0},
  {"MPI_Reduce", MV__BG_COLL, MV__BG_SENT, 1},
  {"MPI_Allreduce", MV__BG_COLL, MV__BG_SENT, 1},
  {"MPI_Scan", MV__BG_COLL, MV__BG_SENT, 1},
  {"MPI_Exscan", MV__BG_COLL, MV__BG_SENT, 1},
  {"MPI_Reduce_scatter_block", MV__BG_COLL, MV__BG_RECEIVED, 1},
  {"MPI_Finalize", MV__BG_FINALIZE, 0, 0},
};

const struct mv__bg_call *mv__bg_call_of(const char *func)
{
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, func) == 0)
      return &table[i];
  return NULL;
}

/* Operations a call of class cls must have: 1 when op kind k fits, and how many at most. */
static int fits(int cls, int k, size_t *max)
{
  static const struct { int kind, kind2; size_t max; } want[] = {
    [MV__BG_SEND] = {MV_MVT_OP_SEND, -1, 1}, [MV__BG_RECV] = {MV_MVT_OP_RECV, -1, 1},
    [MV__BG_SENDRECV] = {MV_MVT_OP_SEND, MV_MVT_OP_RECV, 2}, [MV__BG_ISEND] = {MV_MVT_OP_ISEND, -1, 1},
    [MV__BG_IRECV] = {MV_MVT_OP_IRECV, -1, 1}, [MV__BG_WAIT] = {MV_MVT_OP_DONE, -1, 1u << 20},
    [MV__BG_COLL] = {MV_MVT_OP_COLL, -1, 1}, [MV__BG_FINALIZE] = {-1, -1, 0}};
  *max = want[cls].max;
  return k == want[cls].kind || k == want[cls].kind2;
}

static int sig_ok(const struct mv_mvt_sig *s, const struct mv__bg_call *c, const char **why)
{
  size_t max, nsend = 0, nrecv = 0;
  for (size_t k = 0; k < s->nops; k++) {
    int kind = s->ops[k].kind;
    if (kind == MV_MVT_OP_OTHER || kind == MV_MVT_OP_LOST) {
      *why = kind == MV_MVT_OP_LOST ? "a receive request that never completed"
                                    : "an event kind benchgen does not replay (one-sided, I/O, non-blocking collectives)";
      return MV_EUNSUP;
    }
    if (!fits(c->cls, kind, &max) || (nsend += kind == MV_MVT_OP_SEND) > 1 ||
        (nrecv += kind == MV_MVT_OP_RECV) > 1) {
      *why = "operations that do not fit the function (malformed trace)";
      return MV_EPARSE;
    }
  }
  fits(c->cls, -2, &max);
  if (s->nops > max || (s->nops == 0 && c->cls != MV__BG_FINALIZE)) {
    *why = "a wrong number of operations for the function (malformed trace)";
    return MV_EPARSE;
  }
  return 0;
}

int mv__bg_validate(const struct mv_mvt *t, char *msg, size_t msgsize)
{
  for (size_t i = 0; i < t->nsigs; i++) {
    const struct mv_mvt_sig *s = &t->sigs[i];
    const struct mv__bg_call *c = mv__bg_call_of(s->func);
    const char *why = "this function is not replayed yet";
    int rc = c ? sig_ok(s, c, &why) : MV_EUNSUP;
    if (rc) {
      snprintf(msg, msgsize, "cannot replay %s (signature s%zu, call site %016" PRIx64 "): %s", s->func,
               i, s->site, why);
      return rc;
    }
  }
  return 0;
}
