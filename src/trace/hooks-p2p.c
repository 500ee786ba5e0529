/* Point-to-point hooks: MpiSend at the start of a send, MpiRecv at the end of a receive,
 * MpiIsend / MpiIrecvRequest when a non-blocking call or MPI_Start(all) of a persistent request
 * starts, and MpiIsendComplete / MpiIrecv when Wait or Test (any variant) completes the request
 * (OTF2's model). Peers are ranks in the communicator;
 * MPI_PROC_NULL exchanges record no communication event. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "hooks.h"
#include "state.h"
#include "tables.h"

/* mv__bytes' cold path: asks MPI and caches the size of a predefined (named) datatype. */
int mv__type_size(MPI_Datatype type)
{
  int size = 0, ni, na, nt, combiner;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0)
    return 0;
  if (PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner) == MPI_SUCCESS &&
      combiner == MPI_COMBINER_NAMED) {
    struct mv__type_ent *e = &G.types[mv__type_slot(type)];
    e->type = type;
    e->size1 = size + 1;
  }
  return size;
}

void mv__pre_send(struct mv__call *c, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  if (c->on && dest != MPI_PROC_NULL)
    mv__emit(MV__K_SEND, 0, (uint32_t)dest, mv__comm_id(comm), (uint32_t)tag, mv__bytes(count, type), 0);
}

/* Bytes received, from the status fields of the MPIs whose layout is known (what
 * MPI_Get_count(MPI_BYTE) computes, without a call, and beyond INT_MAX). */
uint64_t mv__status_bytes(const MPI_Status *status)
{
#if defined(MV_SMPI)
  return status->count > 0 ? (uint64_t)status->count : 0;
#elif defined(OPEN_MPI)
  return status->_ucount;
#elif defined(MPICH)
  return (uint64_t)(unsigned)status->count_lo | (uint64_t)((unsigned)status->count_hi_and_cancelled >> 1) << 32;
#else
  int n = 0;
  PMPI_Get_count(status, MPI_BYTE, &n);
  return n > 0 ? (uint64_t)n : 0;
#endif
}

void mv__post_recv(struct mv__call *c, int ret, MPI_Comm comm, MPI_Status *status)
{
  if (c->on && ret == MPI_SUCCESS && status->MPI_SOURCE != MPI_PROC_NULL)
    mv__emit(MV__K_RECV, 0, (uint32_t)status->MPI_SOURCE, mv__comm_id(comm),
             (uint32_t)status->MPI_TAG, mv__status_bytes(status), 0);
}

/* The table entry of a request a call just created, NULL when nothing is recorded (tracing off,
 * the call failed, the peer is MPI_PROC_NULL, the table is full). */
struct mv__req_ent *mv__req_new(const struct mv__call *c, int ret, int peer, int kind,
                                const MPI_Request *request)
{
  if (!c->on || ret != MPI_SUCCESS || peer == MPI_PROC_NULL)
    return NULL;
  struct mv__req_ent *e = mv__req_add(*request);
  if (e)
    e->kind = kind;
  return e;
}

void mv__post_isend(struct mv__call *c, int ret, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  struct mv__req_ent *e = mv__req_new(c, ret, dest, MV__REQ_ISEND, request);
  if (!e)
    return;
  e->id = ++G.next_req;
  mv__emit_at(c->t, MV__K_ISEND, 0, (uint32_t)dest, mv__comm_id(comm), (uint32_t)tag,
              mv__bytes(count, type), e->id);
}

void mv__post_irecv(struct mv__call *c, int ret, int source, MPI_Comm comm, MPI_Request *request)
{
  struct mv__req_ent *e = mv__req_new(c, ret, source, MV__REQ_IRECV, request);
  if (!e)
    return;
  e->comm = mv__comm_id(comm);
  e->id = ++G.next_req;
  mv__emit(MV__K_IRECV_REQUEST, 0, 0, 0, 0, 0, e->id);
}

/* Persistent requests: the parameters now, the events at each MPI_Start (as Isend / Irecv). */
void mv__post_psend(struct mv__call *c, int ret, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
  struct mv__req_ent *e = mv__req_new(c, ret, dest, MV__REQ_PSEND, request);
  if (!e)
    return;
  e->peer = (uint32_t)dest;
  e->comm = mv__comm_id(comm);
  e->tag = (uint32_t)tag;
  e->bytes = mv__bytes(count, type);
}

void mv__post_precv(struct mv__call *c, int ret, int source, MPI_Comm comm, MPI_Request *request)
{
  struct mv__req_ent *e = mv__req_new(c, ret, source, MV__REQ_PRECV, request);
  if (e)
    e->comm = mv__comm_id(comm);
}

