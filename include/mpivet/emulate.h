/* Kernel emulation for SMPI, as the HPL thesis does (chapter 4): under SMPI a compute kernel is
 * replaced by its calibrated model (the duration is injected with smpi_execute_flops_benched, the
 * kernel does not run), on a real MPI it runs untouched. Models come from the kernels.h of a
 * calibration folder (`mpivet simulate --calibration DIR` force-includes it): seconds as a
 * polynomial over mnk, mn, mk, nk, m, n, k, 1 with a noise standard deviation of the same form,
 * drawn from a per-rank seeded normal generator (MV_EMULATE_SEED, default 1, plus the rank).
 * Shared and partially shared allocations map to SMPI's, to malloc on real MPI.
 *
 *   MV_EMULATE_DGEMM(m, n, k, cblas_dgemm(...));      MV_EMULATE_DTRSM(m, n, cblas_dtrsm(...));
 *   MV_EMULATE_KERNEL(seconds, my_kernel(...));       (a user kernel with its own model)
 *   double *a = MV_SHARED_MALLOC(bytes);  MV_SHARED_FREE(a);
 *   MV_PARTIAL_SHARED_MALLOC(bytes, offsets, nblocks)  (offsets: begin/end pairs that are shared)
 *
 * The header is self-contained (static inline functions, no library to link). */
#ifndef MPIVET_EMULATE_H
#define MPIVET_EMULATE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <mpi.h>

#if defined(SMPI_SHARED_MALLOC) && !defined(MV_EMULATE_OFF)
#define MV_EMULATING 1
#else
#define MV_EMULATING 0
#endif

#ifndef MV_EMULATE_SEED
#define MV_EMULATE_SEED 1
#endif

#if MV_EMULATING
#define MV_SHARED_MALLOC(size) SMPI_SHARED_MALLOC(size)
#define MV_SHARED_FREE(p) SMPI_SHARED_FREE(p)
#define MV_PARTIAL_SHARED_MALLOC(size, offsets, n) SMPI_PARTIAL_SHARED_MALLOC((size), (offsets), (n))
#else
#define MV_SHARED_MALLOC(size) malloc(size)
#define MV_SHARED_FREE(p) free(p)
#define MV_PARTIAL_SHARED_MALLOC(size, offsets, n) ((void)(offsets), (void)(n), malloc(size))
#endif

#ifndef MV_EMULATE_HOST_FLOPS
#define MV_EMULATE_HOST_FLOPS 1e9
#endif

/* A standard normal draw from a per-rank generator (SMPI privatizes this static per rank). */
static inline double mv_emulate_normal(void)
{
  static uint64_t state;
  if (state == 0) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    state = (uint64_t)MV_EMULATE_SEED * 0x9e3779b97f4a7c15ull + (uint64_t)rank + 1;
  }
  double u[2];
  for (int i = 0; i < 2; i++) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;   /* xorshift64 */
    u[i] = ((double)(state >> 11) + 0.5) / 9007199254740992.0;
  }
  return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/* Model value over the terms mnk, mn, mk, nk, m, n, k, 1. */
static inline double mv_emulate_poly(const double *c, double m, double n, double k)
{
  return c[0] * m * n * k + c[1] * m * n + c[2] * m * k + c[3] * n * k + c[4] * m + c[5] * n +
         c[6] * k + c[7];
}

/* Inject a duration measured on the calibrated host (scaled by the simulated host's speed). */
static inline void mv_emulate_seconds(double seconds)
{
#if MV_EMULATING
  if (seconds > 0)
    smpi_execute_flops_benched(seconds * MV_EMULATE_HOST_FLOPS);
#else
  (void)seconds;
#endif
}

/* Model + noise; 1 when the kernel was emulated. */
static inline int mv_emulate_model(const double *coef, const double *sd, double m, double n, double k)
{
  if (m <= 0 || n <= 0 || k <= 0)
    return 1;   /* an empty call costs nothing */
  double t = mv_emulate_poly(coef, m, n, k), s = mv_emulate_poly(sd, m, n, k);
  if (s > 0)
    t += s * mv_emulate_normal();
  mv_emulate_seconds(t > 0 ? t : 0);
  return 1;
}

#define MV_EMULATE_KERNEL(seconds, stmt)  \
  do {                                    \
    if (MV_EMULATING)                     \
      mv_emulate_seconds(seconds);        \
    else {                                \
      stmt;                               \
    }                                     \
  } while (0)

#if MV_EMULATING && defined(MV_EMULATE_MODEL_DGEMM)
#define MV_EMULATE_DGEMM(m, n, k, stmt)                                                  \
  do {                                                                                   \
    static const double mv__c[8] = MV_EMULATE_DGEMM_COEF, mv__s[8] = MV_EMULATE_DGEMM_SD; \
    mv_emulate_model(mv__c, mv__s, (m), (n), (k));                                       \
  } while (0)
#else
#define MV_EMULATE_DGEMM(m, n, k, stmt) do { stmt; } while (0)
#endif

#if MV_EMULATING && defined(MV_EMULATE_MODEL_DTRSM)
#define MV_EMULATE_DTRSM(m, n, stmt)                                                     \
  do {                                                                                   \
    static const double mv__c[8] = MV_EMULATE_DTRSM_COEF, mv__s[8] = MV_EMULATE_DTRSM_SD; \
    mv_emulate_model(mv__c, mv__s, (m), (n), (m));                                       \
  } while (0)
#else
#define MV_EMULATE_DTRSM(m, n, stmt) do { stmt; } while (0)
#endif

#endif
