#!/usr/bin/env bash
# An outer `timeout` (SIGTERM) or Ctrl-C (SIGINT) of `mpivet simulate` ends the simulation too:
# mpivet passes the signal to smpirun's process group (smpimain and the simulated program), then
# dies of it. A program that never ends is simulated; after the signal nothing of it is left.
# A simulation that deadlocks is a failure (exit 3 with SimGrid's report), not a prediction; the
# temporary folder whose logs the error names is kept.
set -u
case " ${MV_FLAVORS//;/ } " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
tmp=$(mktemp -d); cleanup() { local p; p=$(pgrep -f "$tmp/"); [ -z "$p" ] || kill -KILL $p 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$tmp/forever.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
  volatile double x = 0;
  MPI_Init(&argc, &argv);
  for (;;)
    x += 1.0;
  MPI_Finalize();
  return 0;
}
C
for sig in TERM INT; do
  work="$tmp/work-$sig"; mkdir "$work"
  start=$(date +%s)
  # timeout -s SIG: as an outer timeout does (TERM), or as Ctrl-C would (INT) to mpivet alone.
  timeout -s $sig 8 "$MPIVET" simulate --workdir "$work" --np 2 "$tmp/forever.c" > "$tmp/out-$sig" 2>&1
  rc=$?
  [ $rc = 124 ] || { cat "$tmp/out-$sig"; fail "SIG$sig: timeout gave exit $rc, expected 124"; }
  sleep 1
  left=$(pgrep -f "$work/program" || true)
  [ -z "$left" ] || { ps -o pid,pgid,stat,cmd -p $left; fail "SIG$sig: simulation still running"; }
  [ $(( $(date +%s) - start )) -lt 30 ] || fail "SIG$sig: mpivet took too long to stop"
done
# smpirun exits 0 when SimGrid finds the ranks deadlocked: mpivet simulate says so, exit 3
cat > "$tmp/deadlock.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
  int rank, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
C
timeout 120 "$MPIVET" simulate --np 2 "$tmp/deadlock.c" > "$tmp/out-dl" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "deadlocked" "$tmp/out-dl" && grep -q "Deadlock detected" "$tmp/out-dl" ||
  { cat "$tmp/out-dl"; fail "deadlock: exit $rc, expected 3 with SimGrid's report"; }
! grep -q "predicted time" "$tmp/out-dl" || fail "deadlock: a predicted time was printed"
# without --workdir the failed simulation's folder, which the error names, is kept (and said)
kept=$(sed -n 's|^mpivet simulate: kept \(/tmp/mpivet-simulate-[^ ]*\) .*|\1|p' "$tmp/out-dl")
[ -n "$kept" ] && [ -s "$kept/simgrid-engine.log" ] || { cat "$tmp/out-dl"; fail "deadlock: the folder the error names was not kept"; }
rm -rf "$kept"
echo "simulate: signals end the simulation, a deadlock is exit 3: ok"
