#!/bin/bash
# `mpivet analyze --verbose` prints the wall time of each of its four passes on stderr (one line
# each, in seconds) and leaves the report on stdout unchanged; with --np it is refused (exit 2).
set -u
work=$(mktemp -d /tmp/mv-analyze-verbose-XXXXXX)
trap 'rm -rf "$work"' EXIT
"$MV_BUILD/bin/mv-otf2-synth" stencil "$work/t" 4 50 20000 || { echo "FAIL: synth"; exit 1; }
"$MPIVET" analyze "$work/t" > "$work/plain.txt" 2>/dev/null || { echo "FAIL: analyze"; exit 1; }
"$MPIVET" analyze "$work/t" --verbose > "$work/verbose.txt" 2> "$work/err.txt" || { echo "FAIL: --verbose"; exit 1; }
cmp -s "$work/plain.txt" "$work/verbose.txt" || { echo "FAIL: --verbose changed the report"; exit 1; }
fail=0
for pass in "1, read and replay (wait states)" "2, merge parts" "3, root causes (delay costs)" "4, critical path"; do
  line=$(grep -F "mpivet analyze: pass $pass: " "$work/err.txt")
  [[ "${line##*: }" =~ ^[0-9]+\.[0-9]{3}\ s$ ]] || { echo "FAIL: no line for pass $pass"; fail=1; }
done
"$MPIVET" analyze "$work/t" --verbose --np 2 >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || { echo "FAIL: --verbose --np 2 exit $rc, expected 2"; fail=1; }
[ $fail = 0 ] && { cat "$work/err.txt"; echo "ok"; }
exit $fail
