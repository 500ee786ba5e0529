/* Recording: events into the rank's raw buffer (encoded as rawfmt.h says) and its raw files,
 * the late records of a call, and the definitions side file (rawlog.c, runtime.c). */
#ifndef MPIVET_TRACE_EMIT_H
#define MPIVET_TRACE_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "rawfmt.h"
#include "state.h"

/* Events of a call share two stamps: its Enter time until PMPI returns, then its end time
 * (mv__call_after), so a call costs two clock reads however many events it records. */
#define mv__emit(...) mv__emit_at(G.tnow, __VA_ARGS__)
/* Raw files: open at init, flush and close at finalize or on a fault. */
int mv__raw_open(void);
void mv__raw_flush(void);

/* Append one record stamped t (encoded as rawfmt.h says); flushes the buffer when full.
 * Inline: with a constant kind only the stores of that kind's fields remain. */
static inline void mv__emit_z(uint64_t t, int kind, int sub, uint32_t a, uint32_t b, uint32_t c,
                              uint64_t x, uint64_t y, uint64_t z)
{
  struct mv__state *s = &G;
  if (__builtin_expect(s->failed, 0))
    return;
  if (__builtin_expect(s->n + MV__REC_MAX_WORDS > s->cap, 0))
    mv__raw_flush();
  uint64_t *w = s->buf + s->n;
  unsigned f = mv__rec_fields[kind];
  w[0] = t;
  w[1] = (uint64_t)(uint8_t)kind | (uint64_t)(uint8_t)sub << 8 | (uint64_t)a << 32;
  size_t k = 2;
  if (f & MV__F_BC)
    w[k++] = (uint64_t)b | (uint64_t)c << 32;
  if (f & MV__F_X)
    w[k++] = x;
  if (f & MV__F_Y)
    w[k++] = y;
  if (f & MV__F_Z)
    w[k++] = z;
  s->n += k;
  s->nevents++;
}
static inline void mv__emit_at(uint64_t t, int kind, int sub, uint32_t a, uint32_t b, uint32_t c,
                               uint64_t x, uint64_t y)
{
  mv__emit_z(t, kind, sub, a, b, c, x, y, 0);
}
void mv__raw_close(void);
/* Writes the pending and the in-flight call's records (runtime.c); before every later record. */
void mv__write_pending(void);
void mv__write_late(void);
/* One line into the definitions side file (written at once: survives a crash). */
void mv__def(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
