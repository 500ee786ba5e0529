#!/usr/bin/env bash
# mpivet convert end to end: Extra-P -> csv -> Extra-P is identical; a bad cell is refused with
# file:line:column and exit 2, and the existing output file is left untouched.
set -u
. "$(dirname "$0")/../lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/in.txt" <<'TXT'
PARAMETER p
POINTS 2 4 8 16
REGION MPI_Bcast
METRIC time_s
DATA 1e-06 1.1e-06
DATA 2e-06
DATA 3e-06 3.5e-06 2.9e-06
DATA 4e-06
REGION MPI_Allreduce:allreduce_as_reduce_bcast
METRIC time_s
DATA 5 6
DATA 7
DATA 8
DATA 9
TXT
"$MPIVET" convert "$tmp/in.txt" -o "$tmp/r.csv" || fail "extrap -> csv exited $?"
[ "$(wc -l < "$tmp/r.csv")" -eq 13 ] || fail "expected 12 rows + header, got $(wc -l < "$tmp/r.csv") lines"
"$MPIVET" convert "$tmp/r.csv" -o "$tmp/back.txt" || fail "csv -> extrap exited $?"
"$MPIVET" convert "$tmp/back.txt" -o "$tmp/r2.csv" || fail "second extrap -> csv exited $?"
cmp -s "$tmp/r.csv" "$tmp/r2.csv" || fail "csv differs after a round trip"
"$MPIVET" convert "$tmp/back.txt" --to extrap -o - >/dev/null 2>&1 && fail "extrap -> extrap should be refused"
# bad cell: error names file:line:column, exit 2, old output kept
sed '4s/,2e-06,/,2e-0x6,/' "$tmp/r.csv" > "$tmp/bad.csv"
err=$("$MPIVET" convert "$tmp/bad.csv" -o "$tmp/out.txt" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "bad cell exited $rc"
echo "$err" | grep -Eq "bad.csv:4:[0-9]+: expected a finite number in column \"value\", got \"2e-0x6\"" || fail "message: $err"
[ -e "$tmp/out.txt" ] && fail "output written on failure"
# issue 15 item 2: an existing file (the input itself above all) is never replaced
echo "keep me" > "$tmp/out.txt"
err=$("$MPIVET" convert "$tmp/r.csv" -o "$tmp/out.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "out.txt: already exists" || fail "existing output: exit $rc, $err"
[ "$(cat "$tmp/out.txt")" = "keep me" ] || fail "existing output overwritten"
cp "$tmp/in.txt" "$tmp/self.txt"
err=$("$MPIVET" convert "$tmp/self.txt" --to csv -o "$tmp/self.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "self.txt: is the input file" || fail "X -o X: exit $rc, $err"
cmp -s "$tmp/in.txt" "$tmp/self.txt" || fail "input overwritten"
ls "$tmp" | grep -q tmp && fail "temporary file left behind"
echo "convert: ok"
