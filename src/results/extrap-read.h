/* Internal pieces shared by the Extra-P readers (text in extrap-text.c, JSON and JSON Lines in
 * extrap-json.c): the final check Extra-P's own validation makes, and the JSON entry point. */
#ifndef MV_RESULTS_EXTRAP_READ_H
#define MV_RESULTS_EXTRAP_READ_H

#include <stddef.h>

#include "mpivet/error.h"
#include "mpivet/extrap.h"

/* At least one point and one (region, metric), each with values at every point; else
 * MV_EPARSE and "name: expected ..." in e. */
int mv__extrap_complete(const struct mv_extrap *x, const char *name, struct mv_error *e);
/* JSON (Extra-P's current or legacy layout) or JSON Lines; e gets "name:line:column: ...". */
int mv__extrap_parse_json(struct mv_extrap *x, const char *name, const char *text, size_t len,
                          struct mv_error *e);

#endif
