/* Network measurements of mpivet-calib between rank 0 and its peer, following SimGrid's calibration
 * procedure: ping-pong, the time spent inside Send, Isend and Recv (the receive starts once the
 * message has arrived), and the cost of one Test, Iprobe and Wtime. Other ranks only take part in
 * the barrier that starts every job. */
#include <time.h>

#include "calib.h"

#define TAG_DATA 11
#define TAG_UNUSED 12
#define TAG_NEVER 13          /* no message ever carries it: Iprobe finds nothing */
#define ARRIVAL_WAIT_S 2e-4   /* after Probe: lets the rest of an eager message land */

static void pause_s(double s)
{
  struct timespec ts = {0, (long)(s * 1e9)};
  nanosleep(&ts, NULL);
}

static double pingpong(struct calib_run *r, int peer, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  if (!first) {
    MPI_Recv(r->recvbuf, count, MPI_BYTE, 0, TAG_DATA, w, MPI_STATUS_IGNORE);
    MPI_Send(r->sendbuf, count, MPI_BYTE, 0, TAG_DATA, w);
    return 0;
  }
  double t0 = MPI_Wtime();
  MPI_Send(r->sendbuf, count, MPI_BYTE, peer, TAG_DATA, w);
  MPI_Recv(r->recvbuf, count, MPI_BYTE, peer, TAG_DATA, w, MPI_STATUS_IGNORE);
  return (MPI_Wtime() - t0) / 2;
}

/* Send or Isend timed on rank 0 while the peer's receive is already posted. */
static double send_side(struct calib_run *r, int peer, int count, int first, int isend)
{
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request req;
  double t = 0;
  if (!first) {
    MPI_Irecv(r->recvbuf, count, MPI_BYTE, 0, TAG_DATA, w, &req);
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_UNUSED, w);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return 0;
  }
  MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_UNUSED, w, MPI_STATUS_IGNORE);
  double t0 = MPI_Wtime();
  if (isend) {
    MPI_Isend(r->sendbuf, count, MPI_BYTE, peer, TAG_DATA, w, &req);
    t = MPI_Wtime() - t0;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(r->sendbuf, count, MPI_BYTE, peer, TAG_DATA, w);
    t = MPI_Wtime() - t0;
  }
  return t;
}

/* Recv timed on the peer after Probe saw the message (and a short pause for its payload). */
static double recv_side(struct calib_run *r, int peer, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  if (first) {
    MPI_Send(r->sendbuf, count, MPI_BYTE, peer, TAG_DATA, w);
    return 0;
  }
  MPI_Probe(0, TAG_DATA, w, MPI_STATUS_IGNORE);
  pause_s(ARRIVAL_WAIT_S);
  double t0 = MPI_Wtime();
  MPI_Recv(r->recvbuf, count, MPI_BYTE, 0, TAG_DATA, w, MPI_STATUS_IGNORE);
  return MPI_Wtime() - t0;
}

/* Test on a receive that cannot complete yet, Iprobe with nothing to find: on the peer. */
static double polling(struct calib_run *r, enum mv_calib_op op)
{
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request req;
  int flag = 0;
  MPI_Irecv(r->recvbuf, 0, MPI_BYTE, 0, TAG_DATA, w, &req);
  double t0 = MPI_Wtime();
  for (int i = 0; i < CALIB_BATCH; i++) {
    if (op == MV_CALIB_TEST)
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    else
      MPI_Iprobe(0, TAG_NEVER, w, &flag, MPI_STATUS_IGNORE);
  }
  double t = (MPI_Wtime() - t0) / CALIB_BATCH;
  MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_UNUSED, w);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  return t;
}

static double wtime_cost(void)
{
  volatile double sink = 0;
  double t0 = MPI_Wtime();
  for (int i = 0; i < CALIB_BATCH; i++)
    sink += MPI_Wtime();
  (void)sink;
  return (MPI_Wtime() - t0) / CALIB_BATCH;
}

double calib_net_measure(struct calib_run *r, const struct calib_job *j)
{
  int peer = r->peer[j->pair], first = r->rank == 0, count = (int)j->bytes;
  if (j->op == MV_CALIB_WTIME)
    return first ? wtime_cost() : 0;
  if (!first && r->rank != peer)
    return 0;
  switch (j->op) {
  case MV_CALIB_PINGPONG: return pingpong(r, peer, count, first);
  case MV_CALIB_SEND: return send_side(r, peer, count, first, 0);
  case MV_CALIB_ISEND: return send_side(r, peer, count, first, 1);
  case MV_CALIB_RECV: return recv_side(r, peer, count, first);
  case MV_CALIB_TEST:
  case MV_CALIB_IPROBE:
    if (first) {
      MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_UNUSED, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(r->sendbuf, 0, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
      return 0;
    }
    return polling(r, j->op);
  default: return 0;
  }
}
