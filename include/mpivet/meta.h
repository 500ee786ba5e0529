/* meta.json, the description that goes with every results.csv (docs/formats.md, "meta.json"):
 * one schema for all writers. The head is the same everywhere:
 *   "format": "mpivet-meta", "version" (MV_JSON_META in mpivet/json.h), "mpivet_version",
 *   "mpivet_git_revision", "writer"
 * then come the writer's keys (mpivet-bench, `mpivet bench`, `mpivet check`). */
#ifndef MPIVET_META_H
#define MPIVET_META_H

#include "mpivet/json.h"

/* Write path (atomically, util/atomic.c) as one pretty-printed JSON object: the head naming
 * writer, then body(j, arg) adds the writer's keys. When body fails, nothing is written and its
 * error is returned (MV_EIO for a positive one); MV_EIO on a write error. */
int mv_meta_write(const char *path, const char *writer,
                  int (*body)(struct mv_json *j, void *arg), void *arg);

#endif
