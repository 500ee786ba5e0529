#!/usr/bin/env bash
# mpivet benchgen for any process count under SMPI (simulated computation off: deterministic):
# trace a pattern at 3 process counts, generate one benchmark from the 3 traces, run it at a
# count that was not traced, and require per rank the same calls as the original traced at
# that count (function, communicator members, peer, tag, bytes, root, request) and a simulated
# time within 2 %: a ring (peers +-1 modulo P), an all-to-all FFT-like pattern (bytes 512 * P),
# a strong-scaled 1-D halo (rank 0, interior, last rank; sizes and computation 1 / P) and the
# 2-D stencil example (9 regions of the grid MPI_Dims_create makes; peers +-D1). Irregular ranks
# (master-worker), traced counts that cannot tell two forms apart, collectives on sub-communicators
# and a 3-D grid must be refused by name.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
. "$MV_SRC/tests/smpi/benchgen-lib.bash"

have_flavor smpi || finish
"$MPIVET" platform cluster:64 -o "$WORK/cluster.xml" --hostfile "$WORK/hostfile" --np 64 ||
  { fail "mpivet platform"; finish; }
P="$MV_SRC/tests/smpi/benchgen"
for prog in ring fft halo1d master; do
  build_program smpi "$P/$prog.c" "$WORK/bin-$prog" || finish
done

# scaled NAME "COUNTS" RUN PROGRAM ARGS...: trace at COUNTS, generate, compare at RUN ranks.
scaled() {
  local name=$1 counts=$2 run=$3 d="$WORK/$1" dirs=() n; shift 3
  for n in $counts; do
    NP=$n trace_run smpi "$d-$n" -- "$@" || return 1
    dirs+=("$d-$n")
  done
  "$MPIVET" benchgen "${dirs[@]}" -o "$d.c" 2>"$d.gen.log" ||
    { fail "$name: benchgen exit $?: $(cat "$d.gen.log")"; return 1; }
  warnfree "$d.c" || return 1
  build_program smpi "$d.c" "$d.bench" || return 1
  NP=$run trace_run smpi "$d.orig" -- "$@" || return 1
  NP=$run trace_run smpi "$d.re" -- "$d.bench" || return 1
  "$MPIVET" benchgen "$d.orig" --compare "$d.re" >"$d.cmp" 2>&1 || { fail "$name: $(cat "$d.cmp")"; return 1; }
  local pct
  pct=$(sed -n 's/.*(\([-+0-9.]*\) %)$/\1/p' "$d.cmp")
  echo "$name (traced at $counts, run at $run ranks): $(cat "$d.cmp")"
  awk -v p="$pct" 'BEGIN { exit !(p != "" && p <= 2 && p >= -2) }' ||
    fail "$name: simulated time off by $pct % at $run ranks (over 2 %)"
}
scaled ring "4 6 8" 16 "$WORK/bin-ring" 20
scaled fft "4 6 8" 16 "$WORK/bin-fft" 5
scaled halo1d "4 8 16" 32 "$WORK/bin-halo1d" 10
scaled stencil "12 16 30" 36 "$(example smpi stencil-2d)" 16 20

# refusals (exit 2, by name): workers that differ rank by rank; D1 and floor(log2 P) agree at
# 12, 16 and 20 ranks, so the stencil's peers cannot be told apart.
refused() {
  local name=$1 want=$2; shift 2
  "$MPIVET" benchgen "$@" -o "$WORK/$name.c" >"$WORK/$name.out" 2>&1
  local rc=$?
  [ "$rc" = 2 ] && grep -q "$want" "$WORK/$name.out" ||
    fail "$name: exit $rc, expected 2 and \"$want\": $(cat "$WORK/$name.out")"
  [ -e "$WORK/$name.c" ] && fail "$name: a benchmark was written anyway"
}
for n in 4 6 8; do NP=$n trace_run smpi "$WORK/master-$n" -- "$WORK/bin-master" 12; done
refused master "ranks behave irregularly\|classes of ranks change" "$WORK/master-4" "$WORK/master-6" "$WORK/master-8"
NP=20 trace_run smpi "$WORK/stencil-20" -- "$(example smpi stencil-2d)" 16 20
refused ambiguous "both D1 and floor" "$WORK/stencil-12" "$WORK/stencil-16" "$WORK/stencil-20"
# collectives on sub-communicators (named by the call), and a 3-D grid (no 2-D region layout)
build_program smpi "$P/grid3d.c" "$WORK/bin-grid3d" || finish
for n in 12 18 27; do
  NP=$n trace_run smpi "$WORK/g3s-$n" -- "$WORK/bin-grid3d" 4
  NP=$n trace_run smpi "$WORK/g3h-$n" -- "$WORK/bin-grid3d" 4 halo
done
refused subcomm "MPI_Allreduce (call site [0-9a-f]*) at 12 ranks communicates on communicator" \
  "$WORK/g3s-12" "$WORK/g3s-18" "$WORK/g3s-27"
refused grid3d "3-D grids are not" "$WORK/g3h-12" "$WORK/g3h-18" "$WORK/g3h-27"
refused two-counts "3 or more process counts" "$WORK/ring-4" "$WORK/ring-6"
finish
