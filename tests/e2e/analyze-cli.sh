#!/bin/bash
# The CLI contract of `mpivet analyze`: help, usage errors (exit 2, one line naming the problem),
# a text and a JSON report of a synthetic trace, --value, and --np 2 giving the serial JSON.
set -u
work=$(mktemp -d /tmp/mv-analyze-cli-XXXXXX)
trap 'rm -rf "$work"' EXIT
KEEP_GOING=1
. "$(dirname "$0")/../lib.bash"
expect_rc() {   # WANT CMD...
  local want=$1; shift
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ $rc = "$want" ] || fail "$* exited $rc, expected $want: $(cat "$work/err")"
}
synth="$MV_BUILD/bin/mv-otf2-synth"
[ -x "$synth" ] || { echo "analyze not built (no OTF2): skip"; exit 77; }
"$synth" stencil "$work/t" 4 20 50000 || exit 1

expect_rc 0 "$MPIVET" analyze --help
grep -q "usage: mpivet analyze" "$work/out" || fail "--help does not print the usage"
expect_rc 2 "$MPIVET" analyze
expect_rc 2 "$MPIVET" analyze "$work/nothing-here"
grep -q "no OTF2 archive" "$work/err" || fail "missing archive: unclear message: $(cat "$work/err")"
expect_rc 2 "$MPIVET" analyze "$work/t" --top x
expect_rc 2 "$MPIVET" analyze "$work/t" --frobnicate
printf 'garbage' > "$work/bad.otf2"
expect_rc 2 "$MPIVET" analyze "$work/bad.otf2"
grep -q "not an OTF2 anchor" "$work/err" || fail "garbage anchor: unclear message: $(cat "$work/err")"
expect_rc 2 "$MPIVET" analyze "$work/t" --value no_such_metric

# rank 0 is 50 us late per iteration: its neighbours 1 and 2 wait in MPI_Waitall
expect_rc 0 "$MPIVET" analyze "$work/t" --top 3
grep -q "Late Sender .*main > iteration > MPI_Waitall" "$work/out" || fail "text report: $(cat "$work/out")"
expect_rc 0 "$MPIVET" analyze "$work/t" --value late_sender --rank 0
[ "$(cat "$work/out")" = "0.000000000" ] || fail "rank 0 late sender: $(cat "$work/out")"
expect_rc 0 "$MPIVET" analyze "$work/t" --value late_sender --region MPI_Waitall
[ "$(cat "$work/out")" = "0.001920000" ] || fail "late sender in MPI_Waitall: $(cat "$work/out"), want 0.001920000"
expect_rc 0 "$MPIVET" analyze "$work/t" --json
grep -v '"tool":' "$work/out" > "$work/serial.json"
grep -q '"partial": false' "$work/serial.json" || fail "JSON: partial flag missing"
if [ -x "$MV_BUILD/lib/mpivet/openmpi/mpivet-analyze-mpi" ]; then
  expect_rc 0 "$MPIVET" analyze "$work/t" --json --np 2
  grep -v '"tool":' "$work/out" | cmp -s - "$work/serial.json" || fail "--np 2 JSON differs from the serial one"
fi
finish
echo "ok"
