#!/usr/bin/env bash
# Issue 15, item 11: `mpivet analyze` never prints a zero that it could not decide. --rank of a
# rank the trace does not have, --region of no region, --rank/--region without --value, and an
# archive whose event files are gone (before: "0.000000000", exit 0) are exit 2 with a message;
# the parallel analyzer refuses the archive without events too.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
synth="$MV_BUILD/bin/mv-otf2-synth"
[ -x "$synth" ] || { echo "analyze not built (no OTF2): skip"; exit 77; }
"$synth" stencil "$work/t" 4 20 50000 > /dev/null || exit 1
bad() {  # bad MESSAGE ARGS...
  msg=$1; shift
  "$MPIVET" analyze "$@" > "$work/out" 2> "$work/err"; rc=$?
  [ $rc -eq 2 ] || fail "analyze $*: exit $rc, want 2 (stdout $(cat "$work/out"))"
  grep -qF -- "$msg" "$work/err" || fail "analyze $*: '$(cat "$work/err")', want '$msg'"
  [ -s "$work/out" ] && fail "analyze $*: printed '$(cat "$work/out")'"
  return 0
}
bad "--rank 99: $work/t has no such rank" "$work/t" --value late_sender --rank 99
bad "--rank 4: $work/t has no such rank" "$work/t" --value late_sender --rank 4
bad "--region NoSuch: $work/t has no region of that name" "$work/t" --value late_sender --region NoSuch
bad "give --value METRIC too" "$work/t" --rank 1
bad "give --value METRIC too" "$work/t" --region MPI_Waitall --json
"$MPIVET" analyze "$work/t" --value late_sender --rank 3 --region MPI_Waitall > /dev/null ||
  fail "a rank and region that exist: refused"
cp -r "$work/t" "$work/noevt"
rm "$work/noevt/traces/"*.evt
bad "$work/noevt: no events could be read" "$work/noevt"
bad "$work/noevt: no events could be read" "$work/noevt" --value late_sender
bad "$work/noevt: no events could be read" "$work/noevt" --json
if [ -x "$MV_BUILD/lib/mpivet/openmpi/mpivet-analyze-mpi" ]; then
  "$MPIVET" analyze "$work/noevt" --np 2 > "$work/out" 2> "$work/err" && fail "--np 2: exit 0 on no events"
  grep -q "no events could be read" "$work/err" || fail "--np 2: $(cat "$work/err")"
fi
finish
echo ok
