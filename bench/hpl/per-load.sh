#!/usr/bin/env bash
# The HPL table with the kernels calibrated under the application's load (the thesis' lesson):
# for each grid (ranks x P x Q, HPL_GRIDS, default "1x1x1 2x1x2"), calibrate.sh records HPL's
# kernels on that grid only (HPL_RECORD_GRIDS; 2 ranks: every kernel timed while the other rank
# computes on the other core) and makes CAL-NP, then hpl.sh compares that grid's real runs with the
# simulation on CAL-NP right away (the VM's speed drifts by 10-30 % within an hour). Only grids
# with at most as many ranks as cores: the recording runs under chrt -f 20 as root.
# Usage: per-load.sh OUT CAL [RUNS=5] [SIZES="1000 2000 3000"]; OUT keeps builds, records and runs;
# HPL_RECORD_SIZES (default 1500) are the recorded sizes (calibrate.sh). The simulation charges
# HPL's own code per emulated kernel call as calibrate.sh measured it on one rank (HPL_CALL_SECONDS,
# build.sh); HPL_CALL_COST=0 leaves it out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1; cal=$2; runs=${3:-5}; sizes=${4:-"1000 2000 3000"}
mkdir -p "$out"; out=$(cd "$out" && pwd)
for grid in ${HPL_GRIDS:-1x1x1 2x1x2}; do
  np=${grid%%x*}
  [ ! -e "$cal-$np" ] || { echo "per-load.sh: $cal-$np exists (mpivet calibrate writes a new folder)" >&2; exit 2; }
  HPL_RECORD_GRIDS=$grid HPL_CONTIG=0 bash "$here/calibrate.sh" "$out" "$cal-$np" "${HPL_RECORD_SIZES:-1500}" \
      > "$out/calibrate-$np.log" 2>&1 ||
    { echo "per-load.sh: calibrate.sh failed for $grid, see $out/calibrate-$np.log" >&2; exit 3; }
  echo "# $grid: kernels recorded on this grid ($(uptime | sed 's/.*load/load/'))"
  call=0; [ "${HPL_CALL_COST:-1}" = 1 ] && call=$(cat "$out/call-seconds.txt")
  echo "# HPL's own code charged per emulated kernel call: $call s"
  HPL_CALL_SECONDS=$call HPL_OUT=$out HPL_GRIDS=$grid HPL_1024=0 bash "$here/hpl.sh" "$cal-$np" "$runs" "$sizes"
done
