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
#define MV_MVT_VERSION 5
#define MV_MVT_VERSION_STR "5"
#define MV_MVT_FILE "compressed.mvt"

/* The fields an operation can have, one letter each, written as varints in the order its kind
 * lists them: c the symbolic communicator (creation number, see docs), p the peer's rank in c
 * minus the caller's, modulo the size, in -size/2..size/2 (zigzag, shifted left by one; bit 0
 * set: an absolute rank in an unknown communicator), t the tag, b bytes (sent, or the only
 * size), r bytes received, s the symbolic request (lowest free slot), o the root's rank in c + 1
 * (0: none), y and x the datatype and reduction (codes of mv_mvt_type_name, mv_mvt_redop_name),
 * w the symbolic window (creation number), f flags (MV_MVT_ALL_TARGETS, MV_MVT_EXCLUSIVE; for VEC
 * 0 the counts sent, 1 received), n a number of members, k a raw event kind. */
#define MV_MVT_ALL_TARGETS 1u   /* SYNC: every target (lock_all, unlock_all, flush_all...) */
#define MV_MVT_EXCLUSIVE 2u     /* SYNC of MPI_Win_lock: an exclusive lock */
#define MV_MVT_MAXF 7

/* Operations inside a call signature: MV_MVT_OPS(name, fields). The function of the call says
 * which MPI call it was (MPI_Win_post or MPI_Win_start for GROUP, MPI_Win_lock or
 * MPI_Win_flush for SYNC, MPI_Iallreduce for ICOLL...). */
#define MV_MVT_OPS(X)                                                                        \
  X(SEND, "cptb")       /* blocking send part (Send, Sendrecv) */                             \
  X(RECV, "cptb")       /* blocking receive part, actual source */                            \
  X(ISEND, "cptbs")     /* Isend, or Start of a persistent send */                            \
  X(IRECV, "cptbs")     /* Irecv or Start of a persistent receive; fields from its completion */ \
  X(DONE, "s")          /* a request completed by this Wait/Test call */                      \
  X(COLL, "cobryx")     /* a blocking collective, bytes of this rank */                       \
  X(LOST, "s")          /* a receive request never completed/cancelled */                     \
  X(OTHER, "k")         /* a traced event benchgen does not replay */                         \
  X(ICOLL, "cobryxs")   /* a non-blocking collective started; fields from its completion */   \
  X(WIN, "cw")          /* a window created or freed (c: its communicator) */                 \
  X(EPOCH, "cw")        /* fence, complete, wait, a Win_test that found the epoch ended */    \
  X(GROUP, "cwp")       /* a member of the post/start group (c = 0: world ranks) */           \
  X(SYNC, "cwpf")       /* lock, unlock, flush (local), Win_sync (c: the window's) */         \
  X(PUT, "cwpby")       /* MPI_Put */                                                         \
  X(GET, "cwpby")       /* MPI_Get (b: bytes received) */                                     \
  X(ACC, "cwpbryx")     /* Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap */       \
  X(VEC, "fnb")         /* after a v-collective's COLL (ICOLL): n members with b bytes each, in order \
                           of rank from the caller's (wrapping): its per-member counts */

enum mv_mvt_op {
#define MV_MVT_X(name, fields) MV_MVT_OP_##name,
  MV_MVT_OPS(MV_MVT_X)
#undef MV_MVT_X
  MV_MVT_OP_COUNT
};

/* The field letters of operation kind op, in order; NULL when op is not a kind. */
static inline const char *mv_mvt_op_fields(unsigned op)
{
#define MV_MVT_X(name, fields) fields,
  static const char *const f[MV_MVT_OP_COUNT] = {MV_MVT_OPS(MV_MVT_X)};
#undef MV_MVT_X
  return op < MV_MVT_OP_COUNT ? f[op] : NULL;
}

/* Number of varint fields after the kind of each operation, -1 for an unknown kind. */
static inline int mv_mvt_op_nfields(unsigned op)
{
  const char *f = mv_mvt_op_fields(op);
  return f ? (int)strlen(f) : -1;
}

