/* 2-D Jacobi stencil (weak scaling): each rank owns an N x N block of a Cartesian process grid,
 * exchanges halos with MPI_Irecv/MPI_Isend/MPI_Waitall and reduces the residual with
 * MPI_Allreduce every 10 iterations. Balanced by default; SLOW_MS > 0 makes rank 0 work that
 * much longer per iteration so its neighbours see Late Sender waits. Rank 0 prints the time of
 * its iteration loop (no MPI_Init/Finalize, no trace writing: what bench/trace_overhead compares).
 * Usage: stencil-2d [N=256] [ITERS=100] [SLOW_MS=0] */
#include <stdio.h>
#include <string.h>

#include "common.h"

#define AT(a, i, j) (a)[(size_t)(i) * (size_t)(n + 2) + (size_t)(j)]

static void exchange(double *u, int n, MPI_Comm cart, MPI_Datatype column)
{
  int up, down, left, right;
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &left, &right);
  MPI_Request req[8];
  MPI_Status st[8];  /* not MPI_STATUSES_IGNORE: MPICH's access hints warn on it */
  MPI_Irecv(&AT(u, 0, 1), n, MPI_DOUBLE, up, 0, cart, &req[0]);
  MPI_Irecv(&AT(u, n + 1, 1), n, MPI_DOUBLE, down, 1, cart, &req[1]);
  MPI_Irecv(&AT(u, 1, 0), 1, column, left, 2, cart, &req[2]);
  MPI_Irecv(&AT(u, 1, n + 1), 1, column, right, 3, cart, &req[3]);
  MPI_Isend(&AT(u, 1, 1), n, MPI_DOUBLE, up, 1, cart, &req[4]);
  MPI_Isend(&AT(u, n, 1), n, MPI_DOUBLE, down, 0, cart, &req[5]);
  MPI_Isend(&AT(u, 1, 1), 1, column, left, 3, cart, &req[6]);
  MPI_Isend(&AT(u, 1, n), 1, column, right, 2, cart, &req[7]);
  MPI_Waitall(8, req, st);
}

static double sweep(const double *u, double *v, int n)
{
  double diff = 0;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      double x = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
      diff += (x - AT(u, i, j)) * (x - AT(u, i, j));
      AT(v, i, j) = x;
    }
  return diff;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int size, rank, dims[2] = {0, 0}, periods[2] = {0, 0};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  int n = (int)ex_arg(argc, argv, 1, 256);
  long iters = ex_arg(argc, argv, 2, 100), slow = ex_arg(argc, argv, 3, 0);
  size_t cells = (size_t)(n + 2) * (size_t)(n + 2);
  double *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v), global = 0;
  for (int j = 0; j < n + 2; j++)
    AT(u, 0, j) = AT(v, 0, j) = 1.0;  /* a hot top edge on every block */
  MPI_Datatype column;
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  double t0 = MPI_Wtime();
  for (long it = 0; it < iters; it++) {
    exchange(u, n, cart, column);
    if (rank == 0)
      ex_work_ms((double)slow);
    double local = sweep(u, v, n);
    double *t = u;
    u = v;
    v = t;
    if (it % 10 == 9)
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, cart);
  }
  double loop = MPI_Wtime() - t0;
  if (rank == 0)
    printf("stencil-2d: %d ranks (%dx%d), n=%d, %ld iterations, residual %.6g, loop %.6f s\n",
           size, dims[0], dims[1], n, iters, global, loop);
  MPI_Type_free(&column);
  MPI_Comm_free(&cart);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
