/* The compressed trace format, DIR/compressed.mvt (docs/formats.md, "Compressed trace"): its
 * magic, version, operation kinds and the variable-length integer codec. The one place the
 * tracer (writer, src/trace/ctrace*.c) and mpivet benchgen (reader, src/benchgen) agree on. */
#ifndef MPIVET_TRACE_MVT_H
#define MPIVET_TRACE_MVT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MV_MVT_MAGIC "MVCT"
#define MV_MVT_TRAILER "MVCE"
#define MV_MVT_VERSION 1
#define MV_MVT_FILE "compressed.mvt"

/* Operations inside a call signature: MV_MVT_OPS(name, fields) with the fields written in
 * order after the kind. comm is the symbolic communicator (creation number, see docs), peer
 * the peer's rank in comm minus the caller's, modulo the size, in -size/2..size/2 (zigzag),
 * slot the symbolic request (lowest free slot), root the root's rank in comm (or -1). */
#define MV_MVT_OPS(X)                                                                      \
  X(SEND, "comm peer tag bytes")          /* blocking send part (Send, Sendrecv) */          \
  X(RECV, "comm peer tag bytes")          /* blocking receive part, actual source */         \
  X(ISEND, "comm peer tag bytes slot")    /* Isend, or Start of a persistent send */         \
  X(IRECV, "comm peer tag bytes slot")    /* Irecv; peer/tag/bytes from its completion */    \
  X(DONE, "slot")                         /* a request completed by this Wait/Test call */   \
  X(COLL, "comm root sent received")      /* a blocking collective, bytes of this rank */    \
  X(LOST, "slot")                         /* a receive request never completed/cancelled */  \
  X(OTHER, "kind")                        /* a traced event benchgen does not replay */

enum mv_mvt_op {
#define MV_MVT_X(name, fields) MV_MVT_OP_##name,
  MV_MVT_OPS(MV_MVT_X)
#undef MV_MVT_X
  MV_MVT_OP_COUNT
};

/* Number of varint fields after the kind of each operation. */
static inline int mv_mvt_op_nfields(unsigned op)
{
  static const unsigned char n[MV_MVT_OP_COUNT] = {4, 4, 5, 5, 1, 4, 1, 1};
  return op < MV_MVT_OP_COUNT ? n[op] : -1;
}

/* Log bins of durations: bin b > 0 holds [base^(b-1), base^b) ns, bin 0 holds 0 ns; a value
 * is replayed as its bin's geometric middle, off by at most sqrt(base) - 1 (9.5 %). */
#define MV_MVT_BIN_BASE 1.2

/* The bin of a duration in ns, below nbins. */
static inline unsigned mv_mvt_bin(uint64_t ns, unsigned nbins)
{
  if (ns == 0)
    return 0;
  unsigned k = 1;
  for (double b = MV_MVT_BIN_BASE; b <= (double)ns && k < nbins - 1; b *= MV_MVT_BIN_BASE)
    k++;
  return k;
}

/* LEB128 unsigned varint into p (10 bytes at most); returns the bytes written. */
static inline size_t mv_mvt_put(uint8_t *p, uint64_t v)
{
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

/* Reads a varint from [*p, end); 0 and *p advanced, or -1 when cut or over 64 bits. */
static inline int mv_mvt_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
  uint64_t r = 0;
  for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
    uint8_t b = *(*p)++;
    if (shift == 63 && b > 1)
      return -1;
    r |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = r;
      return 0;
    }
  }
  return -1;
}

static inline uint64_t mv_mvt_zig(int64_t v)
{
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t mv_mvt_unzig(uint64_t v)
{
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
