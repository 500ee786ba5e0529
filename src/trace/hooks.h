/* What the generated wrappers (trace-wrappers.c) call: the call frame, begin/end of a traced
 * call, and the pre/post hooks named in mpi-functions.spec. Internal to libmpivet-trace. */
#ifndef MPIVET_TRACE_HOOKS_H
#define MPIVET_TRACE_HOOKS_H

#include <mpi.h>
#include <otf2/OTF2_Events.h>
#include <stdint.h>
#include <stdlib.h>

#include "clock.h"
#include "emit.h"
#include "state.h"
#include "tables.h"
#include "trace-regions.h"

#define MV__CALLER ((uintptr_t)__builtin_return_address(0))
#define MV__EXPORT __attribute__((visibility("default")))
#define MV__STATUS_STACK 16
#define MV_NOROOT (-1)
#define MV_ALLRANKS (-1)
/* SMPI 3.32 declares MPI_Compare_and_swap's compare_addr without const (the spec uses this). */
#ifdef MV_SMPI
#define MV__CAS_CONST
#else
#define MV__CAS_CONST const
#endif

enum mv__rma_kind { MV_RMA_PUT, MV_RMA_GET, MV_RMA_ACC, MV_RMA_GET_ACC, MV_RMA_FETCH_OP, MV_RMA_CAS };

/* One traced call: lives on the wrapper's stack. */
struct mv__call {
  int region;
  int on;                 /* the call's group is recorded */
  uint64_t t;             /* enter time */
  uintptr_t caller;       /* return address into the application */
  uint64_t site;          /* its call-site hash (if on) */
  uint64_t match;         /* matching id of the RMA operation started by this call */
  uint32_t win;           /* window id captured before the handle is freed */
  int nreq;               /* requests copied before Wait/Test overwrite them */
  MPI_Request *req;
  MPI_Request req_stack[MV__STATUS_STACK];
};

/* The call sites a wrapper saw, in front of the call-site table: MV__SITE_WAYS entries per
 * wrapper, direct-mapped by return address (a loop sending to its neighbours from 4 lines of
 * code finds all 4 there, where one entry would always miss). */
struct mv__site_cache {
  uintptr_t caller;
  uint64_t hash;
};
#define MV__SITE_WAYS 8
static inline struct mv__site_cache *mv__site_slot(struct mv__site_cache *ways, uintptr_t caller)
{
  return &ways[(caller ^ caller >> 4) % MV__SITE_WAYS];
}

/* A request table entry of this kind (state.h) for a call's new request; NULL when nothing is
 * recorded (call off or failed, peer MPI_PROC_NULL, table full). */
struct mv__req_ent *mv__req_new(const struct mv__call *c, int ret, int peer, int kind,
                                const MPI_Request *request);
/* The cold paths of the inline functions below (runtime.c, hooks-p2p.c). */
uint64_t mv__site_hash(uintptr_t caller, struct mv__site_cache *last);
int mv__type_size(MPI_Datatype type);
MPI_Status *mv__statuses(int n, MPI_Status *stack, MPI_Status **heap);

/* The generated wrappers' frame, inline so that a call's fixed cost is two clock reads and a
 * few stores. mv__call_begin: 0 to pass straight to PMPI (tracer off, re-entered, or after
 * finalize); else the Enter event (unless late_enter), with the call site cached per wrapper by
 * return address. A pending call's records go first: they precede every later record. */
#define MV__INLINE static inline __attribute__((always_inline))
MV__INLINE int mv__call_begin(struct mv__call *c, int region, int group, uintptr_t caller,
                              struct mv__site_cache *last, int late_enter)
{
  struct mv__state *s = &G;
  if (s->depth || (!s->active && group != MV__G_ENV))
    return 0;
  s->depth++;
  c->region = region;
  c->nreq = 0;
  c->req = c->req_stack;
  c->caller = caller;
  c->on = s->active && (s->record >> group & 1u);
  c->t = s->tnow = mv__now();
  if (c->on)
    c->site = last->caller == caller && s->stack_depth == 1 ? last->hash
                                                            : mv__site_hash(caller, last);
  if (__builtin_expect(s->pending.fn != NULL, 0) && !(late_enter && c->on))
    mv__write_pending();
  if (c->on && !late_enter)
    mv__emit_at(c->t, MV__K_ENTER, 0, (uint32_t)region, 0, 0, c->site, 0);
  return 1;
}

/* Right after PMPI returns: the stamp of the call's end events and its Leave. */
MV__INLINE void mv__call_after(struct mv__call *c)
{
  if (c->on)
    G.tnow = mv__now();
}

/* leave 0: the Leave was left to the pending call (mv__call_pend). */
MV__INLINE void mv__call_end(struct mv__call *c, int leave)
{
  struct mv__state *s = &G;
  if (leave && c->on && s->active)
    mv__emit(MV__K_LEAVE, 0, (uint32_t)c->region, 0, 0, 0, 0);
  if (c->req != c->req_stack)
    free(c->req);
  s->depth--;
}

