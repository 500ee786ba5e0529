/* The payload events of MPI calls (point-to-point, collectives, RMA operations, general active
 * target and lock synchronization) as the OTF2 event reader of their location delivers them: each is queued on the
 * innermost open MPI call of its location and becomes a sync record at the call's leave
 * (reader.c). Events the replay does not need are still counted. */
#include <otf2/otf2.h>

#include "reader.h"
#include "mpivet/error.h"

/* Queue a payload on the innermost open MPI call of location l. */
static OTF2_CallbackCode add(struct rd *r, OTF2_LocationRef l, uint64_t t, struct payload p,
                             uint32_t comm, uint32_t peer_rank)
{
  uint32_t idx;
  struct locstate *s = mv__rd_loc(r, l, t, &idx);
  if (!s || !s->mpi_depth)
    return OTF2_CALLBACK_SUCCESS;   /* payload outside an MPI call: not replayable */
  if (peer_rank != MV__NONE) {
    p.b = mv__comm_loc(r->d, comm, peer_rank, idx);
    if (p.b == MV__NONE)
      return OTF2_CALLBACK_SUCCESS;
  }
  struct payload *q = mv__vec_push(&s->pay);
  if (!q) {
    r->err = MV_ENOMEM;
    return OTF2_CALLBACK_INTERRUPT;
  }
  *q = p;
  return OTF2_CALLBACK_SUCCESS;
}

static uint32_t win_comm(struct rd *r, uint32_t win)
{
  return win < r->d->nwins ? r->d->win_comm[win] : MV__NONE;
}

#define EV_ARGS OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u, OTF2_AttributeList *al
#define UNUSED_EV (void)al, (void)pos

static OTF2_CallbackCode on_send(EV_ARGS, uint32_t rcv, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
  UNUSED_EV, (void)len;
  return add(u, l, t, (struct payload){MV__R_SEND, 0, comm, 0, tag}, comm, rcv);
}

static OTF2_CallbackCode on_isend(EV_ARGS, uint32_t rcv, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                  uint64_t req)
{
  UNUSED_EV, (void)len, (void)req;
  return add(u, l, t, (struct payload){MV__R_ISEND, 0, comm, 0, tag}, comm, rcv);
}

static OTF2_CallbackCode on_recv(EV_ARGS, uint32_t snd, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
  UNUSED_EV, (void)len;
  return add(u, l, t, (struct payload){MV__R_RECV, 0, comm, 0, tag}, comm, snd);
}

static OTF2_CallbackCode on_irecv(EV_ARGS, uint32_t snd, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                  uint64_t req)
{
  (void)req;
  return on_recv(l, t, pos, u, al, snd, comm, tag, len);
}

static OTF2_CallbackCode on_coll(EV_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                 uint64_t sent, uint64_t recvd)
{
  struct rd *r = u;
  UNUSED_EV, (void)sent, (void)recvd;
  uint32_t rootloc = root == OTF2_UNDEFINED_UINT32 ? MV__NONE : mv__comm_loc(r->d, comm, root, 0);
  return add(r, l, t, (struct payload){MV__R_COLL, (uint8_t)op, comm, rootloc, 0}, comm, MV__NONE);
}

static OTF2_CallbackCode on_rcoll(EV_ARGS, OTF2_CollectiveOp op, OTF2_RmaSyncLevel lvl, OTF2_RmaWinRef win,
                                  uint32_t root, uint64_t sent, uint64_t recvd)
{
  UNUSED_EV, (void)lvl, (void)root, (void)sent, (void)recvd;
  return add(u, l, t, (struct payload){MV__R_RCOLL, (uint8_t)op, win, 0, 0}, 0, MV__NONE);
}

static OTF2_CallbackCode on_op(struct rd *r, OTF2_LocationRef l, uint64_t t, uint32_t win, uint32_t remote)
{
  return add(r, l, t, (struct payload){MV__R_RMAOP, 0, win, 0, 0}, win_comm(r, win), remote);
}

static OTF2_CallbackCode on_put(EV_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t id)
{
  UNUSED_EV, (void)bytes, (void)id;
  return on_op(u, l, t, win, remote);
}

static OTF2_CallbackCode on_atomic(EV_ARGS, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type,
                                   uint64_t sent, uint64_t recvd, uint64_t id)
{
  UNUSED_EV, (void)type, (void)sent, (void)recvd, (void)id;
  return on_op(u, l, t, win, remote);
}

static OTF2_CallbackCode on_gsync(EV_ARGS, OTF2_RmaSyncLevel lvl, OTF2_RmaWinRef win, OTF2_GroupRef group)
{
  struct rd *r = u;
  uint32_t idx;
  UNUSED_EV, (void)lvl;
  /* the role (post/start/complete/wait) comes from the MPI call holding the event */
  struct locstate *s = mv__rd_loc(r, l, t, &idx);
  if (!s || !s->mpi_depth)
    return OTF2_CALLBACK_SUCCESS;
  s->events--, r->events--;   /* add() counts it again */
  uint32_t region = MV__VEC_AT(&s->stack, struct frame, s->mpi_depth - 1).region;
  uint8_t role = region < r->d->nregions ? r->d->regions[region].role : MV__GS_NONE;
  if (role == MV__GS_NONE)
    return OTF2_CALLBACK_SUCCESS;
  return add(r, l, t, (struct payload){MV__R_GSYNC, role, win, 0, group}, 0, MV__NONE);
}

static OTF2_CallbackCode on_lock(EV_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id, OTF2_LockType type)
{
  struct rd *r = u;
  UNUSED_EV, (void)id;
  return add(r, l, t, (struct payload){MV__R_LOCK, type == OTF2_LOCK_EXCLUSIVE, win, 0, 0},
             win_comm(r, win), remote);
}

static OTF2_CallbackCode on_unlock(EV_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id)
{
  struct rd *r = u;
  UNUSED_EV, (void)id;
  return add(r, l, t, (struct payload){MV__R_UNLOCK, 0, win, 0, 0}, win_comm(r, win), remote);
}

/* Any other event still advances the clock and the event count. */
static OTF2_CallbackCode on_unknown(EV_ARGS)
{
  struct rd *r = u;
  uint32_t idx;
  UNUSED_EV;
  mv__rd_loc(r, l, t, &idx);
  return r->err ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* Events the replay does not need are still counted (and advance the clock). */
#define UN __attribute__((unused))
static OTF2_CallbackCode count0(EV_ARGS)
{
  return on_unknown(l, t, pos, u, al);
}
static OTF2_CallbackCode count_req(EV_ARGS, UN uint64_t req)
{
  return on_unknown(l, t, pos, u, al);
}
static OTF2_CallbackCode count_win(EV_ARGS, UN OTF2_RmaWinRef win)
{
  return on_unknown(l, t, pos, u, al);
}
static OTF2_CallbackCode count_op(EV_ARGS, UN OTF2_RmaWinRef win, UN uint64_t id)
{
  return on_unknown(l, t, pos, u, al);
}

OTF2_EvtReaderCallbacks *mv__rd_callbacks(void)
{
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  if (!cb)
    return NULL;
  OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, mv__rd_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, mv__rd_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, on_rcoll);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_put);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_put);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_atomic);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, on_gsync);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_lock);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, on_lock);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_unlock);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, count0);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, count0);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, count_req);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, count_req);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, count_req);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, count_req);
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, count_win);
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, count_win);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, count_op);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, count_op);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, count_op);
  return cb;
}

