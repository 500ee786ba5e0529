/* Ranks that share a core, and the late probe, for include/mpivet/emulate.h (included from it
 * under SMPI when MV_EMULATE_HANDOFF_SECONDS, MV_EMULATE_WAKE_QUANTILES, MV_EMULATE_SPIN_SECONDS,
 * MV_EMULATE_SCHED_TICK_SECONDS or MV_EMULATE_PROBE_LATE is defined). With more ranks than cores
 * a receiver is not running when its message arrives: it must be scheduled first.
 *
 * The core's scheduler (-DMV_EMULATE_SCHED_TICK_SECONDS=T, since stop 33; mpivet/emulate-sched.h)
 * replaces the wake-up and the waiter's spin below (they are off with it): the ranks of a core
 * take turns on it as the operating system gives them, and a switch costs the hand-off. With it,
 * -DMV_EMULATE_COPY charges the receiver's copy of a message as core time (below, at
 * mv_emulate_copied), and the sender's packing of a non-contiguous one (mv_emulate_packed).
 * HPL 2 x 2 on 2 cores: within 10 % with both, 10-16 % fast with the models of stops 29-31
 * (docs/simulate.md, stop 33).
 *
 * The hand-off (-DMV_EMULATE_HANDOFF_SECONDS=S): bench/sim/oversub.sh measures the one-way time of
 * an empty message between two ranks on one core (6-12 us with Open MPI's mpi_yield_when_idle 1
 * on stop 25-30's VM, 2.0-2.1 us on stop 31's; 0.3 us between two cores). SMPI's shared host
 * divides the core's speed between its ranks but passes a message in the calibrated network time;
 * a larger loopback latency would be multiplied by the latency factor of the message's size (2.47
 * for HPL's pivot rows), and smpi/or
 * is charged only for detached (eager) sends. So the cost is charged here, per message and the
 * same for every size: every completed receive (MPI_Recv, MPI_Sendrecv, MPI_Wait on an MPI_Irecv
 * request) computes S seconds of the receiver's core after it (the switch to the receiver is
 * the core's time: two ranks of one core that receive at once pay it one after the other, as
 * the core switches to each in turn; until stop 29 it was a sleep, paid in parallel), through
 * the profiling interface (these
 * definitions call PMPI_*; their names are parenthesized so that mpivet/first-touch.h's
 * function-like macros of the same calls, which call them, leave them be).
 *
 * The wake-up (-DMV_EMULATE_WAKE_QUANTILES=q0,q10,...,q100, seconds): when the message arrives
 * while a rank that shares the receiver's core computes, the receiver runs only when the
 * scheduler takes the core from that rank (a tick of the kernel's scheduler, 4 ms at HZ 250) or
 * when that rank itself enters MPI and yields. bench/sim/oversub-wake.c measures the delay (the
 * deciles of its distribution, for this argument). Under SMPI a receive that had to wait for its
 * message (none had arrived when it was called: MPI_Iprobe, MPI_Test) and completes while another
 * rank of the same simulated host is inside an emulated kernel (mpivet/emulate.h's
 * mv_emulate_seconds) waits on (so does a rank that polled: MPI_Iprobe or MPI_Test on a receive
 * that found nothing, no emulated kernel, then one that found its message: HPL's broadcasts): a delay drawn from the deciles (linear between them), cut short
 * when no rank of the host computes any more. A receive that waited while no rank of its host
 * computed is charged the hand-off; one that did not wait, nothing (without the wake-up model
 * every receive is charged the hand-off). The ranks of a host meet in the host's user data (sg_host_get_data: SMPI ranks are
 * threads of one process, and the program's globals are private per rank). Computation that
 * SMPI times itself (not emulated) is not seen as computing.
 *
 * The waiter's spin (-DMV_EMULATE_SPIN_SECONDS=X, -DMV_EMULATE_SPIN_AFTER_SECONDS=D): a rank that
 * waits in MPI (Open MPI with mpi_yield_when_idle 1 polls and calls sched_yield) is not free for
 * the rank that computes on its core: Linux (EEVDF) runs the yielding waiter once the computing
 * rank has run for about a slice, and gives the core back only after the waiter caught up.
 * bench/sim/oversub-stretch.c measures it (a dgemm beside a yielding waiter on one core: about
 * 0.5 ms longer per call for calls of 1.4-22 ms, a few percent for calls under 0.6 ms). Under
 * SMPI a waiting rank uses no core. Model: a wait episode (a receive that had to wait: no
 * matching message when called, or a run of MPI_Iprobe/MPI_Test that found nothing) while another
 * rank of the host computes emulated kernels costs that rank min(X, C - D) once, where C is the
 * kernel time it computed beside the wait (kernels that began and ended within it), charged after
 * the kernel that passes D; one episode per host at a time, ended by the waiter's message or its
 * own kernel.
 *
 * Build the program with these options only when its ranks share cores.
 *
 * The late probe (-DMV_EMULATE_PROBE_LATE), for any placement: Open MPI's and MPICH's MPI_Iprobe
 * look for a match first and make progress after, so a message that arrived while the rank
 * computed is not found by the first probe after the computation, which only takes it in; the
 * second finds it (bench/sim/probe-late.c: after 2 ms of computation, the first probe found a
 * message that arrived meanwhile in 0 of 40 tries with MPICH and in 15 of 40 with Open MPI, those
 * whose header came during the barrier before; the second always). A rank that polls between
 * chunks of work, as HPL's update polls for the next panel, sees it one chunk later, and a
 * blocking send of the panel (rendezvous) waits that long. SMPI's MPI_Iprobe finds a message the
 * moment it is sent. Under this model an MPI_Iprobe that finds its message returns flag 0 when
 * the rank's previous MPI call of these wrappers was an MPI_Iprobe of the same source, tag and
 * communicator that found nothing and an emulated kernel ran since (so the message came after that
 * probe's progress); the next probe returns it. Calls not wrapped here (sends, collectives) are
 * not seen: a send between the two probes would have taken the message in. */
