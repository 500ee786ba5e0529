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
# Lock Contention and Wait for Progress of every origin of the lock chain on target rank 0, from
# otf2-print alone, per the definitions of docs/analyze.md (patterns 6 and 7): one exclusive
# epoch per origin (lock .. unlock, every call in between), the target's MPI calls as its
# progress. Epochs in grant order: greedily the epoch whose grant call (its first call still
# running when the lock can be free: the predecessor's unlock enter, not before its grant;
# or one blocked until then that ended up to 5 ms early by a clock error, its rank's later
# events then moved by that error) leaves first, among those requested before the earliest
# pending release. Prints
# "rank contention progress" per origin, then "order RANKS".
oracle_lock_chain() {
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk -v T=0 '
    $1 == "ENTER" || $1 == "LEAVE" {
      loc = $2; t = $3; name = $5
      if ($1 == "ENTER" && name == "\"MPI_Win_lock\"") { if (seen[loc]++) bad = 1; inep[loc] = 1; org[no++] = loc }
      if (loc == T) { if ($1 == "ENTER") pE[np] = t; else pL[np++] = t }
      if (inep[loc]) { k = nc[loc] + 0; if ($1 == "ENTER") cE[loc, k] = t; else { cL[loc, k] = t; nc[loc]++ } }
      if ($1 == "LEAVE" && name == "\"MPI_Win_unlock\"") inep[loc] = 0
    }
    # blocked until f but ended up to 5 ms before it (a clock error): the grant call, moved to f
    function blocked(o, i, f) { return cL[o, i] < f && f - cL[o, i] <= 5e6 && f - cL[o, i] < cL[o, i] - cE[o, i] }
    function wfp(o, i, ready,   j, E, L, w, ref) {
      if (o == T) return 0
      for (j = 0; j < np && pL[j] < ready; j++) ;
      E = cE[o, i]; L = cL[o, i]
      if (j == np || pE[j] <= ready || pE[j] >= L) return 0
      w = 0; ref = E
      if (ref < pE[j]) w += (pE[j] < L ? pE[j] : L) - ref
      if (ref < pL[j]) ref = pL[j]
      if (ref < L) w += L - ref
      WFP[o] += w; return 1
    }
    END {
      if (bad) { print "oracle: more than one lock epoch per rank"; exit 1 }
      for (s = 0; s < no; s++) {
        R = -1
        for (j = 0; j < no; j++) { o = org[j]; rel = cL[o, nc[o] - 1]; if (!done[o] && (R < 0 || rel < R)) R = rel }
        best = -1
        for (j = 0; j < no; j++) {
          o = org[j]; if (done[o] || cE[o, 0] > R) continue
          f = last == "" ? 0 : (cE[last, nc[last] - 1] > grant[last] ? cE[last, nc[last] - 1] : grant[last])
          for (i = 0; i < nc[o] - 1 && cL[o, i] < f && !blocked(o, i, f); i++) ;
          g = blocked(o, i, f) ? f : cL[o, i]; rel = cL[o, nc[o] - 1]
          if (best < 0 || g < bg || (g == bg && (rel < brel || (rel == brel && o < best)))) { best = o; bi = i; bg = g; brel = rel; bf = f }
        }
        o = best; i = bi; done[o] = 1; grant[o] = bg
        if (blocked(o, i, bf)) {
          d = bf - cL[o, i]; cL[o, i] = bf
          for (k = i + 1; k < nc[o]; k++) { cE[o, k] += d; cL[o, k] += d }
        }
        if (last != "") {
          h = cL[last, nc[last] - 1] < cL[o, i] ? cL[last, nc[last] - 1] : cL[o, i]
          if (cE[o, i] < h) { if (!wfp(o, i, bf)) LC[o] += h - cE[o, i]; i++ }
        }
        for (; i < nc[o]; i++) wfp(o, i, cE[o, i])
        last = o; order = order o
      }
      for (j = 0; j < no; j++) { o = org[j]; printf "%d %.9f %.9f\n", o, LC[o] / 1e9, WFP[o] / 1e9 }
      printf "order %s\n", order
    }
'
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
# ranks 2 and 3 are granted the lock only then.
# (a) The design depends on the machine: 4 busy-polling ranks on 2 cores sometimes deschedule
# rank 0 (a longer hold) or rank 1 (a later request). When the trace shows such a departure
# the run is repeated, at most LOCK_ATTEMPTS times in all, and the retry is printed; the
# designed waits are then checked on the trace (otf2-print) of a run that followed the design,
# and rank 1's analyzed Lock Contention (in MPI_Win_lock) and Wait for Progress (in its unlock).
# (b) The analyzer must equal the otf2-print oracle (oracle_lock_chain) on every run, retried
# or not: Lock Contention and Wait for Progress of ranks 1-3, to the nanosecond. Rank 1's
# clock is sometimes 0.1-2.5 ms behind rank 0's (the tracer's clock alignment), so that its
# blocking MPI_Win_lock seems to return before rank 0 released the lock; both correct that.
# Departure from the design, from otf2-print: sets why (empty when the run followed it), order,
# hold, skew, out, lock_wait (rank 1's MPI_Win_lock) and unlock_out (the time of rank 1's
# MPI_Win_unlock outside every MPI call of rank 0, thesis algorithm 1 no-overlap).
lock_chain_design() {
  read -r order hold skew out lock_wait unlock_out < <(otf2-print "$dir/traces.otf2" 2>/dev/null | awk '
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
# check_lock_oracle: (b) on the current trace
check_lock_oracle() {
  local r lc wfp
  while read -r r lc wfp; do
    [ "$r" = order ] && continue
    [ "$r" = 0 ] && continue
    check_exact "mpich lock-chain attempt $1 rank $r lock_contention" "$(val lock_contention --rank "$r")" "$lc"
    check_exact "mpich lock-chain attempt $1 rank $r wait_for_progress" "$(val wait_for_progress --rank "$r")" "$wfp"
  done < <(oracle_lock_chain)
}
if [ -e "$MV_BUILD/lib/mpivet/mpich/libmpivet-trace.so" ]; then
  tested=$((tested + 1))
  for attempt in $(seq "${LOCK_ATTEMPTS:-3}"); do
    run mpich lock-chain 4 200 10 10 100 || break
    check_lock_oracle "$attempt"
    lock_chain_design
    echo "     attempt $attempt: lock order $order, rank 0 hold $hold s, rank 1 request +$skew s," \
      "rank 0 out of MPI $out s; analyzer: lock_contention rank 1 $(val lock_contention --rank 1) s," \
      "wait_for_progress rank 1 $(val wait_for_progress --rank 1) s"
    if [ -z "$why" ]; then
      check "mpich lock-chain (AFTER 100) rank 1 lock wait (otf2-print)" "$lock_wait" 0.190
      check "mpich lock-chain (AFTER 100) rank 1 unlock out of rank 0's MPI (otf2-print)" "$unlock_out" 0.100
      check "mpich lock-chain (AFTER 100) rank 1 lock_contention" "$(val lock_contention --rank 1 --region MPI_Win_lock)" 0.190
      check "mpich lock-chain (AFTER 100) rank 1 wait_for_progress" \
        "$(val wait_for_progress --rank 1 --region MPI_Win_unlock)" 0.100
      break
    fi
    if [ "$attempt" -lt "${LOCK_ATTEMPTS:-3}" ]; then
      echo "retry mpich lock-chain: attempt $attempt departed from the design:$why"
    else
      echo "FAIL mpich lock-chain: all $attempt attempts departed from the design (last:$why)"
      fails=$((fails + 1))
    fi
  done
fi
[ $tested -gt 0 ] || { echo "no flavor with the tracer built: skip"; exit 77; }
[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