void mv__post_start(struct mv__call *c, int ret, int n, MPI_Request *requests)
{
  if (!c->on || ret != MPI_SUCCESS || !requests)
    return;
  for (int i = 0; i < n; i++) {
    struct mv__req_ent *e = mv__req_find(requests[i]);
    if (!e || (e->kind != MV__REQ_PSEND && e->kind != MV__REQ_PRECV))
      continue;
    e->active = 1;
    e->id = ++G.next_req;
    if (e->kind == MV__REQ_PSEND)
      mv__emit_at(c->t, MV__K_ISEND, 0, e->peer, e->comm, e->tag, e->bytes, e->id);
    else
      mv__emit(MV__K_IRECV_REQUEST, 0, 0, 0, 0, 0, e->id);
  }
}

/* A freed request is forgotten (a non-blocking one freed while pending never shows completion). */
void mv__post_request_free(struct mv__call *c, int ret)
{
  if (!c->on || ret != MPI_SUCCESS || c->nreq < 1)
    return;
  struct mv__req_ent *e = mv__req_find(c->req[0]);
  if (e)
    mv__req_del(e);
}

/* Binds a request-based RMA operation (Rput, ...) to its request for local completion. */
void mv__post_rma_req(struct mv__call *c, int ret, MPI_Request *request)
{
  struct mv__req_ent *e = mv__req_new(c, ret, 0, MV__REQ_RMA, request);  /* no peer to check */
  if (!e)
    return;
  e->win = c->win;
  e->id = c->match;
}

void mv__pre_requests(struct mv__call *c, int n, const MPI_Request *requests)
{
  if (!c->on || n <= 0 || !requests)
    return;
  if (n > MV__STATUS_STACK) {
    c->req = malloc((size_t)n * sizeof *c->req);
    if (!c->req) {
      c->req = c->req_stack;
      return;
    }
  }
  memcpy(c->req, requests, (size_t)n * sizeof *c->req);
  c->nreq = n;
}

static void complete(struct mv__call *c, int i, MPI_Status *status)
{
  if (i < 0 || i >= c->nreq)
    return;
  struct mv__req_ent *e = mv__req_find(c->req[i]);
  int persistent = e && (e->kind == MV__REQ_PSEND || e->kind == MV__REQ_PRECV);
  if (!e || (persistent && !e->active))
    return;  /* unknown, or an inactive persistent request (completes at once, no event) */
  int send = e->kind == MV__REQ_ISEND || e->kind == MV__REQ_PSEND;
  int recv = e->kind == MV__REQ_IRECV || e->kind == MV__REQ_PRECV;
  int cancelled = 0;
  if (status != MPI_STATUS_IGNORE && recv)
    PMPI_Test_cancelled(status, &cancelled);
  if (cancelled)
    mv__emit(MV__K_REQUEST_CANCELLED, 0, 0, 0, 0, 0, e->id);
  else if (send)
    mv__emit(MV__K_ISEND_COMPLETE, 0, 0, 0, 0, 0, e->id);
  else if (recv && status != MPI_STATUS_IGNORE)
    mv__emit(MV__K_IRECV, 0, (uint32_t)status->MPI_SOURCE, e->comm, (uint32_t)status->MPI_TAG,
             mv__status_bytes(status), e->id);
  else if (e->kind == MV__REQ_RMA)
    mv__rma_local_done(e->win, e->id);
  else if (e->kind == MV__REQ_IO)
    mv__io_request_done(e, status);
  else if (e->kind == MV__REQ_ICOLL)
    mv__emit_z(G.tnow, MV__K_ICOLL_COMPLETE, (int)e->tag, e->peer, e->comm, e->win, e->bytes, e->received,
               e->id);
  if (persistent)
    e->active = 0;
  else
    mv__req_del(e);
}

void mv__post_completed_one(struct mv__call *c, int ret, int index, MPI_Status *status)
{
  if (c->on && ret == MPI_SUCCESS && index != MPI_UNDEFINED)
    complete(c, index, status);
}

void mv__post_completed_all(struct mv__call *c, int ret, int n, MPI_Status *statuses)
{
  if (!c->on || ret != MPI_SUCCESS)
    return;
  for (int i = 0; i < n; i++)
    complete(c, i, statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i]);
}

void mv__post_completed_some(struct mv__call *c, int ret, int n, const int *indices,
                             MPI_Status *statuses)
{
  if (!c->on || ret != MPI_SUCCESS || n == MPI_UNDEFINED || !indices)
    return;
  for (int i = 0; i < n; i++)
    complete(c, indices[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i]);
}
