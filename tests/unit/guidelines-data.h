/* Shared data helpers of the guideline unit tests: launches with three repetitions around a
 * given median, the R reference samples X and Y, and evaluation shortcuts. */
#ifndef MV_TEST_GUIDELINES_DATA_H
#define MV_TEST_GUIDELINES_DATA_H

#include <stdio.h>
#include <string.h>

#include "mpivet/dataset.h"
#include "mpivet/guidelines.h"
#include "test.h"

/* Launch medians with ties, unequal sizes (7 vs 5). In R:
 *   x <- c(1.2, 1.5, 1.5, 1.8, 2.0, 2.0, 2.4); y <- c(1.0, 1.2, 1.3, 1.5, 1.6) */
static const double X[] = {1.2, 1.5, 1.5, 1.8, 2.0, 2.0, 2.4};
static const double Y[] = {1.0, 1.2, 1.3, 1.5, 1.6};
/* Each launch has three repetitions v - 0.1, v, v + 0.25 (median v); R: xr <- c(x-0.1, x, x+0.25) */
static const double REP_OFFSET[] = {-0.1, 0, 0.25};

static inline void add_launches_on(struct mv_dataset *ds, const char *engine,
                                   const char *library, const char *op, const char *impl,
                                   long msize, const double *med, size_t n)
{
  struct mv_row row;
  mv_row_init(&row);
  snprintf(row.library, sizeof row.library, "%s", library);
  snprintf(row.engine, sizeof row.engine, "%s", engine);
  snprintf(row.op, sizeof row.op, "%s", op);
  snprintf(row.impl, sizeof row.impl, "%s", impl);
  row.nprocs = 4;
  row.msize = msize;
  for (size_t r = 0; r < n; r++)
    for (int k = 0; k < 3; k++) {
      row.run = (int)r;
      row.rep = k;
      row.value = med[r] + REP_OFFSET[k];
      ASSERT_INT_EQ(mv_dataset_add(ds, &row), 0);
    }
}

static inline void add_launches(struct mv_dataset *ds, const char *library, const char *op,
                                const char *impl, long msize, const double *med, size_t n)
{
  add_launches_on(ds, "mpirun", library, op, impl, msize, med, n);
}

static struct mv_catalog cat;   /* loaded by main() */

/* Evaluate ds with the options; returns the number of checks (all of them, not only violations). */
static inline size_t evaluate(struct mv_dataset *ds, const struct mv_gl_options *opt,
                              struct mv_gl_report *rep)
{
  mv_gl_report_init(rep);
  ASSERT_INT_EQ(mv_gl_evaluate(&cat, ds, opt, rep), 0);
  return rep->nchecks;
}

static inline const struct mv_gl_check *find_check(const struct mv_gl_report *rep,
                                                   const char *gl, long msize)
{
  for (size_t i = 0; i < rep->nchecks; i++)
    if (strcmp(rep->checks[i].guideline, gl) == 0 && rep->checks[i].msize == msize)
      return &rep->checks[i];
  return NULL;
}

static inline void options(struct mv_gl_options *opt, enum mv_correction corr)
{
  mv_gl_options_init(opt);
  opt->method = MV_TEST_NORMAL;
  opt->correction = corr;
}

/* One pattern guideline (GL12) with the default call slower than its mock-up. */
static inline void pattern_data(struct mv_dataset *ds, const double *def, size_t nd,
                                const double *mock, size_t nm)
{
  mv_dataset_init(ds);
  add_launches(ds, "L", "MPI_Allreduce", "default", 8, def, nd);
  add_launches(ds, "L", "MPI_Allreduce", "allreduce_as_reduce_bcast", 8, mock, nm);
}

#endif
