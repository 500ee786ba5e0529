# Helpers of the benchgen tests (sourced after tests/mpi/trace-lib.bash): trace a program under
# SMPI, generate its benchmark, build it with smpicc and the tracer, trace it, and compare.
# warnfree C_FILE: 0 when the generated program compiles without a warning under -Wall -Wextra
# with smpicc, with each installed real MPI's mpicc (their mpi.h and the #ifdef SMPI_H parts
# differ) and with MPICH's mpicc over Clang (which warns on unused static inline functions, GCC
# does not); a failure noted with the first warnings otherwise.
warnfree() {
  local cc n=0
  for cc in smpicc mpicc.mpich mpicc.openmpi "mpicc.mpich -cc=clang"; do
    command -v "${cc%% *}" >/dev/null || continue
    [ "$cc" = "mpicc.mpich -cc=clang" ] && ! command -v clang >/dev/null && continue
    n=$((n + 1))
    # shellcheck disable=SC2086
    $cc -O2 -Wall -Wextra -Werror -c -o "$1.$n.o" "$1" >"$1.$n.log" 2>&1 ||
      { fail "$1: warnings under $cc -Wall -Wextra: $(grep -m3 -e warning -e error "$1.$n.log")"; return 1; }
  done
}
# regen NAME NP PROGRAM ARGS...: 0 when the regenerated benchmark compiles warning-free, makes the
# same calls and its longest span is within TOL % (default 2) of the original's; prints the
# comparison line.
regen() {
  local name=$1 np=$2 d="$WORK/$1"; shift 2
  NP=$np trace_run smpi "$d" -- "$@" || return 1
  [ -s "$d/compressed.mvt" ] || { fail "$name: no compressed.mvt"; return 1; }
  "$MPIVET" benchgen "$d" -o "$d.c" ${BENCHGEN_OPTS:-} 2>"$d.gen.log" ||
    { fail "$name: benchgen exit $?: $(cat "$d.gen.log")"; return 1; }
  warnfree "$d.c" || return 1
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
