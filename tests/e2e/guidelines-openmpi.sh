#!/bin/bash
# `mpivet guidelines` on real measurements: two short launches of mpivet-bench under Open MPI
# (4 ranks, the 9 collectives and 15 mock-ups at 2 sizes). Two launch medians a side can never
# give p < 0.05: every comparison is undecidable, exit 2 with the alternatives named (issue 15
# item 8). With --per raw (10 repetitions a side) every guideline must be evaluated (timings on
# a loaded 2-core machine decide nothing here, so either verdict is fine).
set -u
: "${MPIVET:?}" "${MV_BUILD:?}"
bench=$MV_BUILD/lib/mpivet/openmpi/mpivet-bench
[ -x "$bench" ] && command -v mpirun.openmpi > /dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ops=MPI_Allgather,MPI_Allreduce,MPI_Bcast,MPI_Gather,MPI_Reduce,MPI_Reduce_scatter,MPI_Reduce_scatter_block,MPI_Scan,MPI_Scatter,mockups
for r in 0 1; do
  timeout 300 mpirun.openmpi --oversubscribe -np 4 "$bench" --ops "$ops" --msizes 8,1024 --reps 5 \
    --start barrier --engine mpirun --ppn 4 --out "$tmp/l$r.csv" > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
  awk -F, -v OFS=, -v r=$r 'NR == 1 { if (r == 0) print; next } { $1 = r; print }' "$tmp/l$r.csv" >> "$tmp/results.csv"
done
"$MPIVET" guidelines "$tmp/results.csv" > "$tmp/r2.txt" 2> "$tmp/r2.err"; rc=$?
# exit 2 (nothing decided), or 1 when a split-robustness violation (medians, no test) shows
[ $rc -eq 2 ] || { [ $rc -eq 1 ] && grep -q "^  split " "$tmp/r2.txt"; } ||
  { echo "FAIL: R = 2 launch medians: exit $rc, want 2"; cat "$tmp/r2.txt"; exit 1; }
grep -q "undecidable with R = 2 launches .*needs at least 4 launches per side at alpha 0.05" "$tmp/r2.txt" &&
  grep -q -- "--per raw" "$tmp/r2.txt" && ! grep -q "^  undecid.*p_value\|^  pattern \|^  monotony " "$tmp/r2.txt" ||
  { echo "FAIL: R = 2: no undecidable note"; cat "$tmp/r2.txt" "$tmp/r2.err"; exit 1; }
[ $rc -eq 1 ] || grep -q "could be decided" "$tmp/r2.err" || { echo "FAIL: no message"; exit 1; }
# sizes in undecidable lines carry their unit (issue 16 item 7): "msize 1 KiB vs 8 B"
grep -Eq "^  undecidable .* msize [0-9.]+ (B|KiB)[: ]" "$tmp/r2.txt" &&
  ! grep -Eq "^  undecidable .* msize [0-9]+( vs [0-9]+)?:" "$tmp/r2.txt" ||
  { echo "FAIL: undecidable sizes without unit"; grep "^  undecidable" "$tmp/r2.txt"; exit 1; }
grep -q "^no violation$" "$tmp/r2.txt" && { echo "FAIL: R = 2 says no violation"; exit 1; }
"$MPIVET" guidelines --per raw --json "$tmp/results.csv" > "$tmp/out.json"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || { echo "FAIL: exit $rc"; exit 1; }
grep -q '"pattern": {' "$tmp/out.json" || { echo "FAIL: no summary"; cat "$tmp/out.json"; exit 1; }
tr -d ' \n' < "$tmp/out.json" | grep -q '"pattern":{"violated":[0-9]*,"evaluated":15}' ||
  { echo "FAIL: not every pattern guideline was evaluated"; cat "$tmp/out.json"; exit 1; }
tr -d ' \n' < "$tmp/out.json" | grep -q '"monotony":{"violated":[0-9]*,"evaluated":9}' ||
  { echo "FAIL: not every monotony function was evaluated"; exit 1; }
exit 0
