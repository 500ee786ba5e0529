#!/usr/bin/env bash
# The calibration of the HPL case: builds HPL (build.sh), records every kernel call of real solves
# of order N (default 1500, not a size of hpl.sh's table) on 1 rank, 1 x 2 and 2 x 1 ranks
# (hpl-record, MV_EMULATE_RECORD_DIR; each run solves twice and only the warm second solve's calls
# are kept, warm-calls.awk, as the simulation predicts the warm solve), then `mpivet calibrate`
# of this machine's Open MPI with those records as the kernel samples. A grid with more ranks
# than cores (HPL_RECORD_GRIDS="4x2x2": the kernel models of that load, for hpl.sh's
# HPL_CAL_OVERSUB) runs as hpl.sh's real runs of it (bound round-robin, yielding, at normal
# priority, never under chrt) and its calls are timed in the ranks' CPU time
# (MV_EMULATE_RECORD_CLOCK=thread, mpivet/emulate.h): a call's wall time would include its
# core-mate's turns.
# Usage: calibrate.sh OUT CAL [N...]; N may list sizes ("1000 2000 3000": every size recorded, the
# models fitted on all their calls, the shapes of every size of the table); as root the recording runs under chrt -f 20. Run it right
# before hpl.sh: this VM's speed for the same solve drifts by 10-20 % over hours.
# HPL_RECORD_GRIDS (ranks x P x Q, default "1x1x1 2x1x2 2x2x1") picks the recorded runs: one grid
# alone gives the kernel models of that load (2 ranks: each kernel timed while the other rank
# computes on the other core; the thesis' lesson, calibrate under the application's load;
# per-load.sh). The 2 x 1 grid is there for the row-swap kernels of a process column (P > 1:
# HPL_pdlaswp01T's HPL_dlaswp01T/02N/03T/04T/06T/10N), which a 1 x Q grid never calls: without
# it they have no model and a kernels-only simulation of a P > 1 grid (2 x 1, 2 x 2, the 1024-rank
# 32 x 32) charges them nothing (0.2-0.9 ms against 6-12 ms real per solve at N = 1000).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
out=$1; cal=$2; n=${3:-1500}
mpivet=${MPIVET:-$top/build/bin/mpivet}
mkdir -p "$out"; out=$(cd "$out" && pwd)
case $cal in /*) ;; *) cal=$PWD/$cal ;; esac   # mpivet calibrate runs in OUT
bash "$here/build.sh" "$out" > "$out/build.log"
source "$here/runs.sh"   # rt, keep, hpl_input, hpl_record, hpl_real: as hpl.sh's real runs
# record NP P Q N [DIR]: DIR/kernels-RANK.csv of a real run (two solves), DIR OUT/record-NPxPxQ-N
# (one folder per grid: 2 x 1 and 1 x 2 both have 2 ranks), and
# DIR/warm-RANK.csv, its warm solve's calls (warm-calls.awk): the kernel samples of the calibration
record() {
  local np=$1 p=$2 q=$3 size=$4 d=${5:-$out/record-$1x$2x$3-$4}
  rm -rf "$d"; mkdir -p "$d"; cd "$d"; hpl_input "$size" 128 "$p" "$q"; hpl_record "$np" "$d"
}
records=()
grids=${HPL_RECORD_GRIDS:-1x1x1 2x1x2 2x2x1}
for grid in $grids; do
  read -r np p q <<< "${grid//x/ }"
  for size in $n; do
    record "$np" "$p" "$q" "$size"   # more ranks than cores: in CPU time (runs.sh's hpl_record)
    for r in $(seq 0 $((np - 1))); do records+=(--kernel-records "$out/record-${grid}-$size/warm-$r.csv"); done
  done
done
# HPL's own code between the kernels, which a kernels-only simulation does not charge, on one rank
# (no MPI partner to wait for): the warm solve's wall time of the real, unrecorded HPL minus the
# recorded kernels' time of that solve, per non-empty kernel call. HPL_CALL_RUNS (default 5)
# pairs of runs per size, a recorded and an unrecorded one in turn (the same load for both), and
# the medians of each. The wall time of a recorded run is not used: the recorder's two clock
# reads and its store per call (clock_gettime 44-75 ns in this VM) made a recorded solve 2-13 %
# slower (quiet machine, 3 x 12-15 pairs, docs/simulate.md), 1.7-3.3e-7 s per call at N = 1000
# and 2000, and that overhead was what stop 26 charged as HPL's own code. The per-call figure of
# the smallest size, at least 0: OUT/call-seconds.txt, for build.sh's HPL_CALL_SECONDS. It is a
# small difference of two medians, and a solve's run-to-run noise (5 % at load 5) is 0.13 us per
# call at N = 1000 but 1.1 us at N = 3000 (0.44 s, 20155 calls): at load 5-6 the three sizes gave
# 2.0e-8, 3.5e-7 and 5.5e-7 s, quiet 2.5e-8, 7.9e-8 and -4.0e-7 s. When the 1x1x1 grid is recorded, these recordings are kernel samples of the
# calibration as well (HPL_CALL_RUNS more per size, a median behaviour rather than one run's).
# The warm solve's calls (warm-calls.awk); its time from HPL's Gflop/s ((2/3 N^3 + 3/2 N^2) flops),
# the last WR line.
warm_wall() { awk -v n="$1" '/^WR/ {g = $7} END {print (2 / 3 * n + 1.5) * n * n / (g * 1e9)}' "$2"; }
warm_kernels() {  # seconds and non-empty calls of a warm-RANK.csv
  awk -F, 'NR > 1 { s += $11; if ($7 > 0 && $8 > 0) calls++ } END { print s, calls }' "$1"
}
one_rank=0; case " $grids " in *" 1x1x1 "*) one_rank=1 ;; esac
: > "$out/call-per-size.txt"
for size in $n; do
  d="$out/call-$size"; rm -rf "$d"; mkdir -p "$d"
  for r in $(seq "${HPL_CALL_RUNS:-5}"); do
    record 1 1 1 "$size" "$d/record-$r"
    # 1-rank kernels recorded: these recordings are samples of the 1-rank models too
    [ "$one_rank" = 0 ] || records+=(--kernel-records "$d/record-$r/warm-0.csv")
    mkdir -p "$d/real-$r"; cd "$d/real-$r"; cp "$d/record-$r/hpccinf.txt" .
    hpl_real 1
    warm_wall "$size" hpccoutf.txt >> "$d/real-wall.txt"
    warm_wall "$size" "$d/record-$r/hpccoutf.txt" >> "$d/record-wall.txt"
    warm_kernels "$d/record-$r/warm-0.csv" >> "$d/kernels.txt"
  done
  real=$(hpl_median < "$d/real-wall.txt"); recorded=$(hpl_median < "$d/record-wall.txt")
  kernels=$(cut -d' ' -f1 "$d/kernels.txt" | hpl_median); calls=$(cut -d' ' -f2 "$d/kernels.txt" | hpl_median)
  echo "$size $real $recorded $kernels $calls" |
    awk '{printf "calibrate.sh: N = %d: warm solve %.6f s (recorded run %.6f s), its kernels %.6f s, %d calls: %.3g s per call outside the kernels, the recorder %.3g s per call\n", $1, $2, $3, $4, $5, ($2 - $4) / $5, ($3 - $2) / $5}'
  echo "$size $real $kernels $calls" | awk '{print $1, ($2 - $3) / $4}' >> "$out/call-per-size.txt"
done
sort -g "$out/call-per-size.txt" | awk 'NR == 1 {printf "%.3g\n", ($2 > 0 ? $2 : 0)}' > "$out/call-seconds.txt"
echo "calibrate.sh: HPL's own code per kernel call on 1 rank: $(cat "$out/call-seconds.txt") s ($out/call-seconds.txt)"
cd "$out"
"${rt[@]}" "$mpivet" calibrate --mpi openmpi --seed 1 "${records[@]}" -o "$cal"
# A solve's cold start from the recorded grids' runs against the new models (runs.sh's hpl_cold),
# for hpl.sh's HPL_COLD_SECONDS: OUT/cold-seconds.txt.
hpl_cold "$cal/kernels.h" "$out"/record-*x*x*-* > "$out/cold-seconds.txt"
echo "calibrate.sh: a solve's cold start: $(cat "$out/cold-seconds.txt") s ($out/cold-seconds.txt, HPL_COLD_SECONDS of hpl.sh)"
