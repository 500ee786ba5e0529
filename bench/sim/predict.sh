#!/usr/bin/env bash
# Prediction at NP ranks (default 2): every example with computation (the sleep-based ones,
# stencil-2d), mixed.c (computation, 1 MiB exchanges, small Allreduces) and generated benchmarks
# (`mpivet trace` of a real run, then `mpivet benchgen`). Each program is linked with walltime.c,
# which prints rank 0's time from MPI_Init to MPI_Finalize (after barriers) on real MPI and under
# SMPI alike; the median of RUNS real runs (Open MPI, or MPICH with MPI=mpich) is compared with `mpivet simulate` on the
# calibration CAL and on the uncalibrated default platform. As root, the real runs, the traced
# runs and the simulations run under `chrt -f 20`: the others' load stretches real runs, and SMPI
# benchmarks a program's computation by the CPU time it takes in the simulator, which a loaded
# machine inflates too (stencil-2d: 0.086 s simulated without chrt, 0.072 s with, 0.074 s real). Prints one line per program with both ratios predicted/real.
# MPI=mpich runs the real programs (and traces) with MPICH instead of Open MPI: give it a calibration
# made with `mpivet calibrate --mpi mpich`.
# Every simulation is interleaved with a real run (SIMS of them, default RUNS) and the medians
# are compared. smpicc builds each program once per platform (calibrated: with the folder's
# kernels.h; default), into a --workdir whose binary the later simulations run (rebuilt for
# every simulation, the 11 programs took 2 min 49 s at 1 run; built once, 2 min 02 s at 5 runs,
# Open MPI, load 4-8).
# Usage: [MPI=openmpi|mpich] [SIMS=N] predict.sh CAL [RUNS=5] [NAME...]   (NAME: only these programs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
cal=$1; runs=${2:-5}; shift $(( $# > 1 ? 2 : 1 ))
mpivet=${MPIVET:-$top/build/bin/mpivet}
np=${NP:-2}
mpi=${MPI:-openmpi}
sims=${SIMS:-$runs}   # simulations per program, interleaved with the real runs (SIMS=1: one)
case $mpi in
  openmpi) mpicc=mpicc.openmpi; mpirun=(mpirun.openmpi --oversubscribe) ;;
  mpich) mpicc=mpicc.mpich; mpirun=(mpirun.mpich) ;;
  *) echo "predict.sh: MPI: expected openmpi or mpich, got \"$mpi\"" >&2; exit 2 ;;
esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
ex=$top/examples
# name|source (gen:SOURCE = the benchmark generated from a trace of SOURCE)|arguments
programs=(
  "stencil-2d|$ex/stencil-2d.c|512 300"
  "late-sender|$ex/late-sender.c|3 50"
  "late-receiver|$ex/late-receiver.c|3 50"
  "early-wait|$ex/early-wait.c|3 50"
  "late-post|$ex/late-post.c|3 50"
  "imbalanced-barrier|$ex/imbalanced-barrier.c|3 50"
  "imbalanced-fence|$ex/imbalanced-fence.c|3 50"
  "mixed|$here/mixed.c|20 20000000"
  "gen-stencil-2d|gen:$ex/stencil-2d.c|512 300"
  "gen-mixed|gen:$here/mixed.c|20 20000000"
  "gen-late-sender|gen:$ex/late-sender.c|3 50"
)
walltime() { grep -Eo 'walltime [0-9.]+ s' | tail -1 | awk '{print $2}'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
wanted() { [ $# -eq 1 ] && return 0; local n=$1; shift; for w in "$@"; do [ "$w" = "$n" ] && return 0; done; return 1; }

# gen:SOURCE -> a generated benchmark: trace a real run of SOURCE, then benchgen.
generate() {
  local name=$1 src=$2 args=$3
  $mpicc -O2 -I"$top/include" -I"$ex" "$src" -o "$tmp/$name.app" -lm
  "${rt[@]}" "$mpivet" trace -o "$tmp/$name.tr" -- "${mpirun[@]}" -np "$np" "$tmp/$name.app" $args \
    > "$tmp/$name.trace.log" 2>&1
  "$mpivet" benchgen "$tmp/$name.tr" -o "$tmp/$name.c" > "$tmp/$name.benchgen.log" 2>&1
}

echo "real runs: $mpi, $np ranks, median of $runs"
printf "%-20s %10s %12s %8s %12s %8s\n" program "real (s)" "calibrated" ratio "default" ratio
for p in "${programs[@]}"; do
  IFS='|' read -r name src args <<< "$p"
  wanted "$name" "$@" || continue
  if [ "${src#gen:}" != "$src" ]; then
    generate "$name" "${src#gen:}" "$args"
    src=$tmp/$name.c; args=""
  fi
  $mpicc -O2 -I"$top/include" -I"$ex" "$src" "$here/walltime.c" -o "$tmp/$name" -lm
  # sim WORKDIR [--calibration CAL]: the first simulation builds the source with smpicc into
  # WORKDIR/program (with the calibration's kernels.h), the later ones run that binary.
  sim() {
    local w=$1 prog=$1/program build=(); shift
    if [ ! -x "$prog" ]; then
      mkdir -p "$w"; prog=$src; build=(--cflag "-I$ex" --cflag "$here/walltime.c")
    fi
    "${rt[@]}" "$mpivet" simulate "$@" --workdir "$w" --np "$np" --ppn "$np" "${build[@]}" "$prog" -- $args | walltime
  }
  # SMPI times a program's own computation as it simulates: a simulation is a measurement of
  # this machine too, so there are as many as real runs, interleaved with them (one simulation
  # of mixed.c sampled a speed 15 % off the real runs' minutes), and the medians are compared.
  rm -rf "$tmp/$name.real" "$tmp/$name.cal" "$tmp/$name.def" "$tmp/$name.wcal" "$tmp/$name.wdef"
  for r in $(seq "$runs"); do
    "${rt[@]}" "${mpirun[@]}" -np "$np" "$tmp/$name" $args | walltime >> "$tmp/$name.real"
    [ "$sims" -ge "$r" ] || continue
    sim "$tmp/$name.wcal" --calibration "$cal" >> "$tmp/$name.cal"
    sim "$tmp/$name.wdef" >> "$tmp/$name.def"
  done
  real=$(median < "$tmp/$name.real"); cal_t=$(median < "$tmp/$name.cal"); def_t=$(median < "$tmp/$name.def")
  printf "%-20s %10.4f %12.4f %8.3f %12.4f %8.3f\n" "$name" "$real" "$cal_t" \
    "$(echo "$cal_t / $real" | bc -l)" "$def_t" "$(echo "$def_t / $real" | bc -l)"
  echo "  real runs (s): $(tr '\n' ' ' < "$tmp/$name.real"); calibrated: $(tr '\n' ' ' < "$tmp/$name.cal")"
done
