/* benchgen test pattern: master and workers with wildcard receives. The master hands out TASKS
 * tasks: it receives a request from MPI_ANY_SOURCE and answers the sender with a task (or a stop
 * message, tag 2); a worker computes 10 + 5 * rank us per task. The order in which the master
 * hears from the workers follows their speed: the generated benchmark replays the recorded one.
 * Usage: master [TASKS=30] */
#include "pattern.h"

int main(int argc, char **argv)
{
  int rank, size, task[16] = {0};
  long tasks = pattern_start(&argc, &argv, &rank, &size, 30), done = 0;
  if (rank == 0) {
    for (long sent = 0, stopped = 0; stopped < size - 1;) {
      MPI_Status st;
      MPI_Recv(task, 16, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
      int more = sent < tasks;
      MPI_Send(task, more ? 16 : 1, MPI_INT, st.MPI_SOURCE, more ? 1 : 2, MPI_COMM_WORLD);
      sent += more, stopped += !more;
    }
  } else {
    for (;;) {
      MPI_Status st;
      MPI_Send(task, 16, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(task, 16, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == 2)
        break;
      work_us(10.0 + 5.0 * rank);
      done++;
    }
  }
  MPI_Finalize();
  return 0;
}
