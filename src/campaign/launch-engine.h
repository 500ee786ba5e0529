/* Internal interface between the launcher core (launch.c) and the engines (engine-*.c): each
 * engine names its launcher executable and adds the launcher's part of the command line. */
#ifndef MV_LAUNCH_ENGINE_H
#define MV_LAUNCH_ENGINE_H

#include "mpivet/launch.h"

struct mv__launch_engine {
  const char *name;           /* its facts: mv_engine_facts(name) */
  /* Launcher executable for this spec ("mpirun.openmpi", "srun", ...). */
  const char *(*launcher)(const struct mv_launch_spec *spec);
  /* MPI flavor whose programs run ("openmpi", "mpich", "smpi"). */
  const char *(*flavor)(const struct mv_launch_spec *spec);
  int (*max_np)(const struct mv_launch_spec *spec);
  /* Append the launcher and its options (everything before the program) to c. */
  int (*build)(const struct mv_launch_spec *spec, struct mv_cmdline *c);
};

extern const struct mv__launch_engine mv__engine_mpirun;
extern const struct mv__launch_engine mv__engine_srun;
extern const struct mv__launch_engine mv__engine_smpi;

/* "openmpi" unless spec->mpi says "mpich" (mpirun and srun). */
const char *mv__launch_real_flavor(const struct mv_launch_spec *spec);
/* Append every string of a NULL-terminated list (NULL list: nothing). */
int mv__cmdline_add_all(struct mv_cmdline *c, const char *const *list);

#endif