#ifndef MPIVET_EMULATE_HANDOFF_H
#define MPIVET_EMULATE_HANDOFF_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#ifndef MV_EMULATE_HANDOFF_SECONDS
#define MV_EMULATE_HANDOFF_SECONDS 0.0
#endif

/* The core's scheduler (mpivet/emulate-sched.h) replaces the wake-up and the waiter's spin: the
 * turns it gives the ranks of a core make both. */
#ifdef MV_EMULATE_SCHED_TICK_SECONDS
#define MV_EMULATE_SCHEDULING 1
#include "mpivet/emulate-sched.h"
#else
#define MV_EMULATE_SCHEDULING 0
#define MV_EMULATE_SCHED_TICK_SECONDS 1.0
#endif
/* The core's scheduler's grace and switch: the hand-off (a switch between two ranks of a core), or
 * 1 us. */
#define MV_EMULATE_SCHED_GRACE (MV_EMULATE_HANDOFF_SECONDS > 0 ? MV_EMULATE_HANDOFF_SECONDS : 1e-6)

#if defined(MV_EMULATE_SPIN_SECONDS) && !MV_EMULATE_SCHEDULING
#define MV_EMULATE_SPINNING 1
#else
#define MV_EMULATE_SPINNING 0
#define MV_EMULATE_SPIN_SECONDS 0.0
#endif
#ifndef MV_EMULATE_SPIN_AFTER_SECONDS
#define MV_EMULATE_SPIN_AFTER_SECONDS 0.0
#endif

int smpi_nanosleep(const struct timespec *tp, struct timespec *t);

static inline void mv_emulate_sleep(double s)
{
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  if (s > 0)
    smpi_nanosleep(&ts, NULL);
}

/* The ranks of one simulated host inside an emulated kernel, and the latest simulated time at
 * which one of those kernels ends if it has the core to itself. */
