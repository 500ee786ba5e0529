/* For bench/trace_overhead: with 2+ ranks, a 0-byte ping-pong between ranks 0 and 1 printing
 * the one-way latency in microseconds: ITERS round trips (after 1000 warm-up ones) in blocks of
 * 1000, the median of the block means, so that blocks hit by the OS scheduler on a loaded
 * machine (or by the tracer's buffer flushes) do not decide the figure, then the mean of all.
 * With 1 rank, the same for ITERS calls of MPI_Iprobe (the tracer's cost per call without
 * network or peer), or with the argument "self", ITERS pairs of 0-byte MPI_Send + MPI_Recv to
 * itself (the wrapper paths a ping-pong takes; each with an untraced PMPI_Irecv/PMPI_Isend
 * and PMPI_Wait as the other side), per call or per pair. Further arguments:
 * "tsc" (x86) brackets every MPI call with two TSC reads, as the tracer does, and nothing else
 * (the floor of any tracer that stamps Enter and Leave); "paired" alternates blocks calling
 * PMPI_* (never traced) and MPI_* (traced when the tracer is preloaded) in the same run and
 * prints the medians of both and the median of the per-pair ratios MPI/PMPI - 1 in percent
 * (after a line "# r1 r2 ..." of every pair's ratio): launches, placement and load drifts hit
 * both alike. "stencil" runs ITERS iterations of a
 * 1024^2-per-rank Jacobi stencil instead (see iteration()) in blocks of 10, times per
 * iteration in microseconds. */
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

enum mode { PINGPONG, IPROBE, SELF, STENCIL };
static int stamps;
static volatile unsigned long long sink;
/* an MPI call, bracketed by two clock reads when stamps is set */
#define CALL(x) (STAMP(), (void)(x), STAMP())

