# Helpers of the benchgen tests (sourced after tests/mpi/trace-lib.bash): trace a program under
# SMPI, generate its benchmark, build it with smpicc and the tracer, trace it, and compare.
# regen NAME NP PROGRAM ARGS...: 0 when the regenerated benchmark makes the same calls and its
# longest span is within TOL % (default 2) of the original's; prints the comparison line.
regen() {
  local name=$1 np=$2 d="$WORK/$1"; shift 2
  NP=$np trace_run smpi "$d" -- "$@" || return 1
  [ -s "$d/compressed.mvt" ] || { fail "$name: no compressed.mvt"; return 1; }
  "$MPIVET" benchgen "$d" -o "$d.c" ${BENCHGEN_OPTS:-} 2>"$d.gen.log" ||
    { fail "$name: benchgen exit $?: $(cat "$d.gen.log")"; return 1; }
  build_program smpi "$d.c" "$d.bench" || return 1
  NP=$np trace_run smpi "$d.re" -- "$d.bench" || return 1
  "$MPIVET" benchgen "$d" --compare "$d.re" >"$d.cmp" 2>&1 ||
    { fail "$name: $(cat "$d.cmp")"; return 1; }
  local pct
  pct=$(sed -n 's/.*(\([-+0-9.]*\) %)$/\1/p' "$d.cmp")
  echo "$name ($np ranks): $(cat "$d.cmp")"
  awk -v p="$pct" -v t="${TOL:-2}" 'BEGIN { exit !(p != "" && p <= t && p >= -t) }' ||
    { fail "$name: simulated time off by $pct % (over ${TOL:-2} %)"; return 1; }
}
