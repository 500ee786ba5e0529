/* Error values returned by every mpivet library function.
 * One X-macro list produces the enum and mv_strerror(); functions return 0 or a negative MV_E*.
 * Library code never prints and never exits: the command layer turns these into messages. */
#ifndef MPIVET_ERROR_H
#define MPIVET_ERROR_H

#define MV_ERRNO_MAP(XX)                                        \
  XX(NOMEM,   "out of memory")                                  \
  XX(IO,      "input/output error")                             \
  XX(PARSE,   "malformed input")                                \
  XX(INVAL,   "invalid argument")                               \
  XX(RANGE,   "value out of range")                             \
  XX(NOENT,   "no such file or entry")                          \
  XX(UNSUP,   "not supported by this build")                    \
  XX(EXTERN,  "an external program failed")                     \
  XX(NUMERIC, "numerical failure (singular or too few points)") \
  XX(EOF_,    "unexpected end of input")                        \
  XX(BUSY,    "in use by another mpivet process")

typedef enum {
  MV_OK = 0,
#define XX(code, _) MV_E##code,
  MV__ERR_FIRST_ = -100,
  MV_ERRNO_MAP(XX)
#undef XX
  MV__ERR_END_
} mv_errno_t;

/* Human-readable text for an error value (0 or negative). Never NULL. */
const char *mv_strerror(int err);

#endif
