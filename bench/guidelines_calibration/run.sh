#!/bin/sh
# Build and run the statistical calibration of `mpivet guidelines` against a built tree and
# write the figures to docs/guidelines-calibration.txt.
# Usage: bench/guidelines_calibration/run.sh [BUILD_DIR] [CASES]   (defaults: build, 10000)
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build}
cases=${2:-10000}
lib=$build/lib
for l in mv_guidelines mv_stats mv_common; do
  [ -f "$lib/lib$l.a" ] || { echo "run.sh: $lib/lib$l.a missing: build mpivet first" >&2; exit 2; }
done
exe=$(mktemp /tmp/mv-calibrate.XXXXXX)
trap 'rm -f "$exe"' EXIT
${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$src/include" \
  "$src/bench/guidelines_calibration/calibrate.c" -o "$exe" \
  "$lib/libmv_guidelines.a" "$lib/libmv_stats.a" "$lib/libmv_common.a" $(pkg-config --libs gsl) -lm
"$exe" "$cases" | tee "$src/docs/guidelines-calibration.txt"
