#!/usr/bin/env bash
# The waiter's spin (mpivet/emulate-handoff.h, -DMV_EMULATE_SPIN_SECONDS=X,
# -DMV_EMULATE_SPIN_AFTER_SECONDS=D): a rank waiting in MPI beside a rank that computes on the
# same core takes min(X, C - D) of that rank's core once per wait, C the kernel time computed
# beside the wait. 2 ranks on one simulated host of 1 core, X = 1 ms, D = 1.5 ms. Rank 1 computes
# emulated kernels (MV_EMULATE_KERNEL; a unit is 1 ms of the calibrated host; first a kernel of
# 1 ns so that rank 0's wait has begun when the timed kernels start) and sends to rank 0, which
# waits for it. Rank 1's time at the end of its kernels, against the same program built without
# the model; known answers from the model's definition:
# - long: one 10 ms kernel beside a waiting MPI_Recv: 1 ms (X) later;
# - short: one 2 ms kernel: 0.5 ms later (C - D);
# - tiny: one 1 ms kernel (C < D): no change;
# - chunks: five 1 ms kernels: 0.5 ms later (C - D after the second, and never again);
# - poll: rank 0 polls with MPI_Iprobe until the message is there, beside ten 1 ms kernels. SMPI
#   charges each probe 0.1 us of the host's core (smpi/iprobe, not grown), so rank 0's probes
#   share the core half and half with rank 1's kernels: 0.5 ms of work, 1 ms later (a kernel begun
#   before the first probe does not count);
# - busy: rank 0 computes 10 ms too and waits for nothing: no change (both end at 20 ms).
# Computation is not simulated (smpi/simulate-computation:no), so the differences are exact to
# SimGrid's precision; smpi/iprobe is 0 except in poll.
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/spin.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpivet/emulate.h"
static void compute(double units) { MV_EMULATE_KERNEL(units * 1e-3, (void)0); }
int main(int argc, char **argv)
{
  int r, x = 0;
  double end1 = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const char *mode = argc > 1 ? argv[1] : "long";
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (r == 1) {
    compute(1e-6);
    if (strcmp(mode, "long") == 0 || strcmp(mode, "busy") == 0)
      compute(10);
    else if (strcmp(mode, "short") == 0)
      compute(2);
    else if (strcmp(mode, "tiny") == 0)
      compute(1);
    else
      for (int i = 0; i < (strcmp(mode, "poll") == 0 ? 10 : 5); i++)
        compute(1);
    end1 = MPI_Wtime() - t0;
    if (strcmp(mode, "busy") != 0)
      MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Send(&end1, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  } else {
    if (strcmp(mode, "busy") == 0)
      compute(10);
    else {
      for (int go = 0; strcmp(mode, "poll") == 0 && !go;)
        MPI_Iprobe(1, 0, MPI_COMM_WORLD, &go, MPI_STATUS_IGNORE);
      MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Recv(&end1, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("mate-end %.9f\n", end1);
  }
  MPI_Finalize();
  return 0;
}
C
run() {  # run NAME MODE [ARG...]: rank 1's end (s) in $tmp/out-NAME
  local name=$1 mode=$2; shift 2
  "$MPIVET" simulate --np 2 --platform cluster:1,cores=1 --ppn 2 --cfg smpi/simulate-computation:no \
      --cfg smpi/test:0 "$@" "$tmp/spin.c" -- "$mode" > "$tmp/out-$name" 2>&1 ||
    { cat "$tmp/out-$name"; fail "simulate ($name)"; }
  grep -q '^mate-end' "$tmp/out-$name" || { cat "$tmp/out-$name"; fail "$name: no result line"; }
}
end_of() { awk '/^mate-end/ {print $2}' "$tmp/out-$1"; }
diff_of() { awk -v a="$(end_of "$1")" -v b="$(end_of "$2")" 'BEGIN {printf "%.9f", a - b}'; }
spin=(--cflag -DMV_EMULATE_SPIN_SECONDS=1e-3 --cflag -DMV_EMULATE_SPIN_AFTER_SECONDS=1.5e-3)
for mode in long short tiny chunks busy; do
  run "$mode-0" "$mode" --cfg smpi/iprobe:0
  run "$mode-1" "$mode" --cfg smpi/iprobe:0 "${spin[@]}"
done
poll=(--cfg smpi/iprobe:1e-7 --cfg smpi/grow-injected-times:no)
run poll-0 poll "${poll[@]}"
run poll-1 poll "${poll[@]}" "${spin[@]}"
near "one 10 ms kernel beside a waiter: X" "$(diff_of long-1 long-0)" 0.001 1e-6
near "one 2 ms kernel: C - D" "$(diff_of short-1 short-0)" 0.0005 1e-6
near "one 1 ms kernel (C < D): nothing" "$(diff_of tiny-1 tiny-0)" 0 1e-6
near "five 1 ms kernels: C - D once" "$(diff_of chunks-1 chunks-0)" 0.0005 1e-6
near "a polling waiter: C - D once, on half the core" "$(diff_of poll-1 poll-0)" 0.001 2e-6
near "no waiter: nothing" "$(diff_of busy-1 busy-0)" 0 1e-6
near "no waiter: both end at 20 ms" "$(end_of busy-1)" 0.020 1e-6
finish
echo "waiter's spin: ok"
