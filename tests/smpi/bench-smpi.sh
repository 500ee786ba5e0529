#!/usr/bin/env bash
# mpivet bench under SMPI: valid results.csv, every mock-up equal to its collective (the run
# fails otherwise), determinism (two identical runs give identical timings), and bad arguments.
set -u
case " ${MV_FLAVORS//;/ } " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.bash"

for d in a b; do
  "$MPIVET" bench --engine smpi --np 16 --platform fattree:16 --ops collectives,mockups,pingpong \
      --msizes 8,4096 --runs 1 --reps 5 --seed 7 -o "$tmp/$d" || fail "bench run $d"
done
rows=$(tail -n +2 "$tmp/a/results.csv" | wc -l)
[ "$rows" -gt 300 ] || fail "only $rows rows"
head -1 "$tmp/a/results.csv" | grep -qx 'run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid' \
  || fail "header"
# every one of the 15 mock-ups and the binomial Bcast was measured and checked equal
for id in $(grep -E '^GL[0-9]+ +pattern' "$MV_SRC/share/mpivet/guidelines.catalog" | awk '{print $4}') bcast_as_binomial; do
  grep -q ",$id,4096,time_s," "$tmp/a/results.csv" || fail "no rows for $id"
done
equal=$(grep -c '"equal_to_default": true' "$tmp/a/launches/run-0.json")
[ "$equal" -eq 32 ] || fail "$equal of 32 mock-up jobs checked equal"
grep -q '"equal_to_default": false' "$tmp/a/launches/run-0.json" && fail "a mock-up differs"
# determinism: identical timings (column 11) in both runs
cmp -s <(cut -d, -f6-12 "$tmp/a/results.csv") <(cut -d, -f6-12 "$tmp/b/results.csv") \
  || fail "two identical SMPI runs differ"

# bad arguments: exit 2 with a message
for args in "--ops MPI_Foo" "--msizes 8,abc" "--np 0" "--engine qsub" "--sync ntp" "--platform ring:4"; do
  "$MPIVET" bench --engine smpi --np 4 $args -o "$tmp/bad" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "$args: exit $rc, want 2"
  [ -s "$tmp/err" ] || fail "$args: no message"
done
"$MPIVET" bench --engine mpirun --np 100000 -o "$tmp/bad" 2>/dev/null; [ $? -eq 2 ] || fail "np too large accepted"
echo "ok: $rows rows, 32 mock-up checks equal, deterministic"
