/* Internal helpers shared by the two-sample tests: the pooled, sorted sample in which every
 * value remembers which sample it came from. */
#ifndef MV_STATS_INTERNAL_H
#define MV_STATS_INTERNAL_H

#include <stddef.h>

struct mv__obs {
  double v;
  int from_x;   /* 1 for a value of x, 0 for one of y */
};

/* Pools x and y into a new array sorted by value (*out, free it). MV_EINVAL for NaN or an
 * empty sample, MV_ENOMEM. */
int mv__stats_pool(const double *x, size_t nx, const double *y, size_t ny, struct mv__obs **out);

/* End (exclusive) of the run of values equal to o[i].v in the sorted pool of n values. */
size_t mv__stats_tie_end(const struct mv__obs *o, size_t n, size_t i);

#endif
