#!/usr/bin/env bash
# Fortran applications under Open MPI and MPICH: tests/mpi/fortran/calls.f90 (`use mpi`) makes the
# same calls as its C twin calls.c, with every kind of argument the tracer converts from Fortran
# (statuses and STATUS(ES)_IGNORE, request arrays, 1-based indices, LOGICAL flags, address-sized
# integers, MPI_IN_PLACE, MPI-IO CHARACTER arguments). Both traces must hold the same events per
# rank (time stamps and the variable number of MPI_Test* calls aside), and the Fortran trace the
# counts made by hand. The same for calls.f90 built with -fno-underscoring and -fsecond-underscore
# (external names mpi_<name>, mpi_<name>__), and upper.c's MPI_SEND / MPI_RECV calls.
# mpi_f08 (calls.f90 with mpi_f08's declarations): traced the same under Open MPI; MPICH's
# bypasses the tracer, which must say so and leave no archive.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
SRC="$MV_SRC/tests/mpi/fortran"
# the same program with the mpi_f08 module: handles and statuses of derived types
awk 'BEGIN { f08 = "  use mpi_f08\n  use, intrinsic :: iso_c_binding, only: c_ptr\n  implicit none\n" \
  "  integer :: ierr, rank, nprocs, provided, left, right, idx, outcount, n, color, i\n" \
  "  type(MPI_Comm) :: half, dup, cart\n  type(MPI_Group) :: world_group, right_group, left_group\n" \
  "  type(MPI_Win) :: win, win2\n  integer :: buf(8), rbuf(8), counts(64), displs(64), gathered(64)\n" \
  "  type(MPI_Request) :: req(2), preq(2), rreq\n  integer :: one(1), idxs(2)\n" \
  "  type(MPI_Status) :: st, sts(2)\n  integer(kind=MPI_ADDRESS_KIND) :: winsize, disp\n" \
  "  type(c_ptr) :: baseptr\n  integer :: dims(1)\n  logical :: periods(1), flag\n" \
  "  type(MPI_File) :: fh\n  integer(kind=MPI_OFFSET_KIND) :: off\n" \
  "  type(MPI_Request) :: many(20)\n  type(MPI_Status) :: manyst(20)\n  integer :: big(20), k" }
  /! declarations/ { print; printf "%s\n", f08; skip = 1; next }
  /! end of declarations/ { skip = 0 }
  !skip' "$SRC/calls.f90" >"$WORK/calls-f08.f90"

# events: one line per event without its time stamp, sorted (per rank through the location column)
events() {
  otf2-print "$1/traces.otf2" 2>/dev/null |
    awk '$1 ~ /^[A-Z_]+$/ && $2 ~ /^[0-9]+$/ { $3 = ""; print }' | grep -v 'Region: "MPI_Test' | sort
}
# same_events LABEL C_DIR F_DIR
same_events() {
  events "$2" >"$2.events"
  events "$3" >"$3.events"
  [ -s "$2.events" ] || { fail "$1: the C trace has no events"; return; }
  diff "$2.events" "$3.events" >"$3.diff" ||
    fail "$1: events differ from the C twin's ($(wc -l <"$3.diff") diff lines, first: $(sed -n 2p "$3.diff"))"
}
# per rank (4 ranks), counted from calls.f90: Irecv 8 (Waitall 2, Waitany, Waitsome, Testany, Test,
# Recv_init started twice) + 20 (two Waitall of 20 requests), Isend 5 + 20, blocking receives 1
# (+2 on rank 1), Put 1 + Rput 1, ...
WANT="Enter:MPI_Init_thread=4 Enter:MPI_Finalize=4 MPI_IRECV=112 MPI_IRECV_REQUEST=112 MPI_ISEND=100
  MPI_ISEND_COMPLETE=100 MPI_RECV=6 MPI_SEND=18 RMA_PUT=8 RMA_GET=4 RMA_ATOMIC=8 RMA_WIN_CREATE=8
  Enter:MPI_Cart_create=4 Enter:MPI_Comm_free=12 Enter:MPI_Waitany=4 Enter:MPI_Waitsome=4
  MPI_COLLECTIVE_END=52 RMA_GROUP_SYNC=16 RMA_REQUEST_LOCK=8 Enter:MPI_File_open=4
  Enter:MPI_File_write_at=4 Enter:MPI_File_read_at=4 Enter:MPI_File_close=4 Enter:MPI_File_delete=1"

