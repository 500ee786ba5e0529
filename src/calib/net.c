/* Network measurements of mpivet-calib between rank 0 and its peer, following SimGrid's calibration
 * procedure: ping-pong, the time spent inside Send, Isend and Recv (the receive starts once the
 * message has arrived), and the cost of one Test, Iprobe and Wtime. Other ranks only take part in
 * the barrier that starts every job. Up to MV_CALIB_WARM_MAX a job first runs one untimed ping-pong
 * of its size (a Recv job one untimed Recv, an Isend one of at most MV_CALIB_ISEND_WARM_MAX:
 * warm_up), as SimGrid's program times the iterations of a
 * loop: the barrier leaves the two ranks skewed by microseconds and the buffers cold, which made
 * single small-message timings spread over a factor of 10 (and the medians of 10 of them 30-40 %
 * off any smooth model). Until stop 30 the limit was 1 MiB: after the shuffled plan's previous job
 * (up to 1 GiB) a cold ping-pong of 0.5-4 MiB took 1.2-2 x a warm one (Open MPI 2 MiB: 347 against
 * 229 us; MPICH: 218 against 190 us), 0.97-1.18 x at 8 MiB and 0.93-0.98 x at 32 MiB (ten runs;
 * docs/simulate.md, stop 30). */
#include "calib.h"

#define TAG_DATA 11
#define TAG_UNUSED 12
#define TAG_NEVER 13          /* no message ever carries it: Iprobe finds nothing */
#define TAG_LAST 14           /* the last message of a batch of Recvs */
#define ARRIVAL_WAIT_S 2e-4   /* after Probe: lets the rest of an eager message land */
#define ISEND_QUIET_S 5e-5    /* the receiver stays out of MPI while the Isends are timed */
#define ISEND_BATCH 4                /* Isends timed together */
#define RECV_BATCH 4                 /* Recvs timed together, up to: */
#define RECV_BATCH_MAX_BYTES (64 << 10)

/* Busy wait: a sleep would deschedule the rank and leave its caches cold for the timed Recv. */
static void pause_s(double s)
{
  double end = MPI_Wtime() + s;
  while (MPI_Wtime() < end)
    ;
}

/* Seconds since t0 without the timer's own cost (which SMPI injects as smpi/wtime on top of the
 * fitted overheads: left in, it made a 0.06 us Send 0.09 us under SMPI). */
double calib_elapsed(const struct calib_run *r, double t0)
{
  double t = MPI_Wtime() - t0 - r->timer_s;
  return t > 0 ? t : 0;
}

#define TIMER_SAMPLES 101

double calib_timer_overhead(void)
{
  double v[TIMER_SAMPLES];
  for (int i = 0; i < TIMER_SAMPLES; i++) {
    double t0 = MPI_Wtime();
    v[i] = MPI_Wtime() - t0;
  }
  for (int i = 1; i < TIMER_SAMPLES; i++)   /* insertion sort: 101 values */
    for (int k = i; k > 0 && v[k] < v[k - 1]; k--) {
      double t = v[k];
      v[k] = v[k - 1], v[k - 1] = t;
    }
  return v[TIMER_SAMPLES / 2];
}

static double pingpong(struct calib_run *r, int other, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  if (!first) {
    MPI_Recv(r->recvbuf, count, MPI_BYTE, other, TAG_DATA, w, MPI_STATUS_IGNORE);
    MPI_Send(r->sendbuf, count, MPI_BYTE, other, TAG_DATA, w);
    return 0;
  }
  double t0 = MPI_Wtime();
  MPI_Send(r->sendbuf, count, MPI_BYTE, other, TAG_DATA, w);
  MPI_Recv(r->recvbuf, count, MPI_BYTE, other, TAG_DATA, w, MPI_STATUS_IGNORE);
  return calib_elapsed(r, t0) / 2;
}

