#!/usr/bin/env bash
# Issue 15, items 4 and 5: `mpivet trace` never presents an old archive as new and never starts
# an application under the wrong tracer. A run that writes no trace (a non-MPI program, a bad
# --callstack, --record or --buffer the tracer refuses) says "no trace was written", exit 3; a
# folder holding any file the tracer writes (compressed.mvt too, not only traces.otf2) is
# refused before the program runs, the file untouched; --mpi contradicting the launcher
# (mpich/mpirun.openmpi, openmpi/smpirun, smpi/srun) is exit 2 and nothing runs.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=$(dirname "$MPIVET")/../lib/mpivet
# want CODE MESSAGE ARGS...: mpivet trace ARGS exits CODE with MESSAGE on stderr, never "wrote"
want() {
  code=$1 msg=$2; shift 2
  "$MPIVET" trace "$@" > "$work/out" 2> "$work/err"; rc=$?
  [ $rc -eq "$code" ] || fail "trace $*: exit $rc, want $code ($(cat "$work/err"))"
  grep -qF "$msg" "$work/err" || fail "trace $*: '$(cat "$work/err")', want '$msg'"
  grep -q "wrote" "$work/err" && fail "trace $*: claims a trace: $(cat "$work/err")"
  return 0
}
fresh() { mktemp -u "$work/tXXXXXX"; }

want 3 "no trace was written" --mpi openmpi -o "$(fresh)" -- /bin/true
want 3 "no trace was written" --mpi openmpi --format mvt -o "$(fresh)" -- /bin/true

# an earlier compressed trace: refused (before: "wrote .../compressed.mvt", exit 0)
mkdir "$work/old"
echo "an old compressed trace" > "$work/old/compressed.mvt"
want 2 "holds an earlier trace (compressed.mvt)" --mpi openmpi --format mvt -o "$work/old" -- /bin/true
want 2 "holds an earlier trace (compressed.mvt)" --mpi openmpi -o "$work/old" -- /bin/true
[ "$(cat "$work/old/compressed.mvt")" = "an old compressed trace" ] || fail "compressed.mvt changed"

# launcher and flavor that contradict each other: refused before the program runs
ran="$work/ran"
want 2 "does not match the launcher mpirun.openmpi" --mpi mpich -o "$(fresh)" -- \
  mpirun.openmpi -np 1 sh -c "touch $ran"
want 2 "does not match the launcher mpiexec.mpich" --mpi openmpi -o "$(fresh)" -- \
  mpiexec.mpich -n 1 sh -c "touch $ran"
want 2 "does not match the launcher smpirun" --mpi openmpi -o "$(fresh)" -- smpirun sh -c "touch $ran"
want 2 "does not match the launcher /usr/bin/orterun" --mpi smpi -o "$(fresh)" -- \
  /usr/bin/orterun -np 1 sh -c "touch $ran"
want 2 "does not match the launcher srun" --mpi smpi -o "$(fresh)" -- srun sh -c "touch $ran"
[ -e "$ran" ] && fail "a refused command ran the program"

# the tracer refuses bad options: the application runs untraced, no trace, exit 3
case " ${MV_FLAVORS:-} " in *" openmpi "*) ;; *) echo "ok (openmpi not built: no MPI runs)"; finish; exit 0 ;; esac
app=$lib/openmpi/late-sender
for opt in "--callstack 0" "--callstack 1abc" "--callstack 17" "--record bogus" "--buffer 1"; do
  # shellcheck disable=SC2086
  want 3 "no trace was written" $opt -o "$(fresh)" -- mpirun.openmpi -np 2 "$app"
done
# and the right combination still traces
"$MPIVET" trace --mpi openmpi -o "$work/good" -- mpirun.openmpi -np 2 "$app" > /dev/null 2> "$work/err" ||
  fail "a good trace failed: $(cat "$work/err")"
grep -q "wrote .*traces.otf2" "$work/err" || fail "good trace: $(cat "$work/err")"
finish
echo ok
