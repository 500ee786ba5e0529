/* The hand-off between MPI ranks that share a core, for include/mpivet/emulate.h (included from it
 * under SMPI when MV_EMULATE_HANDOFF_SECONDS is defined). With more ranks than cores a receiver is
 * not running when its message arrives: it must be scheduled first (bench/sim/oversub.sh measures
 * the one-way time of an empty message between two ranks on one core: 6-12 us with Open MPI's
 * mpi_yield_when_idle 1, against 0.3 us between two cores). SMPI's shared host divides the core's
 * speed between its ranks but passes a message in the calibrated network time; a larger loopback
 * latency would be multiplied by the latency factor of the message's size (2.47 for HPL's pivot
 * rows), and smpi/or is charged only for detached (eager) sends. So the cost is charged here, per
 * message and the same for every size: every completed receive (MPI_Recv, MPI_Sendrecv, MPI_Wait
 * on an MPI_Irecv request) sleeps MV_EMULATE_HANDOFF_SECONDS simulated seconds after it, through
 * the profiling interface (these definitions call PMPI_*; their names are parenthesized so that
 * mpivet/first-touch.h's function-like macros of the same calls, which call them, leave them be). Build the program with
 * -DMV_EMULATE_HANDOFF_SECONDS=S only when its ranks share cores. */
#ifndef MPIVET_EMULATE_HANDOFF_H
#define MPIVET_EMULATE_HANDOFF_H

#include <time.h>

#include <mpi.h>

int smpi_nanosleep(const struct timespec *tp, struct timespec *t);

static inline void mv_emulate_handoff(void)
{
  double s = MV_EMULATE_HANDOFF_SECONDS;
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  if (s > 0)
    smpi_nanosleep(&ts, NULL);
}

/* The MPI_Irecv requests not yet waited for, per rank (SMPI privatizes globals per rank; weak:
 * one table however many files include this). */
#define MV_HANDOFF_MAX_PENDING 256
struct mv_emulate_pending { MPI_Request r[MV_HANDOFF_MAX_PENDING]; int n; };
__attribute__((weak)) struct mv_emulate_pending mv_emulate_pending;

__attribute__((weak)) int (MPI_Recv)(void *buf, int count, MPI_Datatype type, int src, int tag,
                                   MPI_Comm comm, MPI_Status *status)
{
  int rc = PMPI_Recv(buf, count, type, src, tag, comm, status);
  mv_emulate_handoff();
  return rc;
}

__attribute__((weak)) int (MPI_Sendrecv)(const void *sbuf, int scount, MPI_Datatype stype, int dst,
                                       int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                                       int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
  int rc = PMPI_Sendrecv(sbuf, scount, stype, dst, stag, rbuf, rcount, rtype, src, rtag, comm,
                         status);
  mv_emulate_handoff();
  return rc;
}

__attribute__((weak)) int (MPI_Irecv)(void *buf, int count, MPI_Datatype type, int src, int tag,
                                    MPI_Comm comm, MPI_Request *request)
{
  int rc = PMPI_Irecv(buf, count, type, src, tag, comm, request);
  struct mv_emulate_pending *p = &mv_emulate_pending;
  if (rc == MPI_SUCCESS && p->n < MV_HANDOFF_MAX_PENDING)
    p->r[p->n++] = *request;
  return rc;
}

__attribute__((weak)) int (MPI_Wait)(MPI_Request *request, MPI_Status *status)
{
  struct mv_emulate_pending *p = &mv_emulate_pending;
  int recv = 0;
  for (int i = 0; i < p->n && !recv; i++)
    if (p->r[i] == *request) {
      p->r[i] = p->r[--p->n];
      recv = 1;
    }
  int rc = PMPI_Wait(request, status);
  if (recv)
    mv_emulate_handoff();
  return rc;
}

#endif
