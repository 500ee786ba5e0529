#!/usr/bin/env bash
# The default `mpivet check` suite (every op of share/mpivet/default.expect) on the simulated
# cluster at reduced scale (np 16..128): the three reports are written and announced, the
# litmus binomial Bcast takes exactly a + b log2(p) (equal steps per doubling, to 1e-9) and its
# verdict is an exact O(log p) match, every runtime expectation is judged: Barrier, Bcast,
# Reduce, Allreduce match; Gather, Allgather and Alltoall at a fixed 800-byte total volume are
# O(log p), mismatches against Table 1's O(p), O(p log p) (stated for 800 B per process; see
# docs/check.md), so the verdict is FAIL, exit 1; the memory expectations SMPI cannot measure
# are left out and the report says so; the guideline checks at p = 128 are in report.txt. A
# wrong expectation (Bcast O(p^2)) alone is a mismatch too: verdict FAIL, exit 1.
set -euo pipefail
case " ${MV_FLAVORS:-} " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
command -v python3 > /dev/null || { echo "python3 not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rc=0
"$MPIVET" check --np 16:128 --seed 7 -o "$work/c" > "$work/out" 2> "$work/err" || rc=$?
if [ "$rc" -ne 1 ]; then
  echo "FAIL: exit $rc, want 1 (Table 1 mismatches)"; cat "$work/err"; grep -A2 '^Summary' "$work/c/report.txt"; exit 1
fi
grep -q "reports in $work/c/report.{txt,json,html}" "$work/err" || { cat "$work/err"; exit 1; }
for f in report.txt report.json report.html meta.json; do
  [ -s "$work/c/$f" ] || { echo "FAIL: $f missing"; exit 1; }
done
grep -q '^Guidelines (PGMPI) at p = 128' "$work/c/report.txt" || { echo "FAIL: no guidelines"; exit 1; }
grep -q '^Verdict: FAIL' "$work/c/report.txt" || { echo "FAIL: no FAIL verdict"; exit 1; }
grep -q '^memory: 5 expectations not judged under SMPI' "$work/c/report.txt" \
  || { echo "FAIL: the report does not say that memory is not judged"; exit 1; }

python3 - "$work/c/report.json" <<'EOF'
import json, math, sys
r = json.load(open(sys.argv[1]))
fns = {(f["function"], f["metric"]): f for f in r["functions"]}
bt = fns[("bcast_as_binomial", "time_s")]
assert bt["match"] == "exact" and bt["leading_order"] == "O(log p)", bt["match"]
pts = sorted((p["nprocs"], p["median"]) for p in bt["points"])
assert [p for p, _ in pts] == [16, 32, 64, 128], pts
steps = [b[1] - a[1] for a, b in zip(pts, pts[1:])]
assert all(abs(s - steps[0]) <= 1e-9 * pts[-1][1] for s in steps), steps   # a + b log2 p
b = steps[0]
a = pts[0][1] - 4 * b
assert b > 0 and abs(a) < 0.05 * b, (a, b)
for p in bt["points"]:
    assert p["max"] - p["min"] <= 1e-9 * p["median"], p   # deterministic: repetitions agree
assert not [f for f in r["functions"] if f["metric"] in ("mem_bytes", "rss_bytes")]
runtime = {f["function"]: f["match"] for f in r["functions"] if f["metric"] == "time_s"}
bad = {"MPI_Gather", "MPI_Allgather", "MPI_Alltoall"}
assert len(runtime) == 8, runtime
assert all((m == "mismatch") == (fn in bad) for fn, m in runtime.items()), runtime
assert r["verdict"] == "fail" and r["not_judged"] == 0, (r["verdict"], r["not_judged"])
print("ok: litmus %.4f + %.4f * log2(p) us, exact match; 5 runtime expectations met, "
      "Gather/Allgather/Alltoall mismatch at a fixed total volume" % (a * 1e6, b * 1e6))
EOF

# A wrong expectation must fail the verdict.
echo "MPI_Bcast time_s O(p^2) deviation=p^(1/2)" > "$work/wrong.expect"
rc=0
"$MPIVET" check --np 16:64 --ops MPI_Bcast --expect "$work/wrong.expect" --seed 7 -o "$work/w" \
  > "$work/wout" 2> "$work/werr" || rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: wrong expectation: exit $rc, want 1"; cat "$work/werr"; exit 1; }
grep -q '^Verdict: FAIL' "$work/w/report.txt" || { echo "FAIL: no FAIL verdict"; exit 1; }
echo "ok: Bcast against O(p^2) is a mismatch, exit 1"
