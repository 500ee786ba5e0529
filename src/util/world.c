/* The world size a launcher started, from its environment variables (mpivet/world.h), and
 * the one message for a world of the wrong size. */
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/world.h"

int mv_world_launched(const char **var)
{
  /* innermost launcher first: mpirun or Hydra inside an allocation keeps srun's variables */
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *s = getenv(vars[i]);
    char *end;
    long n = s ? strtol(s, &end, 10) : 0;
    if (s && end != s && *end == '\0' && n > 0 && n < (1L << 30)) {
      if (var)
        *var = vars[i];
      return (int)n;
    }
  }
  if (var)
    *var = NULL;
  return 0;
}

char *mv_world_mismatch(int size, int want, const char *var, char *buf, size_t bufsize)
{
  char by[96] = "were requested";
  if (var)
    snprintf(by, sizeof by, "were started (%s=%d)", var, want);
  snprintf(buf, bufsize, "the MPI world has %d rank%s, but %d %s: %s", size, size == 1 ? "" : "s",
           want, by, size == 1 && want > 1
           ? "the launcher started independent singletons, not connected through PMI (srun needs "
             "--mpi=pmix for Open MPI, --mpi=pmi2 for MPICH)"
           : "the launcher and the MPI library disagree");
  return buf;
}
