/* Extra-P input: its text format (PARAMETER / POINTS / REGION / METRIC / DATA), read as
 * Extra-P 4.x reads it and written so that Extra-P reads it back losslessly, and its JSON and
 * JSON Lines formats (read only); conversion to and from results.csv rows. One "kernel" is a
 * (region, metric) pair with a list of repetition values per measurement point. */
#ifndef MPIVET_EXTRAP_H
#define MPIVET_EXTRAP_H

#include <stddef.h>

#include "mpivet/error.h"

#define MV_EXTRAP_MAX_PARAMS 4   /* Extra-P reads at most 4 parameters */

struct mv_extrap_kernel {
  char *region;          /* callpath, e.g. MPI_Bcast */
  char *metric;          /* e.g. time_s */
  size_t *nvalues;       /* [npoints] repetitions per point */
  double **values;       /* [npoints][nvalues[i]] */
};

struct mv_extrap {
  size_t nparams;
  char *params[MV_EXTRAP_MAX_PARAMS];
  size_t npoints;
  double *points;        /* [npoints * nparams], row-major */
  size_t nkernels;
  struct mv_extrap_kernel *kernels;
  size_t cap_;
};

void mv_extrap_init(struct mv_extrap *x);
void mv_extrap_release(struct mv_extrap *x);
/* Is the file Extra-P input (text, JSON or JSON Lines) rather than results.csv? Looks at the
 * first word that is not blank or a # comment: "{" or an Extra-P keyword. 0 when unreadable
 * and for anything but a regular file (a pipe is read once, by the reader: results.csv). */
int mv_extrap_sniff(const char *path);
/* The same for text read whole (a pipe read once): 1 when it is Extra-P input. */
int mv_extrap_sniff_text(const char *text, size_t len);
/* Parse a file (text, JSON or JSON Lines as Extra-P 4.x reads them); on error e (if non-NULL)
 * gets where "file:line:column" and what "expected ...". */
int mv_extrap_read(struct mv_extrap *x, const char *path, struct mv_error *e);
/* Parse text in memory (name is used in error messages); "{" first means JSON or JSON Lines. */
int mv_extrap_parse(struct mv_extrap *x, const char *name, const char *text, size_t len,
                    struct mv_error *e);
/* Write the text format to a path atomically (temporary file renamed into place), or to fp when
 * path is NULL. MV_EINVAL when Extra-P could not read it back: a point without values, more than
 * 4 parameters, a parameter name with white space, a name with a control character or with
 * leading, trailing or repeated spaces. */
int mv_extrap_write(const struct mv_extrap *x, const char *path, void *fp);
/* The kernel (region, metric), created when absent. */
int mv_extrap_kernel_get(struct mv_extrap *x, const char *region, const char *metric,
                         struct mv_extrap_kernel **out);
/* Index of a point (exact coordinates), adding it when absent. */
int mv_extrap_point_index(struct mv_extrap *x, const double *coords, size_t *out);
/* Append one value to a kernel at a point. */
int mv_extrap_add_value(struct mv_extrap *x, struct mv_extrap_kernel *k, size_t point, double v);

#endif
