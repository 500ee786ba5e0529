#!/usr/bin/env bash
# The wrappers' fast path (hooks.h, mv__fast_begin: MPI_Send/Bsend/Ssend/Rsend/Recv called again
# from the same call site) must record exactly what the general path records. fastpath.c traced
# twice on 4 ranks: with the TSC clock (the fast path serves every repeated call) and with
# MPIVET_TRACE_CLOCK=monotonic (the fast path is off: every call takes the general path); each
# rank's events, in order, with their attributes (the call site) and without time stamps, must
# be identical, and their counts the ones made by hand from fastpath.c. Open MPI and MPICH.
# (That the fast path is taken at all is shown by trace-crash.sh: a fast send that blocks when
# the rank dies leaves no record, a general one does.)
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
grep -q constant_tsc /proc/cpuinfo || { echo "no invariant TSC: the fast path is never taken here"; exit 77; }

# events DIR: every event of the archive on one line (its attribute line joined), no time stamp,
# grouped by rank in the order recorded
events() {
  otf2-print "$1/traces.otf2" 2>/dev/null | awk '
    $1 ~ /^[A-Z_]+$/ && $2 ~ /^[0-9]+$/ { if (line != "") print line; $3 = ""; line = $0; next }
    /ADDITIONAL ATTRIBUTES/ && line != "" { sub(/^[ \t]+/, ""); line = line " | " $0 }
    END { if (line != "") print line }' | sort -s -k2,2n
}

# per rank, from fastpath.c (6 iterations): MPI_Send 6 + 6 to MPI_PROC_NULL, MPI_Rsend 6,
# MPI_Bsend 12, MPI_Ssend 3 on rank 0; MPI_Recv 6 + 6 from MPI_PROC_NULL + 12, 3 more on rank 1.
# Message events leave out MPI_PROC_NULL: MPI_SEND 6 + 6 + 12 (+3 on rank 0), MPI_RECV 6 + 12
# (+3 on rank 1).
WANT="Enter:MPI_Send=48 Enter:MPI_Rsend=24 Enter:MPI_Bsend=48 Enter:MPI_Ssend=3 Enter:MPI_Recv=99
  MPI_SEND=99 MPI_RECV=75 MPI_SEND@0=27 MPI_RECV@1=21 Enter:MPI_Ssend@1=0 MPI_SEND@3=24"

for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  prog="$WORK/fastpath-$flavor"
  build_program "$flavor" "$MV_SRC/tests/mpi/fastpath.c" "$prog" || continue
  fast="$WORK/$flavor-fast" general="$WORK/$flavor-general"
  trace_run "$flavor" "$fast" -- "$prog" || continue
  MPIVET_TRACE_CLOCK=monotonic trace_run "$flavor" "$general" -- "$prog" || continue
  counts "$fast" >"$fast.counts" || { fail "$flavor: otf2-print cannot read the archive"; continue; }
  expect "$flavor fast path" "$fast.counts" "$WANT"
  balanced "$flavor fast path" "$fast.counts"
  events "$fast" >"$fast.events"
  events "$general" >"$general.events"
  grep -q 'Region: "MPI_Send".*mpivet::callsite' "$fast.events" ||
    fail "$flavor: no call-site attribute on the events of MPI_Send"
  diff "$general.events" "$fast.events" >"$fast.diff" ||
    fail "$flavor: fast-path events differ from the general path's ($(grep -c '^[<>]' "$fast.diff") lines, first: $(grep -m1 '^[<>]' "$fast.diff"))"
done
finish
