#!/usr/bin/env bash
# Issue 15, convert's two open findings of stop 23:
#  - its input is read once: results.csv or Extra-P text through a pipe (`<(...)`) converts as the
#    same file does (before, results.csv was read twice and the second pass found nothing; an
#    Extra-P pipe was taken for results.csv);
#  - two conversions into one new file at once: exactly one succeeds, the other is refused with
#    exit 2 and "exists; not overwriting it", and the file is the winner's whole output (before,
#    both exited 0 and the second silently replaced the first). Both runs are held on FIFO inputs
#    until each has passed its own "does OUTPUT exist" check, so the race is at the rename every
#    time, not by luck.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
KEEP_GOING=1
scratch work
csv=$work/in.csv
{ echo "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"
  for p in 2 4 8 16; do for r in 0 1 2; do
    echo "0,mpirun,X,$p,1,MPI_Bcast,default,8,time_s,$r,$p.5e-06,1"; done; done; } > "$csv"
"$MPIVET" convert "$csv" -o "$work/ref.extrap" 2> "$work/err" || fail "convert FILE: $(cat "$work/err")"
"$MPIVET" convert "$work/ref.extrap" -o "$work/ref.csv" 2> "$work/err" || fail "convert back: $(cat "$work/err")"

# the input through a pipe, read once
timeout 30 "$MPIVET" convert <(cat "$csv") -o "$work/pipe.extrap" 2> "$work/err" ||
  fail "convert <(results.csv): exit $?: $(cat "$work/err")"
cmp -s "$work/pipe.extrap" "$work/ref.extrap" || fail "convert <(results.csv) differs from convert FILE"
timeout 30 "$MPIVET" convert <(cat "$work/ref.extrap") -o "$work/pipe.csv" 2> "$work/err" ||
  fail "convert <(Extra-P text): exit $?: $(cat "$work/err")"
cmp -s "$work/pipe.csv" "$work/ref.csv" || fail "convert <(Extra-P text) differs from convert FILE"
timeout 30 "$MPIVET" convert <(cat "$csv") -o - > "$work/stdout.extrap" 2> "$work/err" ||
  fail "convert <(results.csv) -o -: $(cat "$work/err")"
cmp -s "$work/stdout.extrap" "$work/ref.extrap" || fail "convert <(results.csv) -o - differs"
timeout 30 "$MPIVET" convert <(cat "$csv") -o "$work/same.csv" > /dev/null 2> "$work/err"
[ $? -eq 2 ] && grep -q "already in the csv format" "$work/err" ||
  fail "csv to csv through a pipe: $(cat "$work/err")"

# two conversions into one new file at once, held until both have checked the output: each
# FIFO's writer opens it (which returns once convert opened it to read, after its check), says so,
# and sends the input only when both are open
for round in 1 2 3; do
  out=$work/race-$round.extrap
  rm -f "$work"/f[12] "$work"/f[12].open "$work/go"
  mkfifo "$work/f1" "$work/f2"
  timeout 30 "$MPIVET" convert "$work/f1" -o "$out" > /dev/null 2> "$work/e1" &
  p1=$!
  timeout 30 "$MPIVET" convert "$work/f2" -o "$out" > /dev/null 2> "$work/e2" &
  p2=$!
  for f in f1 f2; do
    timeout 30 sh -c 'exec 3> "$1"; : > "$1.open"; while [ ! -e "$2" ]; do sleep 0.05; done
                      cat "$3" >&3' _ "$work/$f" "$work/go" "$csv" &
  done
  for i in $(seq 1 300); do
    [ -e "$work/f1.open" ] && [ -e "$work/f2.open" ] && break
    sleep 0.1
  done
  : > "$work/go"
  r1=0 r2=0
  wait $p1 || r1=$?
  wait $p2 || r2=$?
  if [ "$r1$r2" != 02 ] && [ "$r1$r2" != 20 ]; then
    fail "round $round: two conversions into one new file: exit $r1 and $r2 (want one 0, one 2):" \
      "$(cat "$work/e1" "$work/e2")"
  fi
  grep -q "exists; not overwriting it" "$work/e1" "$work/e2" ||
    fail "round $round: the refused conversion does not say why: $(cat "$work/e1" "$work/e2")"
  cmp -s "$out" "$work/ref.extrap" || fail "round $round: the output is not one whole conversion"
  wait
  left=$(ls "$work" | grep -c "race-$round.extrap.")
  [ "$left" -eq 0 ] || fail "round $round: temporary files left: $(ls "$work")"
done
finish
echo ok
