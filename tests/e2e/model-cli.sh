#!/bin/bash
# mpivet model end to end: results.csv with known models -> table, JSON, verdicts, rules,
# exit codes (0 matched, 1 mismatch or failed rule, 2 bad input) and file:line:col errors.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.bash"
{
  echo "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"
  for p in 4 8 16 32 64 128; do
    for r in 0 1 2; do
      awk -v p="$p" -v r="$r" 'BEGIN {
        l = log(p) / log(2); e = (r - 1) * 0.002
        printf "0,smpi,SMPI 3.32,%d,1,MPI_Bcast,default,8,time_s,%d,%.9g,1\n", p, r, (2 + l) * (1 + e)
        printf "0,smpi,SMPI 3.32,%d,1,MPI_Reduce,default,8,time_s,%d,%.9g,1\n", p, r, (3 + 2 * l) * (1 + e)
        printf "0,smpi,SMPI 3.32,%d,1,MPI_Allreduce,default,8,time_s,%d,%.9g,1\n", p, r, (1 + 0.01 * p * l) * (1 + e)
        printf "0,smpi,SMPI 3.32,%d,1,MPI_Gather,default,8,time_s,%d,%.9g,1\n", p, r, (1 + 0.5 * p) * (1 + e) }'
    done
  done
} > "$tmp/r.csv"
cat > "$tmp/ok.expect" <<'X'
MPI_Bcast  time_s O(log p)
MPI_Gather time_s O(p)
X
cat > "$tmp/bad.expect" <<'X'
MPI_Bcast     time_s O(log p)
MPI_Allreduce time_s O(log p)
rule MPI_Allreduce <= MPI_Reduce + MPI_Bcast
X
out=$("$MPIVET" model --expect "$tmp/ok.expect" "$tmp/r.csv") || fail "matched run exited $?"
echo "$out"
echo "$out" | grep -q "^MPI_Bcast .*log2(p)^(1) .*O(1) .*exact" || fail "Bcast row"
echo "$out" | grep -q "^MPI_Gather .*p^(1) .*exact" || fail "Gather row"
# units (issue 16 item 7): the model in its metric's unit, predictions formatted in one
echo "$out" | grep -q "^MPI_Bcast .*log2(p)^(1) \[s\] " || fail "model without its unit [s]"
"$MPIVET" model --target p=1024 "$tmp/r.csv" | grep -Eq "^MPI_Bcast .* 12(\.0)? s$" ||
  fail "prediction without its unit"
"$MPIVET" model --expect "$tmp/bad.expect" "$tmp/r.csv" > "$tmp/bad.txt"
[ $? = 1 ] || fail "mismatch must exit 1"
grep -q "^MPI_Allreduce .*p^(1) \* log2(p)^(1) .*O(p) .*mismatch" "$tmp/bad.txt" || fail "Allreduce row"
grep -q "rule MPI_Allreduce <= MPI_Reduce + MPI_Bcast (time_s): predicted to break" "$tmp/bad.txt" ||
  fail "rule warning"
"$MPIVET" model --json --measure q1 --target p=1024 --expect "$tmp/ok.expect" "$tmp/r.csv" > "$tmp/o.json" ||
  fail "json run"
python3 - "$tmp/o.json" <<'P' || fail "json content"
import json, sys
a = json.load(open(sys.argv[1]))["functions"]
b = {o["function"]: o for o in a}
assert len(a) == 4, a
g = b["MPI_Bcast"]
assert g["match"] == "exact" and g["expectation"] == "O(log p)" and g["divergence"] == "O(1)"
assert g["terms"][0]["factors"][0] == {"param": "p", "poly": 0, "log": 1}, g
assert abs(g["prediction"] - (2 + 10)) < 0.1, g["prediction"]
assert b["MPI_Reduce"]["match"] is None and b["MPI_Reduce"]["adjusted_r2"] > 0.99
P
printf 'MPI_Bcast time_s O(log p\n' > "$tmp/err.expect"
"$MPIVET" model --expect "$tmp/err.expect" "$tmp/r.csv" 2> "$tmp/err.txt"
[ $? = 2 ] || fail "bad expectation must exit 2"
grep -q "err.expect:1:25: expected ')' closing O(, got end of input" "$tmp/err.txt" || fail "error text"
"$MPIVET" model --measure mode "$tmp/r.csv" 2>/dev/null; [ $? = 2 ] || fail "bad --measure"
"$MPIVET" model --help | grep -q "usage: mpivet model" || fail "--help"

