/* The cost of SMPI's timer, measured by mpivet-calib: SMPI times the code between two MPI calls
 * with clock_gettime(CLOCK_THREAD_CPUTIME_ID) (SimGrid 3.32, src/xbt/xbt_os_time.c), a clock with
 * no vDSO path, so a system call: 2.1 us a read on this project's KVM guest (CLOCK_MONOTONIC
 * 0.035 us). What one read adds to the interval between two reads is measured with that clock
 * itself, so it is the figure SMPI sees; `mpivet simulate` takes it off (libmpivet-cpuclock.so). */
#include <time.h>

#include "calib.h"

#define CPUCLOCK_READS 1000

#ifndef MV_SMPI   /* under SMPI clock_gettime is the simulated clock: nothing to measure */
static double thread_cpu_s(void)
{
  struct timespec ts = {0, 0};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

/* On this rank; main.c runs it one rank after the other, as the first-touch measurement. */
double calib_cpuclock_once(void)
{
#ifdef MV_SMPI
  return 0;
#else
  double t0 = thread_cpu_s();
  for (int i = 0; i < CPUCLOCK_READS; i++)
    thread_cpu_s();
  return (thread_cpu_s() - t0) / (CPUCLOCK_READS + 1);
#endif
}
