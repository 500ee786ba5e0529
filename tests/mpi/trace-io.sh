#!/usr/bin/env bash
# MPI-IO in OTF2's I/O model: tests/mpi/io.c on 4 ranks (Open MPI and MPICH) must run correctly
# traced and record, on every rank and in this order, IoCreateHandle (read-write, created),
# IoOperationBegin/Complete of a 16-byte write and read, an 8-byte collective write and read,
# Begin/Issued/Complete of a 4-byte non-blocking write and read (completed in MPI_Wait), an
# IoSeek to rank x 4 from the start, a 4-byte write, a flush (MPI_File_sync) and
# IoDestroyHandle; rank 0 an IoDeleteFile after. Every Complete carries its Begin's matching
# id. Definitions: the MPI-IO paradigm, one regular file (the path), one handle per rank on
# MPI_COMM_WORLD. `mpivet analyze` reads the archive and reports File I/O time.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

# io_events DIR RANK: that rank's I/O events, handle and matching id left out
io_events() {
  otf2-print "$1/traces.otf2" 2>/dev/null | awk -v r="$2" '$1 ~ /^IO_/ && $2 == r {
    line = $1; for (i = 4; i <= NF; i++) line = line " " $i
    sub(/Handle: "[^"]*" <[0-9]+>, /, "", line); sub(/Handle: "[^"]*" <[0-9]+>/, "", line)
    sub(/,? ?Matching Id: [0-9]+/, "", line); sub(/I\/O Paradigm: "[^"]*" <[0-9]+>, /, "", line)
    sub(/ +$/, "", line)
    print line }'
}
expected() {
  local r=$1
  cat <<E
IO_CREATE_HANDLE Access Mode: READ_WRITE, Creation Flags: {CREATE}, Status Flags: NONE
IO_OPERATION_BEGIN Mode: WRITE, Operation Flags: NONE, Bytes Request: 16
IO_OPERATION_COMPLETE Bytes Result: 16
IO_OPERATION_BEGIN Mode: READ, Operation Flags: NONE, Bytes Request: 16
IO_OPERATION_COMPLETE Bytes Result: 16
IO_OPERATION_BEGIN Mode: WRITE, Operation Flags: {COLLECTIVE}, Bytes Request: 8
IO_OPERATION_COMPLETE Bytes Result: 8
IO_OPERATION_BEGIN Mode: READ, Operation Flags: {COLLECTIVE}, Bytes Request: 8
IO_OPERATION_COMPLETE Bytes Result: 8
IO_OPERATION_BEGIN Mode: WRITE, Operation Flags: {NON_BLOCKING}, Bytes Request: 4
IO_OPERATION_ISSUED
IO_OPERATION_COMPLETE Bytes Result: 4
IO_OPERATION_BEGIN Mode: READ, Operation Flags: {NON_BLOCKING}, Bytes Request: 4
IO_OPERATION_ISSUED
IO_OPERATION_COMPLETE Bytes Result: 4
IO_SEEK Offset Request: $((r * 4)), Whence: FROM_START, Offset Result: $((r * 4))
IO_OPERATION_BEGIN Mode: WRITE, Operation Flags: NONE, Bytes Request: 4
IO_OPERATION_COMPLETE Bytes Result: 4
IO_OPERATION_BEGIN Mode: FLUSH, Operation Flags: NONE, Bytes Request: 0
IO_OPERATION_COMPLETE Bytes Result: 0
IO_DESTROY_HANDLE
E
  [ "$r" = 0 ] && echo "IO_DELETE_FILE File: \"file://$WORK/data/data.bin\" <0>"
}

for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  prog="$WORK/io-$flavor" dir="$WORK/$flavor-io"
  build_program "$flavor" "$MV_SRC/tests/mpi/io.c" "$prog" || continue
  rm -rf "$WORK/data" && mkdir -p "$WORK/data"
  trace_run "$flavor" "$dir" -- "$prog" "$WORK/data" || continue
  grep -q "^ok" "$dir.log" || fail "$flavor: io.c read wrong data traced: $(tail -3 "$dir.log")"
  for r in 0 1 2 3; do
    diff <(expected "$r") <(io_events "$dir" "$r") >"$dir.diff.$r" ||
      fail "$flavor rank $r: I/O events differ from io.c's: $(grep '^[<>]' "$dir.diff.$r" | head -3 | tr '\n' ' ')"
  done
  # each Begin's matching id is completed once, by the same handle
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk '$1 == "IO_OPERATION_BEGIN" || $1 == "IO_OPERATION_COMPLETE" {
      match($0, /Handle: "[^"]*" <[0-9]+>/); h = substr($0, RSTART, RLENGTH)
      match($0, /Matching Id: [0-9]+/); k = $2 " " h " " substr($0, RSTART, RLENGTH)
      n[k] += $1 == "IO_OPERATION_BEGIN" ? 1 : 10 }
    END { for (k in n) if (n[k] != 11) { print k; bad = 1 } ; exit bad }' >"$dir.pairs" ||
    fail "$flavor: unpaired I/O operations: $(head -2 "$dir.pairs" | tr '\n' ' ')"
  defs=$(otf2-print -G "$dir/traces.otf2" 2>/dev/null)
  grep -q '^IO_PARADIGM .*Identification: "MPI-IO"' <<<"$defs" || fail "$flavor: no MPI-IO paradigm definition"
  [ "$(grep -c "^IO_REGULAR_FILE .*Name: \"$WORK/data/data.bin\"" <<<"$defs")" = 1 ] ||
    fail "$flavor: not one regular file definition for data.bin"
  [ "$(grep -c '^IO_HANDLE .*Communicator: "MPI_COMM_WORLD"' <<<"$defs")" = 4 ] ||
    fail "$flavor: not 4 I/O handles on MPI_COMM_WORLD"
  # mpivet analyze puts the time of the MPI_File_* calls under File I/O
  "$MPIVET" analyze "$dir" >"$dir.analysis" 2>&1 || fail "$flavor: mpivet analyze failed: $(tail -2 "$dir.analysis")"
  awk '$1 == "File" && $2 == "I/O" { found = 1; if ($3 + 0 <= 0) exit 1 } END { exit !found }' "$dir.analysis" ||
    fail "$flavor: no File I/O time in the analysis: $(grep -m1 'File I/O' "$dir.analysis")"
done
finish
