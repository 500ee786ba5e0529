! For tests/smpi/trace-fortran.sh: a Fortran application under SMPI (use mpi): 3 rounds of a ring
! exchange with MPI_Send/MPI_Recv (even ranks send first), MPI_Irecv/MPI_Isend/MPI_Waitall and
! MPI_Barrier, then one MPI_Allreduce; rank 0 prints the sum of the ranks.
program ring
  use mpi
  implicit none
  integer :: ierr, rank, nranks, right, left, i, buf(4), req(2)
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
  double precision :: x, y
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  buf = rank
  do i = 1, 3
    if (mod(rank, 2) == 0) then
      call MPI_Send(buf, 4, MPI_INTEGER, right, i, MPI_COMM_WORLD, ierr)
      call MPI_Recv(buf, 4, MPI_INTEGER, left, i, MPI_COMM_WORLD, st, ierr)
    else
      call MPI_Recv(buf, 4, MPI_INTEGER, left, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_Send(buf, 4, MPI_INTEGER, right, i, MPI_COMM_WORLD, ierr)
    end if
    call MPI_Irecv(buf(3), 2, MPI_INTEGER, left, 10 + i, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Isend(buf(1), 2, MPI_INTEGER, right, 10 + i, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Waitall(2, req, sts, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  x = rank
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, f6.1)', 'sum ', y
  call MPI_Finalize(ierr)
end program ring
