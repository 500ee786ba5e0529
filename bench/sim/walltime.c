/* Linked into an example for bench/sim/predict.sh (real MPI and smpicc alike): times the run
 * between MPI_Init and MPI_Finalize on rank 0, both ends after a barrier, and prints
 * "walltime X s" so that real and simulated runs compare the same span (no launcher or start-up
 * time). Uses the PMPI profiling interface, which both MPIs and SMPI provide. */
#include <mpi.h>
#include <stdio.h>

static double t0;

int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  PMPI_Barrier(MPI_COMM_WORLD);
  t0 = PMPI_Wtime();
  return rc;
}

int MPI_Finalize(void)
{
  int rank;
  PMPI_Barrier(MPI_COMM_WORLD);
  double t = PMPI_Wtime() - t0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("walltime %.6f s\n", t);
  return PMPI_Finalize();
}
