/* Collective and communicator hooks: MpiCollectiveBegin right after Enter, MpiCollectiveEnd
 * (operation, root, bytes) right before Leave; new communicators get a global id and, from
 * their rank 0, a definition in world ranks. Byte counts follow what this rank sends and
 * receives (the root of a one-to-all counts every copy it sends). */
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "hooks.h"
#include "mvt.h"
#include "state.h"
#include "tables.h"

/* From the communicator table; MPI is asked only for communicators it does not hold
 * (inter-communicators). */
static int comm_size(MPI_Comm comm)
{
  const struct mv__comm_ent *e = mv__comm_find(comm);
  if (e)
    return e->size;
  int n = 0, inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &n);
  else
    PMPI_Comm_size(comm, &n);
  return n;
}

static int comm_rank(MPI_Comm comm)
{
  const struct mv__comm_ent *e = mv__comm_find(comm);
  int r = 0;
  if (e)
    return e->rank;
  PMPI_Comm_rank(comm, &r);
  return r;
}

uint64_t mv__all_bytes(int count, MPI_Datatype type, MPI_Comm comm)
{
  return mv__bytes(count, type) * (uint64_t)comm_size(comm);
}

uint64_t mv__vbytes(const int counts[], MPI_Datatype type, MPI_Comm comm)
{
  uint64_t sum = 0;
  int n = comm_size(comm);
  for (int i = 0; counts && i < n; i++)
    sum += mv__bytes(counts[i], type);
  return sum;
}

uint64_t mv__own_vbytes(const int counts[], MPI_Datatype type, MPI_Comm comm)
{
  return counts ? mv__bytes(counts[comm_rank(comm)], type) : 0;
}

uint64_t mv__root_bytes(int count, MPI_Datatype type, int root, MPI_Comm comm, int mode)
{
  int is_root = comm_rank(comm) == root;
  if (mode == 0 || mode == 3)
    return !is_root || (mode == 3 && comm_size(comm) == 1) ? mv__bytes(count, type) : 0;
  if (!is_root)
    return 0;
  int n = comm_size(comm);
  return mv__bytes(count, type) * (uint64_t)(mode == 1 ? n - 1 : n);
}

uint64_t mv__root_vbytes(const int counts[], MPI_Datatype type, int root, MPI_Comm comm)
{
  return comm_rank(comm) == root ? mv__vbytes(counts, type, comm) : 0;
}

void mv__pre_coll_begin(struct mv__call *c)
{
  if (c->on)
    mv__emit_at(c->t, MV__K_COLL_BEGIN, 0, 0, 0, 0, 0, 0);
}

/* The codes of mvt.h's tables (MV_MVT_TYPES, MV_MVT_REDOPS) of a predefined datatype and
 * reduction, type | op << 8: 0 none, 1 derived or user-defined, 2 + i the i-th name. */
uint32_t mv__how(MPI_Datatype type, MPI_Op op)
{
  uint32_t t = type == MPI_DATATYPE_NULL ? MV_MVT_NONE : MV_MVT_USER, o = MV_MVT_NONE, k = 2;
  if (op != MPI_OP_NULL)
    o = MV_MVT_USER;
#define MV_X(name) if (t == MV_MVT_USER && type == MPI_##name) t = k; k++;
  MV_MVT_TYPES(MV_X)
#undef MV_X
  k = 2;
#define MV_X(name) if (o == MV_MVT_USER && op == MPI_##name) o = k; k++;
  MV_MVT_REDOPS(MV_X)
#undef MV_X
  return t | o << 8;
}

void mv__post_coll(struct mv__call *c, int op, int root, uint64_t sent, uint64_t received,
                   uint32_t how, MPI_Comm comm)
{
  if (c->on)
    mv__emit(MV__K_COLL_END, op, root < 0 ? MV__NONE : (uint32_t)root, mv__comm_id(comm), how,
             sent, received);
}

int mv__at_root(int root, MPI_Comm comm)
{
  return comm_rank(comm) == root;
}

/* The counts of a v-collective as COLL_COUNTS records, three members each (not events). */
static void counts(int which, const int *v, MPI_Datatype type, MPI_Comm comm)
{
  int n = comm_size(comm);
  for (int i = 0; v && i < n; i += 3) {
    mv__emit_z(G.tnow, MV__K_COLL_COUNTS, which, (uint32_t)i, 0, 0, mv__bytes(v[i], type),
               i + 1 < n ? mv__bytes(v[i + 1], type) : 0, i + 2 < n ? mv__bytes(v[i + 2], type) : 0);
    G.nevents--;
  }
}

void mv__post_vcoll(struct mv__call *c, int op, int root, uint64_t sent, uint64_t received,
                    uint32_t how, const int *scounts, MPI_Datatype stype, const int *rcounts,
                    MPI_Datatype rtype, MPI_Comm comm)
{
  if (!c->on)
    return;
  counts(0, scounts, stype, comm);
  counts(1, rcounts, rtype, comm);
  mv__post_coll(c, op, root, sent, received, how, comm);
}

/* A non-blocking collective: its request (NonBlockingCollectiveRequest), and what its
 * completion in Wait/Test records (NonBlockingCollectiveComplete, hooks-p2p.c); a v-collective's
 * counts go before the request record, which the compressed trace keeps them with. */
static void icoll(struct mv__call *c, int ret, int op, int root, uint64_t sent, uint64_t received,
                  uint32_t how, const int *scounts, MPI_Datatype stype, const int *rcounts,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
  struct mv__req_ent *e = mv__req_new(c, ret, 0, MV__REQ_ICOLL, request);
  if (!e)
    return;
  e->tag = (uint32_t)op;
  e->peer = root < 0 ? MV__NONE : (uint32_t)root;
  e->comm = mv__comm_id(comm);
  e->bytes = sent;
  e->received = received;
  e->win = how;   /* no window: the datatype and reduction */
  e->id = ++G.next_req;
  counts(0, scounts, stype, comm);
  counts(1, rcounts, rtype, comm);
  mv__emit_at(c->t, MV__K_ICOLL_REQUEST, 0, 0, 0, 0, 0, e->id);
}

void mv__post_icoll(struct mv__call *c, int ret, int op, int root, uint64_t sent, uint64_t received,
                    uint32_t how, MPI_Comm comm, MPI_Request *request)
{
  icoll(c, ret, op, root, sent, received, how, NULL, MPI_DATATYPE_NULL, NULL, MPI_DATATYPE_NULL, comm, request);
}

void mv__post_ivcoll(struct mv__call *c, int ret, int op, int root, uint64_t sent, uint64_t received,
                     uint32_t how, const int *scounts, MPI_Datatype stype, const int *rcounts,
                     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request)
{
  icoll(c, ret, op, root, sent, received, how, scounts, stype, rcounts, rtype, comm, request);
}

void mv__post_comm_new(struct mv__call *c, int ret, MPI_Comm comm)
{
  (void)c;
  int inter = 0;
  if (ret != MPI_SUCCESS || comm == MPI_COMM_NULL)
    return;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    return;  /* inter-communicators are not defined: their events name no communicator */
  uint32_t id = mv__new_id(comm, &G.next_comm);
  mv__comm_add(comm, id);
  if (comm_rank(comm) == 0) {
    char name[32];
    snprintf(name, sizeof name, "comm_%u", id);
    mv__define_comm(comm, id, name);
  }
}

void mv__pre_comm_free(struct mv__call *c, MPI_Comm comm)
{
  (void)c;
  for (size_t i = G.ncomms; i-- > 0;)
    if (G.comms[i].comm == comm) {
      G.comms[i] = G.comms[--G.ncomms];
      return;
    }
}
