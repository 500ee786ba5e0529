#!/usr/bin/env bash
# The HPL case end to end: build HPL real and emulated (build.sh), then for 1, 2 and 4 ranks and
# three matrix sizes the median Gflop/s of RUNS real Open MPI runs on this machine against
# `mpivet simulate` of the emulated HPL on the calibration, and finally a 1024-rank simulation on a
# calibrated fat tree (N = 20000, 32 x 32 grid; scale-1024.sh).
# - Real runs solve the system twice in one process (hpccinf.txt lists N twice) and the second,
#   warm solve is the measurement: the first pays the process's one-time costs (OpenBLAS's buffers
#   and first calls: a first 128 x 873 dtrsm took 4.6 ms against 0.3 ms warm, 10 of the 34 ms of
#   N = 1000 on one rank), which the kernel models, fitted on every call of a run, spread thin.
# - The simulation injects the modelled kernels only by default (HPL_COMPUTE=kernels,
#   smpi/simulate-computation:no, as the 1024-rank run). HPL_COMPUTE=timed also has SMPI time
#   HPL's own code between the kernels; SMPI reads the thread's CPU clock for that, a system call
#   of 1.4 us in this VM (CLOCK_THREAD_CPUTIME_ID; CLOCK_MONOTONIC 29 ns) on entry to and exit
#   from every MPI call and injection, so under chrt -f 20 (as root), where the code's CPU time
#   is its wall time, cpuclock.c (LD_PRELOAD) answers it from CLOCK_MONOTONIC. Timed, the
#   prediction was 8-27 % slow against real runs with the memory kept (docs/simulate.md).
# - Ranks: 1 and 2 ranks on one simulated host with this machine's cores (`cluster:1,cores=2`);
#   4 ranks are bound round-robin to the 2 cores (`--map-by core`: ranks 0 and 2 on core 0), so
#   they are simulated as 2 hosts of 1 core with the ranks dealt round-robin (`cluster:2,cores=1
#   --ppn 0`): the two ranks of a core share its speed, a message between them takes the loopback.
# As root the real runs and the small simulations run under `chrt -f 20`, except real runs with
# more ranks than cores: they run at normal priority under `timeout` (HPL_TIMEOUT, 120 s). Under
# SCHED_FIFO a bound rank that polled without yielding kept its core's other rank from running,
# 4 such ranks held both cores (and the machine) for 10 minutes on 2026-11-26, and a normal-priority
# `timeout` could not run to stop them. The 4-rank runs also ask Open MPI to yield
# (mpi_yield_when_idle) and are opt-in (HPL_GRIDS="1x1x1 2x1x2 4x2x2"). Usage: hpl.sh CAL
# [RUNS=3] [SIZES="1000 2000 3000"]; HPL_GRIDS="1x1x1 2x1x2" (ranks x P x Q) picks the grids,
# HPL_1024=0 skips the 1024-rank run, HPL_OUT=DIR keeps the builds and runs there; every real
# run's Gflop/s is kept in OUT/run-NP-PxQ-N/real.txt (RUNS=0: taken from there, validate.sh's runs), and the table prints their spread; the runs'
# stderr in real-R.err and sim.err there (with HPL_TIMERS=1, build.sh: HPL's phase timers).
# The real HPL runs with glibc keeping the memory it frees (keep-memory.sh; HPL_KEEP_MEMORY=0:
# glibc's defaults): 2 ranks, N = 1000: 27.3-32.9 Gflop/s by default, 53.1-57.2 with the memory
# kept, where the kernels-only prediction is 62.6.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
cal=$(cd "$1" && pwd); runs=${2:-3}; sizes=${3:-"1000 2000 3000"}
mpivet=${MPIVET:-$top/build/bin/mpivet}
out=${HPL_OUT:-$(mktemp -d)}; mkdir -p "$out"   # HPL_OUT may be a new folder
source "$here/runs.sh"   # rt, keep, hpl_input, hpl_real, hpl_warm_gflops, hpl_median
[ "${HPL_1024:-1}" = 0 ] && export HPL_CONTIG=0   # no 1024-rank run: no contiguous-panel build
cores=$(nproc)
# Ranks sharing a core: a receiver must be scheduled before it sees its message. The hand-off's
# one-way time is measured on this machine (bench/sim/oversub.sh, 2 ranks on one core, Open MPI
# with mpi_yield_when_idle 1 as the real runs below: the median of 5 runs) unless
# HPL_HANDOFF_SECONDS gives it; the simulation of such a grid charges it per received message
# (hpl-smpi-handoff, mpivet/emulate-handoff.h). HPL_HANDOFF_SECONDS=0: not charged.
# The same run of oversub.sh measures the wake-up of a rank whose core-mate computes (its deciles,
# HPL_WAKE_QUANTILES, mpivet/emulate-handoff.h's MV_EMULATE_WAKE_QUANTILES) and the core time a
# waiting, yielding rank takes from a dgemm on its core (HPL_SPIN_SECONDS X after
# HPL_SPIN_AFTER_SECONDS D of computation, MV_EMULATE_SPIN_SECONDS; HPL_SPIN_SECONDS=0: none)
# unless given.
# Since stop 33 such a grid is simulated with the core's scheduler by default (HPL_SCHED=1;
# mpivet/emulate-sched.h): the ranks of a core take turns on it, handed over at the ticks of the
# kernel's scheduler, 1 / CONFIG_HZ (else the largest wake-up delay oversub.sh measured, the
# deciles' last: 3.9-4.2 ms at HZ 250), unless HPL_SCHED_TICK_SECONDS gives it, and the receiver's copy is core
# time (HPL_COPY=1, MV_EMULATE_COPY: the calibration's recv fit). The scheduler makes the wake-up
# and the spin itself (their models are then off). HPL_SCHED=0: the models of stops 29-31.
# HPL_CAL_OVERSUB=DIR: the calibration of those grids (default CAL); calibrate.sh with
# HPL_RECORD_GRIDS="4x2x2" records its kernels under that load, in the ranks' CPU time.
# HPL_COLD_SECONDS=C: the cold start charged at the start of every emulated solve (build.sh;
# validate.sh measures it; default 0).
[ "${HPL_COLD_SECONDS:-0}" = 0 ] ||
  echo "hpl.sh: a solve's cold start, charged at its start: $HPL_COLD_SECONDS s" >&2
