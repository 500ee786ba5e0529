#!/usr/bin/env bash
# The late probe (mpivet/emulate-handoff.h, -DMV_EMULATE_PROBE_LATE): a message that arrived while
# the rank computed is found by its second MPI_Iprobe, not the first. 2 ranks on 2 hosts. Rank 1
# computes 2 units (an emulated kernel, MV_EMULATE_KERNEL; a unit is 1 ms of the calibrated host)
# and sends to rank 0. Known answers, from the model's definition (computation not simulated, a
# probe costs 0.1 us, smpi/iprobe, so exact to a few probes; with no cost at all a probe loop would
# never let the simulated clock move):
# - chunks: rank 0 probes (nothing yet), computes 3 units, probes, ... (HPL's update): without
#   the model the probe at 3 ms finds the message; with it that probe says no and the one at 6 ms
#   finds it; with a 1 MiB message (a rendezvous send), rank 1's MPI_Send returns after rank 0's
#   receive: at 6 ms and more with the model, before 6 ms without;
# - spin: rank 0 probes without computing in between: found when it arrives (2 ms) both ways;
# - before: rank 0 computes 3 units first, then probes: found at 3 ms both ways (no probe missed it);
# - other: rank 0's probe that found nothing was for another tag: found at 3 ms both ways.
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/probe.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpivet/emulate.h"
static void compute(double units) { MV_EMULATE_KERNEL(units * 1e-3, (void)0); }
int main(int argc, char **argv)
{
  int r, n = 1, flag = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const char *mode = argv[1];
  if (strcmp(mode, "big") == 0)
    n = 1 << 18;   /* 1 MiB of int */
  int *x = calloc((size_t)n, sizeof *x);
  double t0 = MPI_Wtime(), found = 0, sent = 0;
  if (r == 1) {
    compute(2);
    MPI_Send(x, n, MPI_INT, 0, 0, MPI_COMM_WORLD);
    sent = MPI_Wtime() - t0;
    MPI_Send(&sent, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  } else {
    if (strcmp(mode, "before") == 0)
      compute(3);
    if (strcmp(mode, "other") == 0) {
      MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      compute(3);
    }
    for (flag = 0; !flag;) {
      MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      if (!flag && strcmp(mode, "spin") != 0)
        compute(3);
    }
    found = MPI_Wtime() - t0;
    MPI_Recv(x, n, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&sent, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("probe found %.9f sent %.9f\n", found, sent);
  }
  free(x);
  MPI_Finalize();
  return 0;
}
C
run() {  # run NAME MODE [CFLAG...]: rank 0's result line in $tmp/out-NAME
  local name=$1 mode=$2; shift 2
  "$MPIVET" simulate --np 2 --platform cluster:2,cores=1 --ppn 1 --cfg smpi/simulate-computation:no \
      --cfg smpi/iprobe:1e-7 --cfg smpi/grow-injected-times:no "$@" "$tmp/probe.c" -- "$mode" > "$tmp/out-$name" 2>&1 ||
    { cat "$tmp/out-$name"; fail "simulate ($name)"; }
  grep -q '^probe' "$tmp/out-$name" || { cat "$tmp/out-$name"; fail "$name: no result line"; }
}
field() { awk -v f="$2" '/^probe/ {print $f}' "$tmp/out-$1"; }   # field NAME N
late=(--cflag -DMV_EMULATE_PROBE_LATE)
run chunks0 chunks
run chunks1 chunks "${late[@]}"
near "chunks, no model: found by the probe at 3 ms" "$(field chunks0 3)" 0.003 1e-6
near "chunks, late probe: found by the probe at 6 ms" "$(field chunks1 3)" 0.006 1e-6
run big0 big
run big1 big "${late[@]}"
near "1 MiB, late probe: found at 6 ms" "$(field big1 3)" 0.006 1e-6
awk -v s="$(field big0 5)" 'BEGIN {exit !(s > 0.003 && s < 0.006)}' ||
  fail "1 MiB, no model: the send returned at $(field big0 5) s, expected between 3 and 6 ms"
awk -v s="$(field big1 5)" 'BEGIN {exit !(s > 0.006)}' ||
  fail "1 MiB, late probe: the send returned at $(field big1 5) s, expected after 6 ms"
for mode in spin before other; do
  run "${mode}0" "$mode"
  run "${mode}1" "$mode" "${late[@]}"
done
near "spin, no model: found when it arrives" "$(field spin0 3)" 0.002 1e-5
near "spin, late probe: the same" "$(field spin1 3)" "$(field spin0 3)" 1e-9
near "before, late probe: found at 3 ms" "$(field before1 3)" 0.003 1e-6
near "other tag missed, late probe: found at 3 ms" "$(field other1 3)" 0.003 1e-6
finish
echo "late probe: ok"
