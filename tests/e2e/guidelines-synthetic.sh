#!/bin/bash
# `mpivet guidelines` end to end on synthetic results.csv files with planted violations
# (tests/e2e/guidelines-data.awk): verdicts, exit codes, summaries, JSON, library matrix, errors.
set -u
. "$(dirname "$0")/../lib.bash"
: "${MPIVET:?}" "${MV_SRC:?}"
scratch tmp
gen() { awk "$@" -f "$MV_SRC/tests/e2e/guidelines-data.awk"; }

gen -v plant=1 > "$tmp/planted.csv"
gen -v plant=0 > "$tmp/clean.csv"
gen -v plant=1 -v 'libs=Lib A 1.0;Lib B 2.0' > "$tmp/two.csv"

"$MPIVET" guidelines "$tmp/planted.csv" > "$tmp/planted.txt"; rc=$?
expect_ok "planted violations exit 1 (got $rc)" test $rc -eq 1
expect_ok "summary counts" grep -q "monotony 1/9, split 2/9, pattern 4/15" "$tmp/planted.txt"
expect_ok "correction is named" grep -q "Benjamini-Hochberg" "$tmp/planted.txt"
expect_ok "GL12 at 8 B" grep -Eq "pattern +GL12 +MPI_Allreduce <= Reduce\+Bcast +8 B " "$tmp/planted.txt"
expect_ok "monotony 128 > 256" grep -Eq "monotony +GL1 +MPI_Bcast +256 B +128 B " "$tmp/planted.txt"
# MPI_Gather 1024 = 3 x 512: violated against 512 and 256, only the largest m_i is reported
expect_ok "split reports m_i 512" grep -Eq "split +GL2 +MPI_Gather \(k=2\) +1 KiB +512 B " "$tmp/planted.txt"
expect_ok "split does not report m_i 256" bash -c "! grep -Eq 'split +GL2 +MPI_Gather.* 1024 +256 ' '$tmp/planted.txt'"
expect_ok "grid row" grep -Eq "^  p MPI_Allreduce <= Reduce\+Bcast +\*\*\* +\*\*\* +\." "$tmp/planted.txt"

"$MPIVET" guidelines "$tmp/clean.csv" > "$tmp/clean.txt"; rc=$?
expect_ok "clean data exits 0 (got $rc)" test $rc -eq 0
expect_ok "clean data: no violation" grep -q "^no violation" "$tmp/clean.txt"

"$MPIVET" guidelines --json "$tmp/planted.csv" > "$tmp/planted.json"; rc=$?
expect_ok "json exit 1" test $rc -eq 1
if command -v python3 > /dev/null; then
  expect_ok "json contract" python3 - "$tmp/planted.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d["violations"]
keys = ["type", "op", "mockup", "msize", "msize_small", "p_value", "slowdown", "stars"]
assert all(list(x)[:8] == keys for x in v), "first keys"
gl12 = [x for x in v if x["mockup"] == "allreduce_as_reduce_bcast"]
assert sorted(x["msize"] for x in gl12) == [8, 16], gl12
assert all(x["msize_small"] is None and x["stars"] == "***" and x["p_value"] < 0.001 for x in gl12)
assert all(1.3 < x["slowdown"] < 1.6 for x in gl12)
split = [x for x in v if x["type"] == "split"]
assert all(x["p_value"] is None and x["stars"] is None for x in split)
s = d["summary"]
assert s["correction"] == "bh" and s["violations"] == len(v) == 8, s
c = s["configurations"][0]
assert (c["monotony"], c["split"], c["pattern"]) == ({"violated": 1, "evaluated": 9},
       {"violated": 2, "evaluated": 9}, {"violated": 4, "evaluated": 15}), c
PY
fi

"$MPIVET" guidelines "$tmp/two.csv" > "$tmp/two.txt"; rc=$?
expect_ok "two libraries exit 1" test $rc -eq 1
expect_ok "matrix shown" grep -q "pattern guidelines x configurations" "$tmp/two.txt"
expect_ok "GL7 only in library B" grep -Eq "^  GL7 +MPI_Scatter <= Bcast +\. +x$" "$tmp/two.txt"
expect_ok "Table II row" grep -Eq "^  p +pattern +4/15 +5/15$" "$tmp/two.txt"

for opts in "--per raw" "--test ks" "--correction holm" "--correction none --alpha 0.01" "--tukey 1.5"; do
  "$MPIVET" guidelines $opts "$tmp/planted.csv" > "$tmp/opt.txt"; rc=$?
  expect_ok "options $opts run (rc $rc)" test $rc -eq 1
done
expect_ok "holm is named" bash -c "'$MPIVET' guidelines --correction holm '$tmp/planted.csv' | grep -q 'Holm correction'"

"$MPIVET" guidelines --alpha 2 "$tmp/planted.csv" 2> "$tmp/err"; rc=$?
expect_ok "bad alpha exits 2" test $rc -eq 2
expect_ok "bad alpha message" grep -q "alpha expects a number in (0, 1)" "$tmp/err"
"$MPIVET" guidelines "$tmp/missing.csv" 2> /dev/null; rc=$?
expect_ok "missing file exits 2" test $rc -eq 2
printf 'run,engine\n0,x\n' > "$tmp/bad.csv"
"$MPIVET" guidelines "$tmp/bad.csv" 2> "$tmp/err"; rc=$?
expect_ok "bad csv exits 2" test $rc -eq 2
expect_ok "bad csv names file" grep -q "bad.csv" "$tmp/err"
"$MPIVET" guidelines --help > /dev/null; rc=$?
expect_ok "--help exits 0" test $rc -eq 0
finish
