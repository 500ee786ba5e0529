! The Fortran side of tests/mpi/trace-fortran.sh (with `use mpi`): every kind of argument the
! tracer converts from Fortran (handles, handle arrays, statuses and STATUS(ES)_IGNORE, 1-based
! indices, LOGICAL flags, address-sized integers). calls.c makes the same calls in C; the test
! also builds this program with the mpi_f08 module by swapping the declarations.
program calls
  ! declarations (trace-fortran.sh puts mpi_f08's in their place: same calls, other types)
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, provided, left, right, idx, outcount, n, color
  integer :: half, dup, cart, world_group, right_group, left_group, win, win2, i
  integer :: buf(8), rbuf(8), counts(64), displs(64), gathered(64)
  integer :: req(2), preq(2), rreq, one(1), idxs(2)
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
  integer(kind=MPI_ADDRESS_KIND) :: winsize, disp, baseptr
  integer :: dims(1)
  logical :: periods(1), flag
  integer :: fh
  integer(kind=MPI_OFFSET_KIND) :: off
  integer :: many(20), big(20), manyst(MPI_STATUS_SIZE, 20), k
  ! end of declarations

  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  buf = rank
  rbuf = 0

  ! blocking point-to-point: a status, MPI_STATUS_IGNORE, a probe
  call MPI_Sendrecv(buf, 2, MPI_INTEGER, right, 1, rbuf, 2, MPI_INTEGER, left, 1, &
                    MPI_COMM_WORLD, st, ierr)
  if (rank == 0) then
    call MPI_Send(buf, 3, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, ierr)
    call MPI_Ssend(buf, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(rbuf, 8, MPI_INTEGER, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, st, ierr)
    call MPI_Probe(0, 3, MPI_COMM_WORLD, st, ierr)
    call MPI_Recv(rbuf, 8, MPI_INTEGER, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! non-blocking: Waitall with statuses and with MPI_STATUSES_IGNORE
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, left, 4, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(buf, 4, MPI_INTEGER, right, 4, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, sts, ierr)
  call MPI_Irecv(rbuf, 5, MPI_INTEGER, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Issend(buf, 5, MPI_INTEGER, right, 5, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  ! 1-based indices: the request sits second, after MPI_REQUEST_NULL
  call MPI_Isend(buf, 1, MPI_INTEGER, right, 6, MPI_COMM_WORLD, rreq, ierr)
  req(1) = MPI_REQUEST_NULL
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 6, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitany(2, req, idx, st, ierr)
  call MPI_Wait(rreq, MPI_STATUS_IGNORE, ierr)
  if (idx /= 2) print *, 'calls: MPI_Waitany returned index', idx
  call MPI_Irecv(rbuf, 2, MPI_INTEGER, left, 7, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Send(buf, 2, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
  call MPI_Waitsome(2, req, outcount, idxs, sts, ierr)
  ! LOGICAL flags (the number of tests varies; the test counts their completions)
  call MPI_Irecv(rbuf, 3, MPI_INTEGER, rank, 8, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Send(buf, 3, MPI_INTEGER, rank, 8, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testany(2, req, idx, flag, st, ierr)
  end do
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, rreq, ierr)
  call MPI_Send(buf, 1, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(rreq, flag, st, ierr)
  end do

  ! persistent requests: Startall and Start
  call MPI_Send_init(buf, 2, MPI_INTEGER, right, 10, MPI_COMM_WORLD, preq(1), ierr)
  call MPI_Recv_init(rbuf, 2, MPI_INTEGER, left, 10, MPI_COMM_WORLD, preq(2), ierr)
  call MPI_Startall(2, preq, ierr)
  call MPI_Waitall(2, preq, MPI_STATUSES_IGNORE, ierr)
  call MPI_Start(preq(2), ierr)
  call MPI_Start(preq(1), ierr)
  call MPI_Waitall(2, preq, sts, ierr)
  call MPI_Request_free(preq(1), ierr)
  call MPI_Request_free(preq(2), ierr)

  ! more requests than the tracer converts on its stack (16): its heap copies
  do k = 1, 2
    do i = 1, 10
      call MPI_Irecv(big(i), 1, MPI_INTEGER, left, 20 + i, MPI_COMM_WORLD, many(i), ierr)
      call MPI_Isend(buf, 1, MPI_INTEGER, right, 20 + i, MPI_COMM_WORLD, many(10 + i), ierr)
    end do
    if (k == 1) then
      call MPI_Waitall(20, many, manyst, ierr)
    else
      call MPI_Waitall(20, many, MPI_STATUSES_IGNORE, ierr)
    end if
  end do

  ! collectives, one with MPI_IN_PLACE
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Bcast(buf, 3, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(buf, rbuf, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, buf, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call MPI_Gather(buf, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 2, MPI_COMM_WORLD, ierr)
  do i = 1, nprocs
    counts(i) = i
    displs(i) = (i - 1) * 8
  end do
  call MPI_Gatherv(buf, rank + 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, 0, &
                   MPI_COMM_WORLD, ierr)
  call MPI_Allgatherv(buf, rank + 1, MPI_INTEGER, gathered, counts, displs, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  call MPI_Alltoall(buf, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter_block(gathered, rbuf, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Scan(buf, rbuf, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)

  ! communicators and groups
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, rank, half, ierr)
  call MPI_Allreduce(buf, rbuf, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  call MPI_Comm_dup(half, dup, ierr)
  call MPI_Barrier(dup, ierr)
  dims(1) = nprocs
  periods(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call MPI_Bcast(buf, 1, MPI_INTEGER, 0, cart, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  one(1) = right
  call MPI_Group_incl(world_group, 1, one, right_group, ierr)
  one(1) = left
  call MPI_Group_incl(world_group, 1, one, left_group, ierr)

  ! RMA: fence, post/start/complete/wait, locks, request-based operations
  winsize = 8 * 4
  disp = 1
  call MPI_Win_create(rbuf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(buf, 2, MPI_INTEGER, right, disp, 2, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_post(left_group, 0, win, ierr)
  call MPI_Win_start(right_group, 0, win, ierr)
  call MPI_Get(buf, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_complete(win, ierr)
  call MPI_Win_wait(win, ierr)
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win, ierr)
  call MPI_Accumulate(buf, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_unlock(right, win, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_Win_allocate(winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win2, ierr)
  call MPI_Win_lock_all(0, win2, ierr)
  call MPI_Rput(buf, 1, MPI_INTEGER, left, disp, 1, MPI_INTEGER, win2, rreq, ierr)
  call MPI_Wait(rreq, MPI_STATUS_IGNORE, ierr)
  call MPI_Fetch_and_op(buf, rbuf, MPI_INTEGER, right, disp, MPI_SUM, win2, ierr)
  call MPI_Win_flush(right, win2, ierr)
  call MPI_Win_unlock_all(win2, ierr)
  call MPI_Win_free(win2, ierr)
  call MPI_Group_free(left_group, ierr)
  call MPI_Group_free(right_group, ierr)
  call MPI_Group_free(world_group, ierr)

  ! MPI-IO (CHARACTER arguments: their hidden lengths are passed on)
  call MPI_File_open(MPI_COMM_WORLD, 'mpivet-calls.tmp', ior(MPI_MODE_CREATE, MPI_MODE_RDWR), &
                     MPI_INFO_NULL, fh, ierr)
  off = rank * 16
  call MPI_File_write_at(fh, off, buf, 4, MPI_INTEGER, st, ierr)
  call MPI_File_read_at(fh, off, rbuf, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_File_close(fh, ierr)
  if (rank == 0) call MPI_File_delete('mpivet-calls.tmp', MPI_INFO_NULL, ierr)
  n = provided
  call MPI_Finalize(ierr)
end program calls
