/* For tests/mpi/trace-fortran.sh: the Fortran bindings called by their upper-case names, as code
 * from a compiler with upper-case external names calls them (gfortran cannot make them): rank 0
 * sends 3 integers to rank 1 with MPI_SEND, rank 1 receives them with MPI_RECV. */
#include <mpi.h>

void MPI_SEND(const void *buf, const MPI_Fint *count, const MPI_Fint *type, const MPI_Fint *dest,
              const MPI_Fint *tag, const MPI_Fint *comm, MPI_Fint *ierr);
void MPI_RECV(void *buf, const MPI_Fint *count, const MPI_Fint *type, const MPI_Fint *source,
              const MPI_Fint *tag, const MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr);

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Fint one = 1, tag = 5, type = MPI_Type_c2f(MPI_INT), comm = MPI_Comm_c2f(MPI_COMM_WORLD);
  MPI_Fint peer = 1 - rank, ierr = 0;
  int value = 42;
  for (int i = 0; i < 3 && rank < 2; i++) {
    if (rank == 0)
      MPI_SEND(&value, &one, &type, &peer, &tag, &comm, &ierr);
    else
      MPI_RECV(&value, &one, &type, &peer, &tag, &comm, MPI_F_STATUS_IGNORE, &ierr);
  }
  MPI_Finalize();
  return ierr != 0 || value != 42;
}
