/* benchgen test pattern: v-collectives with counts that differ per member. Each iteration:
 * Gatherv to rank 2 (rank r sends 8 (r + 1) doubles), Scatterv from rank 1 (r receives 4 (r + 1)
 * ints), Allgatherv (r contributes 16 (r % 3 + 1) bytes), Alltoallv (r sends 32 ((j - r) mod p
 * + 1) floats to j), Reduce_scatter (MPI_MAX on doubles, member j gets j + 2), then 15 us of
 * simulated computation.
 * Usage: vcoll [ITERS=10] */
#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 10);
  int n = size, *c1 = calloc(n, sizeof *c1), *d1 = calloc(n, sizeof *d1), *c2 = calloc(n, sizeof *c2),
      *d2 = calloc(n, sizeof *d2);
  static char sbuf[1 << 20], rbuf[1 << 20];
  for (long it = 0; it < iters; it++) {
    for (int j = 0, d = 0; j < n; d += c1[j], j++)
      c1[j] = 8 * (j + 1), d1[j] = d;
    MPI_Gatherv(sbuf, 8 * (rank + 1), MPI_DOUBLE, rbuf, c1, d1, MPI_DOUBLE, 2, MPI_COMM_WORLD);
    for (int j = 0, d = 0; j < n; d += c1[j], j++)
      c1[j] = 4 * (j + 1), d1[j] = d;
    MPI_Scatterv(sbuf, c1, d1, MPI_INT, rbuf, 4 * (rank + 1), MPI_INT, 1, MPI_COMM_WORLD);
    for (int j = 0, d = 0; j < n; d += c1[j], j++)
      c1[j] = 16 * (j % 3 + 1), d1[j] = d;
    MPI_Allgatherv(sbuf, 16 * (rank % 3 + 1), MPI_BYTE, rbuf, c1, d1, MPI_BYTE, MPI_COMM_WORLD);
    for (int j = 0, d = 0, e = 0; j < n; d += c1[j], e += c2[j], j++) {
      c1[j] = 32 * ((j - rank + n) % n + 1), d1[j] = d;
      c2[j] = 32 * ((rank - j + n) % n + 1), d2[j] = e;
    }
    MPI_Alltoallv(sbuf, c1, d1, MPI_FLOAT, rbuf, c2, d2, MPI_FLOAT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
      c1[j] = j + 2;
    MPI_Reduce_scatter(sbuf, rbuf, c1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    work_us(15);
  }
  free(c1), free(d1), free(c2), free(d2);
  MPI_Finalize();
  return 0;
}
