/* What the benchgen test patterns share: simulated computation and the start of main (MPI_Init,
 * rank, size, the iteration count from the command line). Included by each pattern program. */
#ifndef BENCHGEN_PATTERN_H
#define BENCHGEN_PATTERN_H

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

/* Computation of us microseconds: under SMPI a simulated sleep, which advances simulated time
 * even with smpi/simulate-computation:no (smpi_execute then adds nothing). */
static inline void work_us(double us)
{
  struct timespec ts = {0, (long)(us * 1e3)};
  nanosleep(&ts, NULL);
}

/* MPI_Init, then this rank and the size of MPI_COMM_WORLD; returns argv[1] as a count, or def. */
static inline long pattern_start(int *argc, char ***argv, int *rank, int *size, long def)
{
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  return *argc > 1 ? atol((*argv)[1]) : def;
}

#endif
