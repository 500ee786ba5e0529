#!/usr/bin/env bash
# The hand-off between ranks that share a core (mpivet/emulate-handoff.h): built with
# -DMV_EMULATE_HANDOFF_SECONDS=0.001 under SMPI, every completed receive sleeps 1 ms of simulated
# time after it. A round trip (rank 0 MPI_Send then MPI_Recv; rank 1 MPI_Irecv + MPI_Wait then
# MPI_Send) receives two messages, so it takes 2 ms more than built without the option; an
# MPI_Sendrecv exchange receives one on each rank, 1 ms more; a send request's MPI_Wait charges
# nothing (rank 0's MPI_Isend + MPI_Wait before its receive: still 2 ms). Computation is not
# simulated (smpi/simulate-computation:no), so the differences are exact to SimGrid's precision.
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/ho.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include "mpivet/emulate.h"
int main(int argc, char **argv)
{
  int r, x = 0, y = 0;
  MPI_Request q;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (r == 0) {
    MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  double t1 = MPI_Wtime();
  MPI_Sendrecv(&x, 1, MPI_INT, 1 - r, 1, &y, 1, MPI_INT, 1 - r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (r == 0)
    printf("roundtrip %.9f exchange %.9f\n", t1 - t0, MPI_Wtime() - t1);
  MPI_Finalize();
  return 0;
}
C
for s in none 0.001; do
  cflag=(); [ "$s" = none ] || cflag=(--cflag -DMV_EMULATE_HANDOFF_SECONDS=$s)
  "$MPIVET" simulate --np 2 --cfg smpi/simulate-computation:no "${cflag[@]}" "$tmp/ho.c" \
      > "$tmp/out-$s" 2>&1 || { cat "$tmp/out-$s"; fail "simulate ($s)"; }
done
read -r _ rt0 _ ex0 < <(grep '^roundtrip' "$tmp/out-none")
read -r _ rt1 _ ex1 < <(grep '^roundtrip' "$tmp/out-0.001")
awk -v a="$rt0" -v b="$rt1" 'BEGIN {d = b - a; exit !(d > 0.002 - 1e-6 && d < 0.002 + 1e-6)}' \
  || fail "round trip: $rt1 s with the hand-off, $rt0 s without: expected 2 ms more"
awk -v a="$ex0" -v b="$ex1" 'BEGIN {d = b - a; exit !(d > 0.001 - 1e-6 && d < 0.001 + 1e-6)}' \
  || fail "MPI_Sendrecv: $ex1 s with the hand-off, $ex0 s without: expected 1 ms more"
finish
echo "hand-off: ok"