/* Spec column "records" (off the latency-critical path of a message chain: a receive's end and
 * the next send's start): "after": Enter and the pre hook's events, stamped before PMPI, are
 * written when PMPI returns (mv__call_fly before, mv__call_land after; a fatal signal meanwhile
 * writes them, runtime.c; not on the fast path below, mv__fast_land). "next": the post hook's
 * events and the Leave are written at the rank's next traced call from a copy of the hook's
 * arguments (mv__call_pend returns where to put them; NULL: nothing to record), or at
 * finalize, abort or a fatal signal. */
MV__INLINE void mv__call_fly(struct mv__call *c, mv__late_fn *fn, void *args)
{
  if (c->on)
    G.in_flight = (struct mv__in_flight){fn, c, args};
}

MV__INLINE void mv__call_land(struct mv__call *c)
{
  if (c->on)
    mv__write_late();
}

MV__INLINE void *mv__call_pend(struct mv__call *c, mv__late_fn *fn)
{
  struct mv__state *s = &G;
  if (!c->on || !s->active)
    return NULL;
  s->pending.fn = fn;
  s->pending.region = c->region;
  s->pending.t = c->t;
  s->pending.tleave = s->tnow;
  return s->pending.args;
}

/* The fast path of the calls with late records (a send's start, a receive's end: the latency-
 * critical path of a message chain), in the generated wrappers: when the rank records the call's
 * group with the TSC clock (G.fast) and the call site is in the wrapper's cache (its hash is
 * known), only a clock read and the re-entry flag before PMPI and, after a receive, a clock read
 * and the stores of what its records need; any other case takes the general path
 * (mv__traced_<name>), which fills the cache. Stores before
 * a send cost more than their count suggests (measured in docs/trace.md), so a fast send keeps
 * nothing in memory while PMPI runs: a rank that dies inside it has no record of that call. */
#define MV__NOINLINE __attribute__((noinline))
MV__INLINE int mv__fast_begin(int group, uintptr_t caller, const struct mv__site_cache *last,
                              uint64_t *t)
{
#ifdef MV_SMPI
  (void)group, (void)caller, (void)last, (void)t;
  return 0;  /* simulated time, a state per simulated rank: the general path */
#else
  struct mv__state *s = &G;
  if (__builtin_expect(s->depth | !(s->fast >> group & 1u) | (last->caller != caller), 0))
    return 0;
  s->depth = 1;
  *t = mv__fast_now();
  return 1;
#endif
}
/* A fast "after" call when PMPI has returned: the pending call's records, the call's Enter and
 * pre hook's events stamped t, its Leave stamped tleave (runtime.c). */
void mv__fast_land(int region, uint64_t t, uint64_t tleave, const struct mv__site_cache *last,
                   mv__late_fn *fn, void *args);
/* A fast "next" call before PMPI: the pending call's records, the Enter; its arguments go to
 * G.pending.args; mv__fast_arm makes it the pending call with no Leave stamp yet
 * (MV__IN_PMPI, which a fatal signal then leaves out, see mv__write_pending), mv__fast_pend
 * stamps it when PMPI has returned: one store less there. */
void mv__fast_enter(int region, uint64_t t, const struct mv__site_cache *last);
MV__INLINE void mv__fast_arm(mv__late_fn *fn)
{
  G.pending.tleave = MV__IN_PMPI;
  G.pending.fn = fn;
}
MV__INLINE void mv__fast_pend(uint64_t tleave)
{
  struct mv__state *s = &G;
  s->pending.tleave = tleave;
  s->depth = 0;
}

/* Byte counts for events. Sizes of predefined datatypes are cached (they never change);
 * derived ones are asked every time (a freed handle may come back with another size). */
static inline uint64_t mv__bytes(int count, MPI_Datatype type)
{
  if (count <= 0 || type == MPI_DATATYPE_NULL)
    return 0;
  const struct mv__type_ent *e = &G.types[mv__type_slot(type)];
  int size = e->size1 && e->type == type ? e->size1 - 1 : mv__type_size(type);
  return (uint64_t)count * (uint64_t)size;
}
/* Bytes received or done, from a status (hooks-p2p.c; not MPI_STATUS_IGNORE). */
uint64_t mv__status_bytes(const MPI_Status *status);
uint64_t mv__all_bytes(int count, MPI_Datatype type, MPI_Comm comm);
uint64_t mv__vbytes(const int counts[], MPI_Datatype type, MPI_Comm comm);
uint64_t mv__own_vbytes(const int counts[], MPI_Datatype type, MPI_Comm comm);
/* mode 0: count bytes on non-roots (receivers); 1: count x (size-1) on the root; 2: count x size
 * on the root; 3: as 0, and count bytes on the root of a one-rank communicator (a Bcast's
 * received bytes: so its buffer size is kept whatever the library short-cuts, issue 18) */
uint64_t mv__root_bytes(int count, MPI_Datatype type, int root, MPI_Comm comm, int mode);
uint64_t mv__root_vbytes(const int counts[], MPI_Datatype type, int root, MPI_Comm comm);