struct mv_emulate_core {
  int computing;
  double end;
  /* the waiter's spin: the waiting rank (actor pid, -1 none), the kernel time computed beside it
   * since its wait began, and whether its episode was charged */
  long waiter, episode;
  double beside;
  int charged;
#if MV_EMULATE_SCHEDULING
  struct mv_emulate_sched sched;   /* the core's scheduler, on hosts of one core (else SimGrid's
                                    * sharing, as without it) */
  int one_core;
#endif
};

static inline struct mv_emulate_core *mv_emulate_core(void)
{
  static struct mv_emulate_core *core;   /* private per rank */
  if (!core) {
    sg_host_t host = sg_host_self();
    core = (struct mv_emulate_core *)sg_host_get_data(host);
    if (!core) {   /* the host's first rank; lives as long as the simulation */
      core = (struct mv_emulate_core *)calloc(1, sizeof *core);
      if (!core)
        abort();
      core->waiter = -1;
#if MV_EMULATE_SCHEDULING
      mv_sched_init(&core->sched);
      core->one_core = sg_host_core_count(host) == 1;
#endif
      sg_host_set_data(host, core);
    }
  }
  return core;
}

/* Per rank (SMPI privatizes globals; weak: one for all files that include this): whether the
 * rank's last MPI_Iprobe or MPI_Test on a receive found nothing with no kernel since (it polls for
 * a message, as HPL's panel broadcasts do), and the state of its wake-up draws. */
__attribute__((weak)) int mv_emulate_polling;
__attribute__((weak)) uint64_t mv_emulate_wake_state;

#ifdef MV_EMULATE_PROBE_LATE
#define MV_EMULATE_PROBING 1
#else
#define MV_EMULATE_PROBING 0
#endif
/* Per rank, for the late probe: the rank's last wrapped MPI call was an MPI_Iprobe that found
 * nothing (missed: its source, tag and communicator), and whether an emulated kernel ran since. */
struct mv_emulate_probe { int missed, computed, src, tag; MPI_Comm comm; };
__attribute__((weak)) struct mv_emulate_probe mv_emulate_probe;

/* The waiter's spin: a wait episode of this rank begins (none is under way on its host) or ends. */
static inline void mv_emulate_wait_begin(void)
{
  if (!MV_EMULATE_SPINNING)
    return;
  struct mv_emulate_core *core = mv_emulate_core();
  if (core->waiter != -1)
    return;
  core->waiter = (long)sg_actor_self_get_pid();
  core->episode++;
  core->beside = 0;
  core->charged = 0;
}

static inline void mv_emulate_wait_end(void)
{
  if (!MV_EMULATE_SPINNING)
    return;
  struct mv_emulate_core *core = mv_emulate_core();
  if (core->waiter == (long)sg_actor_self_get_pid())
    core->waiter = -1;
}

/* An emulated kernel: flops on this rank's simulated host, seen by the other ranks of the host. */
static inline void mv_emulate_compute(double flops)
{
  struct mv_emulate_core *core = mv_emulate_core();
  mv_emulate_polling = 0;
  mv_emulate_probe.computed = mv_emulate_probe.missed;
  double speed = sg_host_get_speed(sg_host_self()), t = flops / speed;
#if MV_EMULATE_SCHEDULING
  if (core->one_core) {   /* the scheduler keeps its own state: the wake-up and spin are off */
    mv_sched_compute(&core->sched, t, speed, MV_EMULATE_SCHED_TICK_SECONDS, MV_EMULATE_SCHED_GRACE);
    return;
  }
#endif
  long episode = -1;   /* the episode of a core-mate's wait under way when the kernel starts */
  if (MV_EMULATE_SPINNING && core->waiter != -1) {
    if (core->waiter == (long)sg_actor_self_get_pid())
      core->waiter = -1;   /* the waiter computes: its episode is over */
    else
      episode = core->episode;
  }
  double end = simgrid_get_clock() + t;
  core->computing++;
  if (end > core->end)
    core->end = end;
  smpi_execute_flops_benched(flops);
  core->computing--;
  /* the same wait lasted through the kernel: the kernel counts as computed beside it (a rank that
   * probes once between its own kernels waits no time, and is not charged for) */
  if (episode >= 0 && core->waiter != -1 && core->episode == episode) {
    core->beside += t;
    if (!core->charged && core->beside > MV_EMULATE_SPIN_AFTER_SECONDS) {
      double spin = core->beside - MV_EMULATE_SPIN_AFTER_SECONDS;
      core->charged = 1;
      double x = spin < MV_EMULATE_SPIN_SECONDS ? spin : MV_EMULATE_SPIN_SECONDS;
      smpi_execute_flops_benched(x * speed);
    }
  }
}

