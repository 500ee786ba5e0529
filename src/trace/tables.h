/* Handles -> global ids (tables.c): communicators, windows, requests, groups, I/O handles and
 * predefined datatypes' sizes, in the calling rank's state. */
#ifndef MPIVET_TRACE_TABLES_H
#define MPIVET_TRACE_TABLES_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "state.h"

/* handles -> global ids; communicators: a short list, the most recent first, with their size
 * and this rank's rank (asked once, when added) */
static inline const struct mv__comm_ent *mv__comm_find(MPI_Comm comm)
{
  const struct mv__state *s = &G;
  for (size_t i = s->ncomms; i-- > 0;)
    if (s->comms[i].comm == comm)
      return &s->comms[i];
  return NULL;
}
static inline uint32_t mv__comm_id(MPI_Comm comm)
{
  const struct mv__comm_ent *e = mv__comm_find(comm);
  return e ? e->id : MV__NONE;
}
/* The slot of a datatype handle (a pointer or an integer, depending on the MPI) in G.types. */
static inline unsigned mv__type_slot(MPI_Datatype type)
{
  uint64_t k = 0;
  memcpy(&k, &type, sizeof type < sizeof k ? sizeof type : sizeof k);
  return (unsigned)((k ^ k >> 7 ^ k >> 17) % MV__TYPE_SLOTS);
}
/* p (*cap elements of elem bytes) reallocated to twice as many (16 at first); NULL if memory
 * is short, p and *cap then unchanged. */
void *mv__grow(void *p, size_t *cap, size_t elem);
void mv__comm_add(MPI_Comm comm, uint32_t id);
uint32_t mv__new_id(MPI_Comm comm, uint32_t *counter);
void mv__define_comm(MPI_Comm comm, uint32_t id, const char *name);
struct mv__win_ent *mv__win(MPI_Win win);
struct mv__req_ent *mv__req_find(MPI_Request req);
struct mv__req_ent *mv__req_add(MPI_Request req);
void mv__req_del(struct mv__req_ent *e);
void mv__tables_release(void);
/* local completion of a request-based RMA operation (Wait/Test) */
void mv__rma_local_done(uint32_t win, uint64_t match);

#endif
