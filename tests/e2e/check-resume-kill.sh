#!/usr/bin/env bash
# mpivet check survives kill -9: a campaign killed in the middle (with its launcher children) and
# resumed with --resume has exactly the rows of a clean run with the same seed, none twice; the
# plan has ops at one size each (800 B in total, 8 B per process: launches of their own per size,
# rows of the per-process Gather at msize 8 x p), so the recorded size specs are resumed too.
# Ctrl-C (SIGINT to mpivet's process group, as a terminal sends it) stops the running launch too,
# although the launcher has a process group of its own: nothing outlives mpivet; resume works.
set -euo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(--engine smpi --np 32,64,128 --ops MPI_Bcast@800,MPI_Allreduce@800,MPI_Gather@8p --runs 3
      --reps 3 --seed 42)

"$MPIVET" check "${args[@]}" -o "$work/clean" > "$work/clean.out" 2> "$work/clean.err" || [ $? -eq 1 ]

descendants() {   # every process below pid $1
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done
}
setsid "$MPIVET" check "${args[@]}" -o "$work/cut" > "$work/cut.out" 2> "$work/cut.err" &
pid=$!
for _ in $(seq 1 3000); do   # wait until 3 of the 18 launches (0.1-0.4 s each) are committed
  [ -f "$work/cut/campaign.journal" ] && [ "$(wc -l < "$work/cut/campaign.journal")" -ge 3 ] && break
  sleep 0.02
done
kids=$(descendants "$pid")
kill -9 "$pid" $kids 2>/dev/null || true
wait "$pid" 2>/dev/null || true
done_before=$(wc -l < "$work/cut/campaign.journal")
echo "killed after $done_before committed launches"
[ "$done_before" -lt 18 ] || { echo "FAIL: the campaign finished before the kill"; exit 1; }
[ ! -f "$work/cut/report.txt" ] || { echo "FAIL: report written before the kill"; exit 1; }

"$MPIVET" check --resume "$work/cut" > "$work/resume.out" 2> "$work/resume.err" || [ $? -eq 1 ]
grep -q "launches ($done_before done)" "$work/resume.err" || { cat "$work/resume.err"; exit 1; }
[ "$(wc -l < "$work/cut/campaign.journal")" -eq 18 ]
sort "$work/clean/results.csv" > "$work/a"
sort "$work/cut/results.csv" > "$work/b"
if ! cmp -s "$work/a" "$work/b"; then
  echo "FAIL: resumed rows differ from a clean run"; diff "$work/a" "$work/b" | head; exit 1
fi
dups=$(tail -n +2 "$work/cut/results.csv" | cut -d, -f1,4,6,7,8,9,10 | sort | uniq -d | wc -l)
[ "$dups" -eq 0 ] || { echo "FAIL: $dups duplicated rows"; exit 1; }
rows=$(($(wc -l < "$work/cut/results.csv") - 1))
[ "$rows" -eq $((9 * 3 * 3)) ] || { echo "FAIL: $rows rows, want 81"; exit 1; }
bad=$(awk -F, '$6 == "MPI_Gather" && $8 != 8 * $4' "$work/cut/results.csv" | wc -l)
[ "$bad" -eq 0 ] || { echo "FAIL: $bad Gather rows not at 8 B per process"; exit 1; }
for f in report.txt report.json report.html meta.json; do [ -s "$work/cut/$f" ]; done
echo "ok: $rows rows after kill -9 and resume, identical to the clean run"

# a script's background job starts with SIGINT ignored, and mpivet keeps an ignored signal
# ignored (nohup): give the run SIGINT back, as a terminal's foreground job has it
setsid env --default-signal=INT "$MPIVET" check "${args[@]}" -o "$work/int" > "$work/int.out" 2> "$work/int.err" &
pid=$!
for _ in $(seq 1 3000); do   # a launch committed, the next one running
  [ -f "$work/int/campaign.journal" ] && [ "$(wc -l < "$work/int/campaign.journal")" -ge 1 ] && break
  sleep 0.02
done
kill -INT -- -"$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 3 ] || { echo "FAIL: exit $rc after SIGINT, want 3"; cat "$work/int.err"; exit 1; }
grep -q "interrupted by signal 2" "$work/int.err" || { cat "$work/int.err"; exit 1; }
sleep 0.5
if ps -e -o args= | grep -F "$work/int/" | grep -v grep; then
  echo "FAIL: a launch outlived mpivet check"; exit 1
fi
"$MPIVET" check --resume "$work/int" > /dev/null 2>&1 || [ $? -eq 1 ]
sort "$work/int/results.csv" | cmp -s - "$work/a" || { echo "FAIL: rows after SIGINT + resume"; exit 1; }
echo "ok: SIGINT stopped the running launch (exit 3); resumed rows identical"