/* Send timed on the sending side while the other side's receive is already posted. Send, Isend,
 * Recv and late-send jobs go from rank 0 to its peer on even repetitions and back on odd ones
 * (calib_job_reversed): copies between the two cores were 1.3-1.7 x faster one way than the other
 * in some runs of this VM (2 MiB with the receive posted, MPICH: 174 us from rank 0, 115 us from
 * rank 1; Open MPI, another run: 111 and 192 us), and the ping-pong averages both ways while
 * one-way jobs from rank 0 only saw one (docs/simulate.md, stop 30). */
static double send_side(struct calib_run *r, int other, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request req;
  if (!first) {
    MPI_Irecv(r->recvbuf, count, MPI_BYTE, other, TAG_DATA, w, &req);
    MPI_Send(NULL, 0, MPI_BYTE, other, TAG_UNUSED, w);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return 0;
  }
  MPI_Recv(NULL, 0, MPI_BYTE, other, TAG_UNUSED, w, MPI_STATUS_IGNORE);
  double t0 = MPI_Wtime();
  MPI_Send(r->sendbuf, count, MPI_BYTE, other, TAG_DATA, w);
  return calib_elapsed(r, t0);
}

/* ISEND_BATCH Isends of the same buffer in a row on the sending side, the mean per call (one
 * call lasts 0.05-2 us, bimodal, so single timings gave medians 30-50 % apart between neighbouring
 * sizes). The other side says go, then stays out of MPI for ISEND_QUIET_S before it receives them
 * one by one (one receive buffer): until stop 32 it had posted the first receive and waited in
 * MPI_Wait, so it could start on the first message (a rendezvous copy of up to 1 GiB) while the
 * sender still timed the others, and single timings of 0.08-1.0 us gave per-size medians 6-12 %
 * off the calibrated line at >= 64 KiB. An Isend only starts a transfer, as SMPI's ois charges. */
static double isend_side(struct calib_run *r, int other, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request req[ISEND_BATCH];
  if (!first) {
    MPI_Send(NULL, 0, MPI_BYTE, other, TAG_UNUSED, w);
    pause_s(ISEND_QUIET_S);
    for (int i = 0; i < ISEND_BATCH; i++)
      MPI_Recv(r->recvbuf, count, MPI_BYTE, other, TAG_DATA, w, MPI_STATUS_IGNORE);
    return 0;
  }
  MPI_Recv(NULL, 0, MPI_BYTE, other, TAG_UNUSED, w, MPI_STATUS_IGNORE);
  double t0 = MPI_Wtime();
  for (int i = 0; i < ISEND_BATCH; i++)
    MPI_Isend(r->sendbuf, count, MPI_BYTE, other, TAG_DATA, w, &req[i]);
  double t = calib_elapsed(r, t0) / ISEND_BATCH;
  for (int i = 0; i < ISEND_BATCH; i++)   /* not Waitall: gcc warns on MPI_STATUSES_IGNORE */
    MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  return t;
}

/* Recv timed on the receiving side after MPI_Probe saw the message (and a short pause for its
 * payload). Up to RECV_BATCH_MAX_BYTES the mean of RECV_BATCH Recvs, the last message probed (one
 * peer's messages arrive in order; the sender's Isends do not wait for the receives): one Recv of
 * up to 256 B takes 0.05-0.09 us, and single timings moved in steps of 0.01 us, 15-20 % (stop 32:
 * Open MPI's Recv < 64 KiB 15.8-21.6 % off in the self-check, 17 of its 32 sizes in that range). */
static double recv_side(struct calib_run *r, int other, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  int n = count <= RECV_BATCH_MAX_BYTES ? RECV_BATCH : 1;
  if (first) {
    MPI_Request req[RECV_BATCH];
    for (int i = 0; i < n; i++)
      MPI_Isend(r->sendbuf, count, MPI_BYTE, other, i == n - 1 ? TAG_LAST : TAG_DATA, w, &req[i]);
    for (int i = 0; i < n; i++)
      MPI_Wait(&req[i], MPI_STATUS_IGNORE);
    return 0;
  }
  MPI_Probe(other, TAG_LAST, w, MPI_STATUS_IGNORE);
  pause_s(ARRIVAL_WAIT_S);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; i++) {
    int tag = i == n - 1 ? TAG_LAST : TAG_DATA;
    MPI_Recv(r->recvbuf, count, MPI_BYTE, other, tag, w, MPI_STATUS_IGNORE);
  }
  return calib_elapsed(r, t0) / n;
}

