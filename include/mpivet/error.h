/* Error values returned by every mpivet library function.
 * One X-macro list produces the enum and mv_strerror(); functions return 0 or a negative MV_E*.
 * Library code never prints and never exits: the command layer turns these into messages.
 * Where and why travel with the value in a struct mv_error (docs/layout.md, "Errors"). */
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
  XX(BUSY,    "in use by another mpivet process")              \
  XX(EXIST,   "already exists")

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

#include <stddef.h>

/* The context of an error: a function that can fail on its input takes a struct mv_error *
 * (NULL: the caller wants the value only), fills it and returns the same MV_E* value; src/cli
 * prints mv_error_text. */
#define MV_ERROR_PART_SIZE 512
struct mv_error {
  int code;                       /* the MV_E* value returned; 0 when nothing failed */
  char where[MV_ERROR_PART_SIZE]; /* the input: "results.csv:12:7", "calibration.json", or "" */
  char what[MV_ERROR_PART_SIZE];  /* "expected a number, got \"abc\"", "No such file or directory" */
};

/* Records code in e (when not NULL): where is file[:line[:column]] (a line or column of 0 is
 * left out; file NULL: no place), what is the printf text. Returns code. */
int mv_error_set(struct mv_error *e, int code, const char *file, long line, long column,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Nothing failed yet: code 0, where and what empty (e may be NULL). */
void mv_error_clear(struct mv_error *e);
/* For a failure nobody described since mv_error_clear (code < 0, e->code 0): records code with
 * mv_strerror's text at file (NULL: no place). Returns code. An entry point that clears e on
 * entry and ends with this always leaves a message for a failure. */
int mv_error_ensure(struct mv_error *e, int code, const char *file);
/* "where: what" (what alone without a place) in buf; returns buf. A buffer of
 * MV_ERROR_TEXT_SIZE bytes holds any text whole. */
#define MV_ERROR_TEXT_SIZE (2 * MV_ERROR_PART_SIZE + 2)
const char *mv_error_text(const struct mv_error *e, char *buf, size_t size);

#endif
