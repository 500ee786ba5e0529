/* A small streaming JSON writer: objects, arrays, strings with escaping, numbers that
 * round-trip (%.17g, null for NaN/inf). Commas and nesting are tracked for the caller. */
#ifndef MPIVET_JSON_H
#define MPIVET_JSON_H

#include <stdio.h>

#define MV_JSON_DEPTH 32

struct mv_json {
  FILE *fp;
  int depth;
  int pretty;
  int count[MV_JSON_DEPTH];   /* items written at each level */
  int after_key;
};

void mv_json_init(struct mv_json *j, FILE *fp, int pretty);
void mv_json_object_begin(struct mv_json *j);
void mv_json_object_end(struct mv_json *j);
void mv_json_array_begin(struct mv_json *j);
void mv_json_array_end(struct mv_json *j);
void mv_json_key(struct mv_json *j, const char *key);
void mv_json_string(struct mv_json *j, const char *s);   /* NULL writes null */
void mv_json_number(struct mv_json *j, double v);
void mv_json_int(struct mv_json *j, long long v);
void mv_json_bool(struct mv_json *j, int v);
void mv_json_null(struct mv_json *j);
/* Shorthands for "key": value inside an object. */
void mv_json_kv_string(struct mv_json *j, const char *key, const char *s);
void mv_json_kv_number(struct mv_json *j, const char *key, double v);
void mv_json_kv_int(struct mv_json *j, const char *key, long long v);
/* Ends the document with a newline; returns MV_EIO when the stream had an error. */
int mv_json_finish(struct mv_json *j);

#endif
