/* What benchgen can replay: one table from MPI function name to how the check and the emitter
 * treat it (internal.h). A function not in the table is refused by both, by name. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mpivet/error.h"

#include "internal.h"

/* Collectives and their non-blocking twins (replayed as the blocking one, with a request slot):
 * count = bytes of the rank as the tracer records them (mpi-functions.spec) divided as `div` says;
 * reduce: needs a datatype and an operation. */
#define MV__BG_COLLECTIVES(X)                                 \
  X("MPI_Barrier", "MPI_Ibarrier", MV__BG_NONE, 0)            \
  X("MPI_Bcast", "MPI_Ibcast", MV__BG_ROOTED_BCAST, 0)        \
  X("MPI_Gather", "MPI_Igather", MV__BG_SENT, 0)              \
  X("MPI_Scatter", "MPI_Iscatter", MV__BG_RECEIVED, 0)        \
  X("MPI_Allgather", "MPI_Iallgather", MV__BG_SENT, 0)        \
  X("MPI_Alltoall", "MPI_Ialltoall", MV__BG_SENT_PER_RANK, 0) \
  X("MPI_Reduce", "MPI_Ireduce", MV__BG_SENT, 1)              \
  X("MPI_Allreduce", "MPI_Iallreduce", MV__BG_SENT, 1)        \
  X("MPI_Scan", "MPI_Iscan", MV__BG_SENT, 1)                  \
  X("MPI_Exscan", "MPI_Iexscan", MV__BG_SENT, 1)              \
  X("MPI_Reduce_scatter_block", "MPI_Ireduce_scatter_block", MV__BG_RECEIVED, 1)
/* v-collectives: the per-member counts follow as VEC operations (emit-calls.c, vcoll) */
#define MV__BG_VCOLLECTIVES(X)                       \
  X("MPI_Gatherv", "MPI_Igatherv", MV__BG_SENT, 0)     \
  X("MPI_Scatterv", "MPI_Iscatterv", MV__BG_RECEIVED, 0) \
  X("MPI_Allgatherv", "MPI_Iallgatherv", MV__BG_SENT, 0) \
  X("MPI_Alltoallv", "MPI_Ialltoallv", MV__BG_NONE, 0) \
  X("MPI_Reduce_scatter", "MPI_Ireduce_scatter", MV__BG_NONE, 1)
#define MV__BG_BLOCKING(f, nb, div, red) {f, MV__BG_COLL, div, red},
#define MV__BG_NONBLOCKING(f, nb, div, red) {nb, MV__BG_ICOLL, div, red},

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
  MV__BG_COLLECTIVES(MV__BG_BLOCKING)
  MV__BG_VCOLLECTIVES(MV__BG_BLOCKING)
  {"MPI_Finalize", MV__BG_FINALIZE, 0, 0},
  /* persistent point-to-point: the requests are made once per signature, then started */
  {"MPI_Start", MV__BG_START, 0, 0}, {"MPI_Startall", MV__BG_START, 0, 0},
  MV__BG_COLLECTIVES(MV__BG_NONBLOCKING)
  MV__BG_VCOLLECTIVES(MV__BG_NONBLOCKING)
  /* one-sided: windows of the recorded communicator, epochs, locks, operations at offset 0 */
  {"MPI_Win_create", MV__BG_WIN, 0, 0}, {"MPI_Win_allocate", MV__BG_WIN, 0, 0},
  {"MPI_Win_free", MV__BG_WIN, 0, 0},
  {"MPI_Win_fence", MV__BG_EPOCH, 0, 0}, {"MPI_Win_complete", MV__BG_EPOCH, 0, 0},
  {"MPI_Win_wait", MV__BG_EPOCH, 0, 0}, {"MPI_Win_test", MV__BG_EPOCH, 0, 0},
  {"MPI_Win_post", MV__BG_GROUP, 0, 0}, {"MPI_Win_start", MV__BG_GROUP, 0, 0},
  {"MPI_Win_lock", MV__BG_SYNC, 0, 0}, {"MPI_Win_unlock", MV__BG_SYNC, 0, 0},
  {"MPI_Win_lock_all", MV__BG_SYNC, 0, 0}, {"MPI_Win_unlock_all", MV__BG_SYNC, 0, 0},
  {"MPI_Win_flush", MV__BG_SYNC, 0, 0}, {"MPI_Win_flush_all", MV__BG_SYNC, 0, 0},
  {"MPI_Win_flush_local", MV__BG_SYNC, 0, 0}, {"MPI_Win_flush_local_all", MV__BG_SYNC, 0, 0},
  {"MPI_Win_sync", MV__BG_SYNC, 0, 0},
  {"MPI_Put", MV__BG_RMA, 0, 0}, {"MPI_Get", MV__BG_RMA, 0, 0},
  {"MPI_Accumulate", MV__BG_RMA, 0, 1}, {"MPI_Get_accumulate", MV__BG_RMA, 0, 1},
  {"MPI_Fetch_and_op", MV__BG_RMA, 0, 1}, {"MPI_Compare_and_swap", MV__BG_RMA, 0, 0},
};

