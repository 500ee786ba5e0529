#!/bin/bash
# Truth tests on real MPI: each example of examples/README.md is traced with libmpivet-trace under
# Open MPI (up to 4 ranks on 2 cores) and analyzed. Two kinds of checks:
# - exact: the analyzer equals an independent oracle computed from otf2-print's text of the same
#   trace (tests/mpi/analyze-oracles.bash) to the nanosecond, on every run;
# - design: the designed waiting time within the README's tolerance for a loaded 2-core machine,
#   TOL (0.020 s) or 20 %, whichever is larger. The design holds only when the machine runs the
#   example as designed: when a design check with an oracle misses while the analyzer equals the
#   oracle, the trace itself departs from the design (a rank was descheduled), and the example
#   is run again, at most ATTEMPTS (3) times in all; the retry is printed. A miss in the last
#   attempt fails. The stencil's checks have no oracle and never retry.
# Every trace is also checked for causality (no barrier left before its last member entered, no
# receive returned before its send entered): on one node the tracer aligns ranks exactly.
# MV_ANALYZE_FLAVORS="openmpi mpich" runs the Open MPI examples under MPICH too. The MPICH lock
# chain with the target out of MPI after its unlock (thesis 5.6's Wait for Progress) runs by
# default whenever MPICH is built.
set -u
TOL=${TOL:-0.020}
ATTEMPTS=${ATTEMPTS:-3}
. "$MV_SRC/tests/mpi/analyze-oracles.bash"
work=$(mktemp -d /tmp/mv-analyze-ex-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fails=0
tested=0
causal=0      # traces checked for causality (run)
departed=""   # why the current attempt departs from the design (empty: it did not)
last=1        # 1 in the last attempt: design misses fail

# within GOT WANT: |GOT - WANT| <= max(TOL, 20 % of WANT); prints the error
within() {
  local err
  err=$(awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; printf "%.6f", d < 0 ? -d : d }')
  echo "$err"
  awk -v e="$err" -v t="$TOL" -v w="$2" 'BEGIN { exit !(e <= t || e <= 0.2 * w) }'
}
# check LABEL GOT WANT: a design check that never retries
check() {
  local err
  if err=$(within "$2" "$3"); then
    echo "ok   $1: $2 s (designed $3 s, error $err s)"
  else
    echo "FAIL $1: $2 s, designed $3 s (error $err s > $TOL and > 20 %)"
    fails=$((fails + 1))
  fi
}
# check_min LABEL GOT WANT: GOT >= WANT - TOL (waits that propagate may add to the design)
check_min() {
  if awk -v g="$2" -v w="$3" -v t="$TOL" 'BEGIN { exit !(g >= w - t || g >= 0.8 * w) }'; then
    echo "ok   $1: $2 s (at least the designed $3 s)"
  else
    echo "FAIL $1: $2 s, designed at least $3 s"
    fails=$((fails + 1))
  fi
}
# check_exact LABEL GOT WANT: equal to the nanosecond
check_exact() {
  if awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; exit !(d < 1.5e-9 && d > -1.5e-9) }'; then
    echo "ok   $1: $2 s = $3 s from otf2-print"
  else
    echo "FAIL $1: $2 s, otf2-print gives $3 s"
    fails=$((fails + 1))
  fi
}
# design LABEL GOT ORACLE WANT: GOT equals ORACLE exactly, and is the designed WANT; a design
# miss of an exact value is a departure of the run unless this is the last attempt
design() {
  local err nfails=$fails
  check_exact "$1 (exact)" "$2" "$3"
  if err=$(within "$2" "$4"); then
    echo "ok   $1: $2 s (designed $4 s, error $err s)"
  elif [ -z "$last" ] && [ "$fails" = "$nfails" ]; then
    echo "dev  $1: $2 s, designed $4 s (error $err s): the trace departs from the design"
    departed="$departed $1;"
  else
    echo "FAIL $1: $2 s, designed $4 s (error $err s > $TOL and > 20 %)"
    fails=$((fails + 1))
  fi
}
# try LABEL FN: FN (one traced run and its checks) until its trace follows the design, at most
# ATTEMPTS times
try() {
  local i
  for i in $(seq "$ATTEMPTS"); do
    departed=""
    last=$([ "$i" -ge "$ATTEMPTS" ] && echo 1)
    "$2" || return 0
    [ -z "$departed" ] && return 0
    echo "retry $1: attempt $i departed from the design:${departed%;}"
  done
}
val() { "$MPIVET" analyze "$dir" --value "$@"; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.9f\n", a + b }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.9f\n", (a > b ? a : b) }'; }
run() {   # run FLAVOR NAME NP ARGS...
  local flavor=$1 name=$2 np=$3; shift 3
  local prog="$MV_BUILD/lib/mpivet/$flavor/$name"
  dir="$work/$flavor-$name"
  rm -rf "$dir"
  local launch=(mpirun.openmpi --oversubscribe -np "$np")
  [ "$flavor" = mpich ] && launch=(mpirun.mpich -np "$np")
  timeout 120 "$MPIVET" trace -o "$dir" --mpi "$flavor" -- "${launch[@]}" "$prog" "$@" >"$dir.log" 2>&1 \
    || { echo "FAIL $flavor $name: trace failed"; cat "$dir.log"; fails=$((fails + 1)); return 1; }
  local nv worst
  read -r nv worst < <(causality_violations)
  if [ "$nv" -ne 0 ]; then
    echo "FAIL $flavor $name: $nv causality violations, largest $worst ns (ranks' clocks not aligned)"
    fails=$((fails + 1))
  fi
  causal=$((causal + 1))
}

