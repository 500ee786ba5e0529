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
records=()
for grid in ${HPL_RECORD_GRIDS:-1x1x1 2x1x2}; do
  read -r np p q <<< "${grid//x/ }"
  [ "$np" -le "$(nproc)" ] || { echo "calibrate.sh: $np ranks > $(nproc) cores: not recorded" >&2; exit 2; }
  for size in $n; do
    d="$out/record-$np-$size"; rm -rf "$d"; mkdir -p "$d"; cd "$d"
    sed -e "s/@N@/$size/; s/@NB@/128/; s/@P@/$p/; s/@Q@/$q/" "$here/hpccinf.in" > hpccinf.txt
    sed -i -E 's/^1( +# of problems sizes)/2\1/; s/^([0-9]+)( +Ns)/\1 \1\2/' hpccinf.txt
    MV_EMULATE_RECORD_DIR="$d" "${rt[@]}" mpirun.openmpi -x MV_EMULATE_RECORD_DIR "${keep[@]}" -np "$np" \
      "$out/hpl-record" > out.txt
    for r in $(seq 0 $((np - 1))); do records+=(--kernel-records "$d/kernels-$r.csv"); done
  done
done
cd "$out"
"${rt[@]}" "$mpivet" calibrate --mpi openmpi --seed 1 "${records[@]}" -o "$cal"