/* Send timed on the sending side while the other posts its receive MV_CALIB_LATE_POST_S after it
 * said go: an eager Send returns before that, a rendezvous Send waits for it (the eager threshold;
 * Send's share of the ping-pong could not tell: 0.3-1.0 at MPICH's eager sizes, 1.2 at Open
 * MPI's 512 B, which waits for its receiver). */
static double late_send(struct calib_run *r, int other, int count, int first)
{
  MPI_Comm w = MPI_COMM_WORLD;
  if (!first) {
    MPI_Send(NULL, 0, MPI_BYTE, other, TAG_UNUSED, w);
    pause_s(MV_CALIB_LATE_POST_S);
    MPI_Recv(r->recvbuf, count, MPI_BYTE, other, TAG_DATA, w, MPI_STATUS_IGNORE);
    return 0;
  }
  MPI_Recv(NULL, 0, MPI_BYTE, other, TAG_UNUSED, w, MPI_STATUS_IGNORE);
  double t0 = MPI_Wtime();
  MPI_Send(r->sendbuf, count, MPI_BYTE, other, TAG_DATA, w);
  return calib_elapsed(r, t0);
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

/* One untimed run of the job's operation (mv_calib_warm_bytes: its size, or less for an Isend):
 * both ranks leave it in step, buffers and paths warm. A round trip for every operation but Recv,
 * which runs itself: a message taken in by MPI_Probe is received through the library's unexpected
 * path, which the round trip (receives posted before the message) leaves cold. After a round trip
 * MPICH's Recv took 0.7-1.3 us at 128 B-8 KiB (stop 31), after a Recv 0.07-0.36 us (stop 32, niced
 * run on a loaded machine); a half round trip is 0.7-1.6 us there and the Send in it 0.4-1.1 us,
 * and SMPI charges os + network + or, so the cold Recv made the ping-pong 1.3-1.8 x under SMPI.
 * Timing the Recv without MPI_Probe (tried this stop) took the posting of the receive and a pass of
 * the progress engine into it: Open MPI 0.29-0.40 us at 0-91 B against a 0.24-0.27 us half round
 * trip, whose receive is posted and polling before the message lands (ping-pong 1.4-1.6 x). */
static void warm_up(struct calib_run *r, enum mv_calib_op op, int other, int count, int first)
{
  long long bytes = mv_calib_warm_bytes(op, count);
  if (bytes < 0)
    return;
  if (op == MV_CALIB_RECV)
    recv_side(r, other, (int)bytes, first);
  else
    pingpong(r, other, (int)bytes, first);
}

int calib_job_reversed(const struct calib_job *j)
{
  int oneway = j->op == MV_CALIB_SEND || j->op == MV_CALIB_ISEND || j->op == MV_CALIB_RECV ||
               j->op == MV_CALIB_LATESEND;
  return oneway && j->rep % 2;
}

double calib_net_measure(struct calib_run *r, const struct calib_job *j)
{
  int peer = r->peer[j->pair], count = (int)j->bytes;
  if (j->op == MV_CALIB_WTIME)
    return r->rank == 0 ? wtime_cost() : 0;
  if (r->rank != 0 && r->rank != peer)
    return 0;
  /* first: the sending side; other: the rank it works with */
  int first = (r->rank == 0) != calib_job_reversed(j), other = r->rank == 0 ? peer : 0;
  if (j->op < MV_CALIB_NNET)
    warm_up(r, j->op, other, count, first);
  switch (j->op) {
  case MV_CALIB_PINGPONG: return pingpong(r, other, count, first);
  case MV_CALIB_SEND: return send_side(r, other, count, first);
  case MV_CALIB_ISEND: return isend_side(r, other, count, first);
  case MV_CALIB_RECV: return recv_side(r, other, count, first);
  case MV_CALIB_LATESEND: return late_send(r, other, count, first);
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