#if defined(MV_EMULATE_WAKE_QUANTILES) && !MV_EMULATE_SCHEDULING
static const double mv_emulate_wake_q[] = {MV_EMULATE_WAKE_QUANTILES};
#define MV_EMULATE_WAKING 1
#else
static const double mv_emulate_wake_q[] = {0};
#define MV_EMULATE_WAKING 0
#endif
/* whether a receive that waits is told from one whose message had arrived */
#define MV_EMULATE_DETECTING (MV_EMULATE_WAKING || MV_EMULATE_SCHEDULING)

/* A delay drawn from the deciles (inverse distribution, linear between them). */
static inline double mv_emulate_wake_draw(void)
{
  uint64_t state = mv_emulate_wake_state;   /* its own stream: the kernels' noise keeps its own */
  int nq = (int)(sizeof mv_emulate_wake_q / sizeof *mv_emulate_wake_q);
  if (nq < 2)
    return mv_emulate_wake_q[0];
  if (state == 0) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    state = 0x2545f4914f6cdd1dull * (uint64_t)(rank + 1);
  }
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;   /* xorshift64 */
  mv_emulate_wake_state = state;
  double u = ((double)(state >> 11) + 0.5) / 9007199254740992.0 * (nq - 1);
  int i = (int)u;
  return mv_emulate_wake_q[i] + (u - i) * (mv_emulate_wake_q[i + 1] - mv_emulate_wake_q[i]);
}

/* After a completed receive; waited: no message had arrived when it was called (always, without
 * the wake-up model). */
static inline void mv_emulate_handoff_after(int waited)
{
  mv_emulate_polling = 0;
  mv_emulate_probe.missed = 0;
  if ((!MV_EMULATE_HANDOFF_SECONDS && !MV_EMULATE_WAKING) || MV_EMULATE_SCHEDULING)
    return;   /* the late probe alone, or the scheduler (it charges the switches) */
  if (!waited)
    return;
  struct mv_emulate_core *core = MV_EMULATE_WAKING ? mv_emulate_core() : NULL;
  if (!core || core->computing == 0) {   /* core time: two hand-offs on one core queue */
    if (MV_EMULATE_HANDOFF_SECONDS > 0)
      smpi_execute_benched(MV_EMULATE_HANDOFF_SECONDS);
    return;
  }
  double now = simgrid_get_clock(), until = now + mv_emulate_wake_draw(), step = 1e-7;
  /* Sleep to the kernels' end, or to until (to SimGrid's precision: its clock lands a few ulps
   * short of a sleep's end, and a sleep under 1 ns is none). */
  while (core->computing > 0 && until - now > 1e-9) {
    double to = core->end > now + step ? core->end : now + step;
    step *= 2;   /* a kernel that shared the core ends after its estimate */
    mv_emulate_sleep((to < until ? to : until) - now);
    now = simgrid_get_clock();
  }
}

/* The core's scheduler (mpivet/emulate-sched.h): a poll that found nothing yields the core. */
static inline void mv_emulate_poll_missed(void)
{
#if MV_EMULATE_SCHEDULING
  struct mv_emulate_core *core = mv_emulate_core();
  if (core->one_core)
    mv_sched_yield(&core->sched, MV_EMULATE_SCHED_GRACE);
#endif
}

