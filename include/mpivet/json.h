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

/* The JSON documents mpivet writes, each named by its "format" and "version" (docs/formats.md,
 * "JSON documents"): the version is raised when a key changes meaning or goes away. */
#define MV_JSON_FORMATS(XX)                                                \
  XX(META, "mpivet-meta", 3)               /* meta.json of a results folder */  \
  XX(REPORT, "mpivet-report", 2)           /* report.json of mpivet check */    \
  XX(JUDGEMENT, "mpivet-judgement", 2)     /* mpivet model --json */            \
  XX(CALIBRATION, "mpivet-calibration", 3) /* calibration.json; 3: kernel models per range of call size */ \
  XX(REGRESS, "mpivet-regress", 1)         /* mpivet regress --json */          \
  XX(ANALYSIS, "mpivet-analysis", 1)       /* mpivet analyze --json */          \
  XX(SIMULATION, "mpivet-simulation", 1)   /* mpivet simulate --json */        \
  XX(GUIDELINES, "mpivet-guidelines", 1)   /* mpivet guidelines --json */

enum mv_json_format {
#define XX(id, name, version) MV_JSON_##id,
  MV_JSON_FORMATS(XX)
#undef XX
};
enum {
#define XX(id, name, version) MV_JSON_##id##_VERSION = version,
  MV_JSON_FORMATS(XX)
#undef XX
};

/* The "format" name of a document, e.g. "mpivet-report". */
const char *mv_json_format_name(enum mv_json_format f);
/* Starts document f: mv_json_init, the top-level object and its first two keys, "format" and
 * "version". The writer adds its keys, then mv_json_object_end and mv_json_finish. */
void mv_json_document_begin(struct mv_json *j, FILE *fp, int pretty, enum mv_json_format f);
/* Ends the document with a newline; returns MV_EIO when the stream had an error. */
int mv_json_finish(struct mv_json *j);

#endif
