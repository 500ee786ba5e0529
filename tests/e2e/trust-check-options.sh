#!/usr/bin/env bash
# Issue 15, item 14: `mpivet check` validates --mpi, --ops, --expect, --platform and --ppn before
# anything runs or is written: exit 2 with the option named, and no campaign folder left behind
# (before: a bad --platform left campaign.plan, so the corrected command was refused; a missing
# --expect file or an unknown op was found after the launches). --resume DIR with --expect FILE
# judges against FILE and says so; with an option the plan fixes (--np) it is refused.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
small="--np 4:8 --ops MPI_Bcast@800 --seed 1"
# bad MESSAGE ARGS...: exit 2, MESSAGE on stderr, the -o folder never created
bad() {
  msg=$1; shift
  rm -rf "$work/c"
  # shellcheck disable=SC2086
  timeout 120 "$MPIVET" check $small "$@" -o "$work/c" > "$work/out" 2> "$work/err"; rc=$?
  [ $rc -eq 2 ] || fail "check $*: exit $rc, want 2 ($(cat "$work/err"))"
  grep -qF -- "$msg" "$work/err" || fail "check $*: '$(cat "$work/err")', want '$msg'"
  [ -e "$work/c" ] && fail "check $*: left $(ls -A "$work/c" | tr '\n' ' ')in the folder"
  return 0
}
bad "--platform: platform: unknown kind \"ring\"" --platform ring:4
bad "--platform: platform: expected cluster:N" --platform cluster:0
bad "--platform applies to --engine smpi only" --engine mpirun --mpi openmpi --platform cluster:4
bad "--expect: $work/nosuch.expect: No such file or directory" --expect "$work/nosuch.expect"
printf 'MPI_Bcast time_s O(q)\n' > "$work/bad.expect"
bad "--expect: $work/bad.expect:1:20: expected a parameter" --expect "$work/bad.expect"
bad "--mpi foo: the smpi engine runs SMPI's own MPI" --mpi foo
bad "--mpi: expected openmpi or mpich, got \"foo\"" --engine mpirun --mpi foo
bad "--ppn: expected a count >= 1, got \"x\"" --ppn x
# --ops after $small: the later one wins
bad "--ops: unknown operation \"MPI_Bcst\"" --ops MPI_Bcst@800
bad "--ops: unknown operation \"MPI_Foo\"" --ops MPI_Bcast,MPI_Foo

case " ${MV_FLAVORS:-} " in *" smpi "*) ;; *) finish; echo "ok (smpi not built: no --resume)"; exit 0 ;; esac
# shellcheck disable=SC2086
"$MPIVET" check $small -o "$work/r" > /dev/null 2> "$work/err"
[ $? -le 1 ] || fail "small campaign: $(cat "$work/err")"
printf 'MPI_Bcast time_s O(p^2)\n' > "$work/other.expect"
"$MPIVET" check --resume "$work/r" --expect "$work/other.expect" > "$work/out" 2> "$work/err"
[ $? -le 1 ] || fail "--resume --expect: $(cat "$work/err")"
grep -qF "judging with $work/other.expect instead of the recorded" "$work/err" ||
  fail "--resume --expect does not say what it does: $(cat "$work/err")"
grep -qF "expectations: $work/other.expect" "$work/r/report.txt" || fail "report.txt: not judged with other.expect"
grep -qF "\"expect\": \"$work/other.expect\"" "$work/r/meta.json" || fail "meta.json: not recorded"
"$MPIVET" check --resume "$work/r" --np 4 > "$work/out" 2> "$work/err"; rc=$?
[ $rc -eq 2 ] || fail "--resume --np: exit $rc, want 2"
grep -qF -- "--np cannot change them" "$work/err" || fail "--resume --np: $(cat "$work/err")"
finish
echo ok
