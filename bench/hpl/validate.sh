#!/usr/bin/env bash
# The HPL table in one command, with the kernel calibration and the real references taken in the
# same minutes: this VM's speed for one solve drifts by 10-15 % within an hour (stop 30: 2 x 1
# +2.8 / +2.4 / +3.3 % with calibration and references from the same minutes, +35.6 / +12.9 /
# +21.1 % an hour later with a fresh calibration), so a calibration made before the real runs
# (calibrate.sh, then hpl.sh) measures another machine than its references.
# ROUNDS rounds, each one, for every grid of HPL_GRIDS and every size: a recorded run (hpl-record:
# the kernel samples) and a real run (hpl-openmpi: the reference), in turn, the sizes in reverse
# order every other round. Then `mpivet calibrate` of Open MPI with every round's warm recordings
# (pooled per grid and rank: --kernel-records takes at most 64 files) -> CAL, and hpl.sh's
# simulation and table against the interleaved real runs (hpl.sh with RUNS=0). Both sides are
# medians over the same rounds, so a drift of the machine moves both.
# Also printed (validate-drift.txt): per round and grid, the real Gflop/s against the grid's
# median over all rounds, and per size the kernels recorded in that round against CAL's models of the
# same calls (account.sh): the machine's drift as each side saw it.
# Grids with more ranks than cores are run and recorded hpl.sh's way (bound, yielding, normal
# priority; the kernels timed in the ranks' CPU time, runs.sh) and get a calibration of their own,
# CAL-oversub: the kernel models of that load (calibrate.sh's HPL_RECORD_GRIDS="4x2x2"), fitted
# with CAL's network measurements (mpivet calibrate --measurements), for hpl.sh's
# HPL_CAL_OVERSUB (since stop 35: before, such grids were calibrated apart, minutes away from
# their real runs). The recorded sizes are the table's sizes.
# Usage: validate.sh OUT CAL [ROUNDS=5] [SIZES="1000 2000 3000"]; HPL_GRIDS (ranks x P x Q,
# default "1x1x1 2x1x2 2x2x1"); OUT keeps builds, records (OUT/round-R) and runs
# (OUT/run-NP-PxQ-N, real.txt; rounds.txt: round and Gflop/s); CAL must not exist.
# HPL_COLD=1 charges the emulated solves the cold start measured in the same rounds (default: not).
# HPL_CALL_COST=1 charges HPL's own code per emulated kernel call as measured on one rank in the
# same rounds (real warm solve minus its recorded kernels, per call, the smallest size's; needs
# 1x1x1 among the grids; default 0, as hpl.sh: not charged).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
out=$1; cal=$2; rounds=${3:-5}; sizes=${4:-"1000 2000 3000"}
grids=${HPL_GRIDS:-1x1x1 2x1x2 2x2x1}
mpivet=${MPIVET:-$top/build/bin/mpivet}
[ ! -e "$cal" ] || { echo "validate.sh: $cal exists (mpivet calibrate writes a new folder)" >&2; exit 2; }
mkdir -p "$out"; out=$(cd "$out" && pwd)
export HPL_CONTIG=0   # no 1024-rank run here: no contiguous-panel build
bash "$here/build.sh" "$out" > "$out/build.log"
source "$here/runs.sh"
cores=$(nproc)
load() { cut -d' ' -f1-3 /proc/loadavg; }
rm -rf "$out"/round-* "$out/pooled"   # a former run's records would be pooled too
for grid in $grids; do
  read -r np p q <<< "${grid//x/ }"
  for n in $sizes; do d="$out/run-$np-${p}x$q-$n"; rm -rf "$d"; mkdir -p "$d"; done
done
echo "validate.sh: $rounds rounds from $(date -u +%T) UTC, load $(load)" >&2
for r in $(seq "$rounds"); do
  order=$sizes; [ $((r % 2)) = 1 ] || order=$(echo "$sizes" | tr ' ' '\n' | tac | tr '\n' ' ')
  for grid in $grids; do
    read -r np p q <<< "${grid//x/ }"
    for n in $order; do
      rd="$out/round-$r/record-$grid-$n"; mkdir -p "$rd"; cd "$rd"; hpl_input "$n" 128 "$p" "$q"
      hpl_record "$np" "$rd" 2> record.err ||
        { echo "validate.sh: recorded run failed ($rd/record.err)" >&2; exit 3; }
      d="$out/run-$np-${p}x$q-$n"; cd "$d"; hpl_input "$n" 128 "$p" "$q"
      if ! hpl_real "$np" 2> "real-$r.err"; then
        echo "validate.sh: real run, round $r, $grid, N = $n failed ($d/real-$r.err)" >&2; continue
      fi
      g=$(hpl_warm_gflops); echo "$g" >> real.txt; echo "$r $g" >> rounds.txt
    done
  done
  echo "validate.sh: round $r done $(date -u +%T) UTC, load $(load)" >&2
done
# Kernel samples: every round's warm recordings of a grid and rank in one file.
records=(); over=(); mkdir -p "$out/pooled"
for grid in $grids; do
  read -r np p q <<< "${grid//x/ }"
  for rank in $(seq 0 $((np - 1))); do
    f="$out/pooled/warm-$grid-$rank.csv"
    set -- "$out"/round-*/record-"$grid"-*/warm-"$rank".csv
    { head -n 1 "$1"; for w in "$@"; do tail -n +2 "$w"; done; } > "$f"
    if [ "$np" -le "$cores" ]; then records+=(--kernel-records "$f"); else over+=(--kernel-records "$f"); fi
  done
