/* What benchgen can replay: one table from MPI function name to how the check and the emitter
 * treat it (internal.h). A function not in the table is refused by both, by name. */
#include <string.h>

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

/* The first signature of t that cannot be replayed, or -1. */
long mv__bg_unsupported(const struct mv_mvt *t, const char **why)
{
  for (size_t i = 0; i < t->nsigs; i++) {
    const struct mv_mvt_sig *s = &t->sigs[i];
    if (!mv__bg_call_of(s->func)) {
      *why = "this function is not replayed yet";
      return (long)i;
    }
    for (size_t k = 0; k < s->nops; k++) {
      int kind = s->ops[k].kind;
      if (kind == MV_MVT_OP_OTHER || kind == MV_MVT_OP_LOST) {
        *why = kind == MV_MVT_OP_LOST ? "a receive request that never completed"
                                      : "an event kind benchgen does not replay";
        return (long)i;
      }
    }
  }
  return -1;
}
