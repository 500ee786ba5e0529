#!/usr/bin/env bash
# Prediction at 2 ranks: each program's own printed loop time, median of RUNS real Open MPI runs
# (mpirun, this machine) against `mpivet simulate` on the calibration CAL and on the uncalibrated
# default platform. Prints one line per program with both ratios predicted/real.
# Usage: predict.sh CAL [RUNS=5]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
cal=$1; runs=${2:-5}
mpivet=${MPIVET:-$top/build/bin/mpivet}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# name|source|arguments
programs=(
  "stencil-2d|$top/examples/stencil-2d.c|512 300"
  "mixed|$here/mixed.c|20 20000000"
)
loop_time() { grep -Eo '(loop|time) [0-9.]+ s' | head -1 | awk '{print $2}'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf "%-12s %12s %12s %8s %12s %8s\n" program "real (s)" "calibrated" ratio "default" ratio
for p in "${programs[@]}"; do
  IFS='|' read -r name src args <<< "$p"
  mpicc.openmpi -O2 -I"$top/include" -I"$top/examples" "$src" -o "$tmp/$name" -lm
  for r in $(seq "$runs"); do
    mpirun.openmpi --oversubscribe -np 2 "$tmp/$name" $args | loop_time
  done > "$tmp/$name.real"
  real=$(median < "$tmp/$name.real")
  cal_t=$("$mpivet" simulate --calibration "$cal" --np 2 --ppn 2 --cflag "-I$top/examples" "$src" -- $args | loop_time)
  def_t=$("$mpivet" simulate --np 2 --ppn 2 --cflag "-I$top/examples" "$src" -- $args | loop_time)
  printf "%-12s %12.4f %12.4f %8.3f %12.4g %8.3f\n" "$name" "$real" "$cal_t" \
    "$(echo "$cal_t / $real" | bc -l)" "$def_t" "$(echo "$def_t / $real" | bc -l)"
  echo "  real runs (s): $(tr '\n' ' ' < "$tmp/$name.real")"
done
