/* HPL's pivot exchange on a shared core (mpivet's HPL case, 4 ranks on 2 cores), real MPI and
 * SMPI alike: ranks r and r ^ 2 are partners (with 4 ranks bound round-robin to 2 cores, mpirun
 * --map-by core, they share a core, as HPL's process column does in a 2 x 2 grid; with 2 ranks
 * partner r ^ 1). Each of ITERS iterations every rank computes for C seconds (real: a loop
 * calibrated alone at the start; under SMPI an emulated kernel of C seconds, mpivet/emulate.h),
 * then exchanges BYTES with its partner as HPL_pdmxswp does (MPI_Irecv, MPI_Send, MPI_Wait).
 * Rank 0 prints the median over REPS repetitions of the time per iteration, and that time minus
 * the core's computation per iteration (2 C when the partners share a core, C when each has its
 * own): "exchange-on-core T s extra X s". Usage: oversub-exchange [C=5e-6] [BYTES=2112]
 * [ITERS=500] [SHARED=1] (SHARED=0: the partners have a core each, for the extra's baseline). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpivet/emulate.h"
#include "oversub-util.h"

#define REPS 9

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double c = argc > 1 ? atof(argv[1]) : 5e-6;
  int bytes = argc > 2 ? atoi(argv[2]) : 2112, iters = argc > 3 ? atoi(argv[3]) : 500;
  int shared = argc > 4 ? atoi(argv[4]) : 1;
  int partner = size >= 4 ? rank ^ 2 : rank ^ 1;
  long n = 0;
  if (!MV_EMULATING) {   /* loop iterations for c seconds, timed alone (one rank at a time) */
    for (int r = 0; r < size; r++) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (r == rank) {
        long probe = 1000000;
        double t0 = MPI_Wtime();
        mv_bench_work(probe);
        n = (long)(c / ((MPI_Wtime() - t0) / probe));
      }
    }
  }
  char *sbuf = calloc((size_t)bytes + 1, 1), *rbuf = calloc((size_t)bytes + 1, 1);
  if (!sbuf || !rbuf)
    MPI_Abort(MPI_COMM_WORLD, 1);
  double per[REPS];
  for (int rep = 0; rep < REPS; rep++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
      MPI_Request req;
      MV_EMULATE_KERNEL(c, mv_bench_work(n));
      MPI_Irecv(rbuf, bytes, MPI_BYTE, partner, 7, MPI_COMM_WORLD, &req);
      MPI_Send(sbuf, bytes, MPI_BYTE, partner, 7, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    double t = (MPI_Wtime() - t0) / iters, tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    per[rep] = tmax;
  }
  if (rank == 0) {
    qsort(per, REPS, sizeof *per, mv_bench_cmp);
    double t = per[REPS / 2];
    printf("exchange-on-core %.4e s extra %.4e s (compute %.3e s, %d B, %d iterations, shared %d)\n",
           t, t - (shared ? 2 : 1) * c, c, bytes, iters, shared);
  }
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
