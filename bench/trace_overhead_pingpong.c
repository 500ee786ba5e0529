/* For bench/trace_overhead: with 2+ ranks, a 0-byte ping-pong between ranks 0 and 1 printing
 * the one-way latency in microseconds: ITERS round trips (after 1000 warm-up ones) in blocks of
 * 1000, the median of the block means, so that blocks hit by the OS scheduler on a loaded
 * machine (or by the tracer's buffer flushes) do not decide the figure, then the mean of all.
 * With 1 rank, the same for ITERS calls of MPI_Iprobe (the tracer's cost per call without
 * network or peer), or with a second argument "self", ITERS pairs of 0-byte MPI_Send +
 * MPI_Recv to itself (the wrapper paths a ping-pong takes), per call or per pair. A last
 * argument "tsc" (x86 only) brackets every MPI call with two TSC reads, as the tracer does,
 * and nothing else: the floor of any tracer that stamps Enter and Leave. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define STAMP() (stamps ? (void)(sink += __rdtsc()) : (void)0)
#else
#define STAMP() ((void)0)
#endif

#define BLOCK 1000

enum mode { PINGPONG, IPROBE, SELF };
static int stamps;
static volatile unsigned long long sink;
/* an MPI call, bracketed by two clock reads when stamps is set */
#define CALL(x) (STAMP(), (void)(x), STAMP())

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void steps(enum mode mode, int rank, long n)
{
  char b = 0;
  int flag;
  for (long i = 0; i < n; i++) {
    if (mode == IPROBE) {
      CALL(MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    } else if (mode == SELF || rank == 0) {
      CALL(MPI_Send(&b, 0, MPI_BYTE, mode == SELF ? 0 : 1, 0, MPI_COMM_WORLD));
      CALL(MPI_Recv(&b, 0, MPI_BYTE, mode == SELF ? 0 : 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
      CALL(MPI_Recv(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CALL(MPI_Send(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD));
    }
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
  int self = 0;
  for (int i = 2; i < argc; i++) {
    self |= strcmp(argv[i], "self") == 0;
    stamps |= strcmp(argv[i], "tsc") == 0;
  }
  enum mode mode = size > 1 ? PINGPONG : self ? SELF : IPROBE;
  double per = mode == PINGPONG ? 2 * BLOCK : BLOCK;  /* one-way trips, calls or pairs per block */
  long nblocks = iters / BLOCK > 0 ? iters / BLOCK : 1;
  double *mean = malloc((size_t)nblocks * sizeof *mean), all = 0;
  steps(mode, rank, 1000);
  MPI_Barrier(MPI_COMM_WORLD);
  for (long k = 0; k < nblocks; k++) {
    double t0 = MPI_Wtime();
    steps(mode, rank, BLOCK);
    mean[k] = (MPI_Wtime() - t0) / per * 1e6;
    all += mean[k];
  }
  qsort(mean, (size_t)nblocks, sizeof *mean, cmp);
  if (rank == 0)
    printf("%.4f %.4f\n", mean[nblocks / 2], all / (double)nblocks);
  free(mean);
  MPI_Finalize();
  return 0;
}
