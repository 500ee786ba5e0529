/* What the oversubscription benchmarks of bench/sim (oversub*.c) share: a busy loop the compiler
 * keeps, CLOCK_MONOTONIC in seconds (one clock for all processes of a machine), and qsort's order
 * of doubles. Each program is built alone (bench/sim/oversub.sh); this header has no object. */
#ifndef MPIVET_BENCH_OVERSUB_UTIL_H
#define MPIVET_BENCH_OVERSUB_UTIL_H

#include <time.h>

static volatile double mv_bench_sink;

static inline void mv_bench_work(long n)
{
  double x = 1.0;
  for (long i = 0; i < n; i++)
    x = x * 1.0000001 + 1e-9;
  mv_bench_sink = x;
}

static inline double mv_bench_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int mv_bench_cmp(const void *a, const void *b)
{
  double p = *(const double *)a, q = *(const double *)b;
  return (p > q) - (p < q);
}

#endif