# late sender: 3 x 100 ms on each odd rank, in MPI_Recv
ex_late_sender() {
  run "$flavor" late-sender 4 || return 1
  for r in 1 3; do
    design "$flavor late-sender rank $r" "$(val late_sender --rank $r --region MPI_Recv)" "$(oracle_late_sender $r)" 0.300
  done
  design "$flavor late-sender rank 0" "$(val late_sender --rank 0)" "$(oracle_late_sender 0)" 0
}
# late receiver: 4 MiB rendezvous sends, ~3 x 100 ms on each even rank; the pairs are not in
# lockstep (each send returns when its data has arrived), so allow 50 ms
ex_late_receiver() {
  run "$flavor" late-receiver 2 || return 1
  TOL=0.050 design "$flavor late-receiver rank 0" "$(val late_receiver --rank 0 --region MPI_Send)" \
    "$(oracle_late_receiver 0)" 0.300
}
# imbalanced barrier, p = 4, 3 x (3-r) x 50 ms
ex_barrier() {
  run "$flavor" imbalanced-barrier 4 || return 1
  local want=(0.450 0.300 0.150 0)
  for r in 0 1 2 3; do
    design "$flavor barrier rank $r" "$(val wait_barrier --rank $r)" "$(oracle_barrier $r)" "${want[$r]}"
  done
}
# imbalanced fence: Wait at Fence (with its Early Fence child) as the barrier
ex_fence() {
  run "$flavor" imbalanced-fence 4 || return 1
  design "$flavor fence rank 0" "$(val wait_fence --rank 0 --region MPI_Win_fence)" "$(oracle_fence 0)" 0.450
  design "$flavor fence rank 2" "$(val wait_fence --rank 2)" "$(oracle_fence 2)" 0.150
}
# late post: 3 x 100 ms on each origin, in start, put or complete (both Late Post metrics)
ex_late_post() {
  run "$flavor" late-post 3 || return 1
  for r in 1 2; do
    design "$flavor late-post rank $r" "$(sum "$(val late_post --rank $r)" "$(val late_post_comm --rank $r)")" \
      "$(oracle_late_post $r)" 0.300
  done
}
# early wait: 3 x 100 ms on the target, all of it Late Complete
ex_early_wait() {
  run "$flavor" early-wait 2 || return 1
  local early late
  read -r early late < <(oracle_early_wait)
  design "$flavor early-wait rank 0" "$(val early_wait --rank 0 --region MPI_Win_wait)" "$early" 0.300
  design "$flavor late-complete rank 0" "$(val late_complete --rank 0)" "$late" 0.300
}
# lock chain (thesis 5.6): the rank queued right behind rank 0's 200 ms hold waits ~190 ms
# (rank 1 by design; on 2 loaded cores rank 1 sometimes locks before rank 0 and rank 2 waits;
# if rank 0 locks last nobody waits for its hold and the design does not apply). The waits are
# Lock Contention + Wait for Progress; the analyzer equals the otf2-print oracle for each origin.
ex_lock_chain() {
  run "$flavor" lock-chain 3 || return 1
  check_lock_oracle "$flavor"
  local lastr w1 w2 o1 o2
  lastr=$(otf2_text | awk '$1 == "RMA_RELEASE_LOCK" { t[$2] = $3 }
    END { l = 0; for (r in t) if (t[r] > t[l]) l = r; print l }')
  w1=$(sum "$(val lock_contention --rank 1)" "$(val wait_for_progress --rank 1)")
  w2=$(sum "$(val lock_contention --rank 2)" "$(val wait_for_progress --rank 2)")
  read -r o1 o2 < <(oracle_lock_chain | awk '$1 == 1 || $1 == 2 { w[$1] = $2 + $3 } END { printf "%.9f %.9f\n", w[1], w[2] }')
  if [ "$lastr" = 0 ]; then
    echo "skip $flavor lock-chain: rank 0 got the lock last in this run (waits: rank 1 $w1 s, rank 2 $w2 s)"
  else
    design "$flavor lock-chain longest wait behind rank 0" "$(max "$w1" "$w2")" "$(max "$o1" "$o2")" 0.190
    echo "     lock-chain: rank 1 $w1 s, rank 2 $w2 s (contention + progress)"
  fi
}
# stencil (2 x 2 grid) with rank 0 slower by 20 ms per iteration: its neighbours 1 and 2 wait
# in MPI_Waitall in iterations 1-9 (9 x 20 ms; iteration 0's halo leaves before the work) and
# in the Allreduce after iteration 9 (20 ms, Wait at N x N): exact under SMPI
# (tests/smpi/analyze-examples.sh). Rank 3 waits for them in turn (propagation); rank 0 not.
# With 4 ranks on 2 oversubscribed cores a neighbour that was descheduled enters Waitall late
# and waits less, so each neighbour must show the wait in Waitall (attribution), and their
# larger wait must reach the designed 0.18 s.
ex_stencil() {
  run "$flavor" stencil-2d 4 64 10 20 || return 1
  local s1 s2
  s1=$(val late_sender --rank 1 --region MPI_Waitall)
  s2=$(val late_sender --rank 2 --region MPI_Waitall)
  check_min "$flavor stencil rank 1 Waitall (attribution)" "$s1" 0.020
  check_min "$flavor stencil rank 2 Waitall (attribution)" "$s2" 0.020
  check_min "$flavor stencil larger neighbour wait" "$(max "$s1" "$s2")" 0.180
  check "$flavor stencil rank 0" "$(val late_sender --rank 0)" 0
}
# check_lock_oracle LABEL: Lock Contention and Wait for Progress of every origin but rank 0, exact
check_lock_oracle() {
  local r lc wfp
  while read -r r lc wfp; do
    [ "$r" = order ] || [ "$r" = 0 ] && continue
    check_exact "$1 lock-chain rank $r lock_contention" "$(val lock_contention --rank "$r")" "$lc"
    check_exact "$1 lock-chain rank $r wait_for_progress" "$(val wait_for_progress --rank "$r")" "$wfp"
  done < <(oracle_lock_chain)
}

# Thesis 5.6 under MPICH (ch4, no progress thread): rank 0 holds its lock 200 ms, then works
# 100 ms outside MPI. Rank 1 waits ~190 ms in MPI_Win_lock for the holder's bar() (Lock
# Contention), gets the lock in rank 0's unlock, and then waits ~100 ms in MPI_Win_unlock for
# rank 0 to enter MPI again (Wait for Progress: MPICH acknowledges the unlock at the target);
# ranks 2 and 3 are granted the lock only then. The run departs from the design when the
# trace shows another lock order, rank 0 holding the lock or staying out of MPI more than TOL
# longer than designed, or rank 1 requesting the lock more than TOL off its designed 10 ms
# after rank 0 (descheduled ranks); then it is retried. On a run that follows the design the
# trace (otf2-print) shows the designed waits, and so does the analyzer for rank 1. On every
# run the analyzer equals the oracle for ranks 1-3. Rank 1's clock is sometimes 0.1-2.5 ms
# behind rank 0's (the tracer's clock alignment), so that its blocking MPI_Win_lock seems to
# return before rank 0 released the lock; analyzer and oracle both correct that.
# lock_chain_design sets why (empty when the run followed the design), order, hold, skew, out,
# lock_wait (rank 1's MPI_Win_lock) and unlock_out (the time of rank 1's MPI_Win_unlock outside
# every MPI call of rank 0, thesis algorithm 1 no-overlap).
lock_chain_design() {
  read -r order hold skew out lock_wait unlock_out < <(otf2_text | awk '
    $1 != "ENTER" && $1 != "LEAVE" { next }
    $2 == 0 { if ($1 == "ENTER") e0[n0] = $3; else l0[n0++] = $3 }
    $5 != "\"MPI_Win_lock\"" && $5 != "\"MPI_Win_unlock\"" { next }
    $1 == "ENTER" && $5 == "\"MPI_Win_lock\"" { le[$2] = $3 }
    $1 == "LEAVE" && $5 == "\"MPI_Win_lock\"" { ll[$2] = $3; order = order $2 }
    $1 == "ENTER" && $5 == "\"MPI_Win_unlock\"" { ue[$2] = $3 }
    $1 == "LEAVE" && $5 == "\"MPI_Win_unlock\"" { ul[$2] = $3; if ($2 == 0) after0 = n0 }
    END { w = ul[1] - ue[1]
          for (i = 0; i < n0; i++) { a = e0[i] > ue[1] ? e0[i] : ue[1]; b = l0[i] < ul[1] ? l0[i] : ul[1]
            if (b > a) w -= b - a }
          printf "%s %.9f %.9f %.9f %.9f %.9f\n", order, (ue[0] - ll[0]) / 1e9, (le[1] - le[0]) / 1e9,
            (e0[after0] - ul[0]) / 1e9, (ll[1] - le[1]) / 1e9, w / 1e9 }')
  why=""
  [ "$order" = 0123 ] || why="$why lock order $order;"
  awk -v x="$hold" -v t="$TOL" 'BEGIN { exit !(x > 0.200 + t) }' && why="$why rank 0 held the lock $hold s;"
  awk -v x="$skew" -v t="$TOL" 'BEGIN { exit !(x < 0.010 - t || x > 0.010 + t) }' &&
    why="$why rank 1 requested $skew s after rank 0;"
  awk -v x="$out" -v t="$TOL" 'BEGIN { exit !(x > 0.100 + t) }' && why="$why rank 0 out of MPI $out s;"
  why=${why%;}
}
ex_mpich_lock_chain() {
  run mpich lock-chain 4 200 10 10 100 || return 1
  check_lock_oracle mpich
  lock_chain_design
  echo "     lock order $order, rank 0 hold $hold s, rank 1 request +$skew s, rank 0 out of MPI $out s;" \
    "analyzer rank 1: lock_contention $(val lock_contention --rank 1) s, wait_for_progress" \
    "$(val wait_for_progress --rank 1) s"
  if [ -n "$why" ]; then
    if [ -n "$last" ]; then
      echo "FAIL mpich lock-chain: every attempt departed from the design (last:$why)"
      fails=$((fails + 1))
    else
      departed="$why"
    fi
    return 0
  fi
  check "mpich lock-chain (AFTER 100) rank 1 lock wait (otf2-print)" "$lock_wait" 0.190
  check "mpich lock-chain (AFTER 100) rank 1 unlock out of rank 0's MPI (otf2-print)" "$unlock_out" 0.100
  check "mpich lock-chain (AFTER 100) rank 1 lock_contention" "$(val lock_contention --rank 1 --region MPI_Win_lock)" 0.190
  check "mpich lock-chain (AFTER 100) rank 1 wait_for_progress" \
    "$(val wait_for_progress --rank 1 --region MPI_Win_unlock)" 0.100
}

for flavor in ${MV_ANALYZE_FLAVORS:-openmpi}; do
  [ -e "$MV_BUILD/lib/mpivet/$flavor/libmpivet-trace.so" ] || { echo "skip $flavor: not built"; continue; }
  tested=$((tested + 1))
  for ex in late_sender late_receiver barrier fence late_post early_wait lock_chain stencil; do
    try "$flavor ${ex//_/-}" "ex_$ex"
  done
done
if [ -e "$MV_BUILD/lib/mpivet/mpich/libmpivet-trace.so" ]; then
  tested=$((tested + 1))
  try "mpich lock-chain (AFTER 100)" ex_mpich_lock_chain
fi
[ $tested -gt 0 ] || { echo "no flavor with the tracer built: skip"; exit 77; }
echo "causality: $causal traces checked, every barrier and receive after its last enter and send"
[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
