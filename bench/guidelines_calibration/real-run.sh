#!/bin/bash
# The real end-to-end PGMPI run: R separate launches of mpivet-bench (the 9 collectives of the
# guidelines and the 15 mock-ups) per MPI, merged into one results.csv (run = launch index),
# then `mpivet guidelines`. Until `mpivet bench` drives launches, this script does it.
# Usage: real-run.sh BUILD_DIR OUT_DIR [R] [SMPI_R]
# Environment: FLAVORS (default "openmpi mpich smpi"), MSIZES, REPS. Flavors may run in
# separate invocations into one OUT_DIR; the reports cover the CSV files present.
set -eu
build=$1 out=$2 R=${3:-10} RS=${4:-3}
flavors=${FLAVORS:-openmpi mpich smpi}
lib=$build/lib/mpivet
ops=MPI_Allgather,MPI_Allreduce,MPI_Bcast,MPI_Gather,MPI_Reduce,MPI_Reduce_scatter,MPI_Reduce_scatter_block,MPI_Scan,MPI_Scatter,mockups
sizes=${MSIZES:-8,64,512,4096,32768}
reps=${REPS:-20}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"

cat > "$out/cluster64.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-63" speed="1Gf" bw="10Gbps" lat="1us" bb_bw="100Gbps" bb_lat="1us"/>
</platform>
XML
for i in $(seq 0 63); do echo "node-$i"; done > "$out/hosts64"

launch() { # launch FLAVOR RUN FILE
  case $1 in
    openmpi) mpirun.openmpi --oversubscribe -np 4 "$lib/openmpi/mpivet-bench" --engine mpirun --ppn 4 \
               --ops "$ops" --msizes "$sizes" --reps "$reps" --seed $(($2 + 1)) --out "$3" ;;
    mpich) mpiexec.mpich -np 4 "$lib/mpich/mpivet-bench" --engine mpirun --ppn 4 \
               --ops "$ops" --msizes "$sizes" --reps "$reps" --seed $(($2 + 1)) --out "$3" ;;
    smpi) smpirun -quiet --cfg=smpi/simulate-computation:no -np 64 -platform "$out/cluster64.xml" \
               -hostfile "$out/hosts64" "$lib/smpi/mpivet-bench" --engine smpi --ppn 1 \
               --ops "$ops" --msizes "$sizes" --reps "$reps" --seed $(($2 + 1)) --out "$3" ;;
  esac
}

for flavor in $flavors; do
  n=$R; [ $flavor = smpi ] && n=$RS
  csv=$out/$flavor.csv one=$out/launch-$flavor.csv
  rm -f "$csv"
  for r in $(seq 0 $((n - 1))); do
    echo "real-run: $flavor launch $((r + 1))/$n" >&2
    launch $flavor $r "$one" > "$one.log" 2>&1 || { cat "$one.log" >&2; exit 3; }
    # mpivet-bench writes run 0; the launch index goes into the run column
    awk -F, -v OFS=, -v r=$r -v hdr=$([ -f "$csv" ] && echo 0 || echo 1) \
      'NR == 1 { if (hdr) print; next } { $1 = r; print }' "$one" >> "$csv"
  done
  "$build/bin/mpivet" guidelines "$csv" > "$out/$flavor.txt" || true
done
if [ -f "$out/openmpi.csv" ] && [ -f "$out/mpich.csv" ]; then
  awk 'FNR == 1 && NR != 1 { next } { print }' "$out/openmpi.csv" "$out/mpich.csv" > "$out/openmpi-mpich.csv"
  "$build/bin/mpivet" guidelines "$out/openmpi-mpich.csv" > "$out/openmpi-mpich.txt" || true
fi
echo "real-run: results in $out" >&2
