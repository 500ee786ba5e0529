/* Where the tracer's per-rank state lives and what its clock is, per MPI flavor. Open MPI and
 * MPICH: one state per process; events are stamped with the TSC when it is invariant (one
 * instruction instead of a clock_gettime call), converted to CLOCK_MONOTONIC nanoseconds at
 * archive time from (ticks, ns) anchors written at Init, at every flush and at the close.
 * SMPI: every rank is an actor of one process, so one state per actor; the clock is the
 * simulated time in nanoseconds, which makes traces deterministic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "emit.h"
#include "state.h"

uint64_t mv__mono_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#ifdef MV_SMPI
#include <simgrid/actor.h>
#include <simgrid/engine.h>

static struct mv__state **all;
static size_t nall;
static struct mv__state *forced;  /* set while mv__each_state runs outside the actors */

struct mv__state *mv__st(void)
{
  if (forced)
    return forced;
  sg_actor_t self = sg_actor_self();
  size_t pid = self ? (size_t)sg_actor_get_pid(self) : 0;
  if (pid >= nall) {
    size_t n = pid * 2 + 16;
    struct mv__state **p = realloc(all, n * sizeof *p);
    if (!p)
      abort();
    memset(p + nall, 0, (n - nall) * sizeof *p);
    all = p, nall = n;
  }
  if (!all[pid] && !(all[pid] = calloc(1, sizeof **all)))
    abort();
  return all[pid];
}

void mv__each_state(void (*fn)(const char *), const char *arg)
{
  for (size_t i = 0; i < nall; i++)
    if (all[i]) {
      forced = all[i];
      fn(arg);
    }
  forced = NULL;
}

/* Simulated time. While the rank runs application code SMPI benchmarks it (when
 * smpi/simulate-computation is on) and injects that time at the next MPI call: end the
 * benchmark first so that the computation lands before this timestamp, as MPI_Wtime does,
 * but without MPI_Wtime's extra simulated sleep (smpi/wtime), which would shift every rank's
 * timeline by the number of events it records. */
uint64_t mv__now(void)
{
  int bench = G.active && !forced;
  if (bench)
    smpi_bench_end();
  uint64_t t = (uint64_t)llround(simgrid_get_clock() * 1e9);
  if (bench)
    smpi_bench_begin();
  return t;
}

void mv__clock_anchor(void)
{
}
#else
struct mv__state mv__state_one;

void mv__each_state(void (*fn)(const char *), const char *arg)
{
  fn(arg);
}

#if defined(__x86_64__) || defined(__i386__)
int mv__use_tsc;

/* Invariant TSC: constant rate, not stopped in idle states, so ticks map linearly to time. */
static int tsc_invariant(void)
{
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[4096];
  int ok = 0;
  while (f && !ok && fgets(line, sizeof line, f))
    if (strncmp(line, "flags", 5) == 0)
      ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc") ? 1 : -1;
  if (f)
    fclose(f);
  const char *env = getenv("MPIVET_TRACE_CLOCK");
  return ok == 1 && !(env && strcmp(env, "monotonic") == 0);
}

/* At load time, so that MPI_Init's Enter already has the right kind of stamp. */
__attribute__((constructor)) static void clock_init(void)
{
  mv__use_tsc = tsc_invariant();
}

/* A (ticks, ns) pair: ns is the midpoint of two clock reads around the tick read. */
void mv__clock_anchor(void)
{
  if (!mv__use_tsc || G.defs_fd < 0)
    return;
  uint64_t a = mv__mono_ns(), k = __rdtsc(), b = mv__mono_ns();
  mv__def("ticks %llu %llu", (unsigned long long)k, (unsigned long long)(a + (b - a) / 2));
}
#else
uint64_t mv__now(void)
{
  return mv__mono_ns();
}

void mv__clock_anchor(void)
{
}
#endif
#endif
