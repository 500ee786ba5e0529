/* benchgen test pattern: the other kinds of calls. Communicators made by MPI_Comm_dup, a
 * 2 x (size/2) MPI_Comm_split (rows) and MPI_Comm_create (the even ranks); each iteration:
 *  - persistent point-to-point: a receive from the left and a send to the right (Startall),
 *    completed by Waitany twice;
 *  - non-blocking sends and receives in both directions on the dup, completed by Waitsome
 *    until all are done, then a Testany loop on one more exchange;
 *  - non-blocking collectives: an Iallreduce (MPI_MAX on ints) on the rows and an Ibcast of
 *    doubles on the dup, completed by Waitall;
 *  - blocking collectives with their datatypes and reductions: Allreduce (MPI_MIN, doubles),
 *    Reduce (MPI_PROD, longs) on the rows, Alltoall of floats on the even ranks' communicator,
 *    Scan (MPI_BOR, unsigned) on the world;
 *  - 25 us of simulated computation.
 * Usage: kinds [ITERS=10] */
#include "pattern.h"

static void p2p(MPI_Comm dup, int left, int right, MPI_Request *pers)
{
  static char a[512], b[512], c[2048], d[2048];
  MPI_Request r[4];
  int idx, done = 0, n, ids[4], flag = 0;
  MPI_Startall(2, pers);
  MPI_Waitany(2, pers, &idx, MPI_STATUS_IGNORE);
  MPI_Waitany(2, pers, &idx, MPI_STATUS_IGNORE);
  MPI_Irecv(c, 2048, MPI_CHAR, left, 2, dup, &r[0]);
  MPI_Irecv(d, 1024, MPI_CHAR, right, 3, dup, &r[1]);
  MPI_Isend(c, 2048, MPI_CHAR, right, 2, dup, &r[2]);
  MPI_Isend(d, 1024, MPI_CHAR, left, 3, dup, &r[3]);
  while (done < 4) {
    MPI_Waitsome(4, r, &n, ids, MPI_STATUSES_IGNORE);
    done += n;
  }
  MPI_Irecv(a, 512, MPI_CHAR, left, 4, dup, &r[0]);
  MPI_Isend(b, 512, MPI_CHAR, right, 4, dup, &r[1]);
  while (!flag)
    MPI_Testany(1, &r[0], &idx, &flag, MPI_STATUS_IGNORE);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 10);
  MPI_Comm dup, row, even = MPI_COMM_NULL;
  MPI_Group world, evens;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank / (size / 2), rank, &row);
  int ranks[64], ne = 0;
  for (int r = 0; r < size && ne < 64; r += 2)
    ranks[ne++] = r;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, ne, ranks, &evens);
  MPI_Comm_create(MPI_COMM_WORLD, evens, &even);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  static char pin[4096], pout[4096];
  static double dv[64], dr[64];
  static long lv[16], lr[16];
  static float fv[256], fr[256];
  int iv[32], ir[32];
  unsigned uv = 1, ur;
  MPI_Request pers[2], nb[2];
  MPI_Recv_init(pin, 4096, MPI_CHAR, left, 1, MPI_COMM_WORLD, &pers[0]);
  MPI_Send_init(pout, 4096, MPI_CHAR, right, 1, MPI_COMM_WORLD, &pers[1]);
  for (long i = 0; i < iters; i++) {
    p2p(dup, left, right, pers);
    MPI_Iallreduce(iv, ir, 32, MPI_INT, MPI_MAX, row, &nb[0]);
    MPI_Ibcast(dv, 64, MPI_DOUBLE, 1, dup, &nb[1]);
    MPI_Waitall(2, nb, MPI_STATUSES_IGNORE);
    MPI_Allreduce(dv, dr, 64, MPI_DOUBLE, MPI_MIN, row);
    MPI_Reduce(lv, lr, 16, MPI_LONG, MPI_PROD, 0, row);
    if (even != MPI_COMM_NULL)
      MPI_Alltoall(fv, 256 / ne, MPI_FLOAT, fr, 256 / ne, MPI_FLOAT, even);
    MPI_Scan(&uv, &ur, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
    work_us(25);
  }
  MPI_Request_free(&pers[0]);
  MPI_Request_free(&pers[1]);
  if (even != MPI_COMM_NULL)
    MPI_Comm_free(&even);
  MPI_Group_free(&evens);
  MPI_Group_free(&world);
  MPI_Comm_free(&row);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
