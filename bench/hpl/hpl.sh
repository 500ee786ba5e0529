#!/usr/bin/env bash
# The HPL case end to end: build HPL real and emulated (build.sh), then for 1, 2 and 4 ranks and
# three matrix sizes the median Gflop/s of RUNS real Open MPI runs on this machine against
# `mpivet simulate` of the emulated HPL on the calibration (ranks on one simulated host with the
# machine's 2 cores, as the real runs share them), and finally a 1024-rank simulation on a
# calibrated fat tree (N = 20000, 32 x 32 grid; scale-1024.sh) with its wall time, CPU time and peak memory
# (the simulator's proportional set size, sampled every 2 s: the resident size that
# `mpivet simulate` prints counts the pages of SMPI_SHARED_MALLOC once per mapping, 6 GB for
# what is 0.3 GB of memory). As root the real runs and the small simulations run under
# `chrt -f 20` (a loaded machine stretches real runs and SMPI's benchmarked computation alike);
# the 1024-rank one does not (it is long). Usage: hpl.sh CAL [RUNS=3] [SIZES="1000 2000 3000"];
# HPL_GRIDS="1x1x1 2x1x2" (ranks x P x Q) picks the grids, HPL_1024=0 skips the 1024-rank run,
# HPL_OUT=DIR keeps the builds and runs there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
cal=$(cd "$1" && pwd); runs=${2:-3}; sizes=${3:-"1000 2000 3000"}
mpivet=${MPIVET:-$top/build/bin/mpivet}
out=${HPL_OUT:-$(mktemp -d)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
bash "$here/build.sh" "$out" "$cal" > "$out/build.log"
cores=$(nproc)
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
input() { sed -e "s/@N@/$1/; s/@NB@/$2/; s/@P@/$3/; s/@Q@/$4/" "$here/hpccinf.in" > hpccinf.txt; }
gflops() { grep -Eo 'gflops [0-9.]+' | awk '{print $2}'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
printf "%5s %6s %5s %14s %14s %8s\n" ranks N grid "real Gflop/s" "predicted" error
for grid in ${HPL_GRIDS:-1x1x1 2x1x2 4x2x2}; do
  grid=${grid//x/ }
  read -r np p q <<< "$grid"
  for n in $sizes; do
    d="$out/run-$np-$n"; mkdir -p "$d"; cd "$d"; input "$n" 128 "$p" "$q"
    # More ranks than cores: ranks bound round-robin to cores (unbound, the scheduler's
    # placement made the 4-rank Gflop/s bimodal, e.g. 26 or 40 at N = 2000; bound 37.8-39.5)
    bind=(); [ "$np" -gt "$cores" ] && bind=(--bind-to core:overload-allowed --map-by core)
    for r in $(seq "$runs"); do
      "${rt[@]}" mpirun.openmpi --oversubscribe "${bind[@]}" -np "$np" "$out/hpl-openmpi" | gflops
    done > real.txt
    real=$(median < real.txt)
    pred=$("${rt[@]}" "$mpivet" simulate --calibration "$cal" --platform "cluster:1,cores=$cores" --np "$np" \
             --ppn "$np" "$out/hpl-smpi" | tee sim.txt | gflops)
    printf "%5d %6d %5s %14.4f %14.4f %7.1f%%\n" "$np" "$n" "${p}x$q" "$real" "$pred" \
      "$(echo "100 * ($pred - $real) / $real" | bc -l)"
  done
done
[ "${HPL_1024:-1}" = 0 ] && exit 0   # HPL_1024=0: the table only
# the 1024-rank run, with the thesis' Stampede parameters (the ring broadcasts poll, see there)
HPL_OUT="$out" MPIVET="$mpivet" exec bash "$here/scale-1024.sh" "$cal"