/* Whether a receive from src/tag will wait: no matching message has arrived (under the wake-up
 * model only; MPI_Iprobe costs smpi/iprobe, a few ns calibrated). */
static inline int mv_emulate_will_wait(int src, int tag, MPI_Comm comm)
{
  int flag = 0;
  if (!MV_EMULATE_DETECTING)
    return 1;
  if (src == MPI_PROC_NULL)
    return 0;
  PMPI_Iprobe(src, tag, comm, &flag, MPI_STATUS_IGNORE);
  return !flag;
}

/* Whether no message matching src/tag has arrived (the waiter's spin only; else 0). */
static inline int mv_emulate_absent(int src, int tag, MPI_Comm comm)
{
  int flag = 0;
  if (!MV_EMULATE_SPINNING || src == MPI_PROC_NULL)
    return 0;
  PMPI_Iprobe(src, tag, comm, &flag, MPI_STATUS_IGNORE);
  return !flag;
}

/* The MPI_Irecv requests not yet waited for, per rank (SMPI privatizes globals per rank; weak:
 * one table however many files include this). */
#define MV_HANDOFF_MAX_PENDING 256
struct mv_emulate_pending { MPI_Request r[MV_HANDOFF_MAX_PENDING]; int n; };
__attribute__((weak)) struct mv_emulate_pending mv_emulate_pending;

/* Where request is in the pending table, or -1; mv_emulate_pending_drop(i) takes it out. */
static inline int mv_emulate_pending_find(MPI_Request request)
{
  for (int i = 0; i < mv_emulate_pending.n; i++)
    if (mv_emulate_pending.r[i] == request)
      return i;
  return -1;
}

static inline void mv_emulate_pending_drop(int i)
{
  mv_emulate_pending.r[i] = mv_emulate_pending.r[--mv_emulate_pending.n];
}

/* The receiver's copy (-DMV_EMULATE_COPY, with the core's scheduler): a shared-memory MPI copies
 * a message in on the receiver's core (Open MPI: one CMA copy, or the unpacking of its fragments),
 * a core its core-mate cannot use meanwhile; SMPI moves the bytes on its network model beside the
 * cores. A completed receive of B bytes computes, on the receiver's core and taken from its
 * core-mate as a kernel would be, the calibrated time inside MPI_Recv after a message of B bytes
 * arrived (mpivet-calib's recv fit, which `mpivet calibrate` writes into kernels.h as
 * MV_EMULATE_RECV_FIT: {from bytes, s, s per byte} rows, ascending). Eager messages, up to
 * MV_EMULATE_EAGER_BYTES (kernels.h too; SMPI's smpi/or charges them already), are not charged
 * again. */
#if defined(MV_EMULATE_COPY) && MV_EMULATE_SCHEDULING
#ifndef MV_EMULATE_RECV_FIT
#error "MV_EMULATE_COPY needs MV_EMULATE_RECV_FIT: the kernels.h of a calibration made since stop 33"
#endif
__attribute__((unused)) static const double mv_emulate_recv_fit[][3] = {MV_EMULATE_RECV_FIT};
#define MV_EMULATE_COPYING 1
#else
__attribute__((unused)) static const double mv_emulate_recv_fit[][3] = {{0, 0, 0}};
#define MV_EMULATE_COPYING 0
#endif
#ifndef MV_EMULATE_EAGER_BYTES
#define MV_EMULATE_EAGER_BYTES 0
#endif

/* The copy of a message of B bytes (above the eager threshold) as core time of this rank. */
static inline void mv_emulate_copy(double bytes)
{
  if (!MV_EMULATE_COPYING || bytes <= MV_EMULATE_EAGER_BYTES)
    return;
  size_t rows = sizeof mv_emulate_recv_fit / sizeof *mv_emulate_recv_fit, i = 0;
  while (i + 1 < rows && bytes >= mv_emulate_recv_fit[i + 1][0])
    i++;
  double s = mv_emulate_recv_fit[i][1] + mv_emulate_recv_fit[i][2] * bytes;
  if (s > 0)
    mv_emulate_compute(s * sg_host_get_speed(sg_host_self()));
}

