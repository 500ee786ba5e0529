#!/bin/bash
# The timelines of the backward passes go to a temporary file in $TMPDIR in blocks: every report
# (text, --json, --html) of a stencil with blocks of 3 points and 2 blocks cached is byte for byte
# the one with the blocks in memory (MPIVET_ANALYZE_SPILL=0) and the default's; the file leaves
# nothing behind; a TMPDIR that does not exist and a file that cannot grow (ulimit -f, as a full
# disk) are errors naming the folder (exit 2), never a report.
set -u
work=$(mktemp -d /tmp/mv-analyze-spill-XXXXXX)
trap 'rm -rf "$work"' EXIT
"$MV_BUILD/bin/mv-otf2-synth" stencil "$work/t" 4 120 20000 || { echo "FAIL: synth"; exit 1; }
mkdir "$work/tmp"
fail=0
run() {   # name, env...
  local name=$1; shift
  env "$@" TMPDIR="$work/tmp" "$MPIVET" analyze "$work/t" --top 20 > "$work/$name.txt" 2>"$work/$name.err" &&
    env "$@" TMPDIR="$work/tmp" "$MPIVET" analyze "$work/t" --json > "$work/$name.json" 2>>"$work/$name.err" &&
    env "$@" TMPDIR="$work/tmp" "$MPIVET" analyze "$work/t" --html "$work/$name.html" > /dev/null 2>>"$work/$name.err" ||
    { echo "FAIL: $name: $(cat "$work/$name.err")"; fail=1; }
}
run mem MPIVET_ANALYZE_SPILL=0
run tiny MPIVET_ANALYZE_BLOCK=3 MPIVET_ANALYZE_CACHE=2
run default
for k in txt json html; do
  cmp -s "$work/mem.$k" "$work/tiny.$k" || { echo "FAIL: .$k with blocks of 3 points differs"; fail=1; }
  cmp -s "$work/mem.$k" "$work/default.$k" || { echo "FAIL: .$k with default blocks differs"; fail=1; }
done
grep -q '"delay_latesender"' "$work/mem.json" || { echo "FAIL: no delay costs in the report"; fail=1; }
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: left in TMPDIR: $(ls "$work/tmp")"; fail=1; }
# --verbose says where the timelines went: 4 x (2 + 120 x 16 + 12 x 2) = 7784 points in blocks of 3
TMPDIR="$work/tmp" MPIVET_ANALYZE_BLOCK=3 "$MPIVET" analyze "$work/t" --verbose > /dev/null 2> "$work/v.err"
grep -q "timelines in a temporary file in $work/tmp: 0.093 MB in 2596 blocks of up to 3 points" "$work/v.err" ||
  { echo "FAIL: --verbose: $(grep timelines "$work/v.err")"; fail=1; }
TMPDIR=/nonexistent-mv-dir "$MPIVET" analyze "$work/t" > "$work/no.out" 2> "$work/no.err"
rc=$?
[ $rc = 2 ] && [ ! -s "$work/no.out" ] &&
  grep -q "cannot create the temporary file of the timelines in /nonexistent-mv-dir: No such file or directory" "$work/no.err" ||
  { echo "FAIL: missing TMPDIR: exit $rc, $(cat "$work/no.err")"; fail=1; }
(ulimit -f 1; trap '' XFSZ; TMPDIR="$work/tmp" MPIVET_ANALYZE_BLOCK=3 exec "$MPIVET" analyze "$work/t") \
  > "$work/full.out" 2> "$work/full.err"
rc=$?
[ $rc = 2 ] && [ ! -s "$work/full.out" ] &&
  grep -q "writing the timelines to a temporary file in $work/tmp: File too large" "$work/full.err" ||
  { echo "FAIL: file full: exit $rc, $(cat "$work/full.err")"; fail=1; }
[ -z "$(ls -A "$work/tmp")" ] || { echo "FAIL: left in TMPDIR after the failure: $(ls "$work/tmp")"; fail=1; }
[ $fail = 0 ] && echo ok
exit $fail
