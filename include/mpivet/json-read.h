/* A small JSON reader (RFC 8259) into a tree, for input files such as Extra-P's JSON. Strings
 * are UTF-8 with escapes decoded (\u0000 is refused, so every string is a C string); numbers
 * are doubles; nesting is limited to MV_JREAD_DEPTH so that hostile input cannot exhaust the
 * stack. Ownership: mv_jread_parse fills *out, mv_jval_release frees it. */
#ifndef MPIVET_JSON_READ_H
#define MPIVET_JSON_READ_H

#include <stddef.h>

#define MV_JREAD_DEPTH 64

enum mv_jtype { MV_JNULL, MV_JBOOL, MV_JNUMBER, MV_JSTRING, MV_JARRAY, MV_JOBJECT };

struct mv_jval {
  enum mv_jtype type;
  double num;               /* MV_JNUMBER; MV_JBOOL: 0 or 1 */
  char *str;                /* MV_JSTRING */
  size_t n;                 /* elements of an array or members of an object */
  struct mv_jval *items;    /* [n]: array elements or member values */
  char **keys;              /* [n]: member names (MV_JOBJECT) */
};

/* Parses exactly one JSON value (surrounding whitespace allowed). Returns 0, MV_ENOMEM or
 * MV_EPARSE with *at set to the offset of the offending byte and *what to what was expected
 * (a static string). */
int mv_jread_parse(const char *text, size_t len, struct mv_jval *out, size_t *at, const char **what);
void mv_jval_release(struct mv_jval *v);
/* Member `key` of an object (the last one when repeated, as Python's json does), NULL when
 * absent or v is not an object. */
const struct mv_jval *mv_jval_get(const struct mv_jval *v, const char *key);

#endif
