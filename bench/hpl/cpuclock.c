/* An LD_PRELOAD shim: SMPI reads the thread's CPU clock on entry to and exit from every MPI call and
 * injection (xbt_os_threadtimer_start/stop), and CLOCK_THREAD_CPUTIME_ID has no vDSO path: a system
 * call of 1.4 us in this VM (9.5 us at load 18), about a fifth of the CPU time of the 1024-rank
 * simulation (perf, N = 2500). The shim answers it from CLOCK_MONOTONIC (vDSO, 29 ns here); every
 * other clock is passed through. Two uses:
 * - simulations that inject every modelled duration and time nothing else
 *   (smpi/simulate-computation:no, scale-1024.sh): there the clock feeds only SimGrid's "seconds
 *   were actual computation" line, never the simulated time;
 * - simulations that time the program's own code (hpl.sh's default) under chrt -f 20, where
 *   nothing preempts the simulator, so the code's wall time is its CPU time. Anywhere else the
 *   computation would count the time other processes ran. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int clock_gettime(clockid_t id, struct timespec *ts)
{
  static int (*next)(clockid_t, struct timespec *);
  if (!next)
    next = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  return next(id == CLOCK_THREAD_CPUTIME_ID ? CLOCK_MONOTONIC : id, ts);
}
