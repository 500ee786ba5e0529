/* Helpers shared by the example programs: simulated work (a sleep, which SMPI turns into
 * simulated time) and integer options read from the command line with defaults. */
#ifndef MPIVET_EXAMPLES_COMMON_H
#define MPIVET_EXAMPLES_COMMON_H

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

/* Sleep rather than spin: with more ranks than cores a spinning rank would steal the CPU of
 * the ranks whose timing the example designs. */
static inline void ex_work_ms(double ms)
{
  if (ms <= 0)
    return;
  struct timespec ts;
  ts.tv_sec = (time_t)(ms / 1000.0);
  ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000.0) * 1e6);
  nanosleep(&ts, NULL);
}

/* argv[i] as an integer, or dflt when absent. */
static inline long ex_arg(int argc, char **argv, int i, long dflt)
{
  return i < argc ? strtol(argv[i], NULL, 10) : dflt;
}

#endif
