/* In-memory view of results.csv grouped by configuration: one group per
 * (library, engine, op, impl, metric, msize, nprocs) with its values and launch indices.
 * Used by model, guidelines, regress and report; reading stays streaming underneath. */
#ifndef MPIVET_DATASET_H
#define MPIVET_DATASET_H

#include <stddef.h>
#include <stdint.h>
#include "mpivet/error.h"
#include "mpivet/results.h"

struct mv_group {
  char library[MV_NAME_MAX];
  char engine[MV_NAME_MAX];
  char op[MV_NAME_MAX];
  char impl[MV_NAME_MAX];
  char metric[MV_NAME_MAX];
  int64_t msize;
  int nprocs;
  size_t n;          /* valid values */
  size_t n_invalid;  /* rows with valid=0: counted, not in values */
  double *values;    /* n values in file order */
  int *runs;         /* n launch indices */
  size_t cap_;
};

struct mv_dataset {
  size_t ngroups;
  struct mv_group *groups;
  size_t cap_;
  long rows;                   /* rows read */
  size_t *index_;              /* private hash index */
  size_t index_cap_;
};

void mv_dataset_init(struct mv_dataset *ds);
void mv_dataset_release(struct mv_dataset *ds);
/* Add every row of a results.csv file. On error e gets where ("file:line:column") and what. */
int mv_dataset_load(struct mv_dataset *ds, const char *path, struct mv_error *e);
/* Add one row (valid rows into values, invalid ones counted). */
int mv_dataset_add(struct mv_dataset *ds, const struct mv_row *row);
/* Valid values in every group: 0 when the file held no measurement (header only, or every
 * row valid=0), which no verdict may be drawn from. */
size_t mv_dataset_nvalues(const struct mv_dataset *ds);
/* The group with exactly this key, or NULL. library/engine NULL match any. */
struct mv_group *mv_dataset_find(struct mv_dataset *ds, const char *library, const char *op,
                                 const char *impl, const char *metric, int64_t msize, int nprocs);
/* Sort groups by (library, engine, op, impl, metric, msize, nprocs) for stable reports. */
void mv_dataset_sort(struct mv_dataset *ds);
/* Insert g into out[0..n), kept by increasing nprocs (out has room for n + 1); returns n + 1. */
size_t mv_groups_insert_by_nprocs(const struct mv_group **out, size_t n, const struct mv_group *g);
/* The points of n groups for a fit over process counts: x[i] = nprocs, nv[i] = values, vals[i]. */
void mv_groups_points(const struct mv_group *const *gs, size_t n, double *x, size_t *nv,
                      const double **vals);

/* Per-launch location: for each distinct run in g, the median of its values (after Tukey
 * filtering with factor k when k > 0). Writes at most cap medians; returns their count or
 * a negative MV_E*. */
int mv_group_launch_medians(const struct mv_group *g, double tukey_k, double *out, size_t cap);

#endif