struct api {
  int (*send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
  int (*recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
  int (*iprobe)(int, int, MPI_Comm, int *, MPI_Status *);
  int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
  int (*irecv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
  int (*waitall)(int, MPI_Request *, MPI_Status *);
  int (*allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
};
static const struct api traced = {MPI_Send, MPI_Recv, MPI_Iprobe, MPI_Isend, MPI_Irecv,
                                  MPI_Waitall, MPI_Allreduce};
static const struct api direct = {PMPI_Send, PMPI_Recv, PMPI_Iprobe, PMPI_Isend, PMPI_Irecv,
                                  PMPI_Waitall, PMPI_Allreduce};

/* The stencil: an N x N block of a Jacobi sweep per rank, ranks stacked vertically, halo rows
 * exchanged with MPI_Irecv/MPI_Isend/MPI_Waitall every iteration, MPI_Allreduce of the
 * residual every 10th: the pattern of examples/stencil-2d.c (1-D decomposition). */
#define N 1024
#define AT(a, i, j) (a)[(size_t)(i) * (N + 2) + (size_t)(j)]
struct grid { double *u, *v; int up, down; };

static void iteration(const struct api *api, struct grid *g, long it)
{
  MPI_Request req[4];
  api->irecv(&AT(g->u, 0, 1), N, MPI_DOUBLE, g->up, 0, MPI_COMM_WORLD, &req[0]);
  api->irecv(&AT(g->u, N + 1, 1), N, MPI_DOUBLE, g->down, 1, MPI_COMM_WORLD, &req[1]);
  api->isend(&AT(g->u, 1, 1), N, MPI_DOUBLE, g->up, 1, MPI_COMM_WORLD, &req[2]);
  api->isend(&AT(g->u, N, 1), N, MPI_DOUBLE, g->down, 0, MPI_COMM_WORLD, &req[3]);
  api->waitall(4, req, MPI_STATUSES_IGNORE);
  double diff = 0, global;
  for (int i = 1; i <= N; i++)
    for (int j = 1; j <= N; j++) {
      double x = 0.25 * (AT(g->u, i - 1, j) + AT(g->u, i + 1, j) + AT(g->u, i, j - 1) + AT(g->u, i, j + 1));
      diff += (x - AT(g->u, i, j)) * (x - AT(g->u, i, j));
      AT(g->v, i, j) = x;
    }
  double *t = g->u;
  g->u = g->v, g->v = t;
  if (it % 10 == 9)
    api->allreduce(&diff, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, long n)
{
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void steps(const struct api *api, enum mode mode, int rank, long n, struct grid *g)
{
  char b = 0;
  int flag;
  for (long i = 0; i < n; i++) {
    if (mode == STENCIL) {
      iteration(api, g, i);
    } else if (mode == IPROBE) {
      CALL(api->iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    } else if (mode == SELF) {
      /* the other side of each message untraced (MPICH does not buffer a blocking send to
       * itself: the receive must be posted first) */
      MPI_Request r;
      PMPI_Irecv(&b, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &r);
      CALL(api->send(&b, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD));
      PMPI_Wait(&r, MPI_STATUS_IGNORE);
      PMPI_Isend(&b, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &r);
      CALL(api->recv(&b, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      PMPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
      CALL(api->send(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD));
      CALL(api->recv(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
      CALL(api->recv(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CALL(api->send(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD));
    }
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, self = 0, paired = 0, stencil = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
  for (int i = 2; i < argc; i++) {
    self |= strcmp(argv[i], "self") == 0;
    stamps |= strcmp(argv[i], "tsc") == 0;
    paired |= strcmp(argv[i], "paired") == 0;
    stencil |= strcmp(argv[i], "stencil") == 0;
  }
  enum mode mode = stencil ? STENCIL : size > 1 ? PINGPONG : self ? SELF : IPROBE;
  long block = mode == STENCIL ? 10 : BLOCK;
  double per = mode == PINGPONG ? 2.0 * block : block;  /* one-way trips, calls, pairs or iterations */
  long nblocks = iters / block > 1 ? iters / block / 2 * 2 : 2;
  double *t = malloc((size_t)nblocks * 2 * sizeof *t), *ratio = t + nblocks, all = 0;
  struct grid g = {NULL, NULL, rank > 0 ? rank - 1 : MPI_PROC_NULL,
                   rank < size - 1 ? rank + 1 : MPI_PROC_NULL};
  if (mode == STENCIL) {
    g.u = calloc((size_t)(N + 2) * (N + 2), sizeof *g.u);
    g.v = calloc((size_t)(N + 2) * (N + 2), sizeof *g.v);
    for (int j = 0; j < N + 2; j++)
      AT(g.u, 0, j) = AT(g.v, 0, j) = 1.0;
  }
  steps(&traced, mode, rank, block, &g);
  if (paired)
    steps(&direct, mode, rank, block, &g);
  MPI_Barrier(MPI_COMM_WORLD);
  for (long k = 0; k < nblocks; k++) {
    double t0 = MPI_Wtime();
    steps(paired && k % 2 == 0 ? &direct : &traced, mode, rank, block, &g);
    t[k] = (MPI_Wtime() - t0) / per * 1e6;
    all += t[k];
  }
  if (rank == 0 && paired) {
    long half = nblocks / 2;
    for (long k = 0; k < half; k++)  /* (direct, traced) pairs, then each kind's values */
      ratio[k] = (t[2 * k + 1] / t[2 * k] - 1) * 100;
    for (long k = 0; k < half; k++)
      ratio[half + k] = t[2 * k + 1], t[k] = t[2 * k];
    printf("#");  /* each pair's ratio on a comment line, for pooling across runs */
    for (long k = 0; k < half; k++)
      printf(" %.3f", ratio[k]);
    printf("\n");
    double d = median(t, half), m = median(ratio + half, half);
    printf("%.4f %.4f %.2f\n", d, m, median(ratio, half));
  } else if (rank == 0) {
    printf("%.4f %.4f\n", median(t, nblocks), all / (double)nblocks);
  }
  free(t);
  free(g.u);
  free(g.v);
  MPI_Finalize();
  return 0;
}
