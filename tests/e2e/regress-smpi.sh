#!/usr/bin/env bash
# mpivet regress on SMPI campaigns: a rerun of the same configuration passes (exit 0), a planted
# 20% slowdown (every value of the new results x1.2) fails (exit 1) with one JUnit testcase per case.
set -euo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(--np 4:32 --ops MPI_Bcast,MPI_Allreduce --runs 4 --reps 3)
"$MPIVET" check "${args[@]}" --seed 1 -o "$work/old" > /dev/null 2>&1 || [ $? -eq 1 ]
"$MPIVET" check "${args[@]}" --seed 2 -o "$work/new" > /dev/null 2>&1 || [ $? -eq 1 ]
"$MPIVET" regress "$work/new" --baseline "$work/old" --junit "$work/rerun.xml" > "$work/rerun.txt"
awk -F, -v OFS=, 'NR == 1 || $9 != "time_s" { print; next } { $11 = $11 * 1.2; print }' \
  "$work/new/results.csv" > "$work/slow.csv"
rc=0
"$MPIVET" regress "$work/slow.csv" --baseline "$work/old" --junit "$work/slow.xml" > "$work/slow.txt" || rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: planted slowdown not flagged (exit $rc)"; cat "$work/slow.txt"; exit 1; }
cases=$(grep -c '<testcase ' "$work/slow.xml")
failures=$(grep -c '<failure ' "$work/slow.xml")
points=$(grep -c ' np=' "$work/slow.xml")
echo "rerun: $(head -1 "$work/rerun.txt")"
echo "planted 20%: $(head -1 "$work/slow.txt"); $failures of $cases testcases failed"
[ "$points" -eq 8 ] && [ "$failures" -ge 8 ] || { echo "FAIL: want all 8 point cases flagged"; exit 1; }
# medians in the metric's unit (issue 16 item 7), in the deterministic (SMPI) message too
t='[0-9.]+ (ns|µs|ms|s)'
[ "$(grep -Ec "slower than baseline: median $t vs baseline $t \\(x1.200" "$work/slow.txt")" -eq 8 ] ||
  { echo "FAIL: medians without units"; grep ' np=' "$work/slow.txt"; exit 1; }
echo ok
