#!/bin/bash
# `mpivet bench --engine smpi` then `mpivet guidelines`: three pattern guidelines (GL5, GL10,
# GL12) at 8 ranks, two launches. SMPI is deterministic, so every comparison is decided on the
# slowdown alone ("test": "deterministic"); the JSON structure and the exit status must agree
# (1 with violations, 0 without, 2 on bad input). SimGrid 3.32 with its MPICH collectives makes
# MPI_Bcast(64 KiB) 1.6x slower than Scatter+Allgather (GL10): that violation is expected.
set -u
. "$(dirname "$0")/../lib.bash"
: "${MPIVET:?}" "${MV_BUILD:?}"
[ -x "$MV_BUILD/lib/mpivet/smpi/mpivet-bench" ] && command -v smpirun > /dev/null || exit 77
need_python
scratch tmp

ops=MPI_Allgather,allgather_as_alltoall,MPI_Bcast,bcast_as_scatter_allgather,MPI_Allreduce,allreduce_as_reduce_bcast
timeout 120 "$MPIVET" bench --engine smpi --np 8 --ops $ops --msizes 8,65536 --reps 3 --runs 2 \
  -o "$tmp/b" > "$tmp/bench.log" 2>&1; rc=$?
if [ $rc -ne 0 ] || [ ! -s "$tmp/b/results.csv" ]; then
  echo "FAIL: mpivet bench exit $rc"; cat "$tmp/bench.log"; exit 1
fi

"$MPIVET" guidelines --json "$tmp/b/results.csv" > "$tmp/out.json"; rc=$?
expect_ok "violations exit 1 (got $rc)" test $rc -eq 1
expect_ok "json structure" python3 - "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, v = d["summary"], d["violations"]
assert s["deterministic"] == "auto" and s["violations"] == len(v) > 0, s
(c,) = s["configurations"]
assert c["engine"] == "smpi" and c["nprocs"] == 8 and c["launches"] == 2, c
# 3 pattern guidelines x 2 sizes + monotony of 3 functions x 1 size pair: 9 comparisons, no test
assert c["tests"] == 0 and c["deterministic"] == 9 and c["untested"] == 0, c
assert c["pattern"]["evaluated"] == 3 and c["monotony"]["evaluated"] == 3, c
keys = ["type", "op", "mockup", "msize", "msize_small", "p_value", "slowdown", "stars", "test"]
for x in v:
    assert list(x)[:len(keys)] == keys, list(x)
    if x["type"] != "split":
        assert x["test"] == "deterministic" and x["p_value"] is None and x["stars"] is None, x
        assert x["slowdown"] > s["min_slowdown"], x
gl10 = [x for x in v if x["guideline"] == "GL10"]
assert gl10 and gl10[0]["msize"] == 65536 and gl10[0]["mockup"] == "bcast_as_scatter_allgather", v
PY

"$MPIVET" guidelines "$tmp/b/results.csv" > "$tmp/out.txt"; rc=$?
expect_ok "text exit 1 (got $rc)" test $rc -eq 1
expect_ok "text label" grep -Eq "pattern +GL10 +MPI_Bcast <= Scatter\+Allgather +64 KiB .* determ\.$" "$tmp/out.txt"
expect_ok "text counts" grep -q "^0 tests, 9 deterministic comparisons" "$tmp/out.txt"

# A tolerance above every slowdown: no violation, exit 0.
"$MPIVET" guidelines --json --min-slowdown 100 "$tmp/b/results.csv" > "$tmp/tol.json"; rc=$?
expect_ok "large tolerance exits 0 (got $rc)" test $rc -eq 0
expect_ok "large tolerance: empty list" grep -q '"violations": \[\]' "$tmp/tol.json"

# The statistical path on 2 launches a side cannot decide (min p 1/6): every comparison is
# undecidable and, nothing being decided, exit 2 (issue 15 item 8; it was "no violation").
"$MPIVET" guidelines --json --deterministic off "$tmp/b/results.csv" > "$tmp/off.json"; rc=$?
expect_ok "--deterministic off exits 2 (got $rc)" test $rc -eq 2
expect_ok "--deterministic off: undecidable" python3 -c "
import json, sys
c = json.load(open('$tmp/off.json'))['summary']['configurations'][0]
sys.exit(not (c['tests'] == 0 and c['undecidable'] == 9 and c['deterministic'] == 0))"

"$MPIVET" guidelines --deterministic maybe "$tmp/b/results.csv" > /dev/null 2>&1; rc=$?
expect_ok "bad --deterministic exits 2 (got $rc)" test $rc -eq 2
finish
