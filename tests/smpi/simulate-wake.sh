#!/usr/bin/env bash
# The wake-up of a receiver whose core-mate computes (mpivet/emulate-handoff.h,
# -DMV_EMULATE_WAKE_QUANTILES). 3 ranks on 2 simulated hosts of 1 core, dealt round-robin
# (ranks 0 and 2 share host 0). Rank 2 runs an emulated kernel of 10 units (MV_EMULATE_KERNEL;
# a unit is 1 ms of the calibrated host); rank 1, on the other host, computes 2 units and sends
# to rank 0, which waits for it in MPI_Recv. Known answers, from the model's definition:
# - deciles all 3 ms: the receive returns 3 ms later than built without the model;
# - deciles all 1 s: the wait is cut at the end of rank 2's kernel (rank 0 returns at that time);
# - rank 2 not computing (it waits in MPI_Recv for rank 0): no wait, the hand-off only (1 ms);
# - ranks 0 and 2 both receive from rank 1 at once, hand-off 1 ms (no wake-up model): the
#   hand-off is the core's time, so they pay it one after the other: rank 0 2 ms later;
# - the message arrived before rank 0 called MPI_Recv (rank 0 computed first): no wait, no charge;
# - rank 0 polls with MPI_Iprobe (0.1 us each) until the message is there, then receives it: the
#   3 ms once, after the probe that found it (to a few probes of 0.1 us);
# - deciles 0 and 4 ms: 400 receives wait 2 ms on average (uniform draw; its standard error
#   is 0.06 ms, the bound 0.3 ms).
# Computation is not simulated (smpi/simulate-computation:no), so the differences are exact to
# SimGrid's precision; smpi/iprobe and smpi/test are 0 (the model probes before each receive).
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/wake.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpivet/emulate.h"
static void compute(double units) { MV_EMULATE_KERNEL(units * 1e-3, (void)0); }
int main(int argc, char **argv)
{
  int r, x = 0, reps = 1;
  double end2 = 0, sum = 0, t0 = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const char *mode = argc > 1 ? argv[1] : "busy";
  if (strcmp(mode, "draws") == 0)
    reps = 400;
  for (int i = 0; i < reps; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (r == 2) {
      if (strcmp(mode, "idle") == 0)
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else if (strcmp(mode, "both") == 0)   /* both ranks of host 0 receive at once */
        MPI_Recv(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else
        compute(10);
      end2 = MPI_Wtime() - t0;
    } else if (r == 1) {
      compute(2);
      if (strcmp(mode, "both") == 0)
        MPI_Send(&x, 1, MPI_INT, 2, 4, MPI_COMM_WORLD);
      MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
      if (strcmp(mode, "arrived") == 0)
        compute(3);   /* shares the core with rank 2: ends after the message arrived */
      for (int go = 0; strcmp(mode, "poll") == 0 && !go;)   /* as HPL's panel broadcasts */
        MPI_Iprobe(1, 0, MPI_COMM_WORLD, &go, MPI_STATUS_IGNORE);
      MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += MPI_Wtime() - t0;
      if (strcmp(mode, "idle") == 0)
        MPI_Send(&x, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
    }
  }
  double t = MPI_Wtime() - t0;
  if (r == 2)
    MPI_Send(&end2, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  if (r == 0) {
    MPI_Recv(&end2, 1, MPI_DOUBLE, 2, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("recv %.9f mean %.9f mate-end %.9f last %.9f\n", sum / reps, sum / reps, end2, t);
  }
  MPI_Finalize();
  return 0;
}
C
run() {  # run NAME MODE [CFLAG...]: rank 0's mean receive time (s) in $tmp/out-NAME
  local name=$1 mode=$2; shift 2
  "$MPIVET" simulate --np 3 --platform cluster:2,cores=1 --ppn 0 --cfg smpi/simulate-computation:no \
      --cfg smpi/iprobe:0 --cfg smpi/test:0 "$@" "$tmp/wake.c" -- "$mode" > "$tmp/out-$name" 2>&1 ||
    { cat "$tmp/out-$name"; fail "simulate ($name)"; }
  grep -q '^recv' "$tmp/out-$name" || { cat "$tmp/out-$name"; fail "$name: no result line"; }
}
field() { awk -v f="$2" '/^recv/ {print $f}' "$tmp/out-$1"; }   # field NAME N
diff_of() { awk -v a="$(field "$1" 2)" -v b="$(field "$2" 2)" 'BEGIN {printf "%.9f", a - b}'; }
wake=--cflag; handoff=(--cflag -DMV_EMULATE_HANDOFF_SECONDS=1e-3)
run base busy
run busy busy $wake -DMV_EMULATE_WAKE_QUANTILES=3e-3,3e-3
near "busy core-mate, 3 ms deciles" "$(diff_of busy base)" 0.003 1e-6
run poll0 poll --cfg smpi/iprobe:1e-7
run poll1 poll --cfg smpi/iprobe:1e-7 $wake -DMV_EMULATE_WAKE_QUANTILES=3e-3,3e-3 "${handoff[@]}"
near "polling with MPI_Iprobe, 3 ms deciles" "$(diff_of poll1 poll0)" 0.003 5e-7
run cut busy $wake -DMV_EMULATE_WAKE_QUANTILES=1,1
near "wait cut at the core-mate's end" "$(field cut 2)" "$(field base 6)" 1e-6
run idle0 idle
run idle1 idle $wake -DMV_EMULATE_WAKE_QUANTILES=1,1 "${handoff[@]}"
near "idle core-mate: hand-off only" "$(diff_of idle1 idle0)" 0.001 1e-6
run both0 both
run both1 both "${handoff[@]}"
near "two hand-offs on one core at once: 2 ms" "$(diff_of both1 both0)" 0.002 1e-5
run arr0 arrived
run arr1 arrived $wake -DMV_EMULATE_WAKE_QUANTILES=1,1 "${handoff[@]}"
near "message already there: no charge" "$(diff_of arr1 arr0)" 0 1e-6
run d0 draws
run d1 draws $wake -DMV_EMULATE_WAKE_QUANTILES=0,4e-3
near "uniform deciles 0-4 ms: mean wait" "$(diff_of d1 d0)" 0.002 3e-4
finish
echo "wake-up: ok"
