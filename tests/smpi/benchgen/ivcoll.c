/* benchgen test pattern: the non-blocking v-collectives, two at a time in flight (each with its
 * own count arrays, as MPI wants them kept until completion). Each iteration:
 *  - Igatherv to rank 1 (rank r sends 4 (r + 1) doubles) and Iallgatherv (r contributes
 *    8 (r % 2 + 1) bytes), completed by one Waitall;
 *  - Ialltoallv (r sends 16 ((j - r) mod p + 1) ints to j) and Iscatterv from rank 2 (r receives
 *    2 (r + 1) floats), completed by Waitany twice;
 *  - Ireduce_scatter (MPI_SUM on longs, member j gets j + 1), completed by MPI_Wait;
 *  - 10 us of simulated computation.
 * Usage: ivcoll [ITERS=10] */
#include "pattern.h"

/* counts c[j] = f(j) and their displacements */
static void layout(int n, int *c, int *d, int (*f)(int j, int rank), int rank)
{
  for (int j = 0, at = 0; j < n; at += c[j], j++)
    c[j] = f(j, rank), d[j] = at;
}
static int gath(int j, int r) { (void)r; return 4 * (j + 1); }
static int allg(int j, int r) { (void)r; return 8 * (j % 2 + 1); }
static int np;   /* the size */
static int a2as(int j, int r) { return 16 * ((j - r + np) % np + 1); }
static int scat(int j, int r) { (void)r; return 2 * (j + 1); }
static int rsct(int j, int r) { (void)r; return j + 1; }

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 10);
  int n = np = size, *c[6], *d[6];
  for (int k = 0; k < 6; k++)
    c[k] = calloc(n, sizeof *c[k]), d[k] = calloc(n, sizeof *d[k]);
  static char sbuf[1 << 20], r0[1 << 18], r1[1 << 18], r2[1 << 18], r3[1 << 18], r4[1 << 18];
  MPI_Request rq[2];
  for (long it = 0; it < iters; it++) {
    layout(n, c[0], d[0], gath, rank);
    layout(n, c[1], d[1], allg, rank);
    MPI_Igatherv(sbuf, 4 * (rank + 1), MPI_DOUBLE, r0, c[0], d[0], MPI_DOUBLE, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Iallgatherv(sbuf, 8 * (rank % 2 + 1), MPI_BYTE, r1, c[1], d[1], MPI_BYTE, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    layout(n, c[2], d[2], a2as, rank);
    for (int j = 0, at = 0; j < n; at += c[3][j], j++)
      c[3][j] = a2as(rank, j), d[3][j] = at;   /* what j sends to rank */
    layout(n, c[4], d[4], scat, rank);
    MPI_Ialltoallv(sbuf, c[2], d[2], MPI_INT, r2, c[3], d[3], MPI_INT, MPI_COMM_WORLD, &rq[0]);
    MPI_Iscatterv(sbuf, c[4], d[4], MPI_FLOAT, r3, 2 * (rank + 1), MPI_FLOAT, 2, MPI_COMM_WORLD, &rq[1]);
    for (int k = 0, i; k < 2; k++)
      MPI_Waitany(2, rq, &i, MPI_STATUS_IGNORE);
    layout(n, c[5], d[5], rsct, rank);
    MPI_Ireduce_scatter(sbuf, r4, c[5], MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    work_us(10);
  }
  for (int k = 0; k < 6; k++)
    free(c[k]), free(d[k]);
  MPI_Finalize();
  return 0;
}
