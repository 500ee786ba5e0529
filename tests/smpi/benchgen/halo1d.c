/* benchgen test pattern: a strong-scaled 1-D halo exchange (not periodic). 2^12 cells shared
 * by the ranks; each iteration every rank computes 4096 / size us of simulated time, exchanges
 * 64 doubles with each neighbour (MPI_Sendrecv, MPI_PROC_NULL beyond the ends), and every 5
 * iterations gathers every rank's cells (MPI_Allgather of 2^12 / size doubles each). Rank 0,
 * the interior and the last rank make different calls; sizes and times follow 1 / size.
 * Usage: halo1d [ITERS=20] */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#define CELLS 4096

/* Computation of us microseconds: under SMPI a simulated sleep, which advances simulated time
 * even with smpi/simulate-computation:no (smpi_execute then adds nothing). */
static void work_us(double us)
{
  struct timespec ts = {0, (long)(us * 1e3)};
  nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 20;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  int local = CELLS / size;
  double halo[64] = {0}, in[64], *mine = calloc((size_t)local, sizeof *mine);
  double *all = calloc(CELLS, sizeof *all);
  for (long i = 0; i < iters; i++) {
    work_us((double)CELLS / size);
    MPI_Sendrecv(halo, 64, MPI_DOUBLE, right, 1, in, 64, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(halo, 64, MPI_DOUBLE, left, 2, in, 64, MPI_DOUBLE, right, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (i % 5 == 4)
      MPI_Allgather(mine, local, MPI_DOUBLE, all, local, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  free(mine);
  free(all);
  MPI_Finalize();
  return 0;
}
