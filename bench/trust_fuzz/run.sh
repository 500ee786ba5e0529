#!/usr/bin/env bash
# Issue 15's adversarial pass, the long run: argument fuzzing of every command for SECONDS each
# (tests/argv-fuzz.py), then ROUNDS signals at random moments into check, bench, convert, trace,
# benchgen and calibrate plus concurrent runs on one output (tests/signal-fuzz.bash). Prints what it
# found (each finding with the argv that reproduces it); exit 1 when anything was found.
#   bench/trust_fuzz/run.sh [BUILD [SECONDS [ROUNDS [SEED]]]]     e.g. run.sh build-asan 180 20 1
# BUILD is a build folder: build, or a sanitizer build of the CLI (README.md says how to make one);
# a build without MPI programs (MV_MPI_PROGRAMS=OFF) runs the normal build's (MPIVET_LIBEXEC).
# PARTS chooses parts (default all): argv signals_check signals_bench signals_convert
# signals_trace signals_benchgen signals_calibrate concurrent_all. Run it under nice -n 10, alone.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
seconds=${2:-180}
export ROUNDS=${3:-20} SEED=${4:-1}
PARTS=${PARTS:-argv signals_check signals_bench signals_convert signals_trace signals_benchgen \
signals_calibrate concurrent_all}
export MPIVET=$build/bin/mpivet MV_BUILD=$build MV_SRC=$src
[ -x "$MPIVET" ] || MPIVET=$(find "$build" -name mpivet -type f -perm -u+x | head -1)
if [ ! -d "$build/lib/mpivet" ]; then   # the MPI programs and the tracer of the normal build
  export MPIVET_LIBEXEC=$src/build/lib/mpivet MV_BUILD=$src/build
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export LSAN_OPTIONS=suppressions=$src/tests/fuzz/lsan.supp
echo "mpivet: $MPIVET; $seconds s per command, $ROUNDS signal rounds per command, seed $SEED"
echo "parts: $PARTS"
echo "load: $(uptime)"
status=0
t0=$(date +%s)
case " $PARTS " in
  *" argv "*)
    python3 "$src/tests/argv-fuzz.py" --mpivet "$MPIVET" --src "$src" --seed "$SEED" \
      --seconds "$seconds" --timeout 45 || status=1 ;;
esac
. "$src/tests/lib.bash"
KEEP_GOING=1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$src/tests/signal-fuzz.bash"
RANDOM=$SEED
ROUNDS_RUN=0
for part in $PARTS; do
  [ "$part" != argv ] || continue
  before=$ROUNDS_RUN fails=$FAILS start=$(date +%s)
  $part
  echo "$part: $((ROUNDS_RUN - before)) runs in $(($(date +%s) - start)) s, $((FAILS - fails)) finding(s)"
done
[ "$FAILS" -eq 0 ] || status=1
echo "signals and concurrent runs: $ROUNDS_RUN runs, $FAILS finding(s); all parts $(($(date +%s) - t0)) s"
echo "load: $(uptime)"
exit $status
