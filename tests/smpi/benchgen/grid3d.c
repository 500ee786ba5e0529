/* benchgen test pattern: a 3-D grid and sub-communicators made the ways applications make them.
 * MPI_Dims_create(size, 3) and a non-periodic MPI_Cart_create; each iteration:
 *  - a 7-point halo exchange (Irecv/Isend with the up to six face neighbours MPI_Cart_shift
 *    gives, 8 KiB per face, tag = direction; MPI_PROC_NULL at the borders), one Waitall;
 *  - collectives on sub-communicators: an Allreduce on each x-line (MPI_Cart_sub), a Bcast from
 *    the line's root on each y-z plane made by MPI_Comm_split (colour = x coordinate, key = the
 *    reversed rank, so the plane's rank order differs from the world's), a Reduce to rank 1 of
 *    each MPI_Comm_dup of the plane, and every 4 iterations an Allreduce on the world;
 *  - 30 us of simulated computation before the exchange and 10 us before the collectives.
 * With "halo" as second argument, only the exchange and the world's Allreduce (no
 * sub-communicator is used; the Cartesian one is a copy of the world). With "root0", the Reduce
 * goes to rank 0 of the plane's dup (the plane's last world rank, like the Bcast's root), so
 * that every class of ranks is whole regions of the grid (rank 1 of a plane is one of its
 * interior ranks: the benchmark for any count refuses that as irregular).
 * Usage: grid3d [ITERS=8] [halo|root0] */
#include <string.h>

#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 8);
  int subs = !(argc > 2 && strcmp(argv[2], "halo") == 0);
  int root = argc > 2 && strcmp(argv[2], "root0") == 0 ? 0 : 1;
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart, line, plane, pdup;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Cart_coords(cart, rank, 3, coords);
  int keep[3] = {1, 0, 0};
  MPI_Cart_sub(cart, keep, &line);
  MPI_Comm_split(MPI_COMM_WORLD, coords[0], size - rank, &plane);
  MPI_Comm_dup(plane, &pdup);
  int psize;
  MPI_Comm_size(plane, &psize);
  static double face[6][1024], halo[6][1024], v[16], r[16];
  for (long i = 0; i < iters; i++) {
    work_us(30);
    MPI_Request req[12];
    int n = 0;
    for (int d = 0; d < 3; d++) {
      int lo, hi;
      MPI_Cart_shift(cart, d, 1, &lo, &hi);
      MPI_Irecv(halo[2 * d], 1024, MPI_DOUBLE, lo, 2 * d, cart, &req[n++]);
      MPI_Irecv(halo[2 * d + 1], 1024, MPI_DOUBLE, hi, 2 * d + 1, cart, &req[n++]);
      MPI_Isend(face[2 * d], 1024, MPI_DOUBLE, hi, 2 * d, cart, &req[n++]);
      MPI_Isend(face[2 * d + 1], 1024, MPI_DOUBLE, lo, 2 * d + 1, cart, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    work_us(10);
    if (subs) {
      MPI_Allreduce(v, r, 4, MPI_DOUBLE, MPI_SUM, line);
      MPI_Bcast(v, 16, MPI_DOUBLE, 0, plane);
      if (psize > 1)
        MPI_Reduce(v, r, 8, MPI_DOUBLE, MPI_MAX, root, pdup);
    }
    if (i % 4 == 3)
      MPI_Allreduce(v, r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Comm_free(&pdup);
  MPI_Comm_free(&plane);
  MPI_Comm_free(&line);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