/* Predefined datatypes and reduction operations, by name without "MPI_": code 0 is none
 * (no datatype or operation), 1 a derived datatype or user-defined operation, 2 + i the i-th
 * name. The tracer maps handles with them (hooks-coll.c), benchgen emits "MPI_" name. */
#define MV_MVT_TYPES(X) X(BYTE) X(CHAR) X(SIGNED_CHAR) X(UNSIGNED_CHAR) X(SHORT) \
  X(UNSIGNED_SHORT) X(INT) X(UNSIGNED) X(LONG) X(UNSIGNED_LONG) X(LONG_LONG)               \
  X(UNSIGNED_LONG_LONG) X(FLOAT) X(DOUBLE) X(LONG_DOUBLE) X(WCHAR) X(INT8_T) X(INT16_T)    \
  X(INT32_T) X(INT64_T) X(UINT8_T) X(UINT16_T) X(UINT32_T) X(UINT64_T) X(C_BOOL)          \
  X(C_FLOAT_COMPLEX) X(C_DOUBLE_COMPLEX) X(AINT) X(OFFSET) X(COUNT) X(PACKED) X(2INT)     \
  X(FLOAT_INT) X(DOUBLE_INT) X(LONG_INT) X(SHORT_INT) X(LONG_DOUBLE_INT) X(CHARACTER)     \
  X(INTEGER) X(REAL) X(DOUBLE_PRECISION) X(LOGICAL) X(COMPLEX) X(DOUBLE_COMPLEX)          \
  X(2INTEGER) X(2REAL) X(2DOUBLE_PRECISION)
#define MV_MVT_REDOPS(X) X(SUM) X(MAX) X(MIN) X(PROD) X(LAND) X(BAND) X(LOR) X(BOR) X(LXOR) \
  X(BXOR) X(MAXLOC) X(MINLOC) X(REPLACE) X(NO_OP)
#define MV_MVT_NONE 0
#define MV_MVT_USER 1

#define MV_MVT_STR(n) #n,
/* "DOUBLE" for a named code, NULL for none, derived/user or unknown codes. */
static inline const char *mv_mvt_type_name(uint64_t code)
{
  static const char *const n[] = {MV_MVT_TYPES(MV_MVT_STR)};
  return code >= 2 && code - 2 < sizeof n / sizeof n[0] ? n[code - 2] : NULL;
}
static inline const char *mv_mvt_redop_name(uint64_t code)
{
  static const char *const n[] = {MV_MVT_REDOPS(MV_MVT_STR)};
  return code >= 2 && code - 2 < sizeof n / sizeof n[0] ? n[code - 2] : NULL;
}
#undef MV_MVT_STR

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

/* A histogram's bins carry weights relative to its fullest bin (MV_MVT_WEIGHT_MAX; each
 * non-empty bin at least 1): one byte each, the same at 10 and 10 000 calls. */
#define MV_MVT_WEIGHT_MAX 127u

/* A histogram's mean is a varint in 1/MV_MVT_MEAN_SCALE ns (a zero mean costs one byte). */
#define MV_MVT_MEAN_SCALE 16.0

/* Times that grow with the run (spans) as IEEE-754 binary32, 4 bytes little-endian:
 * within 6e-8 of the value, and the same size at every magnitude. */
static inline size_t mv_mvt_put_f32(uint8_t *p, double v)
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  for (unsigned i = 0; i < 4; i++)
    p[i] = (uint8_t)(u >> (8 * i));
  return 4;
}

/* Reads a binary32 from [*p, end); 0 and *p advanced, -1 when cut, not finite or negative. */
static inline int mv_mvt_get_f32(const uint8_t **p, const uint8_t *end, double *v)
{
  if (end - *p < 4)
    return -1;
  uint32_t u = 0;
  for (unsigned i = 0; i < 4; i++)
    u |= (uint32_t)(*p)[i] << (8 * i);
  float f;
  memcpy(&f, &u, sizeof f);
  if (!(f >= 0 && f <= 3.4e38f))
    return -1;
  *p += 4;
  *v = f;
  return 0;
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
