#!/usr/bin/env bash
# Exact truth tests of `mpivet analyze` under SimGrid SMPI: each example of examples/README.md is
# traced on 4 simulated ranks and every designed waiting time must come out to the nanosecond.
# The designs assume instantaneous messages, so the platform is an ideal network (latency 0,
# 1000 TBps); on the default 1 us platform each receive ends ~4 us after its send and the next
# late-sender wait is that much shorter (0.299988 s instead of 0.300). Simulated computation is
# off: the examples' work is nanosleep, which SMPI turns into exact simulated time.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

have_flavor smpi || finish
"$MPIVET" platform "cluster:8,lat=0us,bw=1000TBps" -o "$WORK/cluster.xml" --hostfile "$WORK/hostfile" --np 8 ||
  { fail "mpivet platform (ideal network)"; finish; }

# expect_values DIR "metric@rank[@region]=seconds ...": mpivet analyze --value, compared as text
expect_values() {
  local kv key want got metric rank region
  for kv in $2; do
    key=${kv%=*}; want=${kv#*=}
    IFS=@ read -r metric rank region <<<"$key"
    got=$("$MPIVET" analyze "$1" --value "$metric" --rank "$rank" ${region:+--region "$region"} 2>&1)
    if [ "$got" = "$want" ]; then echo "ok   ${1##*/}: $key = $got"; else fail "${1##*/}: $key = $got, designed $want"; fi
  done
}
# analyzed NAME ARGS...: trace the example into $WORK/NAME (0 when there is an archive)
analyzed() {
  local ex=$1; shift
  trace_run smpi "$WORK/$ex" -- "$(example smpi "$ex")" "$@"
}

# Late Sender: even ranks send after 100 ms, 3 times; Late Receiver: 4 MiB rendezvous sends
# whose receiver comes 100 ms late, 3 times.
analyzed late-sender 3 100 && expect_values "$WORK/late-sender" "
  late_sender@1@MPI_Recv=0.300000000 late_sender@3@MPI_Recv=0.300000000 late_sender@0=0.000000000
  late_sender@2=0.000000000 late_sender_wrong_order@1=0.000000000 late_receiver@0=0.000000000"
analyzed late-receiver 3 100 && expect_values "$WORK/late-receiver" "
  late_receiver@0@MPI_Send=0.300000000 late_receiver@2@MPI_Send=0.300000000 late_receiver@1=0.000000000
  late_sender@1=0.000000000"
# rank r enters after r x 50 ms: (3 - r) x 50 ms x 3 iterations
analyzed imbalanced-barrier 3 50 && expect_values "$WORK/imbalanced-barrier" "
  wait_barrier@0@MPI_Barrier=0.450000000 wait_barrier@1=0.300000000 wait_barrier@2=0.150000000
  wait_barrier@3=0.000000000"
# Fence as the barrier. Rank 0's last incoming put (from rank 3) leaves when rank 3 enters the
# fence, so all of rank 0's wait is Early Fence (pattern 2); create and free do not wait. Pairs:
# 4 fences x 3 partners per rank, needed only in the 3 closing fences for the put out and in.
analyzed imbalanced-fence 3 50 && expect_values "$WORK/imbalanced-fence" "
  wait_fence@0@MPI_Win_fence=0.450000000 wait_fence@1=0.300000000 wait_fence@2=0.150000000
  wait_fence@3=0.000000000 early_fence@0=0.450000000 early_fence@1=0.000000000
  wait_win_create@0=0.000000000 wait_win_free@0=0.000000000
  rma_pairwise_sync@1=12.000000000 rma_pairwise_sync_unneeded@1=6.000000000"
# General active target (the post group's members come from the archive): SMPI's MPI_Win_start
# blocks until the post, 100 ms late, 3 times on each origin.
analyzed late-post 3 100 && expect_values "$WORK/late-post" "
  late_post@1@MPI_Win_start=0.300000000 late_post@2=0.300000000 late_post@3=0.300000000
  late_post_comm@1=0.000000000 early_wait@0=0.000000000 rma_pairwise_sync@0=9.000000000"
analyzed early-wait 3 100 && expect_values "$WORK/early-wait" "
  early_wait@0@MPI_Win_wait=0.300000000 late_complete@0=0.300000000 late_post@1=0.000000000"

# Lock chain (thesis 5.6): rank 0 holds its lock from 10 to 210 ms; rank r requests at
# 10 + 10 r ms and gets the lock at 210 ms, when the holder's bar() ends. SMPI hands a released
# lock over without the target's progress (its locks are mutexes on the target's window object),
# so the whole chain is Lock Contention about the holder's busy time and there is no Wait for
# Progress; the thesis's progress-bound later ranks are in tests/unit/test-analyze.c.
analyzed lock-chain 200 10 10 && expect_values "$WORK/lock-chain" "
  lock_contention@1@MPI_Win_lock=0.190000000 lock_contention@2@MPI_Win_lock=0.180000000
  lock_contention@3@MPI_Win_lock=0.170000000 lock_contention@0=0.000000000
  wait_for_progress@2=0.000000000 wait_for_progress_upper@3=0.000000000 wait_barrier@0=0.000000000"

# Stencil 2 x 2, 20 iterations, rank 0 10 ms slower each. Rank 0's iteration-k halo leaves at
# 10 k ms; its neighbours 1 and 2 wait for it in every Waitall but the first after each
# Allreduce (iterations 0 and 10): 18 x 10 ms; the other 2 waits fall in the Allreduces (Wait
# at N x N). Rank 3 waits for 1 and 2, one iteration further behind: 16 + 4 x 10 ms. Every rank
# but 0 waits 20 x 10 ms in total. In the pipeline, the next halo from rank 3 is already sent
# when 1 and 2 wait for rank 0: Late Sender, Wrong Order (a child of Late Sender).
if analyzed stencil-2d 32 20 10; then
  d="$WORK/stencil-2d"
  expect_values "$d" "
    late_sender@1@MPI_Waitall=0.180000000 late_sender@2@MPI_Waitall=0.180000000
    late_sender@3@MPI_Waitall=0.160000000 late_sender@0=0.000000000 wait_nxn@1@MPI_Allreduce=0.020000000
    wait_nxn@2=0.020000000 wait_nxn@3=0.040000000 wait_nxn@0=0.000000000
    late_sender_wrong_order@1=0.160000000 late_sender_wrong_order@3=0.000000000"
  # the call site of the top Late Sender is the MPI_Waitall of exchange() (addr2line of the
  # return address - 1, through the inlining)
  site=$("$MPIVET" analyze "$d" --top 3 | awk '/Late Sender  / && /MPI_Waitall@/ { print $NF; exit }')
  off=$(sed -n 's/.*+0x\([0-9a-f]*\).*/\1/p' <<<"$site")
  line=$(addr2line -i -e "$(example smpi stencil-2d)" "$(printf '0x%x' $((0x${off:-1} - 1)))" 2>/dev/null | head -1)
  want="stencil-2d.c:$(grep -n 'MPI_Waitall(8' "$MV_SRC/examples/stencil-2d.c" | cut -d: -f1)"
  [ "${line##*/}" = "$want" ] || fail "stencil-2d: Late Sender call site $site is ${line:-unresolved}, not $want"
fi
finish
