#!/bin/bash
# Few points (issue 16): 3 process counts with identical repetitions (SMPI is deterministic)
# leave no degree of freedom to test a fit. The issue's growing series 16.35, 23.72, 34.37 us at
# p = 16, 32, 64 is modeled growing, never a constant; against O(1) it is "too few points to
# judge" (exit 1: never a pass), never "mismatch"; against O(p^(1/2)) (x1.45 per doubling) it
# is judged (exact or approximate, exit 0); with 4 process counts the O(1) expectation is a
# mismatch again.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.bash"
series() {   # series FILE P:VALUE... : Extra-P text, 3 identical repetitions per point
  local f=$1; shift
  { echo "PARAMETER p"; printf 'POINTS'; for pv in "$@"; do printf ' %s' "${pv%%:*}"; done; echo
    echo "REGION MPI_Allreduce"; echo "METRIC time_s"
    for pv in "$@"; do v=${pv#*:}; echo "DATA $v $v $v"; done; } > "$f"
}
series "$tmp/three.txt" 16:16.35e-6 32:23.72e-6 64:34.37e-6
series "$tmp/four.txt" 16:16.35e-6 32:23.72e-6 64:34.37e-6 128:45.1e-6
printf 'MPI_Allreduce time_s O(1)\n' > "$tmp/const.expect"
printf 'MPI_Allreduce time_s O(p^(1/2))\n' > "$tmp/sqrt.expect"

"$MPIVET" model --json --expect "$tmp/const.expect" "$tmp/three.txt" > "$tmp/c.json"
rc=$?
cat "$tmp/c.json"
[ $rc = 1 ] || fail "O(1) on 3 deterministic points exited $rc, expected 1 (not judged)"
python3 - "$tmp/c.json" <<'P' || fail "json content"
import json, sys
f = json.load(open(sys.argv[1]))["functions"][0]
assert f["match"] == "too few points to judge", f["match"]
assert len(f["terms"]) >= 1 and f["terms"][0]["coefficient"] > 0, f   # growing, not a constant
assert "too few points to judge" in f["note"], f["note"]
P
"$MPIVET" model --expect "$tmp/const.expect" "$tmp/three.txt" > "$tmp/c.txt"
grep -q "too few points to judge" "$tmp/c.txt" || fail "text output: $(cat "$tmp/c.txt")"
grep -q "mismatch" "$tmp/c.txt" && fail "3 deterministic points called a mismatch"

"$MPIVET" model --expect "$tmp/sqrt.expect" "$tmp/three.txt" > "$tmp/l.txt" ||
  fail "O(p^(1/2)) on 3 points exited $?: $(cat "$tmp/l.txt")"
grep -Eq "exact|approximate" "$tmp/l.txt" || fail "O(p^(1/2)): $(cat "$tmp/l.txt")"
"$MPIVET" model --json --expect "$tmp/const.expect" "$tmp/four.txt" > "$tmp/f.json"
[ $? = 1 ] || fail "O(1) on 4 growing points must fail"
grep -q '"match": "mismatch"' "$tmp/f.json" || fail "4 points: $(cat "$tmp/f.json")"
echo PASS
