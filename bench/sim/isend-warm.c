/* Does MPI_Isend's time depend on the message's size, or on what went through the caches before
 * it? (mpivet-calib's Isend jobs: until stop 33 each warmed up with a ping-pong of its own size up
 * to 64 MiB, and the calibrated Isend was twice as slow at 6-64 MiB as below 4 MiB and above.)
 * 2 ranks. Each repetition, after a barrier, one of five warm-ups (none; a ping-pong of 64 KiB; of
 * the message's size; of 64 MiB; both ranks write 64 MiB of their own memory, then a ping-pong of
 * 64 KiB), then as mpivet-calib's Isend job: rank 1 says go and stays out of MPI for 50 us, rank 0
 * times 4 MPI_Isend of SIZE bytes of one buffer (the mean per call), rank 1 receives them. The
 * (size, warm-up) pairs run in a shuffled order; prints the median per pair in us.
 * Build and run: mpicc -O2 isend-warm.c -o isend-warm && mpirun -np 2 ./isend-warm [REPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4
#define NSIZES 6
#define NWARM 5
#define BIG (64 << 20)
#define SMALL (64 << 10)

static const int sizes[NSIZES] = {64 << 10, 1 << 20, 4 << 20, 16 << 20, 48 << 20, 128 << 20};
static const char *const warm_names[NWARM] = {"none", "pp 64K", "pp size", "pp 64M",
                                             "wr 64M+pp 64K"};

static void pingpong(int rank, char *sbuf, char *rbuf, int count)
{
  int other = 1 - rank;
  if (rank == 0) {
    MPI_Send(sbuf, count, MPI_BYTE, other, 1, MPI_COMM_WORLD);
    MPI_Recv(rbuf, count, MPI_BYTE, other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(rbuf, count, MPI_BYTE, other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(sbuf, count, MPI_BYTE, other, 1, MPI_COMM_WORLD);
  }
}

static void warm_up(int rank, int warm, int size, char *sbuf, char *rbuf, char *other_mem,
                    int round)
{
  switch (warm) {
  case 1: pingpong(rank, sbuf, rbuf, SMALL); break;
  case 2: pingpong(rank, sbuf, rbuf, size); break;
  case 3: pingpong(rank, sbuf, rbuf, BIG); break;
  case 4:
    memset(other_mem, round & 0xff, BIG);
    pingpong(rank, sbuf, rbuf, SMALL);
    break;
  default: break;
  }
}

/* Rank 0: the mean seconds of BATCH Isends of size; rank 1: 0. */
static double isend_batch(int rank, char *sbuf, char *rbuf, int size)
{
  MPI_Request req[BATCH];
  if (rank == 1) {
    MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    double end = MPI_Wtime() + 5e-5;
    while (MPI_Wtime() < end)
      ;
    for (int i = 0; i < BATCH; i++)
      MPI_Recv(rbuf, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return 0;
  }
  MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double t0 = MPI_Wtime();
  for (int i = 0; i < BATCH; i++)
    MPI_Isend(sbuf, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req[i]);
  double t = (MPI_Wtime() - t0) / BATCH;
  for (int i = 0; i < BATCH; i++)
    MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  return t;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  int rank, np, reps = argc > 1 ? atoi(argv[1]) : 20;
  if (reps < 1)
    reps = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int cells = NSIZES * NWARM, n = cells * reps;
  char *sbuf = malloc(sizes[NSIZES - 1]), *rbuf = malloc(sizes[NSIZES - 1]), *mem = malloc(BIG);
  double *t = calloc((size_t)n, sizeof *t);
  int *order = malloc((size_t)n * sizeof *order), *count = calloc((size_t)cells, sizeof *count);
  if (np != 2 || !sbuf || !rbuf || !mem || !t || !order || !count) {
    if (rank == 0)
      fprintf(stderr, "isend-warm: needs 2 ranks and %d MiB\n",
              (sizes[NSIZES - 1] * 2 + BIG) >> 20);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(sbuf, 1, (size_t)sizes[NSIZES - 1]);   /* every page touched before any timing */
  memset(rbuf, 0, (size_t)sizes[NSIZES - 1]);
  memset(mem, 0, BIG);
  unsigned seed = 7;   /* the same shuffled order on both ranks */
  for (int i = 0; i < n; i++)
    order[i] = i % cells;
  for (int i = n - 1; i > 0; i--) {
    seed = seed * 1103515245u + 12345u;
    int k = (int)((seed >> 8) % (unsigned)(i + 1)), x = order[i];
    order[i] = order[k], order[k] = x;
  }
  for (int i = 0; i < n; i++) {
    int c = order[i], size = sizes[c / NWARM];
    MPI_Barrier(MPI_COMM_WORLD);
    warm_up(rank, c % NWARM, size, sbuf, rbuf, mem, i);
    double s = isend_batch(rank, sbuf, rbuf, size);
    t[c * reps + count[c]++] = s;
  }
  if (rank == 0) {
    printf("%10s", "bytes");
    for (int w = 0; w < NWARM; w++)
      printf(" %14s", warm_names[w]);
    printf("   (median us of %d)\n", reps);
    for (int s = 0; s < NSIZES; s++) {
      printf("%10d", sizes[s]);
      for (int w = 0; w < NWARM; w++) {
        double *v = t + (s * NWARM + w) * reps;
        qsort(v, (size_t)reps, sizeof *v, by_value);
        printf(" %14.3f", 1e6 * v[reps / 2]);
      }
      printf("\n");
    }
  }
  free(count);
  free(order);
  free(t);
  free(mem);
  free(rbuf);
  free(sbuf);
  MPI_Finalize();
  return 0;
}
