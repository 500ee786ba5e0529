#!/bin/bash
# mpivet model on Extra-P text input (docs/formats.md): one-parameter regions with several
# metrics and repetitions, and a two-parameter (p, size) kernel, fitted and printed as JSON;
# a malformed DATA line is refused with file:line:column and exit 2.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.bash"
# Known models, repetitions at -1%, 0, +1%: Bcast 3 + 2 log2 p, Gather 1 + 0.5 p, bytes 64.
{
  echo "PARAMETER p"
  echo "POINTS 4 8 16 32 64 128"
  echo "REGION MPI_Bcast"
  echo "METRIC time_s"
  for p in 4 8 16 32 64 128; do
    awk -v p="$p" 'BEGIN { v = 3 + 2 * log(p) / log(2); printf "DATA %.10g %.10g %.10g\n", v * 0.99, v, v * 1.01 }'
  done
  echo "METRIC bytes"
  for p in 4 8 16 32 64 128; do echo "DATA 64 64 64"; done
  echo "REGION MPI_Gather"
  echo "METRIC time_s"
  for p in 4 8 16 32 64 128; do
    awk -v p="$p" 'BEGIN { v = 1 + 0.5 * p; printf "DATA %.10g %.10g %.10g\n", v * 1.01, v * 0.99, v }'
  done
} > "$tmp/one.txt"
# Two parameters: 10 + 0.001 * p * size on a 4 x 4 grid.
{
  echo "PARAMETER p"
  echo "PARAMETER size"
  printf "POINTS"
  for p in 4 8 16 32; do for s in 64 256 1024 4096; do printf " ( %d %d )" "$p" "$s"; done; done
  echo
  echo "REGION MPI_Allgather"
  echo "METRIC time_s"
  for p in 4 8 16 32; do
    for s in 64 256 1024 4096; do
      awk -v p="$p" -v s="$s" 'BEGIN { v = 10 + 0.001 * p * s; printf "DATA %.10g %.10g %.10g\n", v * 0.99, v, v * 1.01 }'
    done
  done
} > "$tmp/two.txt"
"$MPIVET" model --json "$tmp/one.txt" > "$tmp/one.json" || fail "one-parameter run exited $?"
"$MPIVET" model --json "$tmp/two.txt" > "$tmp/two.json" || fail "two-parameter run exited $?"
cat "$tmp/one.json" "$tmp/two.json"
python3 - "$tmp/one.json" "$tmp/two.json" <<'P' || fail "json content"
import json, sys
one = json.load(open(sys.argv[1]))["functions"]
two = json.load(open(sys.argv[2]))["functions"]
def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))
assert [(o["function"], o["metric"]) for o in one] == [
    ("MPI_Bcast", "time_s"), ("MPI_Bcast", "bytes"), ("MPI_Gather", "time_s")], one
b, m, g = one
assert b["model"] == "3 + 2 * log2(p)^(1)" and close(b["constant"], 3), b
assert len(b["terms"]) == 1 and close(b["terms"][0]["coefficient"], 2), b
assert b["terms"][0]["factors"] == [{"param": "p", "poly": 0, "log": 1}], b
assert m["terms"] == [] and close(m["constant"], 64) and m["adjusted_r2"] is None, m
assert g["terms"][0]["factors"] == [{"param": "p", "poly": 1, "log": 0}], g
assert close(g["constant"], 1) and close(g["terms"][0]["coefficient"], 0.5), g
assert b["expectation"] is None and g["match"] is None
assert len(two) == 1 and two[0]["function"] == "MPI_Allgather", two
t = two[0]
assert t["model"] == "10 + 0.001 * p^(1) * size^(1)", t
assert t["terms"][0]["factors"] == [{"param": "p", "poly": 1, "log": 0},
                                    {"param": "size", "poly": 1, "log": 0}], t
assert close(t["constant"], 10) and close(t["terms"][0]["coefficient"], 0.001), t
P
printf 'PARAMETER p\nPOINTS 4 8 16\nREGION A\nMETRIC t\nDATA 1 2\nDATA 1 x\nDATA 3\n' > "$tmp/bad.txt"
"$MPIVET" model --json "$tmp/bad.txt" > "$tmp/bad.out" 2> "$tmp/bad.err"
[ $? = 2 ] || fail "malformed Extra-P must exit 2"
grep -q "bad.txt:6:8: expected a finite number, got \"x\"" "$tmp/bad.err" || fail "error text: $(cat "$tmp/bad.err")"
[ ! -s "$tmp/bad.out" ] || fail "nothing on stdout after an input error"
echo PASS
