/* For tests/mpi/trace-fastpath.sh: every call with a fast path (MPI_Send, Bsend, Ssend, Rsend,
 * Recv) called several times from the same call sites (the fast path serves the repeats), with
 * statuses ignored and asked, MPI_PROC_NULL, several sizes, tags and communicators, a receive
 * after a receive (a pending call written by the next fast call) and other calls between. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  int hrank, hsize;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  int bsize = 1 << 16;
  char *bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach(bbuf, bsize);
  double data[64] = {0};
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int it = 0; it < 6; it++) {
    int n = 1 + it * 11;
    MPI_Status st;
    MPI_Request req;
    if (rank % 2 == 0) {  /* even ranks send first, odd ones receive first: no deadlock */
      MPI_Send(data, n, MPI_DOUBLE, right, it, MPI_COMM_WORLD);
      MPI_Recv(data, 64, MPI_DOUBLE, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(data, 64, MPI_DOUBLE, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(data, n, MPI_DOUBLE, right, it, MPI_COMM_WORLD);
    }
    MPI_Send(data, n, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(data, n, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    /* ring in the split communicator, both directions: Ssend then two receives in a row */
    int hr = (hrank + 1) % hsize, hl = (hrank + hsize - 1) % hsize;
    MPI_Irecv(data + 32, 8, MPI_DOUBLE, hl, 7, half, &req);
    MPI_Barrier(half);
    MPI_Rsend(data, it % 8 + 1, MPI_DOUBLE, hr, 7, half);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Bsend(data, n, MPI_INT, hr, 100 + it, half);
    MPI_Bsend(data, 2, MPI_CHAR, hl, 200 + it, half);
    MPI_Recv(data, 64, MPI_INT, hl, MPI_ANY_TAG, half, &st);
    MPI_Recv(data, 64, MPI_CHAR, MPI_ANY_SOURCE, 200 + it, half, MPI_STATUS_IGNORE);
    if (rank == 0 && it % 2 == 0)
      MPI_Ssend(data, 3, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD);
    if (rank == 1 && it % 2 == 0)
      MPI_Recv(data, 3, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &st);
  }
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
