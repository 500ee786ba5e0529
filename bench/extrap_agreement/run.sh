#!/bin/sh
# Agreement of mpivet's models with Extra-P 4.2.5's on Extra-P's own text corpus
# (tests/data/extrap/text): runs bench/extrap_agreement/compare.py over reference.tsv and prints one
# line per series, the reason for every difference, and the agreement ratio.
# Usage: bench/extrap_agreement/run.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
[ -x "$build/bin/mpivet" ] || { echo "run.sh: $build/bin/mpivet missing: build mpivet first (make)" >&2; exit 2; }
exec python3 "$here/compare.py" "$build/bin/mpivet" "$src/tests/data/extrap/text" "$here/reference.tsv" "$@"
