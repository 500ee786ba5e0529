/* The engine facts table (include/mpivet/engine.h): the one place that knows what an engine
 * name in a launch spec or in results.csv's engine column stands for. */
#include "mpivet/engine.h"

#include <stddef.h>
#include <string.h>

static const struct mv_engine_facts engines[] = {
  /* Real MPI: repetitions and launches vary (5 launches of 20 repetitions feed the rank-sum
   * tests); memory per rank is measured. */
  {.name = "mpirun", .simulated = 0, .deterministic = 0, .measures_memory = 1, .default_runs = 5,
   .default_reps = 20, .default_np = "2,4,8"},
  {.name = "srun", .simulated = 0, .deterministic = 0, .measures_memory = 1, .default_runs = 5,
   .default_reps = 20, .default_np = "2,4,8"},
  /* Simulated, so deterministic (one launch of 3 repetitions says all), and every rank lives
   * in one simulator process: no allocation belongs to a rank, memory is not measured. */
  {.name = "smpi", .simulated = 1, .deterministic = 1, .measures_memory = 0, .default_runs = 1,
   .default_reps = 3, .default_np = "16:1024"},
};

const struct mv_engine_facts *mv_engine_facts(const char *engine)
{
  for (size_t i = 0; engine && i < sizeof engines / sizeof engines[0]; i++)
    if (strcmp(engines[i].name, engine) == 0)
      return &engines[i];
  return NULL;
}
