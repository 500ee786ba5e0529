#!/usr/bin/env bash
# Issue 15, item 12: a platform with fewer hosts than ranks runs several ranks per host; check
# warns (unless --ppn asked for it) and records the ranks per host in meta.json (plan.ranks_per_host,
# one per nprocs) and on the report's platform line. Before: silent, nothing recorded.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
case " ${MV_FLAVORS:-} " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rph() { python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['plan']; print(p['nprocs'], p.get('ranks_per_host'))" "$1"; }
"$MPIVET" check --np 4:16 --ops MPI_Bcast@800 --platform cluster:4 --seed 1 -o "$work/c" > "$work/out" 2> "$work/err"
[ $? -le 1 ] || fail "check: $(cat "$work/err")"
grep -qF "warning: np 8..16 run 2..4 ranks per host of the 4 hosts of cluster:4" "$work/err" ||
  fail "no warning: $(cat "$work/err")"
[ "$(rph "$work/c/meta.json")" = "[4, 8, 16] [1, 2, 4]" ] || fail "meta.json: $(rph "$work/c/meta.json")"
grep -qF "platform: cluster:4; np 8..16 run 2..4 ranks per host" "$work/c/report.txt" ||
  fail "report: $(grep platform "$work/c/report.txt")"
# a rank per host (the default platform): no warning, all ones
"$MPIVET" check --np 4:16 --ops MPI_Bcast@800 --seed 1 -o "$work/d" > /dev/null 2> "$work/err"
grep -q "ranks per host" "$work/err" && fail "default platform warned: $(cat "$work/err")"
[ "$(rph "$work/d/meta.json")" = "[4, 8, 16] [1, 1, 1]" ] || fail "meta.json: $(rph "$work/d/meta.json")"
# --ppn asked for it: recorded, not warned
"$MPIVET" check --np 4:16 --ops MPI_Bcast@800 --platform cluster:2 --ppn 8 --seed 1 -o "$work/e" > /dev/null 2> "$work/err"
grep -q "warning" "$work/err" && fail "--ppn warned: $(cat "$work/err")"
[ "$(rph "$work/e/meta.json")" = "[4, 8, 16] [4, 8, 8]" ] || fail "meta.json --ppn: $(rph "$work/e/meta.json")"
finish
echo ok