# Sizes: MPI_Gather at an 800-byte total (2 + log2 p) and at 800 bytes per process (totals
# 800 p: 1 + 0.5 p), as `mpivet check --msizes 800,800p` measures; each size is one series,
# and msize= picks each one's expectation (a wrong msize=800p line would make the 800 series fail).
{
  echo "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"
  for p in 4 8 16 32 64 128; do
    awk -v p="$p" 'BEGIN { l = log(p) / log(2)
      printf "0,smpi,SMPI 3.32,%d,1,MPI_Gather,default,800,time_s,0,%.9g,1\n", p, 2 + l
      printf "0,smpi,SMPI 3.32,%d,1,MPI_Gather,default,%d,time_s,0,%.9g,1\n", p, 800 * p, 1 + 0.5 * p }'
  done
} > "$tmp/sizes.csv"
cat > "$tmp/sizes.expect" <<'X'
MPI_Gather time_s O(p)     msize=800p
MPI_Gather time_s O(log p) msize=800
X
out=$("$MPIVET" model --expect "$tmp/sizes.expect" "$tmp/sizes.csv") || fail "sizes run exited $? ($out)"
echo "$out"
echo "$out" | grep -q "^MPI_Gather \[800 B\] .*O(log p) .*log2(p)^(1) .*exact" || fail "800 B row"
echo "$out" | grep -q "^MPI_Gather \[800 B per process\] .*O(p) .*p^(1) .*exact" || fail "800 B per process row"
[ "$(echo "$out" | grep -c '^MPI_Gather')" = 2 ] || fail "expected 2 Gather series (no one-point totals)"
"$MPIVET" model --json "$tmp/sizes.csv" | python3 -c '
import json, sys
a = json.load(sys.stdin)["functions"]
assert sorted((o["msize"], o["per_process"]) for o in a) == [(800, False), (800, True)], a' ||
  fail "sizes JSON"

# A jump no PMNF term follows (100x at the largest p): two regimes, the switch under the table
# and in JSON.
{
  echo "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"
  for p in 4 8 16 32 64 128; do
    awk -v p="$p" 'BEGIN { v = 2 + log(p) / log(2); if (p == 128) v *= 100
      printf "0,smpi,SMPI 3.32,%d,1,MPI_Allgather,default,8,time_s,0,%.9g,1\n", p, v }'
  done
} > "$tmp/jump.csv"
out=$("$MPIVET" model "$tmp/jump.csv") || fail "jump run exited $?"
echo "$out" | grep -q "^note: MPI_Allgather: regime change between p = 64 and 128: p = 128 is 11[23]x p = 64 (100x the p = 4..64 model)" ||
  fail "regime-change note ($out)"
"$MPIVET" model --json "$tmp/jump.csv" | grep -q '"note": "regime change between p = 64 and 128' ||
  fail "regime-change note in JSON"
"$MPIVET" model --json "$tmp/jump.csv" | tr -d ' \n' | grep -q '"segments":\[{"from":4,"to":64,' || fail "segments in JSON"
# the one function the segments replace, as a one-function modeler (Extra-P's default) gives it:
# over all 6 points, a poor fit (the reason segments were tried), not the p = 4..64 segment's
"$MPIVET" model --json "$tmp/jump.csv" | python3 -c '
import json, sys
f = json.load(sys.stdin)["functions"][0]
w = f["whole_range"]
assert w["smape"] > 10 and w["model"] != f["segments"][0]["model"], (w, f["segments"])
assert set(w) == {"model", "constant", "terms", "smape"}, w' || fail "whole_range in JSON"
echo PASS