static inline void mv_emulate_copied(int rc, const MPI_Status *st)
{
  int bytes = 0;
  if (MV_EMULATE_COPYING && rc == MPI_SUCCESS && PMPI_Get_count(st, MPI_BYTE, &bytes) == MPI_SUCCESS)
    mv_emulate_copy(bytes);
}

/* The sender's packing (-DMV_EMULATE_COPY too): a message of a non-contiguous type (HPL's panels
 * and row pieces: struct and vector types over the matrix) is packed by its sender, fragment by
 * fragment inside its MPI calls, on the sender's core (Open MPI; bench/sim/oversub-send.c, stop
 * 32: a 1 MiB vector type took 36 ms to send beside the sender's computing core-mate, a
 * contiguous one 0.15 ms). It is a copy of the message as the receiver's, charged before the send
 * at the same cost; contiguous data go in one copy (CMA), which the receiver pays. */
static inline void mv_emulate_packed(int count, MPI_Datatype type)
{
  int size = 0;
  MPI_Aint lb, extent, true_lb, true_extent;
  if (!MV_EMULATE_COPYING || count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
    return;
  if (true_extent != size || (count > 1 && extent != size))
    mv_emulate_copy((double)count * size);
}

__attribute__((weak)) int (MPI_Send)(const void *buf, int count, MPI_Datatype type, int dst, int tag,
                                   MPI_Comm comm)
{
  mv_emulate_packed(count, type);
  return PMPI_Send(buf, count, type, dst, tag, comm);
}

__attribute__((weak)) int (MPI_Ssend)(const void *buf, int count, MPI_Datatype type, int dst,
                                    int tag, MPI_Comm comm)
{
  mv_emulate_packed(count, type);
  return PMPI_Ssend(buf, count, type, dst, tag, comm);
}

__attribute__((weak)) int (MPI_Isend)(const void *buf, int count, MPI_Datatype type, int dst,
                                    int tag, MPI_Comm comm, MPI_Request *request)
{
  mv_emulate_packed(count, type);
  return PMPI_Isend(buf, count, type, dst, tag, comm, request);
}

__attribute__((weak)) int (MPI_Issend)(const void *buf, int count, MPI_Datatype type, int dst,
                                     int tag, MPI_Comm comm, MPI_Request *request)
{
  mv_emulate_packed(count, type);
  return PMPI_Issend(buf, count, type, dst, tag, comm, request);
}

__attribute__((weak)) int (MPI_Recv)(void *buf, int count, MPI_Datatype type, int src, int tag,
                                   MPI_Comm comm, MPI_Status *status)
{
  int waited = mv_emulate_will_wait(src, tag, comm), absent = mv_emulate_absent(src, tag, comm);
  if (absent)
    mv_emulate_wait_begin();
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  int rc = PMPI_Recv(buf, count, type, src, tag, comm, status);
  mv_emulate_copied(rc, status);
  if (absent)
    mv_emulate_wait_end();
  mv_emulate_handoff_after(waited);
  return rc;
}

__attribute__((weak)) int (MPI_Sendrecv)(const void *sbuf, int scount, MPI_Datatype stype, int dst,
                                       int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                                       int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
  int waited = mv_emulate_will_wait(src, rtag, comm), absent = mv_emulate_absent(src, rtag, comm);
  if (absent)
    mv_emulate_wait_begin();
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  mv_emulate_packed(scount, stype);
  int rc = PMPI_Sendrecv(sbuf, scount, stype, dst, stag, rbuf, rcount, rtype, src, rtag, comm,
                         status);
  mv_emulate_copied(rc, status);
  if (absent)
    mv_emulate_wait_end();
  mv_emulate_handoff_after(waited);
  return rc;
}

__attribute__((weak)) int (MPI_Irecv)(void *buf, int count, MPI_Datatype type, int src, int tag,
                                    MPI_Comm comm, MPI_Request *request)
{
  int rc = PMPI_Irecv(buf, count, type, src, tag, comm, request);
  struct mv_emulate_pending *p = &mv_emulate_pending;
  mv_emulate_probe.missed = 0;   /* a call that makes progress: it took the message in */
  if (rc == MPI_SUCCESS && p->n < MV_HANDOFF_MAX_PENDING)
    p->r[p->n++] = *request;
  return rc;
}

__attribute__((weak)) int (MPI_Wait)(MPI_Request *request, MPI_Status *status)
{
  int i = mv_emulate_pending_find(*request), recv = i >= 0;
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  if (recv)
    mv_emulate_pending_drop(i);
  if (recv && (MV_EMULATE_DETECTING || MV_EMULATE_SPINNING)) {   /* arrived already: no wait */
    int done = 0;
    int rc = PMPI_Test(request, &done, status);
    if (rc != MPI_SUCCESS)
      return rc;
    if (done) {
      mv_emulate_copied(rc, status);
      if (!MV_EMULATE_DETECTING)   /* without the wake-up model every receive pays the hand-off */
        mv_emulate_handoff_after(1);
      return rc;
    }
    mv_emulate_wait_begin();
  }
  int rc = PMPI_Wait(request, status);
  if (recv) {
    mv_emulate_copied(rc, status);
    mv_emulate_wait_end();
    mv_emulate_handoff_after(1);
  }
  return rc;
}

/* Polling: a successful MPI_Iprobe, or MPI_Test completing a receive, after one that found nothing
 * with no emulated kernel in between, is a receive that waited (wake-up model only). */
static inline void mv_emulate_polled(int found)
{
  if (!found)
    mv_emulate_polling = 1;
  else if (mv_emulate_polling) {
    mv_emulate_polling = 0;
    mv_emulate_handoff_after(1);
  }
}

/* The late probe: whether a probe that found its message must say it did not (above). */
static inline int mv_emulate_probe_hides(int src, int tag, MPI_Comm comm, int found)
{
  struct mv_emulate_probe *p = &mv_emulate_probe;
  int hide = found && p->missed && p->computed && p->src == src && p->tag == tag && p->comm == comm;
  p->missed = !found, p->computed = 0;
  p->src = src, p->tag = tag, p->comm = comm;
  return hide;   /* a hidden probe took the message in: the next one finds it */
}

__attribute__((weak)) int (MPI_Iprobe)(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  int rc = PMPI_Iprobe(src, tag, comm, flag, status);
  if (rc != MPI_SUCCESS || src == MPI_PROC_NULL)
    return rc;
  if (MV_EMULATE_PROBING && mv_emulate_probe_hides(src, tag, comm, *flag))
    *flag = 0;
  if (MV_EMULATE_DETECTING)
    mv_emulate_polled(*flag);
  if (*flag)
    mv_emulate_wait_end();
  else {
    mv_emulate_wait_begin();
    mv_emulate_poll_missed();
  }
  return rc;
}

__attribute__((weak)) int (MPI_Test)(MPI_Request *request, int *flag, MPI_Status *status)
{
  int recv = mv_emulate_pending_find(*request);
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  int rc = PMPI_Test(request, flag, status);
  mv_emulate_probe.missed = 0;
  if (recv >= 0 && rc == MPI_SUCCESS) {
    if (*flag) {
      mv_emulate_pending_drop(recv);
      mv_emulate_copied(rc, status);
    }
    if (MV_EMULATE_DETECTING)
      mv_emulate_polled(*flag);
    if (*flag)
      mv_emulate_wait_end();
    else
      mv_emulate_wait_begin();
  }
  if (rc == MPI_SUCCESS && !*flag)
    mv_emulate_poll_missed();
  return rc;
}

#endif
