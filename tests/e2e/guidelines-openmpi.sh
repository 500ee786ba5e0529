#!/bin/bash
# `mpivet guidelines` on real measurements: two short launches of mpivet-bench under Open MPI
# (4 ranks, the 9 collectives and 15 mock-ups at 2 sizes), then every guideline must be
# evaluated (timings on a loaded 2-core machine decide nothing here, so either verdict is fine).
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
"$MPIVET" guidelines --json "$tmp/results.csv" > "$tmp/out.json"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || { echo "FAIL: exit $rc"; exit 1; }
grep -q '"pattern": {' "$tmp/out.json" || { echo "FAIL: no summary"; cat "$tmp/out.json"; exit 1; }
tr -d ' \n' < "$tmp/out.json" | grep -q '"pattern":{"violated":[0-9]*,"evaluated":15}' ||
  { echo "FAIL: not every pattern guideline was evaluated"; cat "$tmp/out.json"; exit 1; }
tr -d ' \n' < "$tmp/out.json" | grep -q '"monotony":{"violated":[0-9]*,"evaluated":9}' ||
  { echo "FAIL: not every monotony function was evaluated"; exit 1; }
exit 0
