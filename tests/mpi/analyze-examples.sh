#!/bin/bash
# Truth tests on real MPI: each example of examples/README.md is traced with libmpivet-trace under
# Open MPI (up to 4 ranks on 2 cores) and analyzed; the designed waiting time must come out
# within the README's tolerance for a loaded 2-core machine, TOL (0.020 s) or 20 %, whichever is
# larger; the measured error is printed so the figures can be reported. The late-sender and barrier
# traces are also checked exactly (1 ns) against independent computations from otf2-print's output.
# MV_ANALYZE_FLAVORS="openmpi mpich" adds MPICH. The MPICH lock chain with the target out of MPI
# after its unlock (thesis 5.6's Wait for Progress) runs by default whenever MPICH is built.
set -u
TOL=${TOL:-0.020}
work=$(mktemp -d /tmp/mv-analyze-ex-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fails=0
tested=0

# check LABEL GOT WANT: |GOT - WANT| <= max(TOL, 20 % of WANT)
check() {
  local err
  err=$(awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; printf "%.6f", d < 0 ? -d : d }')
  if awk -v e="$err" -v t="$TOL" -v w="$3" 'BEGIN { exit !(e <= t || e <= 0.2 * w) }'; then
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
val() { "$MPIVET" analyze "$dir" --value "$@"; }
# Wait at Barrier of rank $1 computed from otf2-print alone: per barrier instance, the latest
# enter minus this rank's enter, at most its time in the call.
oracle_barrier() {
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk -v want="$1" '
    $1 == "ENTER" && /"MPI_Barrier"/ { k = n[$2]++; e[$2, k] = $3; if ($3 > mx[k]) mx[k] = $3 }
    $1 == "LEAVE" && /"MPI_Barrier"/ { l[$2, m[$2]++] = $3 }
    END { for (k = 0; k < n[want]; k++) { w = mx[k] - e[want, k]; d = l[want, k] - e[want, k];
            s += (w < d ? w : d) } printf "%.9f\n", s / 1e9 }'
}
# Late Sender of rank $1 from otf2-print alone: the n-th receive from a sender matches the n-th
# send to it (one tag in the example); wait = E(send) - E(recv) when the send entered inside.
oracle_late_sender() {
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk -v want="$1" '
    $1 == "ENTER" { enter[$2] = $3 }
    $1 == "LEAVE" { if (pend[$2] != "") { split(pend[$2], a, " "); rl[a[1], a[2]] = $3; pend[$2] = "" } }
    $1 == "MPI_SEND" { match($0, /Receiver: [0-9]+/); d = substr($0, RSTART + 10, RLENGTH - 10);
                       se[$2, d, ns[$2, d]++] = enter[$2] }
    $1 == "MPI_RECV" && $2 == want { match($0, /Sender: [0-9]+/); src = substr($0, RSTART + 8, RLENGTH - 8);
                       k = nr[src]++; re[src, k] = enter[$2]; pend[$2] = src " " k }
    END { for (src in nr) for (k = 0; k < nr[src]; k++) { s = se[src, want, k]; r = re[src, k];
            if (r < s && s <= rl[src, k]) w += s - r }
          printf "%.9f\n", w / 1e9 }'
}
# Rank 1's passive-target waits in the lock chain from otf2-print alone: "LOCK UNLOCK" = the
# duration of its MPI_Win_lock and the time of its MPI_Win_unlock not overlapped by any MPI call
# of the target, rank 0 (thesis algorithm 1, no-overlap).
oracle_lock_chain() {
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk '
    $1 == "ENTER" && $2 == 0 { e0[n0] = $3 }
    $1 == "LEAVE" && $2 == 0 { l0[n0++] = $3 }
    $1 == "ENTER" && $2 == 1 && /"MPI_Win_lock"/ { le = $3 }
    $1 == "LEAVE" && $2 == 1 && /"MPI_Win_lock"/ { ll = $3 }
    $1 == "ENTER" && $2 == 1 && /"MPI_Win_unlock"/ { ue = $3 }
    $1 == "LEAVE" && $2 == 1 && /"MPI_Win_unlock"/ { ul = $3 }
    END { w = ul - ue; for (i = 0; i < n0; i++) { a = e0[i] > ue ? e0[i] : ue; b = l0[i] < ul ? l0[i] : ul;
            if (b > a) w -= b - a }
          printf "%.9f %.9f\n", (ll - le) / 1e9, w / 1e9 }'
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
sum() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }
run() {   # run FLAVOR NAME NP ARGS...
  local flavor=$1 name=$2 np=$3; shift 3
  local prog="$MV_BUILD/lib/mpivet/$flavor/$name"
  dir="$work/$flavor-$name"
  local launch=(mpirun.openmpi --oversubscribe -np "$np")
  [ "$flavor" = mpich ] && launch=(mpirun.mpich -np "$np")
  timeout 120 "$MPIVET" trace -o "$dir" --mpi "$flavor" -- "${launch[@]}" "$prog" "$@" >"$dir.log" 2>&1 \
    || { echo "FAIL $flavor $name: trace failed"; cat "$dir.log"; fails=$((fails + 1)); return 1; }
}

for flavor in ${MV_ANALYZE_FLAVORS:-openmpi}; do
  [ -e "$MV_BUILD/lib/mpivet/$flavor/libmpivet-trace.so" ] || { echo "skip $flavor: not built"; continue; }
  tested=$((tested + 1))
  # late sender: 3 x 100 ms on each odd rank, in MPI_Recv
  if run $flavor late-sender 4; then
    check "$flavor late-sender rank 1" "$(val late_sender --rank 1 --region MPI_Recv)" 0.300
    check "$flavor late-sender rank 3" "$(val late_sender --rank 3 --region MPI_Recv)" 0.300
    check "$flavor late-sender rank 0" "$(val late_sender --rank 0)" 0
    for r in 1 3; do
      check_exact "$flavor late-sender rank $r exact" "$(val late_sender --rank $r)" "$(oracle_late_sender $r)"
    done
  fi
  # late receiver: 4 MiB rendezvous sends, ~3 x 100 ms on each even rank; the pairs are not in
  # lockstep (each send returns when its data has arrived), so allow 50 ms
  if run $flavor late-receiver 2; then
    TOL=0.050 check "$flavor late-receiver rank 0" "$(val late_receiver --rank 0 --region MPI_Send)" 0.300
  fi
  # imbalanced barrier, p = 4, 3 x (3-r) x 50 ms
  if run $flavor imbalanced-barrier 4; then
    check "$flavor barrier rank 0" "$(val wait_barrier --rank 0)" 0.450
    check "$flavor barrier rank 1" "$(val wait_barrier --rank 1)" 0.300
    check "$flavor barrier rank 3" "$(val wait_barrier --rank 3)" 0
    for r in 0 1 2 3; do
      check_exact "$flavor barrier rank $r exact" "$(val wait_barrier --rank $r)" "$(oracle_barrier $r)"
    done
  fi
  # imbalanced fence: Wait at Fence as the barrier
  if run $flavor imbalanced-fence 4; then
    check "$flavor fence rank 0" "$(val wait_fence --rank 0 --region MPI_Win_fence)" 0.450
    check "$flavor fence rank 2" "$(val wait_fence --rank 2)" 0.150
  fi
  # late post: 3 x 100 ms on each origin, in start, put or complete (both Late Post metrics)
  if run $flavor late-post 3; then
    for r in 1 2; do
      check "$flavor late-post rank $r" "$(sum "$(val late_post --rank $r)" "$(val late_post_comm --rank $r)")" 0.300
    done
  fi
  # early wait: 3 x 100 ms on the target, all of it Late Complete
  if run $flavor early-wait 2; then
    check "$flavor early-wait rank 0" "$(val early_wait --rank 0 --region MPI_Win_wait)" 0.300
    check "$flavor late-complete rank 0" "$(val late_complete --rank 0)" 0.300
  fi
  # lock chain (thesis 5.6): the rank queued right behind rank 0's 200 ms hold waits ~190 ms
  # (rank 1 by design; on 2 loaded cores rank 1 sometimes locks before rank 0 and rank 2 waits;
  # if rank 0 locks last nobody waits for its hold and the design does not apply)
  if run $flavor lock-chain 3; then
    last=$(otf2-print "$dir/traces.otf2" 2>/dev/null | awk '$1 == "RMA_RELEASE_LOCK" { t[$2] = $3 }
      END { l = 0; for (r in t) if (t[r] > t[l]) l = r; print l }')
    w1=$(sum "$(val lock_contention --rank 1)" "$(val wait_for_progress --rank 1)")
    w2=$(sum "$(val lock_contention --rank 2)" "$(val wait_for_progress --rank 2)")
    if [ "$last" = 0 ]; then
      echo "skip $flavor lock-chain: rank 0 got the lock last in this run (waits: rank 1 $w1 s, rank 2 $w2 s)"
    else
      check "$flavor lock-chain longest wait behind rank 0" "$(max "$w1" "$w2")" 0.190
      echo "     lock-chain: rank 1 $w1 s, rank 2 $w2 s (contention + progress)"
    fi
  fi
  # stencil (2 x 2 grid) with rank 0 slower by 20 ms per iteration: its neighbours 1 and 2 wait
  # in MPI_Waitall in iterations 1-9 (9 x 20 ms; iteration 0's halo leaves before the work) and
  # in the Allreduce after iteration 9 (20 ms, Wait at N x N): exact under SMPI
  # (tests/smpi/analyze-examples.sh). Rank 3 waits for them in turn (propagation); rank 0 not.
  # With 4 ranks on 2 oversubscribed cores a neighbour that was descheduled enters Waitall late
  # and waits less, so each neighbour must show the wait in Waitall (attribution), and their
  # larger wait must reach the designed 0.18 s.
  if run $flavor stencil-2d 4 64 10 20; then
    s1=$(val late_sender --rank 1 --region MPI_Waitall)
    s2=$(val late_sender --rank 2 --region MPI_Waitall)
    check_min "$flavor stencil rank 1 Waitall (attribution)" "$s1" 0.020
    check_min "$flavor stencil rank 2 Waitall (attribution)" "$s2" 0.020
    check_min "$flavor stencil larger neighbour wait" "$(max "$s1" "$s2")" 0.180
    check "$flavor stencil rank 0" "$(val late_sender --rank 0)" 0
  fi
done
# Thesis 5.6 under MPICH (ch4, no progress thread): rank 0 holds its lock 200 ms, then works
# 100 ms outside MPI. Rank 1 waits ~190 ms in MPI_Win_lock for the holder's bar() (Lock
# Contention), gets the lock in rank 0's unlock, and then waits ~100 ms in MPI_Win_unlock for
# rank 0 to enter MPI again (Wait for Progress: MPICH acknowledges the unlock at the target);
# ranks 2 and 3 are granted the lock only then. Both waits are checked on the trace (otf2-print).
# The analyzer credits Wait for Progress only to the contended call of an epoch or to the unlock
# of an uncontended one, so it reports 0 here (docs/analyze.md, "Lock chain"): printed, not checked.
if [ -e "$MV_BUILD/lib/mpivet/mpich/libmpivet-trace.so" ] && run mpich lock-chain 4 200 10 10 100; then
  tested=$((tested + 1))
  read -r lock unlock < <(oracle_lock_chain)
  check "mpich lock-chain (AFTER 100) rank 1 lock wait (otf2-print)" "$lock" 0.190
  check "mpich lock-chain (AFTER 100) rank 1 unlock out of rank 0's MPI (otf2-print)" "$unlock" 0.100
  echo "     analyzer: lock_contention rank 1 $(val lock_contention --rank 1) s;" \
    "wait_for_progress ranks 1-3: $(val wait_for_progress --rank 1) $(val wait_for_progress --rank 2)" \
    "$(val wait_for_progress --rank 3) s"
fi
[ $tested -gt 0 ] || { echo "no flavor with the tracer built: skip"; exit 77; }
[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