if [ -z "${HPL_HANDOFF_SECONDS:-}" ]; then
  for grid in ${HPL_GRIDS:-1x1x1 2x1x2}; do
    [ "${grid%%x*}" -gt "$cores" ] || continue
    bash "$top/bench/sim/oversub.sh" 5 > "$out/oversub.txt" 2>&1
    HPL_HANDOFF_SECONDS=$(awk '/mpi_yield_when_idle 1:/ {y = 1; next} y && /^pingpong/ {print $2} /^run/ {y = 0}' "$out/oversub.txt" | hpl_median)
    echo "hpl.sh: hand-off between ranks on one core (oversub.sh, median of 5): $HPL_HANDOFF_SECONDS s" >&2
    : "${HPL_WAKE_QUANTILES:=$(awk '/^wake-quantiles/ {print $2}' "$out/oversub.txt")}"
    echo "hpl.sh: wake-up beside a computing core-mate, deciles (oversub.sh): $HPL_WAKE_QUANTILES s" >&2
    : "${HPL_SPIN_SECONDS:=$(awk '/^spin-seconds/ {print $2}' "$out/oversub.txt")}"
    : "${HPL_SPIN_AFTER_SECONDS:=$(awk '/^spin-seconds/ {print $4}' "$out/oversub.txt")}"
    echo "hpl.sh: a waiter's spin beside a computing core-mate (oversub.sh): $HPL_SPIN_SECONDS s after $HPL_SPIN_AFTER_SECONDS s" >&2
    break
  done
