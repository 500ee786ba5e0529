#!/usr/bin/env bash
# Crash test: rank 1 of crash-rank raises SIGSEGV at iteration 50 of 100 (ring MPI_Sendrecv +
# MPI_Barrier). `mpivet trace` must exit 3 (the application failed), and leave an archive that
# otf2-print reads, marked truncated (TRUNCATED file naming signal 11 on rank 1, OTF2 property
# MPIVET::TRUNCATED=true), holding rank 1's 50 completed MPI_Sendrecv calls.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  dir="$WORK/$flavor-crash"
  EXPECT_RC=3 trace_run "$flavor" "$dir" -- "$(example "$flavor" crash-rank)" 100 || continue
  counts "$dir" >"$dir.counts" || { fail "$flavor: otf2-print cannot read the truncated archive"; continue; }
  # ranks killed by the launcher (SIGKILL) before their first flush have no events: only
  # rank 1, whose signal handler flushed, is certain
  expect "$flavor crash" "$dir.counts" "Enter:MPI_Sendrecv@1=50 Enter:MPI_Init@1=1 Enter:MPI_Finalize=0"
  grep -q "rank 1: signal 11" "$dir/TRUNCATED" 2>/dev/null ||
    fail "$flavor: TRUNCATED does not name signal 11 on rank 1: $(cat "$dir/TRUNCATED" 2>&1)"
  grep -q "MPIVET::TRUNCATED" "$dir/traces.otf2" ||
    fail "$flavor: the anchor file lacks the MPIVET::TRUNCATED property"
  otf2-print -A "$dir/traces.otf2" 2>/dev/null | grep -A1 "MPIVET::TRUNCATED" | grep -q true ||
    fail "$flavor: MPIVET::TRUNCATED is not true"
done
finish
