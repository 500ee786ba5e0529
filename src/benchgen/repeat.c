/* Repeated runs of one program at one process count: the run a benchmark is generated from.
 * A traced run's computation is what that one run measured, and on a shared machine a run's
 * computation moves by more than the goal between runs (xdlu at 2 ranks: one rank computed 323
 * or 373 ms from run to run, the whole run then 0.40 or 0.46 s; docs/benchgen.md). A benchmark
 * from one trace carries that run's draw; from several traces of the same calls it is generated
 * from the run of the median longest span, the run a median of application runs is compared
 * with. */
#include <stdlib.h>

#include "internal.h"
#include "mpivet/benchgen.h"
#include "mpivet/error.h"

int mv_benchgen_median_run(const struct mv_mvt *const *t, size_t n, size_t *pick,
                           struct mv_error *err)
{
  if (n == 0)
    return mv_error_set(err, MV_EINVAL, NULL, 0, 0, "no trace");
  for (size_t i = 1; i < n; i++) {
    if (t[i]->nranks != t[0]->nranks)
      return mv_error_set(err, MV_EINVAL, NULL, 0, 0, "trace %zu has %u ranks, trace 1 has %u: "
                          "repeated runs must have one process count", i + 1,
                          (unsigned)t[i]->nranks, (unsigned)t[0]->nranks);
    /* the same number of calls per rank: the order may differ (which Test call finds a
     * request done moves from run to run), so the calls are not compared one by one */
    for (uint32_t r = 0; r < t[0]->nranks; r++) {
      long a = mv__bg_class_of(t[0], r), b = mv__bg_class_of(t[i], r);
      uint64_t ca = a < 0 ? 0 : mv_mvt_class_calls(&t[0]->classes[a]);
      uint64_t cb = b < 0 ? 0 : mv_mvt_class_calls(&t[i]->classes[b]);
      if (ca != cb)
        return mv_error_set(err, MV_EINVAL, NULL, 0, 0, "trace %zu does not make the calls of "
                            "trace 1 (not a run of the same program and input): rank %u makes "
                            "%llu calls there, %llu in trace 1", i + 1, (unsigned)r,
                            (unsigned long long)cb, (unsigned long long)ca);
    }
  }
  size_t *order = malloc(n * sizeof *order);
  if (!order)
    return mv_error_set(err, MV_ENOMEM, NULL, 0, 0, "%s", mv_strerror(MV_ENOMEM));
  for (size_t i = 0; i < n; i++) {  /* by span, ties in the given order (a handful of runs) */
    size_t j = i;
    for (; j > 0 && t[order[j - 1]]->elapsed_ns > t[i]->elapsed_ns; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
  *pick = order[(n - 1) / 2];  /* the lower median for an even count: a run that happened */
  free(order);
  return 0;
}
