#!/usr/bin/env bash
# The calibration of the HPL case: builds HPL (build.sh), records every kernel call of real solves
# of order N (default 1500, not a size of hpl.sh's table) on 1 rank and on 1 x 2 ranks
# (hpl-record, MV_EMULATE_RECORD_DIR; each run solves twice, so warm calls outnumber the cold
# first ones, which the fit drops as stalls), then `mpivet calibrate` of this machine's Open MPI
# with those records as the kernel samples. Real runs with more ranks than cores are not recorded:
# they never run under chrt (hpl.sh), and a descheduled call would time its neighbour's work.
# Usage: calibrate.sh OUT CAL [N...]; N may list sizes ("1000 2000 3000": every size recorded, the
# models fitted on all their calls, the shapes of every size of the table); as root the recording runs under chrt -f 20. Run it right
# before hpl.sh: this VM's speed for the same solve drifts by 10-20 % over hours.
# HPL_RECORD_GRIDS (ranks x P x Q, default "1x1x1 2x1x2") picks the recorded runs: one grid alone
# gives the kernel models of that load (2 ranks: each kernel timed while the other rank computes
# on the other core; the thesis' lesson, calibrate under the application's load; per-load.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
out=$1; cal=$2; n=${3:-1500}
mpivet=${MPIVET:-$top/build/bin/mpivet}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
mkdir -p "$out"; out=$(cd "$out" && pwd)
bash "$here/build.sh" "$out" > "$out/build.log"
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
source "$here/keep-memory.sh"   # as hpl.sh's real runs
record() {  # record NP P Q N: DIR/kernels-RANK.csv of a real run (two solves) in OUT/record-NP-N
  local np=$1 p=$2 q=$3 size=$4 d="$out/record-$1-$4"
  rm -rf "$d"; mkdir -p "$d"; cd "$d"
  sed -e "s/@N@/$size/; s/@NB@/128/; s/@P@/$p/; s/@Q@/$q/" "$here/hpccinf.in" > hpccinf.txt
  sed -i -E 's/^1( +# of problems sizes)/2\1/; s/^([0-9]+)( +Ns)/\1 \1\2/' hpccinf.txt
  MV_EMULATE_RECORD_DIR="$d" "${rt[@]}" mpirun.openmpi -x MV_EMULATE_RECORD_DIR "${keep[@]}" -np "$np" \
    "$out/hpl-record" > out.txt
}
records=()
for grid in ${HPL_RECORD_GRIDS:-1x1x1 2x1x2}; do
  read -r np p q <<< "${grid//x/ }"
  [ "$np" -le "$(nproc)" ] || { echo "calibrate.sh: $np ranks > $(nproc) cores: not recorded" >&2; exit 2; }
  for size in $n; do
    record "$np" "$p" "$q" "$size"
    for r in $(seq 0 $((np - 1))); do records+=(--kernel-records "$out/record-$np-$size/kernels-$r.csv"); done
  done
done
# HPL's own code between the kernels, which a kernels-only simulation does not charge: on one rank
# (no MPI partner to wait for) the warm solve's wall time (HPL's) minus its kernels' time, per
# non-empty kernel call, over the sizes; OUT/call-seconds.txt, for build.sh's HPL_CALL_SECONDS.
# The warm solve's calls: after the first verification dgemv (n > NB) and pdlange's idamax calls
# right after it, up to the second verification dgemv.
for size in $n; do
  [ -f "$out/record-1-$size/kernels-0.csv" ] || record 1 1 1 "$size"
  # the warm solve's time from its Gflop/s (HPL's (2/3 N^3 + 3/2 N^2) flops), the last WR line
  wall=$(awk -v n="$size" '/^WR/ {g = $7} END {print (2 / 3 * n + 1.5) * n * n / (g * 1e9)}' \
           "$out/record-1-$size/hpccoutf.txt")
  awk -F, -v wall="$wall" '
    FNR == 1 { next }
    $2 == "dgemv" && $8 > 128 { v++; skip = 1; next }
    v == 1 && skip && $2 == "idamax" { next }
    { skip = 0 }
    v == 1 { s += $11; if ($7 > 0 && $8 > 0) calls++ }
    END { print wall - s, calls }' "$out/record-1-$size/kernels-0.csv"
done | awk '{gap += $1; calls += $2} END {if (calls > 0 && gap > 0) printf "%.3g\n", gap / calls; else print 0}' \
  > "$out/call-seconds.txt"
echo "calibrate.sh: HPL's own code per kernel call on 1 rank: $(cat "$out/call-seconds.txt") s ($out/call-seconds.txt)"
cd "$out"
"${rt[@]}" "$mpivet" calibrate --mpi openmpi --seed 1 "${records[@]}" -o "$cal"
