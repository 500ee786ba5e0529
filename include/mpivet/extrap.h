/* The Extra-P text input format (PARAMETER / POINTS / REGION / METRIC / DATA), read and written
 * losslessly, and its conversion to and from results.csv rows. One "kernel" is a
 * (region, metric) pair with a list of repetition values per measurement point. */
#ifndef MPIVET_EXTRAP_H
#define MPIVET_EXTRAP_H

#include <stddef.h>

#define MV_EXTRAP_MAX_PARAMS 8

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
/* Parse a file; on error err (if non-NULL) gets "file:line:column: expected ...". */
int mv_extrap_read(struct mv_extrap *x, const char *path, char *err, size_t errsize);
/* Parse text in memory (name is used in error messages). */
int mv_extrap_parse(struct mv_extrap *x, const char *name, const char *text, size_t len,
                    char *err, size_t errsize);
/* Write to a path atomically (temporary file renamed into place), or to fp when path is NULL. */
int mv_extrap_write(const struct mv_extrap *x, const char *path, void *fp);
/* The kernel (region, metric), created when absent. */
int mv_extrap_kernel_get(struct mv_extrap *x, const char *region, const char *metric,
                         struct mv_extrap_kernel **out);
/* Index of a point (exact coordinates), adding it when absent. */
int mv_extrap_point_index(struct mv_extrap *x, const double *coords, size_t *out);
/* Append one value to a kernel at a point. */
int mv_extrap_add_value(struct mv_extrap *x, struct mv_extrap_kernel *k, size_t point, double v);

#endif
