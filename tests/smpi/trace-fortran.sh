#!/usr/bin/env bash
# A Fortran application under SMPI (`use mpi`, built with smpif90 and linked with the tracer):
# tests/mpi/fortran/ring.f90 on 4 ranks. The tracer's Fortran entry points must record what the
# C wrappers record: the counts made by hand from ring.f90 (3 rounds of Send/Recv,
# Irecv/Isend/Waitall, Barrier, then Allreduce), the messages' peers, tags and lengths (read
# from a status asked for and from MPI_STATUS_IGNORE), and call sites in the application.
# Without the Fortran entry points no trace is written: SMPI's Fortran bindings call its C
# functions inside libsimgrid, which the tracer linked to the application does not interpose.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
command -v smpif90 >/dev/null || { echo "no smpif90"; exit 77; }
have_flavor smpi || finish

lib="$MV_BUILD/lib/mpivet/smpi" prog="$WORK/ring"
smpif90 -O1 -o "$prog" "$MV_SRC/tests/mpi/fortran/ring.f90" -L"$lib" -Wl,--no-as-needed -lmpivet-trace \
  -Wl,--as-needed -Wl,--disable-new-dtags,-rpath,"$lib" >"$prog.log" 2>&1 ||
  { fail "smpif90 ring.f90: $(tail -3 "$prog.log")"; finish; }
dir="$WORK/ring-trace"
if trace_run smpi "$dir" -- "$prog"; then
  grep -q "^sum *6.0" "$dir.log" || fail "ring.f90 did not run to its end: $(tail -3 "$dir.log")"
  counts "$dir" >"$dir.counts" || fail "otf2-print cannot read the archive"
  expect "smpi Fortran" "$dir.counts" "Enter:MPI_Init=4 Enter:MPI_Finalize=4 Enter:MPI_Send=12
    Enter:MPI_Recv=12 MPI_SEND=12 MPI_RECV=12 Enter:MPI_Irecv=12 Enter:MPI_Isend=12
    Enter:MPI_Waitall=12 MPI_ISEND=12 MPI_ISEND_COMPLETE=12 MPI_IRECV_REQUEST=12 MPI_IRECV=12
    Enter:MPI_Barrier=12 Enter:MPI_Allreduce=4 MPI_COLLECTIVE_END=16"
  balanced "smpi Fortran" "$dir.counts"
  # rank 0 receives with a status, rank 1 with MPI_STATUS_IGNORE: both from their left neighbour,
  # tags 1..3, 4 integers; the Irecv completions from the same peers, tags 11..13, 2 integers
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk '$1 == "MPI_RECV" || $1 == "MPI_IRECV" {
    match($0, /Sender: [0-9]+/); s = substr($0, RSTART + 8, RLENGTH - 8)
    match($0, /Tag: [0-9]+/); t = substr($0, RSTART + 5, RLENGTH - 5)
    match($0, /Length: [0-9]+/); l = substr($0, RSTART + 8, RLENGTH - 8)
    print $1, $2, s, t, l }' | sort | uniq -c | awk '{ $1 = $1; print }' >"$dir.messages"
  want=""
  for r in 0 1 2 3; do
    for i in 1 2 3; do
      want+="1 MPI_IRECV $r $(((r + 3) % 4)) 1$i 8"$'\n'"1 MPI_RECV $r $(((r + 3) % 4)) $i 16"$'\n'
    done
  done
  diff <(sort <<<"${want%$'\n'}") <(sort "$dir.messages") >"$dir.diff" ||
    fail "smpi Fortran: messages differ from ring.f90's: $(head -4 "$dir.diff" | tr '\n' ' ')"
  grep -q "ring+0x[0-9a-f]*(user_main_)\|ring+0x[0-9a-f]*(MAIN__)" "$dir/callsites.txt" ||
    fail "smpi Fortran: no call site in the application: $(sed -n 2,3p "$dir/callsites.txt")"
fi
finish