/* env */
void mv__post_init(struct mv__call *c, int ret, int provided);
void mv__pre_finalize(struct mv__call *c);
void mv__pre_abort(struct mv__call *c);
/* point-to-point and requests */
void mv__pre_send(struct mv__call *c, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
void mv__post_recv(struct mv__call *c, int ret, MPI_Comm comm, MPI_Status *status);
void mv__post_isend(struct mv__call *c, int ret, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request);
void mv__post_irecv(struct mv__call *c, int ret, int source, MPI_Comm comm, MPI_Request *request);
void mv__post_psend(struct mv__call *c, int ret, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request);
void mv__post_precv(struct mv__call *c, int ret, int source, MPI_Comm comm, MPI_Request *request);
void mv__post_start(struct mv__call *c, int ret, int n, MPI_Request *requests);
void mv__post_request_free(struct mv__call *c, int ret);
void mv__pre_requests(struct mv__call *c, int n, const MPI_Request *requests);
void mv__post_completed_one(struct mv__call *c, int ret, int index, MPI_Status *status);
void mv__post_completed_all(struct mv__call *c, int ret, int n, MPI_Status *statuses);
void mv__post_completed_some(struct mv__call *c, int ret, int n, const int *indices,
                             MPI_Status *statuses);
/* collectives and communicators */
void mv__pre_coll_begin(struct mv__call *c);
/* how: the datatype's and reduction's codes (mv__how) for the compressed trace */
uint32_t mv__how(MPI_Datatype type, MPI_Op op);
void mv__post_coll(struct mv__call *c, int op, int root, uint64_t sent, uint64_t received,
                   uint32_t how, MPI_Comm comm);
/* A v-collective: as mv__post_coll, with the per-member counts this rank passed that matter
 * (NULL: none) for the compressed trace; mv__at_root: the caller is root of comm. */
void mv__post_vcoll(struct mv__call *c, int op, int root, uint64_t sent, uint64_t received,
                    uint32_t how, const int *scounts, MPI_Datatype stype, const int *rcounts,
                    MPI_Datatype rtype, MPI_Comm comm);
int mv__at_root(int root, MPI_Comm comm);
void mv__post_icoll(struct mv__call *c, int ret, int op, int root, uint64_t sent, uint64_t received,
                    uint32_t how, MPI_Comm comm, MPI_Request *request);
/* A non-blocking v-collective: as mv__post_icoll, with its counts as mv__post_vcoll takes them. */
void mv__post_ivcoll(struct mv__call *c, int ret, int op, int root, uint64_t sent, uint64_t received,
                     uint32_t how, const int *scounts, MPI_Datatype stype, const int *rcounts,
                     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request);
void mv__post_comm_new(struct mv__call *c, int ret, MPI_Comm comm);
void mv__pre_comm_free(struct mv__call *c, MPI_Comm comm);
/* RMA */
void mv__pre_rma_coll_begin(struct mv__call *c);
void mv__post_win_new(struct mv__call *c, int ret, MPI_Win win, MPI_Comm comm, int op);
void mv__pre_win_free(struct mv__call *c, MPI_Win win);
void mv__post_win_freed(struct mv__call *c, int ret);
void mv__post_fence(struct mv__call *c, int ret, MPI_Win win);
void mv__post_group_sync(struct mv__call *c, int ret, MPI_Win win, MPI_Group group);
void mv__post_win_complete(struct mv__call *c, int ret, MPI_Win win);
void mv__post_win_wait(struct mv__call *c, int ret, MPI_Win win, int done);
void mv__pre_lock(struct mv__call *c, int type, int rank, MPI_Win win);
void mv__post_unlock(struct mv__call *c, int ret, int rank, MPI_Win win);
void mv__post_flush(struct mv__call *c, int ret, int rank, MPI_Win win, int remote);
void mv__post_win_sync(struct mv__call *c, int ret, MPI_Win win);
void mv__pre_rma_op(struct mv__call *c, int kind, int target, uint64_t sent, uint64_t received,
                    uint32_t how, MPI_Win win);
void mv__post_rma_req(struct mv__call *c, int ret, MPI_Request *request);
/* MPI-IO (hooks-io.c); c->win carries the I/O handle id, c->match the operation's */
void mv__post_file_open(struct mv__call *c, int ret, MPI_Comm comm, const char *filename, int amode,
                        MPI_File fh);
void mv__pre_file_close(struct mv__call *c, MPI_File fh);
void mv__post_file_closed(struct mv__call *c, int ret);
void mv__post_file_delete(struct mv__call *c, int ret, const char *filename);
void mv__post_file_seek(struct mv__call *c, int ret, MPI_File fh, MPI_Offset offset, int whence);
void mv__pre_io_begin(struct mv__call *c, MPI_File fh, int mode, int flags, int count,
                      MPI_Datatype type);
void mv__post_io_end(struct mv__call *c, int ret, MPI_Status *status);
void mv__post_io_issue(struct mv__call *c, int ret, MPI_File fh, int mode, int count,
                       MPI_Datatype type, MPI_Request *request);
uint32_t mv__io_handle(MPI_File fh);                 /* MV__NONE: not opened while tracing */
void mv__io_request_done(const struct mv__req_ent *e, const MPI_Status *status);

#endif
