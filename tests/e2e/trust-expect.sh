#!/usr/bin/env bash
# Issue 15, item 9: strict expectation files in `mpivet model`. Only p and msize (and the
# parameters of Extra-P inputs) are names: `deviation=foo`, `O(exp(p))`, `O(LOG P)`, `p^1e308`
# are exit 2 with file:line:column; a line that matches no measured series (a typo) is exit 2
# naming the line; two lines for one function and metric are an error; a UTF-8 BOM is no part
# of the first name.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
{ echo run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid
  for np in 2 4 8 16 32; do
    awk -v np=$np 'BEGIN { for (r = 0; r < 3; r++) printf "0,smpi,S,%d,1,MPI_Bcast,default,800,time_s,%d,%.9g,1\n", np, r, 1e-6 * np }'
  done; } > "$work/r.csv"
# model expects exit 2 and this message on stderr
bad() {
  printf '%b' "$1" > "$work/t.expect"
  "$MPIVET" model --expect "$work/t.expect" "$work/r.csv" > "$work/out" 2> "$work/err"; rc=$?
  [ $rc -eq 2 ] || fail "'$1': exit $rc, want 2 ($(cat "$work/out"))"
  grep -qF "$2" "$work/err" || fail "'$1': message $(cat "$work/err"), want $2"
}
bad 'MPI_Bcast time_s O(log p) deviation=foo\n' "t.expect:1:37: expected a parameter (p, msize)"
bad 'MPI_Bcast time_s O(foo p)\n' "t.expect:1:20: expected a parameter (p, msize)"
bad 'MPI_Bcast time_s O(exp(p))\n' "t.expect:1:20: expected log, log2, ln, sqrt or a parameter, got the unknown function 'exp'"
bad 'MPI_Bcast time_s O(LOG P)\n' "got 'LOG'"
bad 'MPI_Bcast time_s O(p^1e308)\n' "t.expect:1:23: expected a space or an operator after the exponent"
bad 'MPI_Bcast time_s O(p)\nMPI_Bcats time_s O(log p)\n' "t.expect:2: expected a measured series for this expectation, got none for MPI_Bcats time_s"
# a metric the input has no rows of at all (memory lines on SMPI data): not judged (which
# fails the verdict, exit 1, as in check), with a note instead of the input error
printf 'MPI_Bcast mem_bytes O(1)\nMPI_Bcast time_s O(p)\n' > "$work/m.expect"
"$MPIVET" model --expect "$work/m.expect" "$work/r.csv" > /dev/null 2> "$work/err"; rc=$?
[ $rc -eq 1 ] || fail "mem line: exit $rc, want 1"
grep -q "m.expect:1: not judged: the input has no mem_bytes rows" "$work/err" || fail "mem note: $(cat "$work/err")"
bad 'MPI_Bcast time_s O(p)\nMPI_Bcast O(log p)\n' "t.expect:2:1: expected one expectation per function, metric and size"
printf '\xEF\xBB\xBFMPI_Bcast time_s O(p)\n' > "$work/bom.expect"
"$MPIVET" model --expect "$work/bom.expect" "$work/r.csv" > "$work/out" 2>&1 || fail "BOM: exit $? $(cat "$work/out")"
grep -q "exact" "$work/out" || fail "BOM: no exact match: $(cat "$work/out")"
echo ok