fi
export HPL_HANDOFF_SECONDS=${HPL_HANDOFF_SECONDS:-0} HPL_WAKE_QUANTILES=${HPL_WAKE_QUANTILES:-}
if [ "${HPL_SCHED:-1}" = 1 ] && [ -z "${HPL_SCHED_TICK_SECONDS:-}" ] && [ -n "$HPL_WAKE_QUANTILES" ]; then
  # the kernel's tick, 1 / CONFIG_HZ (/proc/config.gz or /boot/config-*), else the largest
  # wake-up delay measured (a sample of it: 3.9-4.2 ms here, where HZ is 250)
  hz=$({ zcat /proc/config.gz 2> /dev/null || cat "/boot/config-$(uname -r)" 2> /dev/null; } |
       sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' | head -1)
  if [ -n "$hz" ]; then
    HPL_SCHED_TICK_SECONDS=$(awk -v hz="$hz" 'BEGIN {printf "%.6g", 1 / hz}'); why="CONFIG_HZ=$hz"
  else
    HPL_SCHED_TICK_SECONDS=${HPL_WAKE_QUANTILES##*,}; why="the largest wake-up delay"
  fi
  echo "hpl.sh: the core's scheduler, a tick every $HPL_SCHED_TICK_SECONDS s ($why)" >&2
fi
[ "${HPL_SCHED:-1}" = 1 ] && [ -n "${HPL_SCHED_TICK_SECONDS:-}" ] && export HPL_SCHED_TICK_SECONDS HPL_COPY=${HPL_COPY:-1} ||
  unset HPL_SCHED_TICK_SECONDS
[ "${HPL_SPIN_SECONDS:-0}" = 0 ] && unset HPL_SPIN_SECONDS || export HPL_SPIN_SECONDS HPL_SPIN_AFTER_SECONDS
bash "$here/build.sh" "$out" "$cal" > "$out/build.log"
cal_over=$(cd "${HPL_CAL_OVERSUB:-$cal}" && pwd) out_over=$out
if [ "$cal_over" != "$cal" ]; then   # the oversubscribed grids' own calibration: its own build
  out_over=$out/oversub; bash "$here/build.sh" "$out_over" "$cal_over" > "$out/build-oversub.log"
fi
compute=(); preload=()
case ${HPL_COMPUTE:-kernels} in
  kernels) compute=(--cfg smpi/simulate-computation:no) ;;
  timed) if [ ${#rt[@]} -gt 0 ]; then   # see above: only where CPU time is wall time
           cc -O2 -shared -fPIC "$here/cpuclock.c" -o "$out/cpuclock.so" -ldl
           preload=(env LD_PRELOAD="$out/cpuclock.so")
         fi ;;
  *) echo "hpl.sh: HPL_COMPUTE is timed or kernels, not '$HPL_COMPUTE'" >&2; exit 2 ;;
esac
printf "%5s %6s %5s %14s %16s %14s %8s\n" ranks N grid "real Gflop/s" "real min-max" "predicted" error
for grid in ${HPL_GRIDS:-1x1x1 2x1x2}; do
  grid=${grid//x/ }
  read -r np p q <<< "$grid"
  for n in $sizes; do
    d="$out/run-$np-${p}x$q-$n"; mkdir -p "$d"; cd "$d"; hpl_input "$n" 128 "$p" "$q"
    # More ranks than cores (runs.sh's hpl_real): ranks bound round-robin to cores (unbound, the
    # scheduler's placement made the 4-rank Gflop/s bimodal, e.g. 26 or 40 at N = 2000; bound
    # 37.8-39.5), never under SCHED_FIFO (see above): normal priority, timeout.
    if [ "$runs" = 0 ]; then   # RUNS=0: the real runs are in real.txt already (validate.sh)
      [ -s real.txt ] || { echo "hpl.sh: RUNS=0 and no real runs in $d/real.txt" >&2; exit 2; }
    else
      for r in $(seq "$runs"); do
        if ! hpl_real "$np" 2> "real-$r.err"; then
          echo "hpl.sh: real run $r, $np ranks, N = $n failed or did not end in time ($d/real-$r.err)" >&2; continue
        fi
        hpl_warm_gflops
      done > real.txt
    fi
    real=$(hpl_median < real.txt)
    # The simulation solves twice too and its warm second solve is the prediction: timing HPL's own
    # code, the first solve also pays first-touch page faults and cold caches (1 rank, N = 1000:
    # 25.0 Gflop/s cold, 29.2-29.8 warm).
    rm -f hpccoutf.txt
    place=(--platform "cluster:1,cores=$cores" --ppn "$np"); emulated=$out/hpl-smpi; cal_run=$cal
    if [ "$np" -gt "$cores" ]; then
      place=(--platform "cluster:$cores,cores=1" --ppn 0); cal_run=$cal_over; emulated=$out_over/hpl-smpi
      [ -x "$out_over/hpl-smpi-handoff" ] && emulated=$out_over/hpl-smpi-handoff
    fi
    pred=$("${preload[@]}" "${rt[@]}" "$mpivet" simulate --calibration "$cal_run" "${place[@]}" --np "$np" \
             "${compute[@]}" "$emulated" > sim.txt 2> sim.err && hpl_warm_gflops)
    spread=$(sort -g real.txt | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}')
    printf "%5d %6d %5s %14.4f %16s %14.4f %7.1f%%\n" "$np" "$n" "${p}x$q" "$real" "$spread" "$pred" \
      "$(echo "100 * ($pred - $real) / $real" | bc -l)"
  done
done
[ "${HPL_1024:-1}" = 0 ] && exit 0   # HPL_1024=0: the table only
# the 1024-rank run, with the thesis' Stampede parameters (the ring broadcasts poll, see there)
HPL_OUT="$out" MPIVET="$mpivet" exec bash "$here/scale-1024.sh" "$cal"