check() {
  local flavor=$1 fc="mpifort.$1" dir="$WORK/$1"
  command -v "$fc" >/dev/null || { echo "skip $flavor: no $fc"; return; }
  build_program "$flavor" "$SRC/calls.c" "$dir-c" || return
  "$fc" -O1 -w -o "$dir-f" "$SRC/calls.f90" >"$dir-f.log" 2>&1 || { fail "$flavor: $fc calls.f90"; return; }
  "$fc" -O1 -w -o "$dir-f08" "$WORK/calls-f08.f90" >"$dir-f08.log" 2>&1 ||
    { fail "$flavor: $fc calls-f08.f90: $(tail -3 "$dir-f08.log")"; return; }
  trace_run "$flavor" "$dir-c.trace" -- "$dir-c" || return
  trace_run "$flavor" "$dir-f.trace" -- "$dir-f" || return
  counts "$dir-f.trace" >"$dir-f.counts" || { fail "$flavor Fortran: otf2-print cannot read the archive"; return; }
  expect "$flavor Fortran" "$dir-f.counts" "$WANT"
  balanced "$flavor Fortran" "$dir-f.counts"
  local t
  for t in Test Testany; do  # LOGICAL flags: each loop ran at least once per rank
    [ "$(awk -v k="Enter:MPI_$t" '$1 == k { print $2 }' "$dir-f.counts")" -ge 4 ] 2>/dev/null ||
      fail "$flavor Fortran: fewer than 4 MPI_$t calls"
  done
  same_events "$flavor Fortran (use mpi)" "$dir-c.trace" "$dir-f.trace"
  # the other external-name spellings: mpi_send (-fno-underscoring), mpi_send__
  # (-fsecond-underscore), MPI_SEND (upper.c: gfortran cannot make upper-case names)
  local flag symbol
  while read -r flag symbol; do
    "$fc" -O1 -w "$flag" -o "$dir-f$symbol" "$SRC/calls.f90" >"$dir-f$symbol.log" 2>&1 ||
      { fail "$flavor: $fc $flag calls.f90: $(tail -3 "$dir-f$symbol.log")"; continue; }
    nm "$dir-f$symbol" | grep -q " U $symbol\$" || { fail "$flavor $flag: the program does not call $symbol"; continue; }
    trace_run "$flavor" "$dir-f$symbol.trace" -- "$dir-f$symbol" || continue
    same_events "$flavor Fortran ($symbol)" "$dir-c.trace" "$dir-f$symbol.trace"
  done <<<"-fno-underscoring mpi_send
-fsecond-underscore mpi_send__"
  "$fc" -O1 -w -o "$dir-upper" "$SRC/upper.c" >"$dir-upper.log" 2>&1 || { fail "$flavor: $fc upper.c"; return; }
  NP=2 trace_run "$flavor" "$dir-upper.trace" -- "$dir-upper" || return
  counts "$dir-upper.trace" >"$dir-upper.counts" || { fail "$flavor MPI_SEND: otf2-print"; return; }
  expect "$flavor MPI_SEND, MPI_RECV" "$dir-upper.counts" "Enter:MPI_Send@0=3 Enter:MPI_Recv@1=3 MPI_SEND=3 MPI_RECV=3"
  if [ "$flavor" = openmpi ]; then
    trace_run "$flavor" "$dir-f08.trace" -- "$dir-f08" || return
    same_events "$flavor Fortran (mpi_f08)" "$dir-c.trace" "$dir-f08.trace"
  else
    # shellcheck disable=SC2046
    timeout 120 "$MPIVET" trace -o "$dir-f08.trace" --mpi "$flavor" -- $(launcher "$flavor") "$dir-f08" \
      </dev/null >"$dir-f08.log" 2>&1
    local rc=$?
    [ "$rc" = 3 ] || fail "$flavor mpi_f08: mpivet trace exit $rc, expected 3 (no trace)"
    [ ! -e "$dir-f08.trace/traces.otf2" ] || fail "$flavor mpi_f08: an archive was written"
    grep -q "mpi_f08 bindings do not go through the tracer" "$dir-f08.log" ||
      fail "$flavor mpi_f08: no message saying that the run is not traced"
  fi
}

for flavor in openmpi mpich; do
  have_flavor "$flavor" && check "$flavor"
done
finish
