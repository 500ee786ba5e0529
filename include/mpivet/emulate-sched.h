/* The core's scheduler, for include/mpivet/emulate-handoff.h (-DMV_EMULATE_SCHED_TICK_SECONDS=T):
 * ranks that share a simulated core run on it one at a time, as the operating system runs them,
 * instead of SimGrid's fair sharing (each at 1/k of the speed, all at once).
 *
 * Why: with SimGrid's sharing the two ranks of a core compute side by side at half speed and reach
 * their exchanges together; on the real core they run in turns (Linux, HZ 250: a runnable rank
 * takes the core at the running one's next tick, 4 ms; bench/sim/oversub-wake.c measures a
 * uniform 0-4 ms wake-up beside a computing core-mate). So for real, a rank whose message arrives
 * while its core-mate computes waits for the tick, and a rank that holds the core runs its
 * kernels and the MPI calls between them without a switch.
 *
 * Model, per simulated host (one core): the core has an owner (a rank; none at first). A rank
 * that computes an emulated kernel takes the core first and keeps it across kernels and the MPI
 * calls between them. It hands the core to the first rank queued for it
 *  - at a tick (every T seconds of simulated time, on one grid per host) inside its kernels,
 *  - at an MPI_Iprobe or MPI_Test that found nothing (Open MPI with mpi_yield_when_idle 1 calls
 *    sched_yield when its progress found nothing),
 * and the first queued rank takes it when the owner has been out of its kernels for `grace`
 * seconds: with HPL's own code not timed (smpi/simulate-computation:no), an owner that long
 * outside its kernels waits inside MPI (a blocking call, or one this file does not see). The
 * owner then queues for the core at its next kernel. A rank takes a free core at once; taking it
 * from another rank costs the switch, `grace` seconds of the core (the hand-off that
 * bench/sim/oversub.sh measures). Ranks meet through the host's data (emulate-handoff.h's
 * mv_emulate_core); SMPI's actors run one at a time, so the state needs no lock: a queued rank
 * waits on a semaphore that every change of the state releases, and looks again. */
#ifndef MPIVET_EMULATE_SCHED_H
#define MPIVET_EMULATE_SCHED_H

#include <math.h>
#include <stdlib.h>

#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

#define MV_SCHED_MAX_QUEUE 64

struct mv_emulate_sched {
  long owner;      /* actor pid of the rank on the core, -1 none */
  int computing;   /* the owner is inside a kernel */
  double since;    /* when the owner left its last kernel (or took the core) */
  long queue[MV_SCHED_MAX_QUEUE];   /* ranks waiting for the core, first come first */
  int queued;
  sg_sem_t changed;   /* released at every change a queued rank waits for */
};

static inline void mv_sched_init(struct mv_emulate_sched *s)
{
  s->owner = -1;
  s->changed = sg_sem_init(0);
}

static inline long mv_sched_self(void)
{
  return (long)sg_actor_self_get_pid();
}

static inline void mv_sched_dequeue(struct mv_emulate_sched *s, long who)
{
  int j = 0;
  for (int i = 0; i < s->queued; i++)
    if (s->queue[i] != who)
      s->queue[j++] = s->queue[i];
  s->queued = j;
}

/* Whether the owner may lose the core to the first queued rank now: it has none, or has been out
 * of its kernels for grace seconds (to SimGrid's precision, 1 ns). */
static inline int mv_sched_idle(const struct mv_emulate_sched *s, double now, double grace)
{
  return s->owner == -1 || (!s->computing && now - s->since >= grace - 1e-9);
}

/* Wakes the queued ranks after a change of the state (a release per queued rank; a release that
 * finds no rank waiting is kept, and the next wait returns at once and looks again). */
static inline void mv_sched_signal(struct mv_emulate_sched *s)
{
  for (int i = 0; i < s->queued; i++)
    sg_sem_release(s->changed);
}

/* The owner stops computing: a queued rank starts to count the grace. */
static inline void mv_sched_stop(struct mv_emulate_sched *s)
{
  s->computing = 0;
  s->since = simgrid_get_clock();
  mv_sched_signal(s);
}

/* Takes the core for the calling rank (see the top of this file). */
static inline void mv_sched_take(struct mv_emulate_sched *s, double grace)
{
  long me = mv_sched_self();
  if (s->owner == me)
    return;
  if (s->queued == 0 && mv_sched_idle(s, simgrid_get_clock(), grace)) {
    long before = s->owner;
    s->owner = me;
    s->since = simgrid_get_clock();
    if (before == -1 || !(grace > 0))
      return;
  } else {
    if (s->queued >= MV_SCHED_MAX_QUEUE)
      abort();   /* more ranks on one core than the queue holds */
    s->queue[s->queued++] = me;
    for (;;) {
      double now = simgrid_get_clock();
      int first = s->queue[0] == me;
      if (s->owner == me)
        break;   /* handed over */
      if (first && mv_sched_idle(s, now, grace)) {
        s->owner = me;
        break;
      }
      if (first && !s->computing) {   /* wait out the owner's grace, unless the state changes */
        double left = grace - (now - s->since);
        sg_sem_acquire_timeout(s->changed, left > 1e-9 ? left : 1e-9);
      } else
        sg_sem_acquire(s->changed);
    }
    mv_sched_dequeue(s, me);
    if (!(grace > 0)) {
      s->since = simgrid_get_clock();
      return;
    }
  }
  s->computing = 1;   /* the switch to this rank: core time */
  smpi_execute_flops_benched(grace * sg_host_get_speed(sg_host_self()));
  mv_sched_stop(s);
}

/* The owner hands the core to the first queued rank (if any) and queues for it again. */
static inline void mv_sched_yield(struct mv_emulate_sched *s, double grace)
{
  if (s->owner != mv_sched_self() || s->queued == 0)
    return;
  s->owner = s->queue[0];
  s->computing = 0;
  s->since = simgrid_get_clock();
  mv_sched_signal(s);
  mv_sched_take(s, grace);
}

/* t seconds of computation at speed (flop/s) on the core: taken first, handed over at each tick
 * (multiples of tick seconds of simulated time) while a rank is queued for it. */
static inline void mv_sched_compute(struct mv_emulate_sched *s, double t, double speed, double tick,
                                    double grace)
{
  mv_sched_take(s, grace);
  for (double left = t; left > 0;) {
    double now = simgrid_get_clock();
    double next = (floor(now / tick) + 1) * tick;
    if (next - now < 1e-9)   /* on a tick already (to SimGrid's precision) */
      next += tick;
    double piece = left < next - now ? left : next - now;
    s->computing = 1;
    smpi_execute_flops_benched(piece * speed);
    left -= piece;
    if (left > 1e-12 && s->queued > 0)
      mv_sched_yield(s, grace);   /* at the tick: the queued rank's turn */
  }
  mv_sched_stop(s);
}

#endif
