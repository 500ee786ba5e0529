#!/usr/bin/env bash
# Under SMPI, time stamps are simulated time, so the examples' designed wait states appear
# exactly. Each example runs with two delays D1 < D2 and the time a rank spends inside the
# designed MPI call (sum of Leave - Enter, from otf2-print) must grow by exactly the designed
# amount in nanoseconds, e.g. late-sender 3 iterations: each receiver's MPI_Recv time grows by
# 3 x (D2 - D1). Also: two runs give identical traces, and a crash (SIGSEGV in rank 1) leaves a
# readable archive marked truncated with rank 1's 50 completed MPI_Sendrecv calls.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

# totals DIR: "<region>@<rank> <ns spent inside>" (MPI calls do not nest in these traces)
totals() {
  otf2-print "$1/traces.otf2" 2>/dev/null | awk '
    $1 == "ENTER" { match($0, /Region: "[^"]*"/); reg[$2] = substr($0, RSTART + 9, RLENGTH - 10); t0[$2] = $3 }
    $1 == "LEAVE" { tot[reg[$2] "@" $2] += $3 - t0[$2] }
    END { for (k in tot) print k, tot[k] }' | sort
}
# example | args before the delay | D1 | D2 | "<region>@<rank>=<growth in ms>" (4 ranks)
read -r -d '' WAITS <<'T'
late-sender|3|50|100|MPI_Recv@1=150 MPI_Recv@3=150 MPI_Send@0=0 MPI_Send@2=0
late-receiver|3|50|100|MPI_Send@0=150 MPI_Send@2=150 MPI_Recv@1=0 MPI_Recv@3=0
imbalanced-barrier|3|50|100|MPI_Barrier@0=450 MPI_Barrier@1=300 MPI_Barrier@2=150 MPI_Barrier@3=0
imbalanced-fence|3|50|100|MPI_Win_fence@0=450 MPI_Win_fence@1=300 MPI_Win_fence@2=150 MPI_Win_fence@3=0
late-post|3|50|100|MPI_Win_start@1=150 MPI_Win_start@2=150 MPI_Win_start@3=150 MPI_Win_wait@0=0
early-wait|3|50|100|MPI_Win_wait@0=150 MPI_Win_complete@1=0 MPI_Win_start@1=0
lock-chain||100|200|MPI_Win_lock@1=100 MPI_Win_lock@2=100 MPI_Win_lock@3=100 MPI_Win_lock@0=0
T

have_flavor smpi || finish
while IFS='|' read -r ex pre d1 d2 want; do
  post=
  [ "$ex" = lock-chain ] && post="10 10"
  # shellcheck disable=SC2086
  trace_run smpi "$WORK/$ex-1" -- "$(example smpi "$ex")" $pre "$d1" $post || continue
  # shellcheck disable=SC2086
  trace_run smpi "$WORK/$ex-2" -- "$(example smpi "$ex")" $pre "$d2" $post || continue
  join <(totals "$WORK/$ex-1") <(totals "$WORK/$ex-2") | awk '{ print $1, $3 - $2 }' >"$WORK/$ex.growth"
  for kv in $want; do
    key=${kv%=*}; ns=$((${kv#*=} * 1000000))
    got=$(awk -v k="$key" '$1 == k { print $2 }' "$WORK/$ex.growth")
    [ "$got" = "$ns" ] || fail "$ex: $key grew by ${got:-?} ns from delay $d1 to $d2 ms, designed $ns"
  done
done <<<"$WAITS"

# stencil-2d: rank 0 works SLOW more per iteration; each other rank's MPI time grows by
# 20 iterations x 5 ms (in MPI_Waitall, or in MPI_Allreduce at the iterations that have one)
trace_run smpi "$WORK/st-1" -- "$(example smpi stencil-2d)" 32 20 5 &&
  trace_run smpi "$WORK/st-2" -- "$(example smpi stencil-2d)" 32 20 10 &&
  for r in 1 2 3; do
    got=$(join <(totals "$WORK/st-1") <(totals "$WORK/st-2") |
          awk -v r="$r" '$1 ~ "@" r "$" && $1 !~ /MPI_(Init|Finalize)/ { s += $3 - $2 } END { print s + 0 }')
    [ "$got" = 100000000 ] || fail "stencil-2d: rank $r MPI time grew by $got ns, designed 100000000"
  done

# deterministic: a second run of the same program gives the same events and time stamps
trace_run smpi "$WORK/st-3" -- "$(example smpi stencil-2d)" 32 20 10 &&
  { cmp -s <(otf2-print "$WORK/st-2/traces.otf2") <(otf2-print "$WORK/st-3/traces.otf2") ||
      fail "two SMPI runs of stencil-2d gave different traces"; }

# crash: the signal handler flushes every rank of the simulation
dir="$WORK/crash"
if EXPECT_RC=3 trace_run smpi "$dir" -- "$(example smpi crash-rank)" 100; then
  counts "$dir" >"$dir.counts" || fail "crash: otf2-print cannot read the truncated archive"
  expect "smpi crash" "$dir.counts" "Enter:MPI_Sendrecv@1=50 Enter:MPI_Init=4 Enter:MPI_Finalize=0"
  grep -q "rank 1: signal 11" "$dir/TRUNCATED" 2>/dev/null || fail "crash: TRUNCATED does not name signal 11 on rank 1"
fi
finish
