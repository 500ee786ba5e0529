/* benchgen test pattern: one-sided communication (the fifth pattern). Three windows on
 * MPI_COMM_WORLD (fences, post/start/complete/wait, locks: SMPI refuses to mix them on one
 * window) and one on a split communicator (even and odd ranks); each iteration:
 *  - a fence epoch: put 1 KiB of doubles to the right neighbour, get 512 B from the left one;
 *  - a post/start/complete/wait epoch: expose to the left neighbour, put 256 ints to the right;
 *  - passive target: an exclusive lock of rank + 2 with an MPI_MAX accumulate and a flush, a
 *    lock_all with a get from rank + 3 and flush_all, a fetch-and-op (MPI_SUM, long) on rank 0;
 *  - on the half communicator a fence with an accumulate (MPI_SUM, doubles) to the next member;
 *  - 30 us of simulated computation.
 * Usage: rma [ITERS=10] */
#include "pattern.h"

static void pscw(MPI_Win win, int rank, int size, const int *data)
{
  MPI_Group world, from, to;
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &left, &from);
  MPI_Group_incl(world, 1, &right, &to);
  MPI_Win_post(from, 0, win);
  MPI_Win_start(to, 0, win);
  MPI_Put(data, 256, MPI_INT, right, 0, 256, MPI_INT, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
  int rank, size, hrank, hsize;
  long iters = pattern_start(&argc, &argv, &rank, &size, 10);
  static double mem[1024], out[128], got[64], hmem[256];
  static int ints[256];
  long one = 1, old;
  static double pmem[512];
  double *lmem_base;
  enum { LMEM = 8192 };
  MPI_Win win, pwin, lwin, hwin;
  MPI_Comm half;
  MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_create(pmem, sizeof pmem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &pwin);
  MPI_Win_allocate(LMEM, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &lmem_base, &lwin);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  MPI_Win_create(hmem, sizeof hmem, 1, MPI_INFO_NULL, half, &hwin);
  for (long i = 0; i < iters; i++) {
    MPI_Win_fence(0, win);
    MPI_Put(out, 128, MPI_DOUBLE, (rank + 1) % size, 0, 128, MPI_DOUBLE, win);
    MPI_Get(got, 64, MPI_DOUBLE, (rank + size - 1) % size, 2048, 64, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    pscw(pwin, rank, size, ints);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (rank + 2) % size, 0, lwin);
    MPI_Accumulate(out, 16, MPI_DOUBLE, (rank + 2) % size, 0, 16, MPI_DOUBLE, MPI_MAX, lwin);
    MPI_Win_flush((rank + 2) % size, lwin);
    MPI_Win_unlock((rank + 2) % size, lwin);
    MPI_Win_lock_all(0, lwin);
    MPI_Get(got, 8, MPI_DOUBLE, (rank + 3) % size, 0, 8, MPI_DOUBLE, lwin);
    MPI_Win_flush_all(lwin);
    MPI_Win_unlock_all(lwin);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, lwin);
    MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 4096, MPI_SUM, lwin);
    MPI_Win_unlock(0, lwin);
    MPI_Win_fence(0, hwin);
    MPI_Accumulate(out, 32, MPI_DOUBLE, (hrank + 1) % hsize, 0, 32, MPI_DOUBLE, MPI_SUM, hwin);
    MPI_Win_fence(0, hwin);
    work_us(30);
  }
  MPI_Win_free(&hwin);
  MPI_Win_free(&lwin);
  MPI_Win_free(&pwin);
  MPI_Win_free(&win);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
