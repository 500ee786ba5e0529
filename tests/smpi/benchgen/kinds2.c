/* benchgen test pattern: the kinds of calls the other patterns leave out. Communicators from
 * MPI_Cart_create (a periodic 2 x (size/2) grid), MPI_Cart_sub (its rows), MPI_Comm_split_type
 * (shared memory) and MPI_Comm_create_group (the even ranks); each iteration:
 *  - point-to-point on the grid: Ssend / Recv to the right neighbour (even ranks first),
 *    Sendrecv_replace with the left one, Issend and Irsend (its receive posted and a barrier
 *    passed before) completed by a Test loop and Testall, a persistent MPI_Ssend_init started
 *    with MPI_Start and completed by Testsome; an Iprobe loop and a Probe before a receive;
 *  - collectives: Gather, Scatter, Allgather on the rows, Exscan (MPI_SUM, ints) and
 *    Reduce_scatter_block (MPI_MIN, doubles) on the shared-memory communicator, and each
 *    non-blocking twin (Igather ... Ireduce_scatter_block, Ialltoall, Ireduce, Iscan, Ibarrier)
 *    on the even ranks' communicator or the world, completed by one Waitall;
 *  - one-sided on a world window: lock_all with Get_accumulate and Compare_and_swap to the right
 *    neighbour, flush_local, flush_local_all, Win_sync, unlock_all; a post/start epoch;
 *  - 20 us of simulated computation.
 * Usage: kinds2 [ITERS=5] (an even number of ranks, at least 4) */
#include "pattern.h"

static char a[4096], b[4096];

static void p2p(MPI_Comm grid, int left, int right, int even, MPI_Request *pers)
{
  MPI_Request r[2];
  int flag = 0, n, idx[1];
  if (even) {
    MPI_Ssend(a, 64, MPI_CHAR, right, 1, grid);
    MPI_Recv(b, 64, MPI_CHAR, left, 1, grid, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b, 64, MPI_CHAR, left, 1, grid, MPI_STATUS_IGNORE);
    MPI_Ssend(a, 64, MPI_CHAR, right, 1, grid);
  }
  MPI_Sendrecv_replace(b, 32, MPI_INT, left, 2, right, 2, grid, MPI_STATUS_IGNORE);
  MPI_Irecv(b, 128, MPI_CHAR, left, 3, grid, &r[0]);
  MPI_Barrier(grid);   /* every receive of tag 3 is posted: the ready send may go */
  MPI_Irsend(a, 128, MPI_CHAR, right, 3, grid, &r[1]);
  while (!flag)
    MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE);
  for (flag = 0; !flag;)
    MPI_Testall(1, &r[0], &flag, MPI_STATUSES_IGNORE);
  MPI_Issend(a, 256, MPI_CHAR, right, 4, grid, &r[0]);
  MPI_Start(&pers[0]);
  MPI_Recv(b, 256, MPI_CHAR, left, 4, grid, MPI_STATUS_IGNORE);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Status st;
  for (flag = 0; !flag;)
    MPI_Iprobe(left, 5, grid, &flag, &st);
  MPI_Probe(left, 5, grid, &st);
  MPI_Recv(b, 512, MPI_CHAR, left, 5, grid, MPI_STATUS_IGNORE);
  for (n = 0; n == 0;)
    MPI_Testsome(1, &pers[0], &n, idx, MPI_STATUSES_IGNORE);
}

static void colls(MPI_Comm row, MPI_Comm node, MPI_Comm evens, int rank)
{
  MPI_Request r[8];
  int k = 0;
  MPI_Gather(a, 16, MPI_INT, b, 16, MPI_INT, 0, row);
  MPI_Scatter(a, 8, MPI_DOUBLE, b, 8, MPI_DOUBLE, 1, row);
  MPI_Allgather(a, 24, MPI_BYTE, b, 24, MPI_BYTE, row);
  MPI_Exscan(a, b, 4, MPI_INT, MPI_SUM, node);
  MPI_Reduce_scatter_block(a, b, 2, MPI_DOUBLE, MPI_MIN, node);
  MPI_Ibarrier(MPI_COMM_WORLD, &r[k++]);
  MPI_Iscan(a, b + 2048, 3, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r[k++]);
  if (evens != MPI_COMM_NULL) {
    MPI_Igather(a, 4, MPI_FLOAT, b, 4, MPI_FLOAT, 0, evens, &r[k++]);
    MPI_Iscatter(a, 6, MPI_SHORT, b + 256, 6, MPI_SHORT, 0, evens, &r[k++]);
    MPI_Iallgather(a, 5, MPI_INT, b + 512, 5, MPI_INT, evens, &r[k++]);
    MPI_Ialltoall(a, 3, MPI_DOUBLE, b + 1024, 3, MPI_DOUBLE, evens, &r[k++]);
    MPI_Ireduce(a, b + 1536, 7, MPI_INT, MPI_BAND, 0, evens, &r[k++]);
    MPI_Iexscan(a, b + 1792, 2, MPI_DOUBLE, MPI_PROD, evens, &r[k++]);
  }
  MPI_Waitall(k, r, MPI_STATUSES_IGNORE);
  MPI_Ireduce_scatter_block(a, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  (void)rank;
}

static void rma(MPI_Win win, int rank, int size)
{
  static double mem[16];
  long one = 1, cmp = 0, got;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Win_lock_all(0, win);
  MPI_Get_accumulate(mem, 4, MPI_DOUBLE, mem + 4, 4, MPI_DOUBLE, right, 0, 4, MPI_DOUBLE, MPI_SUM, win);
  MPI_Win_flush_local(right, win);
  MPI_Compare_and_swap(&one, &cmp, &got, MPI_LONG, right, 8, win);
  MPI_Win_flush_local_all(win);
  MPI_Win_sync(win);
  MPI_Win_unlock_all(win);
  MPI_Group world, from, to;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &left, &from);
  MPI_Group_incl(world, 1, &right, &to);
  MPI_Win_post(from, 0, win);
  MPI_Win_start(to, 0, win);
  MPI_Put(mem, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);   /* SMPI 3.32 has no MPI_Win_test */
  MPI_Group_free(&from), MPI_Group_free(&to), MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
  int rank, size;
  long iters = pattern_start(&argc, &argv, &rank, &size, 5);
  int dims[2] = {2, size / 2}, periods[2] = {1, 1}, keep[2] = {0, 1}, left, right;
  MPI_Comm grid, row, node, evens;
  MPI_Group world, eg;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_sub(grid, keep, &row);
  MPI_Cart_shift(grid, 1, 1, &left, &right);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranges[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, ranges, &eg);
  evens = MPI_COMM_NULL;
  if (rank % 2 == 0)
    MPI_Comm_create_group(MPI_COMM_WORLD, eg, 7, &evens);
  int grank;
  MPI_Comm_rank(grid, &grank);
  static double wmem[64];
  MPI_Win win;
  MPI_Win_create(wmem, sizeof wmem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Request pers[1];
  MPI_Ssend_init(a, 512, MPI_CHAR, right, 5, grid, &pers[0]);
  for (long i = 0; i < iters; i++) {
    p2p(grid, left, right, grank % 2 == 0, pers);
    colls(row, node, evens, rank);
    rma(win, rank, size);
    work_us(20);
  }
  MPI_Request_free(&pers[0]);
  MPI_Win_free(&win);
  if (evens != MPI_COMM_NULL)
    MPI_Comm_free(&evens);
  MPI_Group_free(&eg), MPI_Group_free(&world);
  MPI_Comm_free(&node), MPI_Comm_free(&row), MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
