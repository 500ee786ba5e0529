#!/usr/bin/env bash
# Issue 15, the adversarial pass: every command with bad input (no argument, unknown options,
# options without their value, missing, empty, binary and folder inputs, huge, negative and
# non-numeric numbers, conflicting options, output into its own input). Each run must end by
# itself (no hang), exit 2 or 3 (never 0 and never a signal or crash: exit < 128, no sanitizer
# report), say something on stderr, and never print a verdict ("pass", "no violation").
# Nothing here launches MPI: the CI part stays in seconds.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
KEEP_GOING=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/empty.csv"
head -c 4096 /dev/urandom > "$work/garbage"
mkdir "$work/dir" "$work/é space"
printf 'run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid\n' > "$work/header.csv"
good="$work/good.csv"
{ cat "$work/header.csv"
  for p in 2 4 8; do echo "0,mpirun,X,$p,1,MPI_Bcast,default,8,time_s,0,${p}e-06,1"; done; } > "$good"
runs=0
# bad CMD ARGS...: must refuse
bad() {
  runs=$((runs + 1))
  timeout 20 "$MPIVET" "$@" > "$work/out" 2> "$work/err" < /dev/null
  local rc=$?
  local what="mpivet $*"
  if [ $rc -eq 124 ]; then fail "$what: hung (killed after 20 s)"; return; fi
  [ $rc -ge 128 ] && fail "$what: killed by signal $((rc - 128))"
  [ $rc -eq 0 ] && fail "$what: exit 0 on bad input"
  [ -s "$work/err" ] || fail "$what: exit $rc with nothing on stderr"
  grep -qE "AddressSanitizer|runtime error:|LeakSanitizer" "$work/err" && fail "$what: sanitizer report"
  grep -qiE "^(pass|verdict: pass)|no violation" "$work/out" && fail "$what: a verdict on bad input"
  return 0
}
for cmd in check bench model guidelines regress convert trace analyze platform calibrate simulate benchgen; do
  bad $cmd --bogus
  bad $cmd --bogus=1
  bad $cmd -Z
done
# options without their value (the last argument)
for o in --np --ops --msizes --platform --expect --runs --reps --seed -o --resume; do bad check $o; done
for o in --np --ppn --runs --timeout --ops --msizes --platform -o; do bad bench $o; done
for o in --expect --measure; do bad model "$good" $o; done
for o in --baseline --alpha --tolerance --junit --json; do bad regress "$good" $o; done
for o in --alpha --catalog; do bad guidelines "$good" $o; done
for o in -o --to; do bad convert "$good" $o; done
for o in --top --cube --html --np --value --rank --region; do bad analyze "$work/dir" $o; done
for o in -o --hostfile --np --ppn; do bad platform cluster:4 $o; done
# missing, empty, folder and binary inputs
for f in "$work/none.csv" "$work/empty.csv" "$work/header.csv" "$work/dir" "$work/garbage" /dev/null; do
  bad model "$f"
  bad guidelines "$f"
  bad regress "$f" --baseline "$good"
  bad regress "$good" --baseline "$f"
  bad convert "$f" -o "$work/x.txt" --to extrap
  bad analyze "$f"
  bad benchgen "$f"
  bad model "$good" --expect "$f"
  bad check --np 4 --expect "$f" -o "$work/c-$RANDOM"
  bad check --resume "$f"
done
bad convert "$good" -o "$good" --to csv
bad convert "$good"
bad model
bad regress "$good"
# numbers: huge, negative, zero, not a number
for n in 99999999999999999999 -1 0 abc 1e3 "" nan; do
  bad check --np "$n" -o "$work/c-$RANDOM"
  bad bench --np "$n" -o "$work/b-$RANDOM"
  bad check --np 4 --runs "$n" -o "$work/c-$RANDOM"
  bad check --np 4 --reps "$n" -o "$work/c-$RANDOM"
  bad platform "cluster:$n"
  bad platform cluster:4 --hostfile "$work/h" --np "$n"
  bad regress "$good" --baseline "$good" --alpha "$n"
  bad analyze "$work/dir" --top "$n"
done
bad regress "$good" --baseline "$good" --alpha 1.5
bad regress "$good" --baseline "$good" --alpha nan
bad check --np 4 --msizes -8 -o "$work/c-$RANDOM"
bad check --np 4 --ops MPI_Nothing -o "$work/c-$RANDOM"
# conflicting options
bad check --np 4 --resume "$work/dir"
bad check --engine mpirun --mpi nosuch --np 2 -o "$work/c-$RANDOM"
bad bench --engine smpi --mpi openmpi --np 2 -o "$work/b-$RANDOM"
bad platform cluster:2 --hostfile "$work/h" --np 8 --ppn 2
bad platform cluster:2 -o "$work/same" --hostfile "$work/same" --np 2
bad simulate --np 0 "$work/none.c"
bad simulate "$work/garbage"
bad calibrate
bad trace
bad trace -o "$work/t" --
bad benchgen "$work/dir" --compare
# found by the argument fuzzer (tests/argv-fuzz.py, stop 23). Endless streams as inputs: before,
# benchgen, --expect and --catalog read /dev/full or /dev/zero until memory ran out (a hang).
bad benchgen /dev/full
bad benchgen /dev/zero --print
bad model "$good" --expect /dev/zero
bad guidelines "$good" --catalog /dev/full
bad convert /dev/zero -o "$work/z.csv" --to csv
# srun's options given to another engine were ignored: the run went on (exit 0)
bad check --engine smpi --np 2 --ops MPI_Bcast --msizes 8 --runs 1 --partition debug -o "$work/c-$RANDOM"
bad bench --engine smpi --np 2 --ops MPI_Bcast --msizes 8 --nodes 1 -o "$work/b-$RANDOM"
bad bench --engine mpirun --np 2 --time-limit 5 -o "$work/b-$RANDOM"
grep -q "applies to --engine srun only" "$work/err" || fail "srun option: $(cat "$work/err")"
# a --kernel-records file that cannot be read was found after the whole measurement
bad calibrate --np 2 --kernel-records "$work/none.csv" -o "$work/cal"
[ ! -e "$work/cal" ] || fail "calibrate made its folder before refusing --kernel-records"
# more --kernel-records files than the limit: said before anything is measured; 1024 are taken
recs=(); for i in $(seq 1025); do recs+=(--kernel-records "$good"); done
bad calibrate --np 2 "${recs[@]}" -o "$work/cal"
grep -q -- "--kernel-records: at most 1024 files" "$work/err" || fail "1025 record files: $(cat "$work/err")"
# a results.csv through a pipe (process substitution) is read once: before, model looked into
# it for Extra-P first, then read nothing ("got an empty file", exit 2). convert: trust-convert.sh.
"$MPIVET" model <(cat "$good") > "$work/out" 2> "$work/err" ||
  fail "model <(cat results.csv): exit $?: $(cat "$work/err")"
# a FIFO is no OTF2 archive: refused before it is opened (stop 25's fuzzing: with --np 3 one
# process took the data and the others waited for a writer forever)
mkfifo "$work/fifo"
bad analyze "$work/fifo"
bad analyze "$work/fifo" --np 2
grep -q "no OTF2 archive here" "$work/err" || fail "analyze FIFO: $(cat "$work/err")"
# an odd path is still a path: the message names it
bad model "$work/é space/none.csv"
grep -qF "é space/none.csv" "$work/err" || fail "unicode path not named: $(cat "$work/err")"
echo "$runs runs"
finish
echo ok
