#!/usr/bin/env bash
# One judging pipeline: on a small `mpivet check` campaign (SMPI, np 16..64, the default suite),
# `mpivet model --expect default.expect --json results.csv` (without the memory lines, which
# check leaves out under SMPI too) gives, for every function report.json
# judges, the same model, expectation, leading order, divergence and match word (the litmus
# bcast_as_binomial included, which `model` once left unjudged as MPI_Bcast/bcast_as_binomial),
# and the same rule verdicts.
set -euo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
need_python
scratch work

rc=0
"$MPIVET" check --np 16:64 --seed 7 -o "$work/c" > /dev/null 2> "$work/err" || rc=$?
[ "$rc" -le 1 ] || { echo "FAIL: check exited $rc"; cat "$work/err"; exit 1; }
# the expectations check judges under SMPI: default.expect without the memory lines (SMPI cannot
# measure memory per rank; `mpivet model` refuses expectation lines no series matches)
grep -v -e mem_bytes -e rss_bytes "$MV_SRC/share/mpivet/default.expect" > "$work/time.expect"
rc=0
"$MPIVET" model --expect "$work/time.expect" --json "$work/c/results.csv" > "$work/model.json" \
  || rc=$?
[ "$rc" -le 1 ] || { echo "FAIL: model exited $rc"; exit 1; }

python3 - "$work/c/report.json" "$work/model.json" <<'P'
import json, sys
report = json.load(open(sys.argv[1]))
model = json.load(open(sys.argv[2]))
assert (model["format"], model["version"]) == ("mpivet-judgement", 2), model.get("format")
key = lambda f: (f["function"], f["metric"], f["size"])
judged = {key(f): f for f in model["functions"]}
fields = ("expectation", "model", "leading_order", "divergence", "match", "adjusted_r2", "note")
names = set()
for f in report["functions"]:
    names.add(f["function"])
    m = judged.get(key(f))
    assert m is not None, ("model did not judge", key(f))
    for k in fields:
        assert m[k] == f[k], (key(f), k, m[k], f[k])
assert "bcast_as_binomial" in names and judged[("bcast_as_binomial", "time_s", "800 B")]["match"] == "exact"
assert len(report["functions"]) >= 10, len(report["functions"])
rkey = lambda r: (r["rule"], r["metric"], r["size"])
mrules = {rkey(r): r for r in model["rules"]}
for r in report["rules"]:
    assert rkey(r) in mrules and mrules[rkey(r)]["status"] == r["status"], rkey(r)
print("ok: %d functions and %d rules judged alike by check and model" %
      (len(report["functions"]), len(report["rules"])))
P
