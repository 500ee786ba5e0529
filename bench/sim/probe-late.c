/* Does the first MPI_Iprobe after a computation find a message that arrived during it?
 * (mpivet's HPL case: HPL's update polls for the next panel between chunks of work.)
 * 2 ranks. Each repetition, after a barrier, rank 0 sends SIZE bytes with MPI_Send while rank 1
 * computes for 2 ms (a busy loop on CLOCK_MONOTONIC), then probes with MPI_Iprobe until it finds
 * the message and receives it. Prints per size how many of the repetitions found the message at
 * the first probe and the mean number of probes. Open MPI and MPICH probe for a match before they
 * make progress, so a message whose header came in during the computation is found by the second
 * probe (mpivet/emulate-handoff.h's late probe, -DMV_EMULATE_PROBE_LATE).
 * Build and run: mpicc -O2 probe-late.c -o probe-late && mpirun -np 2 ./probe-late [REPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
  static const int sizes[] = {8, 1024, 65536, 500744};   /* the last: a panel of HPL, N = 1000 */
  int rank, reps = argc > 1 ? atoi(argv[1]) : 40;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s], first = 0;
    long probes = 0;
    char *buf = calloc((size_t)n, 1);
    if (!buf)
      MPI_Abort(MPI_COMM_WORLD, 1);
    for (int r = 0; r < reps; r++) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        MPI_Send(buf, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
      } else if (rank == 1) {
        double t0 = now();
        while (now() - t0 < 2e-3)
          ;
        int flag = 0, k = 0;
        while (!flag) {
          MPI_Iprobe(0, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
          k++;
        }
        first += k == 1;
        probes += k;
        MPI_Recv(buf, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }
    if (rank == 1)
      printf("probe-late size %d B: first probe found it %d of %d, mean probes %.2f\n", n, first,
             reps, (double)probes / reps);
    free(buf);
  }
  MPI_Finalize();
  return 0;
}
