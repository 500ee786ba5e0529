/* The size of the MPI world a launcher started, read from the variables it gives every rank,
 * so that an MPI program can tell a connected world from independent singletons (srun without
 * the right --mpi plugin starts N one-rank worlds). libc only: used by mpivet-bench and the tracer. */
#ifndef MPIVET_WORLD_H
#define MPIVET_WORLD_H

#include <stddef.h>

/* Ranks the launcher started: Open MPI's mpirun (OMPI_COMM_WORLD_SIZE), a PMI server such as
 * MPICH's Hydra or Slurm's pmi2 plugin (PMI_SIZE), else srun's step (SLURM_STEP_NUM_TASKS); an
 * MPI launcher's own variable wins because it may run inside a Slurm step of another size.
 * 0 when no launcher says (a program started by hand, SMPI). *var names the variable (or NULL). */
int mv_world_launched(const char **var);

/* The message for a world of `size` ranks when `want` were started or requested, into buf:
 * "the MPI world has 1 rank, but 2 were started (SLURM_STEP_NUM_TASKS=2): ..." with the likely
 * cause; var NULL: `want` was requested on the command line. Returns buf. */
char *mv_world_mismatch(int size, int want, const char *var, char *buf, size_t bufsize);

#endif
