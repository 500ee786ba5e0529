#!/usr/bin/env bash
# Issue 15, items 1-4: never touch a file the command did not create, one process per output
# folder. check -o / bench -o into a folder holding someone's results.csv: exit 2, file kept.
# check --resume, bench -o and trace -o on a folder another process holds (DIR/.mpivet.lock,
# held here by flock(1)): exit 2 "in use". trace -o into a folder with an earlier archive: exit
# 2 before the program runs, the old archive untouched. A real concurrent check + --resume too.
set -uo pipefail
work=$(mktemp -d)
trap 'kill $holder 2>/dev/null; rm -rf "$work"' EXIT
holder=
fail() { echo "FAIL: $*"; exit 1; }
expect2() {  # expect2 WANT CMD...
  want=$1; shift
  "$@" > "$work/out" 2> "$work/err"; rc=$?
  [ $rc -eq 2 ] || fail "$*: exit $rc, want 2 ($(cat "$work/err"))"
  grep -qF "$want" "$work/err" || fail "$*: '$(cat "$work/err")', want '$want'"
}
mkdir "$work/foreign"
echo "my,own,data" > "$work/foreign/results.csv"
expect2 "not empty (holds results.csv)" "$MPIVET" check --np 4:8 --ops MPI_Bcast -o "$work/foreign"
[ "$(cat "$work/foreign/results.csv")" = "my,own,data" ] || fail "check replaced results.csv"
[ -e "$work/foreign/campaign.plan" ] && fail "check wrote a plan into a foreign folder"
expect2 "not empty (holds results.csv)" "$MPIVET" bench --engine smpi --np 4 -o "$work/foreign"
[ "$(cat "$work/foreign/results.csv")" = "my,own,data" ] || fail "bench replaced results.csv"

mkdir "$work/old"
echo "an old archive" > "$work/old/traces.otf2"
expect2 "holds an earlier trace" "$MPIVET" trace --mpi openmpi -o "$work/old" -- /bin/true
[ "$(cat "$work/old/traces.otf2")" = "an old archive" ] || fail "trace touched the old archive"

mkdir "$work/held"
flock "$work/held/.mpivet.lock" sleep 30 & holder=$!
for _ in $(seq 50); do flock -n "$work/held/.mpivet.lock" true || break; sleep 0.1; done
expect2 "in use by another mpivet" "$MPIVET" trace --mpi openmpi -o "$work/held" -- /bin/true
expect2 "in use by another mpivet" "$MPIVET" bench --engine smpi --np 4 -o "$work/held"
kill $holder; wait $holder 2>/dev/null

case " ${MV_FLAVORS:-} " in *" smpi "*) ;; *) echo "ok (smpi not built: no concurrent check)"; exit 0 ;; esac
"$MPIVET" check --np 4:64 --ops MPI_Bcast,MPI_Allreduce --runs 4 --seed 1 -o "$work/c" > "$work/c.out" 2>&1 &
run=$!
for _ in $(seq 100); do [ -e "$work/c/campaign.plan" ] && break; sleep 0.1; done
if kill -0 $run 2>/dev/null; then
  expect2 "campaign in use by another mpivet process" "$MPIVET" check --resume "$work/c"
  echo "a --resume while the campaign runs: refused"
fi
wait $run; rc=$?
[ $rc -le 1 ] || fail "the running campaign failed (exit $rc): $(cat "$work/c.out")"
done_lines=$(grep -c '^done ' "$work/c/campaign.journal")
[ "$done_lines" -eq 20 ] || fail "journal has $done_lines done lines, want 20 (5 np x 4 runs)"
echo ok
