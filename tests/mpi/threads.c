/* For tests/mpi/trace-threads.sh: MPI_Init_thread with the level named by argv[1] (multiple or
 * serialized); with MPI_THREAD_MULTIPLE granted, two threads per rank exchange 5 messages each
 * between ranks 0 and 1 at once (tags 0 and 1), otherwise the main thread alone does both
 * threads' work. Prints "provided P" and, on rank 0, "ok" when every message arrived. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int rank, errors;

static void *exchange(void *arg)
{
  int tag = *(int *)arg, peer = 1 - rank;
  for (int i = 0; i < 5; i++) {
    int v = rank * 100 + tag * 10 + i, got = -1;
    if (rank == 0) {
      MPI_Send(&v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
      MPI_Recv(&got, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&got, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
    }
    if (got != peer * 100 + tag * 10 + i)
      __atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(int argc, char **argv)
{
  int want = argc > 1 && strcmp(argv[1], "multiple") == 0 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
  int provided, size, tags[2] = {0, 1};
  MPI_Init_thread(&argc, &argv, want, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank < 2 && size >= 2) {
    if (provided == MPI_THREAD_MULTIPLE) {
      pthread_t t[2];
      for (int k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, exchange, &tags[k]);
      for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    } else {
      exchange(&tags[0]);
      exchange(&tags[1]);
    }
  }
  int all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("provided %d\n%s\n", provided, all == 0 ? "ok" : "lost messages");
  MPI_Finalize();
  return 0;
}
