/* An LD_PRELOAD shim for simulations that inject every modelled duration and time nothing else
 * (smpi/simulate-computation:no, as scale-1024.sh runs HPL): SMPI still reads the thread's CPU
 * clock on entry to and exit from every MPI call and injection (xbt_os_threadtimer_start/stop),
 * and CLOCK_THREAD_CPUTIME_ID has no vDSO path: a system call of 1.4 us in this VM, about a fifth
 * of the CPU time of the 1024-rank simulation (perf, N = 2500). With simulate-computation off
 * that clock feeds only SimGrid's "seconds were actual computation" line, never the simulated
 * time. The shim answers it from CLOCK_MONOTONIC (vDSO, 29 ns here); every other clock is passed
 * through. Not for runs that simulate computation: their computation would count wall time. */
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