done
cd "$out"
"${rt[@]}" "$mpivet" calibrate --mpi openmpi --seed 1 "${records[@]}" -o "$cal" > "$out/calibrate.log" 2>&1 ||
  { echo "validate.sh: mpivet calibrate failed ($out/calibrate.log)" >&2; exit 3; }
echo "validate.sh: calibrated $(date -u +%T) UTC ($cal)" >&2
cal_over=$cal
if [ ${#over[@]} -gt 0 ]; then
  cal_over=$cal-oversub
  "${rt[@]}" "$mpivet" calibrate --mpi openmpi --seed 1 --measurements "$cal/measurements.csv" "${over[@]}" \
    -o "$cal_over" > "$out/calibrate-oversub.log" 2>&1 ||
    { echo "validate.sh: mpivet calibrate of the oversubscribed grids failed ($out/calibrate-oversub.log)" >&2; exit 3; }
  echo "validate.sh: calibrated the grids with more ranks than cores $(date -u +%T) UTC ($cal_over)" >&2
fi
# HPL's own code per kernel call on one rank (calibrate.sh's figure, from the same rounds): the
# real warm solve's median time minus the median of the recorded warm solves' kernels, per call.
call=0
case " $grids " in *" 1x1x1 "*)
  for n in $sizes; do
    real=$(awk -v n="$n" '{print (2 / 3 * n + 1.5) * n * n / ($1 * 1e9)}' "$out/run-1-1x1-$n/real.txt" | hpl_median)
    for w in "$out"/round-*/record-1x1x1-"$n"/warm-0.csv; do
      awk -F, 'NR > 1 { s += $11; if ($7 > 0 && $8 > 0) calls++ } END { print s, calls }' "$w"
    done > "$out/pooled/kernels-1x1x1-$n.txt"
    kern=$(cut -d' ' -f1 "$out/pooled/kernels-1x1x1-$n.txt" | hpl_median)
    calls=$(cut -d' ' -f2 "$out/pooled/kernels-1x1x1-$n.txt" | hpl_median)
    echo "$n $real $kern $calls" | awk '{printf "%d %.3g\n", $1, ($2 - $3) / $4}'
  done > "$out/call-per-size.txt"
  awk '{printf "validate.sh: N = %d: HPL'"'"'s own code %s s per kernel call (1 rank)\n", $1, $2}' "$out/call-per-size.txt" >&2
  [ "${HPL_CALL_COST:-0}" = 0 ] || call=$(sort -g "$out/call-per-size.txt" | awk 'NR == 1 {printf "%.3g\n", ($2 > 0 ? $2 : 0)}')
  ;;
esac
# The cold start (MV_EMULATE_COLD, charged at the start of every emulated solve with HPL_COLD=1),
# hpl_cold over every round, grid and size. Off by default: in stop 35's window it moved N = 1000
# from +21.0 to +14.2 % at 1 x 2, but from -2.6 to -6.2 % at 1 x 1 and -0.2 to -4.7 % at 2 x 1.
cold=0
if [ "${HPL_COLD:-0}" != 0 ]; then
  cold=$(hpl_cold "$cal/kernels.h" $(for rd in "$out"/round-*/record-*; do
                                       g=${rd##*/record-}; [ "${g%%x*}" -gt "$cores" ] || echo "$rd"; done))
  echo "validate.sh: cold start of a solve (largest over a run's ranks, median over runs): $cold s" >&2
fi
# The drift as each side saw it: per round and grid, real Gflop/s over the grid's median (mean
# over the sizes) and, per size, CAL's modelled over the recorded kernel seconds of that round
# (per size since stop 34: one ratio over the sizes is N = 3000's, and hid models 5-15 % short
# of N = 1000's calls).
{
  printf "%5s %6s %14s   kernels model / rec at N =" round grid "real / median"
  for n in $sizes; do printf " %6s" "$n"; done; printf "\n"
  for grid in $grids; do
    read -r np p q <<< "${grid//x/ }"
    for r in $(seq "$rounds"); do
      rel=$(for n in $sizes; do
              f="$out/run-$np-${p}x$q-$n/rounds.txt"
              [ -s "$f" ] || continue
              med=$(cut -d' ' -f2 "$f" | hpl_median)
              awk -v r="$r" -v m="$med" '$1 == r {print $2 / m}' "$f"
            done | awk '{s += $1; c++} END {printf "%.3f", c ? s / c : 0}')
      printf "%5d %6s %14s %29s" "$r" "$grid" "$rel" ""
      for n in $sizes; do
        kc=$cal; [ "$np" -le "$cores" ] || kc=$cal_over
        ker=$(bash "$here/account.sh" "$kc/kernels.h" "$out/round-$r/record-$grid-$n"/warm-*.csv |
                awk '/^rank .*: kernels measured/ {m += $5; p += $8} END {printf "%.3f", m ? p / m : 0}')
        printf " %6s" "$ker"
      done
      printf "\n"
    done
  done
} > "$out/validate-drift.txt"
cat "$out/validate-drift.txt" >&2
HPL_OUT=$out HPL_GRIDS=$grids HPL_1024=0 HPL_CALL_SECONDS=$call HPL_COLD_SECONDS=$cold MPIVET=$mpivet \
  HPL_CAL_OVERSUB=$cal_over bash "$here/hpl.sh" "$cal" 0 "$sizes"
