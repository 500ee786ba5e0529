#!/bin/bash
# The real end-to-end PGMPI run through the CLI: `mpivet bench` (R separate launches of the 9
# collectives of the guidelines and the 15 mock-ups) per MPI, then `mpivet guidelines` on each
# library and on Open MPI + MPICH in one file (the guideline x library matrix of Table III).
# Usage: real-run.sh BUILD_DIR OUT_DIR
# Environment (defaults): FLAVORS ("openmpi mpich smpi"), MSIZES (8,512,32768), NP (4),
# SMPI_NP (64), and per flavor R_<flavor> launches and REPS_<flavor> repetitions
# (openmpi 200/20, mpich 10/10, smpi 2/10), BENCH_OPTS (more mpivet bench options, e.g.
# "--start barrier"). Flavors may run in separate invocations into one OUT_DIR.
set -eu
build=$1 out=$2
mpivet=$build/bin/mpivet
flavors=${FLAVORS:-openmpi mpich smpi}
ops=MPI_Allgather,MPI_Allreduce,MPI_Bcast,MPI_Gather,MPI_Reduce,MPI_Reduce_scatter,MPI_Reduce_scatter_block,MPI_Scan,MPI_Scatter,mockups
sizes=${MSIZES:-8,512,32768}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"

run() { # run FLAVOR: echo the mpivet bench command, then run it
  local R reps args
  case $1 in
    openmpi) R=${R_openmpi:-200} reps=${REPS_openmpi:-20} args="--engine mpirun --mpi openmpi --np ${NP:-4}" ;;
    mpich) R=${R_mpich:-10} reps=${REPS_mpich:-10} args="--engine mpirun --mpi mpich --np ${NP:-4}" ;;
    smpi) R=${R_smpi:-2} reps=${REPS_smpi:-10} args="--engine smpi --np ${SMPI_NP:-64} --platform cluster:${SMPI_NP:-64}" ;;
  esac
  local cmd="$mpivet bench $args --ops $ops --msizes $sizes --reps $reps --runs $R ${BENCH_OPTS:+$BENCH_OPTS }-o $out/$1"
  echo "\$ $cmd" | tee "$out/$1.cmd" >&2
  local t0=$SECONDS
  $cmd
  echo "real-run: $1 took $((SECONDS - t0)) s" | tee -a "$out/$1.cmd" >&2
}

report() { # report NAME CSV: text and JSON reports, exit status kept
  local rc=0
  "$mpivet" guidelines "$2" > "$out/$1.txt" || rc=$?
  "$mpivet" guidelines --json "$2" > "$out/$1.json" || true
  echo "real-run: mpivet guidelines $2 -> exit $rc ($out/$1.txt)" >&2
}

for flavor in $flavors; do
  run "$flavor"
  report "$flavor" "$out/$flavor/results.csv"
done
if [ -f "$out/openmpi/results.csv" ] && [ -f "$out/mpich/results.csv" ]; then
  awk 'FNR == 1 && NR != 1 { next } { print }' "$out/openmpi/results.csv" "$out/mpich/results.csv" \
    > "$out/openmpi-mpich.csv"
  report openmpi-mpich "$out/openmpi-mpich.csv"
fi
echo "real-run: results in $out" >&2
