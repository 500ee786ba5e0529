#!/usr/bin/env bash
# Replay with RMA of a real one-sided application under SMPI (issue 19, item 5): Debian's NWChem
# (nwchem.openmpi: Global Arrays over MPI-3 one-sided communication through ARMCI-MPI) computes
# the SCF energy of water (tests/data/nwchem/h2o-scf.nw) on 2 Open MPI ranks under `mpivet
# trace`; `mpivet benchgen` writes the benchmark (windows, lock_all epochs, flushes,
# Get_accumulate, Fetch_and_op, the split and duplicated communicators); that C file runs on real
# Open MPI and under SMPI (`mpivet simulate`, on the uncalibrated platform and on CAL if given).
# Prints the application's wall time (untraced, RUNS runs), the traced run's, the benchmark's on
# real MPI (RUNS runs) and the simulated ones, all rank 0's MPI_Init-to-MPI_Finalize where the
# program prints it.
# The benchmark of this run is large (about 290000 lines: the trace's one-sided calls do not
# fold into loops), and gcc -O2 took 9.5 minutes on it here; it is built with -O0 (1-1.5 min),
# which changes nothing the benchmark times (its computation is replayed as timed waits).
# As root, real runs use `chrt -f 20` (2 ranks on 2 cores; never more ranks than cores).
# Usage: replay-nwchem.sh OUT [CAL] [RUNS=3]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
out=$1; cal=${2:-}; runs=${3:-3}
mpivet=${MPIVET:-$top/build/bin/mpivet}
command -v nwchem.openmpi >/dev/null || { echo "replay-nwchem.sh: nwchem.openmpi not installed (scripts/install-deps.sh)" >&2; exit 2; }
[ -z "$cal" ] || cal=$(cd "$cal" && pwd)
mkdir -p "$out"; cd "$out"
cp "$top/tests/data/nwchem/h2o-scf.nw" .
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
mpirun=(mpirun.openmpi --oversubscribe -np 2)
secs() { /usr/bin/time -f %e -o "$1" "${@:2}"; }   # wall seconds of a command into file $1

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$runs"); do
  secs app.time "${rt[@]}" "${mpirun[@]}" nwchem.openmpi h2o-scf.nw > "app-$r.out" 2>&1
  grep -q 'Total SCF energy = *-74\.96' "app-$r.out" || { echo "nwchem run $r did not converge" >&2; exit 1; }
  echo "nwchem, untraced, run $r: $(cat app.time) s (mpirun's wall)"
done
rm -rf tr
secs trace.time "${rt[@]}" "$mpivet" trace -o tr -- "${mpirun[@]}" nwchem.openmpi h2o-scf.nw > trace.out 2>&1
echo "nwchem, traced: $(cat trace.time) s (mpirun's wall)"
"$mpivet" benchgen tr -o bench.c > benchgen.log 2>&1
echo "benchmark: $(wc -l < bench.c) lines; one-sided and communicator calls:"
grep -oE 'MPI_(Win_[a-z_]+|Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap|Comm_split|Comm_dup)\(' bench.c |
  sort | uniq -c | sort -rn | awk '{printf "  %s %s", $2, $1} END {print ""}'
mpicc.openmpi -O0 bench.c -o bench-openmpi -lm
for r in $(seq "$runs"); do
  "${rt[@]}" "${mpirun[@]}" ./bench-openmpi 2>&1 | grep -E '^elapsed' | sed "s/^/benchmark, Open MPI, run $r: /"
done
sim() { "$mpivet" simulate --np 2 --cflag -O0 "$@" bench.c 2>&1 | grep -E '^elapsed|predicted time'; }
echo "benchmark under SMPI, uncalibrated platform:"; sim
[ -z "$cal" ] || { echo "benchmark under SMPI, calibration $cal:"; sim --calibration "$cal"; }
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
