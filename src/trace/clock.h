/* The tracer's clocks: event time stamps (TSC ticks or ns), the fast path's clock, the anchor
 * that pairs them with CLOCK_MONOTONIC (clock.c) and the alignment with rank 0 (clocksync.c). */
#ifndef MPIVET_TRACE_CLOCK_H
#define MPIVET_TRACE_CLOCK_H

#include <stdint.h>

/* Event time stamps: TSC ticks or ns (converted with the anchors at archive time). */
uint64_t mv__mono_ns(void);
#if defined(MV_SMPI) || !(defined(__x86_64__) || defined(__i386__))
uint64_t mv__now(void);
#else
#include <x86intrin.h>
extern int mv__use_tsc;
static inline uint64_t mv__now(void)
{
  return mv__use_tsc ? __rdtsc() : mv__mono_ns();
}
#endif
/* The fast path's clock (hooks.h, mv__fast_begin): G.fast is only set when it is mv__now's. */
#if defined(MV_SMPI) || !(defined(__x86_64__) || defined(__i386__))
#define mv__fast_now() mv__now()
#define mv__fast_clock_ok() 1
#else
#define mv__fast_now() __rdtsc()
#define mv__fast_clock_ok() mv__use_tsc
#endif
/* Writes a "ticks T NS" line pairing the event clock with CLOCK_MONOTONIC (if they differ). */
void mv__clock_anchor(void);

/* clock alignment with rank 0 (clocksync.c): writes "<tag> <local ns> <offset ns>" and an anchor */
void mv__clock_sync(const char *tag);

#endif