/* Why a traced function is not in the table: the clear refusal for the user. */
static const char *unsupported(const char *func)
{
  static const struct { const char *prefix, *why; } why[] = {
    {"MPI_File_", "MPI-IO is not replayed (the compressed trace records I/O calls, not their files)"},
    {"MPI_Bsend", "buffered sends are not replayed (the attached buffer is not recorded)"},
    {"MPI_Ibsend", "buffered sends are not replayed (the attached buffer is not recorded)"},
    {"MPI_Rput", "request-based one-sided operations are not replayed"},
    {"MPI_Rget", "request-based one-sided operations are not replayed"},
    {"MPI_Raccumulate", "request-based one-sided operations are not replayed"},
    {"MPI_Win_create_dynamic", "dynamic windows are not replayed (attached memory is not recorded)"},
    {"MPI_Win_allocate_shared", "shared-memory windows are not replayed"},
  };
  for (size_t i = 0; i < sizeof why / sizeof why[0]; i++)
    if (!strncmp(func, why[i].prefix, strlen(why[i].prefix)))
      return why[i].why;
  return "this function is not replayed yet";
}

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
#define B(k) (1u << MV_MVT_OP_##k)
  static const struct { unsigned kinds; size_t max; } want[] = {
    [MV__BG_SEND] = {B(SEND), 1}, [MV__BG_RECV] = {B(RECV), 1},
    [MV__BG_SENDRECV] = {B(SEND) | B(RECV), 2}, [MV__BG_ISEND] = {B(ISEND), 1},
    [MV__BG_IRECV] = {B(IRECV), 1}, [MV__BG_WAIT] = {B(DONE), 1u << 20},
    [MV__BG_COLL] = {B(COLL) | B(VEC), 1u << 20}, [MV__BG_FINALIZE] = {0, 0},
    [MV__BG_START] = {B(ISEND) | B(IRECV), 1u << 20}, [MV__BG_ICOLL] = {B(ICOLL) | B(VEC), 1u << 20},
    [MV__BG_WIN] = {B(WIN), 1}, [MV__BG_EPOCH] = {B(EPOCH), 1}, [MV__BG_GROUP] = {B(GROUP), 1u << 20},
    [MV__BG_SYNC] = {B(SYNC), 1}, [MV__BG_RMA] = {B(PUT) | B(GET) | B(ACC), 1}};
#undef B
  *max = want[cls].max;
  return k >= 0 && (want[cls].kinds >> k & 1u);
}

static int sig_ok(const struct mv_mvt_sig *s, const struct mv__bg_call *c, const char **why)
{
  size_t max, nsend = 0, nrecv = 0, ncoll = 0;
  for (size_t k = 0; k < s->nops; k++) {
    int kind = s->ops[k].kind;
    if (kind == MV_MVT_OP_OTHER || kind == MV_MVT_OP_LOST) {
      *why = kind == MV_MVT_OP_LOST ? "a receive request that never completed"
                                    : "an event kind benchgen does not replay (MPI-IO, or an RMA group the trace does not define)";
      return MV_EUNSUP;
    }
    ncoll += kind == MV_MVT_OP_COLL || kind == MV_MVT_OP_ICOLL;
    if (!fits(c->cls, kind, &max) || (nsend += kind == MV_MVT_OP_SEND) > 1 ||
        (nrecv += kind == MV_MVT_OP_RECV) > 1) {
      *why = "operations that do not fit the function (malformed trace)";
      return MV_EPARSE;
    }
  }
  fits(c->cls, -2, &max);
  if ((c->cls == MV__BG_COLL || c->cls == MV__BG_ICOLL) && (ncoll != 1 || s->ops[0].kind == MV_MVT_OP_VEC)) {
    *why = "a collective without its one collective operation (malformed trace)";
    return MV_EPARSE;
  }
  if (s->nops > max || (s->nops == 0 && c->cls != MV__BG_FINALIZE)) {
    *why = "a wrong number of operations for the function (malformed trace)";
    return MV_EPARSE;
  }
  return 0;
}

int mv__bg_validate(const struct mv_mvt *t, char *msg, size_t msgsize)
{
  if (t->truncated && t->truncated[0]) {
    snprintf(msg, msgsize, "the traced run did not reach MPI_Finalize (%s): a benchmark of its "
             "calls would not end; trace a complete run", t->truncated);
    return MV_EUNSUP;
  }
  for (size_t i = 0; i < t->nsigs; i++) {
    const struct mv_mvt_sig *s = &t->sigs[i];
    const struct mv__bg_call *c = mv__bg_call_of(s->func);
    const char *why = c ? "" : unsupported(s->func);
    int rc = c ? sig_ok(s, c, &why) : MV_EUNSUP;
    if (rc) {
      snprintf(msg, msgsize, "cannot replay %s (signature s%zu, call site %016" PRIx64 "): %s", s->func,
               i, s->site, why);
      return rc;
    }
  }
  return 0;
}
