#!/usr/bin/env bash
# A real application we did not write: Debian's LAMMPS (lmp, Open MPI) runs a small LJ melt
# (tests/data/lammps/in.melt: 2048 atoms, 100 steps) on 4 oversubscribed ranks under
# `mpivet trace`; `mpivet analyze` then prints the top root causes and the critical path in plain
# words, the identity of the cost model holds (short- plus long-term delay costs = the waiting
# time they explain, to 1e-9 relative; at most all waiting time; the rest is reported as
# unexplained: explained + unexplained = all waiting, in --json and in words), the critical path is no longer
# than the run (first event of any rank to the last one, from the page's data), and the --html page renders in headless Chromium with every wait state, message
# and critical-path stretch drawn. What the analysis finds depends on the machine's load (the
# ranks share 2 cores), so only the structure is checked; the report is printed.
set -u
. "$MV_SRC/tests/lib.bash"
. "$MV_SRC/tests/chromium.bash"
command -v lmp >/dev/null || { echo "lammps not installed (scripts/install-deps.sh)"; exit 77; }
need_flavor openmpi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
timeout 180 "$MPIVET" trace -o "$work/tr" -- mpirun.openmpi --oversubscribe -np 4 \
  lmp -in "$MV_SRC/tests/data/lammps/in.melt" -log none -screen none >"$work/trace.out" 2>&1 ||
  { cat "$work/trace.out"; fail "mpivet trace of lmp"; }
"$MPIVET" analyze "$work/tr" --top 5 >"$work/report.txt" 2>"$work/err" || fail "analyze: $(cat "$work/err")"
sed -n '1p;/^top wait states/,$p' "$work/report.txt"
grep -q '^wait-state analysis: .* 4 locations' "$work/report.txt" || fail "not 4 locations"
grep -Eq '^   1\. [0-9.e-]+ s of waiting on ranks? [0-9, -]+ is caused by .* on rank [0-3]' "$work/report.txt" ||
  fail "no root cause in plain words"
grep -Eq '^critical path: [0-9.e-]+ s, back from the end of rank [0-3] .*; longest on it:$' "$work/report.txt" ||
  fail "no critical path in plain words"
grep -Eq '^  unexplained: [0-9.e-]+ s of waiting time \([0-9.e-]+ %\)' "$work/report.txt" ||
  fail "no line for the unexplained waiting time"
"$MPIVET" analyze "$work/tr" --json >"$work/a.json" || fail "analyze --json"
"$MPIVET" analyze "$work/tr" --html "$work/lammps.html" >/dev/null || fail "analyze --html"
python3 - "$work/a.json" "$work/lammps.html" <<'PY' || fail "identity or critical path"
import json, re, sys
a = json.load(open(sys.argv[1]))
page = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', open(sys.argv[2]).read(), re.S).group(1))
span = page["span"] / page["res"]
inc = {m["key"]: m["inclusive"] for m in a["metrics"]}
delay, explained, unexplained = inc["delay"], a["explained_waiting_time"], a["unexplained_waiting_time"]
waiting = inc["mpi_wait_direct"] + inc["mpi_wait_indirect"]
parent = {m["key"]: m["parent"] for m in a["metrics"]}
def within(k, root):
    while k is not None and k != root:
        k = parent[k]
    return k == root
run = {}   # Time per rank: its first to its last event (own values of Time and below)
for v in a["values"]:
    if within(v["metric"], "time"):
        run[v["rank"]] = run.get(v["rank"], 0) + v["value"]
print("waiting %.6f s, delay costs %.6f s, explained %.6f s (%.2f %% of the waiting), unexplained %.6f s, "
      "critical path %.6f s, run %.6f s, longest rank %.6f s"
      % (waiting, delay, explained, 100 * explained / waiting if waiting else 0, unexplained,
         inc["critical_path"], span, max(run.values())))
ok = delay > 0 and abs(delay - explained) <= 1e-9 * delay and explained <= waiting * (1 + 1e-9)
ok = ok and abs(explained + unexplained - waiting) <= 1e-9 * waiting
ok = ok and len(run) == 4 and 0 < inc["critical_path"] <= span * (1 + 1e-9) + 1e-9
sys.exit(0 if ok else 1)
PY
if [ -n "$(browser)" ]; then
  render "file://$work/lammps.html" "$work/lammps.dom" || fail "chromium: $(tail -3 "$work/lammps.dom.err")"
  drawn=$(page_check "$work/lammps.html" "$work/lammps.dom") || fail "page: $drawn"
  echo "page: drawn (segments waits messages critical) $drawn"
fi
finish
echo ok
