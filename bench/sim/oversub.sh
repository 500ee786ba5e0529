#!/usr/bin/env bash
# What an oversubscribed MPI does with a waiting rank (bench/sim/oversub.c): 2 ranks pinned to
# core 0 (taskset), for Open MPI asked to yield (mpi_yield_when_idle 1, what it does by itself
# when it knows it is oversubscribed, as in hpl.sh's 4-rank runs), Open MPI by default, and
# MPICH. Prints per MPI and run the computing rank's time alone and beside a waiting rank, the
# waiter's share of the core, and the one-way time of an empty message between the two ranks.
# Then, OVERSUB_WAKE=1 (default), the wake-up of a rank whose core-mate computes (oversub-wake.c,
# 3 ranks bound round-robin to the cores as bench/hpl's 4-rank runs, Open MPI with yield): the
# delay's distribution and its deciles ("wake-quantiles", for MV_EMULATE_WAKE_QUANTILES).
# Before it, what a waiting, yielding rank takes from a dgemm on its core (oversub-stretch.c, 2
# ranks pinned to core 0, Open MPI with yield, OpenBLAS): per size the extra time, and the waiter's
# spin fitted to it ("spin-seconds X after D", for MV_EMULATE_SPIN_SECONDS and _AFTER_SECONDS).
# OVERSUB_SEND=1 (default 0) first runs oversub-send.c, 4 ranks bound round-robin to the cores: the
# time of a 64 KiB / 1 MiB message, contiguous and as a vector type, while no rank computes (mode
# 0), the sender's core-mate computes (1), the receiver's (2), or the receiver itself computes in
# 1 ms chunks with MPI_Test between them (3); 20 repetitions each.
# Never under chrt: 2 ranks on one core under SCHED_FIFO would hold it (see bench/hpl/hpl.sh).
# Usage: oversub.sh [RUNS=3]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpicc.openmpi -O2 "$here/oversub.c" -o "$tmp/os-openmpi"
mpicc.mpich -O2 "$here/oversub.c" -o "$tmp/os-mpich"
mpicc.openmpi -O2 "$here/oversub-wake.c" -o "$tmp/wake-openmpi"
mpicc.openmpi -O2 "$here/oversub-stretch.c" -o "$tmp/stretch-openmpi" -lopenblas
for r in $(seq "$runs"); do
  echo "run $r, Open MPI, mpi_yield_when_idle 1:"
  timeout 60 mpirun.openmpi --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 -np 2 taskset -c 0 "$tmp/os-openmpi"
  echo "run $r, Open MPI, default:"
  timeout 60 mpirun.openmpi --oversubscribe --bind-to none -np 2 taskset -c 0 "$tmp/os-openmpi"
  echo "run $r, MPICH:"
  timeout 60 mpirun.mpich -np 2 taskset -c 0 "$tmp/os-mpich"
done
echo "a dgemm beside a waiting rank on its core, Open MPI, mpi_yield_when_idle 1:"
OPENBLAS_NUM_THREADS=1 timeout 120 mpirun.openmpi --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 \
  -x OPENBLAS_NUM_THREADS -np 2 taskset -c 0 "$tmp/stretch-openmpi"
if [ "${OVERSUB_SEND:-0}" = 1 ]; then
  mpicc.openmpi -O2 -I"$here/../../include" "$here/oversub-send.c" -o "$tmp/send-openmpi"
  echo "a message beside a computing core-mate, Open MPI, mpi_yield_when_idle 1, 4 ranks:"
  for bytes in 65536 1048576; do for vec in 0 1; do for mode in 0 1 2 3; do
    timeout 120 mpirun.openmpi --oversubscribe --bind-to core:overload-allowed --map-by core \
      --mca mpi_yield_when_idle 1 -np 4 "$tmp/send-openmpi" "$bytes" "$vec" "$mode" 20 0.1 1e-3
  done; done; done
fi
[ "${OVERSUB_WAKE:-1}" = 1 ] || exit 0
echo "wake-up beside a computing core-mate, Open MPI, mpi_yield_when_idle 1, 3 ranks:"
timeout 120 mpirun.openmpi --oversubscribe --bind-to core:overload-allowed --map-by core \
  --mca mpi_yield_when_idle 1 -np 3 "$tmp/wake-openmpi"
