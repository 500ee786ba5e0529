/* The C twin of calls.f90 for tests/mpi/trace-fortran.sh: the same MPI calls in the same order,
 * so that the traces of both programs must hold the same events on every rank (the Fortran
 * entry points convert to C what the C wrappers get directly). */
#include <mpi.h>
#include <stddef.h>

int main(void)
{
  int rank, nprocs, provided, idx, outcount, idxs[2], flag;
  int buf[8], rbuf[8] = {0}, counts[64], displs[64], gathered[64], one[1];
  MPI_Request req[2], preq[2], rreq;
  MPI_Status st, sts[2];
  MPI_Comm half, dup, cart;
  MPI_Group world_group, right_group, left_group;
  MPI_Win win, win2;
  void *baseptr;

  MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int right = (rank + 1) % nprocs, left = (rank + nprocs - 1) % nprocs;
  for (int i = 0; i < 8; i++)
    buf[i] = rank;

  MPI_Sendrecv(buf, 2, MPI_INT, right, 1, rbuf, 2, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
  if (rank == 0) {
    MPI_Send(buf, 3, MPI_INT, 1, 2, MPI_COMM_WORLD);
    MPI_Ssend(buf, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(rbuf, 8, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
    MPI_Probe(0, 3, MPI_COMM_WORLD, &st);
    MPI_Recv(rbuf, 8, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }

  MPI_Irecv(rbuf, 4, MPI_INT, left, 4, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(buf, 4, MPI_INT, right, 4, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, sts);
  MPI_Irecv(rbuf, 5, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &req[0]);
  MPI_Issend(buf, 5, MPI_INT, right, 5, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Isend(buf, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &rreq);
  req[0] = MPI_REQUEST_NULL;
  MPI_Irecv(rbuf, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &req[1]);
  MPI_Waitany(2, req, &idx, &st);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  MPI_Irecv(rbuf, 2, MPI_INT, left, 7, MPI_COMM_WORLD, &req[1]);
  MPI_Send(buf, 2, MPI_INT, right, 7, MPI_COMM_WORLD);
  MPI_Waitsome(2, req, &outcount, idxs, sts);
  MPI_Irecv(rbuf, 3, MPI_INT, rank, 8, MPI_COMM_WORLD, &req[1]);
  MPI_Send(buf, 3, MPI_INT, rank, 8, MPI_COMM_WORLD);
  for (flag = 0; !flag;)
    MPI_Testany(2, req, &idx, &flag, &st);
  MPI_Irecv(rbuf, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &rreq);
  MPI_Send(buf, 1, MPI_INT, rank, 9, MPI_COMM_WORLD);
  for (flag = 0; !flag;)
    MPI_Test(&rreq, &flag, &st);

  MPI_Send_init(buf, 2, MPI_INT, right, 10, MPI_COMM_WORLD, &preq[0]);
  MPI_Recv_init(rbuf, 2, MPI_INT, left, 10, MPI_COMM_WORLD, &preq[1]);
  MPI_Startall(2, preq);
  MPI_Waitall(2, preq, MPI_STATUSES_IGNORE);
  MPI_Start(&preq[1]);
  MPI_Start(&preq[0]);
  MPI_Waitall(2, preq, sts);
  MPI_Request_free(&preq[0]);
  MPI_Request_free(&preq[1]);

  MPI_Request many[20];
  MPI_Status manyst[20];
  int big[20];
  for (int k = 1; k <= 2; k++) {
    for (int i = 1; i <= 10; i++) {
      MPI_Irecv(&big[i - 1], 1, MPI_INT, left, 20 + i, MPI_COMM_WORLD, &many[i - 1]);
      MPI_Isend(buf, 1, MPI_INT, right, 20 + i, MPI_COMM_WORLD, &many[9 + i]);
    }
    MPI_Waitall(20, many, k == 1 ? manyst : MPI_STATUSES_IGNORE);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(buf, 3, MPI_INT, 1, MPI_COMM_WORLD);
  MPI_Reduce(buf, rbuf, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Gather(buf, 1, MPI_INT, gathered, 1, MPI_INT, 2, MPI_COMM_WORLD);
  for (int i = 0; i < nprocs; i++) {
    counts[i] = i + 1;
    displs[i] = i * 8;
  }
  MPI_Gatherv(buf, rank + 1, MPI_INT, gathered, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgatherv(buf, rank + 1, MPI_INT, gathered, counts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(buf, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(gathered, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(buf, rbuf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Allreduce(buf, rbuf, 1, MPI_INT, MPI_SUM, half);
  MPI_Comm_dup(half, &dup);
  MPI_Barrier(dup);
  int dims[1] = {nprocs}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Bcast(buf, 1, MPI_INT, 0, cart);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  one[0] = right;
  MPI_Group_incl(world_group, 1, one, &right_group);
  one[0] = left;
  MPI_Group_incl(world_group, 1, one, &left_group);

  MPI_Win_create(rbuf, 8 * 4, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(buf, 2, MPI_INT, right, 1, 2, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_post(left_group, 0, win);
  MPI_Win_start(right_group, 0, win);
  MPI_Get(buf, 1, MPI_INT, right, 1, 1, MPI_INT, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
  MPI_Accumulate(buf, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(right, win);
  MPI_Win_free(&win);
  MPI_Win_allocate(8 * 4, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &baseptr, &win2);
  MPI_Win_lock_all(0, win2);
  MPI_Rput(buf, 1, MPI_INT, left, 1, 1, MPI_INT, win2, &rreq);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  MPI_Fetch_and_op(buf, rbuf, MPI_INT, right, 1, MPI_SUM, win2);
  MPI_Win_flush(right, win2);
  MPI_Win_unlock_all(win2);
  MPI_Win_free(&win2);
  MPI_Group_free(&left_group);
  MPI_Group_free(&right_group);
  MPI_Group_free(&world_group);

  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "mpivet-calls.tmp", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_Offset off = rank * 16;
  MPI_File_write_at(fh, off, buf, 4, MPI_INT, &st);
  MPI_File_read_at(fh, off, rbuf, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  if (rank == 0)
    MPI_File_delete("mpivet-calls.tmp", MPI_INFO_NULL);
  MPI_Finalize();
  return 0;
}
