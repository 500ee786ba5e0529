/* Moving data between results.csv and the Extra-P text format (used by `mpivet convert` and
 * by `mpivet model` when it reads results.csv). */
#ifndef MPIVET_CONVERT_H
#define MPIVET_CONVERT_H

#include <stddef.h>

#include "mpivet/error.h"
#include "mpivet/extrap.h"
#include "mpivet/results.h"

struct mv_convert_options {
  const char *library;   /* keep only this library's rows; NULL: the file must hold one */
};

/* Read results.csv text (len bytes, read whole: it is gone through twice; path names it in
 * messages) into x (x initialised and empty). Kernels are "op" or "op:impl" per metric;
 * parameters "p" and, with several message sizes, "msize". Invalid rows are left out. */
int mv_convert_results_to_extrap(const char *path, const char *text, size_t len,
                                 const struct mv_convert_options *opt, struct mv_extrap *x,
                                 struct mv_error *e);
/* Write x as results.csv rows (run 0, engine "extrap", rep = index of the value at its point). */
int mv_convert_extrap_to_results(const struct mv_extrap *x, struct mv_results_writer *w,
                                 struct mv_error *e);

#endif
