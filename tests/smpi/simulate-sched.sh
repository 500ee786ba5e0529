#!/usr/bin/env bash
# The core's scheduler (mpivet/emulate-sched.h, -DMV_EMULATE_SCHED_TICK_SECONDS=T) and the
# receiver's copy (mpivet/emulate-handoff.h, -DMV_EMULATE_COPY): ranks of one simulated core take
# turns on it, handed over at ticks of T, at failed polls, and when the owner has been out of its
# kernels for the grace g (the hand-off, -DMV_EMULATE_HANDOFF_SECONDS); a switch costs g of the
# core. Here T = 4 ms, g = 10 us; kernels are MV_EMULATE_KERNEL (a unit is 1 ms). Known answers
# from the model's definition (times from the end of a barrier at t0; the ticks lie on the
# simulated clock, so t0 = d shifts them: d is measured as rank 0's barrier end):
# - turns: 2 ranks on 1 core, one 10 ms kernel each. A (the first to take the core) runs to the
#   4 ms tick, B (pays g) to 8, A (g) to 12, B (g) to 16, A (g) ends at 18 + 2g (from t0); B takes
#   the core g after A's end (the grace), pays g and ends at 20 + 6g (its turns held 8 - 2g of
#   work); with SimGrid's fair sharing both end at 20. On a host of 2 cores the scheduler stays
#   out (it models one core): both end at 10 ms.
# - wake: 3 ranks on 2 one-core hosts (0 and 2 share one). Rank 2 computes 30 ms; rank 0 waits
#   for rank 1's message, sent at 5 ms, then computes 1 ms: it runs at rank 2's 8 ms tick and
#   ends at 9 ms + g (from the tick grid: 8 - d + g + 1 after t0).
# - blocked: rank 0 computes 1 ms, then waits for a message (rank 1 sends at 10 ms); rank 2 asks
#   for the core at 0.5 ms for 3 ms: it takes it g after rank 0's kernel ended, pays g, and ends
#   at 1 + 2g + 3 = 4 ms + 2g.
# - poll: rank 0 polls with MPI_Iprobe for rank 1's message (sent at 5 ms; smpi/iprobe 0.1 us),
#   a 1 us kernel between probes, so it is never out of its kernels for g; rank 2 asks at 0.1 ms
#   for 2 ms: the first failed probe after that hands the core over, so rank 2 ends at 2.1 ms + g
#   (to a kernel and a probe; without the hand-over at the probe it would wait for the message).
# - copy: rank 1 sends 1 MiB to rank 0 (each alone on its core), with MV_EMULATE_RECV_FIT
#   {0, 1 ms, 0}: rank 0's receive ends 1 ms later than without the copy.
# - pack: the same with 512 KiB of a vector type (256 blocks of 2 KiB, 4 KiB apart): the sender
#   packs it (1 ms on its core) before it goes and the receiver copies it (1 ms; rank 2 idle): 2 ms
#   later than without the copies.
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/sched.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpivet/emulate.h"
static void compute(double ms) { MV_EMULATE_KERNEL(ms * 1e-3, (void)0); }
int main(int argc, char **argv)
{
  int r;
  static char buf[1 << 20];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const char *mode = argc > 1 ? argv[1] : "turns";
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (strcmp(mode, "turns") == 0)
    compute(10);
  else if (r == 1) {   /* the other host's rank: sends at 5 ms (10 ms: blocked) */
    int big = strcmp(mode, "copy") == 0, pack = strcmp(mode, "pack") == 0;
    double at = strcmp(mode, "blocked") == 0 ? 10 : big || pack ? 0 : 5;
    compute(at);
    MPI_Datatype vec;
    MPI_Type_vector(256, 2048, 4096, MPI_CHAR, &vec);
    MPI_Type_commit(&vec);
    if (pack)
      MPI_Send(buf, 1, vec, 0, 0, MPI_COMM_WORLD);
    else
      MPI_Send(buf, big ? (int)sizeof buf : 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    MPI_Type_free(&vec);
  } else if (r == 2) {
    if (strcmp(mode, "pack") == 0)
      ;   /* idle: rank 0 has its core to itself */
    else if (strcmp(mode, "wake") == 0)
      compute(30);
    else {   /* asks for the core at 0.5 ms (poll: 0.1 ms): a sleep, it holds no core */
      struct timespec ts = {0, strcmp(mode, "poll") == 0 ? 100000 : 500000};
      smpi_nanosleep(&ts, NULL);
      compute(strcmp(mode, "poll") == 0 ? 2 : 3);
    }
  } else {   /* rank 0 */
    if (strcmp(mode, "blocked") == 0)
      compute(1);
    for (int go = 0; strcmp(mode, "poll") == 0 && !go;) {   /* 1 us kernels between probes */
      compute(1e-3);
      MPI_Iprobe(1, 0, MPI_COMM_WORLD, &go, MPI_STATUS_IGNORE);
    }
    MPI_Recv(buf, sizeof buf, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (strcmp(mode, "wake") == 0)
      compute(1);
  }
  printf("end %d %.9f t0 %.9f\n", r, MPI_Wtime() - t0, t0);
  MPI_Finalize();
  return 0;
}
C
run() {  # run NAME MODE NP [ARG...]: the ranks' ends in $tmp/out-NAME
  local name=$1 mode=$2 np=$3; shift 3
  local place=(--platform cluster:1,cores=1 --ppn 2)
  [ "$np" = 3 ] && place=(--platform cluster:2,cores=1 --ppn 0)
  [ "${name%-cores2}" != "$name" ] && place=(--platform cluster:1,cores=2 --ppn 2)
  "$MPIVET" simulate --np "$np" "${place[@]}" --cfg smpi/simulate-computation:no --cfg smpi/iprobe:1e-7 \
      --cfg smpi/grow-injected-times:no "$@" "$tmp/sched.c" -- "$mode" > "$tmp/out-$name" 2>&1 ||
    { cat "$tmp/out-$name"; fail "simulate ($name)"; }
  grep -q '^end' "$tmp/out-$name" || { cat "$tmp/out-$name"; fail "$name: no result line"; }
}
end_of() { awk -v r="$2" '$1 == "end" && $2 == r {print $3}' "$tmp/out-$1"; }
t0_of() { awk -v r="$2" '$1 == "end" && $2 == r {print $5}' "$tmp/out-$1"; }
g=1e-5
sched=(--cflag -DMV_EMULATE_SCHED_TICK_SECONDS=4e-3 --cflag -DMV_EMULATE_HANDOFF_SECONDS=$g)
run turns-0 turns 2
run turns-1 turns 2 "${sched[@]}"
near "fair sharing: rank 0 at 20 ms" "$(end_of turns-0 0)" 0.020 1e-6
first=$(awk '$1 == "end" {print $3}' "$tmp/out-turns-1" | sort -g | head -1)
last=$(awk '$1 == "end" {print $3}' "$tmp/out-turns-1" | sort -g | tail -1)
near "turns: the first ends at 18 ms + 2g" "$first" "$(awk -v g=$g 'BEGIN {printf "%.9f", 0.018 + 2 * g}')" 2e-6
near "turns: the second at 20 ms + 6g" "$last" "$(awk -v g=$g 'BEGIN {printf "%.9f", 0.020 + 6 * g}')" 2e-6
run turns-cores2 turns 2 "${sched[@]}"
near "a host of 2 cores: no turns (SimGrid's sharing), rank 0 at 10 ms" "$(end_of turns-cores2 0)" 0.010 1e-6
near "a host of 2 cores: rank 1 at 10 ms" "$(end_of turns-cores2 1)" 0.010 1e-6
run wake-1 wake 3 "${sched[@]}"
d=$(t0_of wake-1 0)
near "wake: at the core-mate's 8 ms tick" "$(end_of wake-1 0)" "$(awk -v g=$g -v d="$d" 'BEGIN {printf "%.9f", 0.008 - d + g + 0.001}')" 2e-6
run wake-0 wake 3
near "wake without the scheduler: 1 ms at half speed after 5 ms (and the latency)" "$(end_of wake-0 0)" 0.007 2e-5
run blocked-1 blocked 3 "${sched[@]}"
near "blocked: the mate takes the core g after the owner's kernel" "$(end_of blocked-1 2)" "$(awk -v g=$g 'BEGIN {printf "%.9f", 0.004 + 2 * g}')" 2e-6
run poll-1 poll 3 "${sched[@]}"
near "poll: a failed probe hands the core over" "$(end_of poll-1 2)" "$(awk -v g=$g 'BEGIN {printf "%.9f", 0.0021 + g}')" 2e-6
copy=(--cflag -DMV_EMULATE_COPY --cflag "-DMV_EMULATE_RECV_FIT={0,1e-3,0}")
run copy-0 copy 3 "${sched[@]}"
run copy-1 copy 3 "${sched[@]}" "${copy[@]}"
near "copy: the receive's calibrated time on the receiver's core" \
  "$(awk -v a="$(end_of copy-1 0)" -v b="$(end_of copy-0 0)" 'BEGIN {printf "%.9f", a - b}')" 0.001 1e-7
run pack-0 pack 3 "${sched[@]}"
run pack-1 pack 3 "${sched[@]}" "${copy[@]}"
near "pack: the sender's packing and the receiver's copy, each on its own core" \
  "$(awk -v a="$(end_of pack-1 0)" -v b="$(end_of pack-0 0)" 'BEGIN {printf "%.9f", a - b}')" 0.002 1e-7
finish
echo "core's scheduler: ok"
