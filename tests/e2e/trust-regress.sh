#!/usr/bin/env bash
# Issue 15, items 6 and 7: mpivet regress never passes on nothing. A header-only NEW or baseline
# is exit 2 "no measurements in FILE"; one value per side (the per-process series of a default
# SMPI check: one launch, one call) is decided on the ratio on SMPI (a 1.5x slowdown fails) and
# is "undecidable" from mpirun, with exit 2 when no case at all could be decided.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.bash"
hdr=run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid
run() { "$MPIVET" regress "$@" > "$work/out" 2> "$work/err"; echo $?; }

echo "$hdr" > "$work/empty.csv"
{ echo "$hdr"; echo "0,smpi,S,16,1,MPI_Gather,default,12800,time_s,0,1e-05,1"
  echo "0,smpi,S,32,1,MPI_Gather,default,25600,time_s,0,2e-05,1"; } > "$work/old.csv"
sed 's/1e-05,1$/1.5e-05,1/; s/2e-05,1$/3e-05,1/' "$work/old.csv" > "$work/slow.csv"
{ echo "$hdr"; echo "0,smpi,S,16,1,MPI_Gather,default,12800,time_s,0,1e-05,0"; } > "$work/invalid.csv"

[ "$(run "$work/empty.csv" --baseline "$work/old.csv")" = 2 ] || fail "empty NEW not exit 2"
grep -q "no measurements in $work/empty.csv" "$work/err" || fail "message: $(cat "$work/err")"
[ "$(run "$work/old.csv" --baseline "$work/empty.csv")" = 2 ] || fail "empty baseline not exit 2"
[ "$(run "$work/old.csv" --baseline "$work/invalid.csv")" = 2 ] || fail "all-invalid baseline not exit 2"

[ "$(run "$work/slow.csv" --baseline "$work/old.csv" --no-growth)" = 1 ] || fail "SMPI 1.5x not exit 1"
[ "$(grep -c '^slower ' "$work/out")" = 2 ] || { cat "$work/out"; fail "want 2 slower cases"; }
[ "$(run "$work/old.csv" --baseline "$work/old.csv" --no-growth)" = 0 ] || fail "SMPI rerun not exit 0"

sed 's/,smpi,/,mpirun,/' "$work/slow.csv" > "$work/slow-mpirun.csv"
sed 's/,smpi,/,mpirun,/' "$work/old.csv" > "$work/old-mpirun.csv"
[ "$(run "$work/slow-mpirun.csv" --baseline "$work/old-mpirun.csv" --no-growth)" = 2 ] ||
  { cat "$work/out" "$work/err"; fail "undecidable mpirun cases not exit 2"; }
[ "$(grep -c '^undecidable ' "$work/out")" = 2 ] || { cat "$work/out"; fail "want 2 undecidable"; }
grep -q "no case could be decided" "$work/err" || fail "message: $(cat "$work/err")"
grep -q '^pass ' "$work/out" && fail "a pass on one value per side"
echo ok
