#!/bin/sh
# Build and run the modeler accuracy benchmark against a built tree, time `mpivet model` on
# 1000 kernels in one results.csv, and write the figures to docs/model-accuracy.txt.
# Usage: bench/model_accuracy/run.sh [BUILD_DIR] [SETS]   (defaults: build, 3)
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build}
sets=${2:-3}
lib=$build/lib
for l in mv_model mv_stats mv_common; do
  [ -f "$lib/lib$l.a" ] || { echo "run.sh: $lib/lib$l.a missing: build mpivet first" >&2; exit 2; }
done
[ -x "$build/bin/mpivet" ] || { echo "run.sh: $build/bin/mpivet missing" >&2; exit 2; }
tmp=$(mktemp -d /tmp/mv-model-acc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$src/include" \
  "$src/bench/model_accuracy/accuracy.c" -o "$tmp/accuracy" \
  "$lib/libmv_model.a" "$lib/libmv_stats.a" "$lib/libmv_common.a" $(pkg-config --libs gsl) -lm
"$tmp/accuracy" --csv "$tmp/k1000.csv"
{
  "$tmp/accuracy" "$sets" 1
  best=
  for i in 1 2 3; do
    t0=$(date +%s.%N)
    "$build/bin/mpivet" model --json "$tmp/k1000.csv" > "$tmp/out.json"
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  n=$(grep -c '"callpath"' "$tmp/out.json")
  printf 'end to end: mpivet model --json on %s kernels (results.csv, 5 points x 5 repetitions,\n' "$n"
  printf '+-5%% noise): best of 3 runs %.3f s (goal < 0.5 s)\n' "$best"
} | tee "$src/docs/model-accuracy.txt"
