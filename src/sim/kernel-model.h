/* Internal to src/sim: the kernel fit of kernel-model.c on a given set of samples, for the
 * per-size ranges of kernel-ranges.c. */
#ifndef MV_SIM_KERNEL_MODEL_H
#define MV_SIM_KERNEL_MODEL_H

#include <stddef.h>

#include "mpivet/calib.h"

/* The samples of op on host (-1: every host) that emulate.h charges (m, n > 0), copied with
 * their durations into *s and *y (the caller frees both). MV_ENOMEM. */
int mv__kernel_samples(const struct mv_calib_data *d, enum mv_calib_op op, int host,
                       struct mv_calib_sample **s, double **y, size_t *n);
/* km's family (falling back when the samples cannot identify it) and noise fitted on the n
 * samples; s and y are reordered (stalls dropped, the kept ones first, km->n of them). */
int mv__kernel_fit_samples(struct mv_kernel_model *km, struct mv_calib_sample *s, double *y, size_t n);

#endif
