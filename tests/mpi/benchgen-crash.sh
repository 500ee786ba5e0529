#!/usr/bin/env bash
# A compressed trace after a crash: rank 1 of crash-rank raises SIGSEGV at iteration 50 of 100
# (ring MPI_Sendrecv + MPI_Barrier, 4 ranks). mpivet-trace-finish writes compressed.mvt from the
# raw files as well: `benchgen --print` shows it marked TRUNCATED (naming signal 11 on rank 1)
# with rank 1's 50 iterations, and generating a benchmark from it is refused (exit 2,
# "did not reach MPI_Finalize"). The same file cut anywhere is refused with the byte offset.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

flavor=
for f in mpich openmpi; do have_flavor "$f" && { flavor=$f; break; }; done
[ -n "$flavor" ] || finish
d="$WORK/crash"
EXPECT_RC=3 trace_run "$flavor" "$d" -- "$(example "$flavor" crash-rank)" 100
[ -s "$d/compressed.mvt" ] || { fail "no compressed.mvt after the crash: $(tail -3 "$d.log")"; finish; }
"$MPIVET" benchgen "$d" --print >"$d.print" 2>&1 || fail "--print of the truncated trace: exit $?"
grep -q "^TRUNCATED: .*rank 1: signal 11" "$d.print" || fail "--print does not say truncated: $(head -3 "$d.print")"
# rank 1's class: its 50 completed iterations (MPI_Sendrecv, MPI_Barrier) before the crash
grep -A1 "^class [0-9]*: 1 rank: 1\$" "$d.print" | grep -q "100 calls per rank" ||
  fail "rank 1 does not have its 100 calls before the crash: $(grep -A1 "rank: 1\$" "$d.print")"
"$MPIVET" benchgen "$d" -o "$WORK/x.c" >"$d.gen" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "did not reach MPI_Finalize (.*rank 1: signal 11" "$d.gen" ||
  fail "benchgen of a truncated trace: exit $rc, expected 2 naming the crash: $(cat "$d.gen")"
[ -e "$WORK/x.c" ] && fail "a benchmark was written from a truncated trace"
size=$(stat -c %s "$d/compressed.mvt")
for cut in 3 12 $((size / 2)) $((size - 1)); do
  head -c "$cut" "$d/compressed.mvt" >"$WORK/cut.mvt"
  "$MPIVET" benchgen "$WORK/cut.mvt" --print >"$WORK/cut.out" 2>&1
  rc=$?
  [ "$rc" = 2 ] && grep -q "cut.mvt: byte [0-9]*: \(expected\|not a compressed\)" "$WORK/cut.out" ||
    fail "a compressed trace cut at $cut of $size bytes: exit $rc: $(cat "$WORK/cut.out")"
done
finish
