#!/bin/bash
# `mpivet analyze --verbose` prints the wall time of each of its four passes on stderr (one line
# each, in seconds) and the memory kept for the backward passes (counts checked by hand), and
# leaves the report on stdout unchanged; with --np it is refused (exit 2).
set -u
work=$(mktemp -d /tmp/mv-analyze-verbose-XXXXXX)
trap 'rm -rf "$work"' EXIT
"$MV_BUILD/bin/mv-otf2-synth" stencil "$work/t" 4 50 20000 || { echo "FAIL: synth"; exit 1; }
"$MPIVET" analyze "$work/t" > "$work/plain.txt" 2>/dev/null || { echo "FAIL: analyze"; exit 1; }
"$MPIVET" analyze "$work/t" --verbose > "$work/verbose.txt" 2> "$work/err.txt" || { echo "FAIL: --verbose"; exit 1; }
cmp -s "$work/plain.txt" "$work/verbose.txt" || { echo "FAIL: --verbose changed the report"; exit 1; }
fail=0
for pass in "1, read and replay (wait states)" "2, merge parts" "3, root causes (delay costs)" "4, critical path"; do
  line=$(grep -F "mpivet analyze: pass $pass: " "$work/err.txt")
  [[ "${line##*: }" =~ ^[0-9]+\.[0-9]{3}\ s$ ]] || { echo "FAIL: no line for pass $pass"; fail=1; }
done
# The memory kept for the backward passes, counted by hand from mv-otf2-synth's stencil (4 ranks,
# 50 iterations, every Enter and Leave at a time of its own): per rank main's Enter and Leave (2),
# per iteration the Enters and Leaves of iteration, compute, kernel, 4 MPI_Isend and MPI_Waitall
# (16), every 10th iteration an MPI_Allreduce (2): 4 x (2 + 50 x 16 + 5 x 2) = 3248 timeline
# points; synchronization points: both sides of every wait state and 4 x 5 = 20 members' calls of
# the Allreduces; 4 x 4 x 50 = 800 messages.
kept=$(grep -F "mpivet analyze: kept for the backward passes: " "$work/err.txt")
if [[ "$kept" =~ :\ 3248\ timeline\ points\ \(0\.039\ MB\),\ ([0-9]+)\ wait\ states\ \([0-9.]+\ MB\),\ ([0-9]+)\ synchronization\ points\ \([0-9.]+\ MB\),\ 800\ messages\ \(0\.019\ MB\):\ [0-9.]+\ MB,\ [0-9.]+\ bytes\ per\ event$ ]]; then
  waits=${BASH_REMATCH[1]} syncs=${BASH_REMATCH[2]}
  [ "$waits" -gt 0 ] && [ "$syncs" = $((2 * waits + 20)) ] ||
    { echo "FAIL: $syncs synchronization points for $waits wait states, want 2 x $waits + 20"; fail=1; }
else
  echo "FAIL: kept: '$kept', want 3248 points, 2 x waits + 20 synchronization points, 800 messages"; fail=1
fi
for kind in "wait states" "synchronization points"; do
  grep -q "mpivet analyze: $kind in a temporary file in .*, 0 out of order by more than a block$" "$work/err.txt" ||
    { echo "FAIL: no line for the $kind' file"; fail=1; }
done
"$MPIVET" analyze "$work/t" --verbose --np 2 >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || { echo "FAIL: --verbose --np 2 exit $rc, expected 2"; fail=1; }
[ $fail = 0 ] && { cat "$work/err.txt"; echo "ok"; }
exit $fail
