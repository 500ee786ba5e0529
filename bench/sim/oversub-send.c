/* A message whose transfer needs a rank that shares its core with a computing rank (mpivet's HPL
 * case: 4 ranks bound round-robin to 2 cores, ranks 0 and 2 on core 0, 1 and 3 on core 1), real
 * MPI and SMPI alike. Each repetition rank 0 sends BYTES to rank 1, contiguous or (VEC=1) every
 * other KiB as a vector type, 2-5 ms after the repetition began, while
 *   MODE 0: no rank computes (ranks 2 and 3 wait in MPI_Recv for a marker),
 *   MODE 1: rank 2, the sender's core-mate, computes C seconds,
 *   MODE 2: rank 3, the receiver's core-mate, computes C seconds,
 *   MODE 3: the receiver itself computes: it posts MPI_Irecv and computes chunks of K seconds with
 *           an MPI_Test between them (MPI makes progress only inside its calls).
 * Computation is an emulated kernel (mpivet/emulate.h: under SMPI its duration is injected).
 * Rank 1 prints the median and deciles of the time from the send's start to the message's
 * arrival (CLOCK_MONOTONIC, one clock for all processes of one machine; the simulated one under SMPI):
 * "send-beside bytes B vec V mode M: median T ...". Usage: oversub-send [BYTES=1048576] [VEC=1]
 * [MODE=1] [REPS=20] [C=0.1] [K=1e-3]. Real: mpirun --map-by core --bind-to core:overload-allowed
 * --mca mpi_yield_when_idle 1 -np 4 (bench/sim/oversub.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpivet/emulate.h"
#include "oversub-util.h"

/* One clock for all ranks: SMPI's simulated one, or CLOCK_MONOTONIC (Open MPI's MPI_Wtime has an
 * origin per process) */
static double now(void)
{
#if MV_EMULATING
  return MPI_Wtime();
#else
  return mv_bench_now();
#endif
}

static void spin(double seconds)   /* busy for seconds of wall time (real MPI only) */
{
  for (double end = now() + seconds; now() < end;)
    mv_bench_work(1000);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = argc > 1 ? atol(argv[1]) : 1L << 20;
  int vec = argc > 2 ? atoi(argv[2]) : 1, mode = argc > 3 ? atoi(argv[3]) : 1;
  int reps = argc > 4 ? atoi(argv[4]) : 20;
  double c = argc > 5 ? atof(argv[5]) : 0.1, k = argc > 6 ? atof(argv[6]) : 1e-3;
  if (size != 4 || bytes < 1024 || reps < 1 || mode < 0 || mode > 3) {
    if (rank == 0)
      fprintf(stderr, "oversub-send: 4 ranks, BYTES >= 1024, REPS >= 1, MODE 0-3\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *buf = calloc((size_t)(2 * bytes), 1);
  double *d = calloc((size_t)reps, sizeof *d);
  if (!buf || !d)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Datatype type = MPI_BYTE;
  int count = (int)bytes;
  if (vec) {   /* as HPL's panels: blocks of a matrix, one every other KiB */
    MPI_Type_vector((int)(bytes / 1024), 1024, 2048, MPI_BYTE, &type);
    MPI_Type_commit(&type);
    count = 1;
  }
  int mate = mode == 2 ? 3 : 2;   /* the core-mate that computes (modes 1 and 2) */
  for (int r = 0; r < reps; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = 0;
    if (rank == 0) {
      MV_EMULATE_KERNEL(0.002 + 0.001 * (r % 4), spin(0.002 + 0.001 * (r % 4)));
      t0 = now();
      MPI_Send(buf, count, type, 1, 1, MPI_COMM_WORLD);
      MPI_Send(&t0, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Request req;
      MPI_Irecv(buf, count, type, 0, 1, MPI_COMM_WORLD, &req);
      if (mode == 3)
        for (int done = 0; !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE))
          MV_EMULATE_KERNEL(k, spin(k));
      else
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      double arrived = now();
      MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      d[r] = arrived - t0;
    } else if ((mode == 1 || mode == 2) && rank == mate) {
      MV_EMULATE_KERNEL(c, spin(c));
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 1) {
    qsort(d, (size_t)reps, sizeof *d, mv_bench_cmp);
    printf("send-beside bytes %ld vec %d mode %d: median %.3e p10 %.3e p90 %.3e max %.3e s\n", bytes,
           vec, mode, d[reps / 2], d[reps / 10], d[reps * 9 / 10], d[reps - 1]);
  }
  if (vec)
    MPI_Type_free(&type);
  free(buf);
  free(d);
  MPI_Finalize();
  return 0;
}
