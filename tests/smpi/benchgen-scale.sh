#!/usr/bin/env bash
# mpivet benchgen for any process count under SMPI (simulated computation off: deterministic):
# trace a pattern at 3 process counts, generate one benchmark from the 3 traces, run it at a
# count that was not traced, and require per rank the same calls as the original traced at
# that count (function, communicator members, peer, tag, bytes, root, request) and a simulated
# time within 2 %: a ring (peers +-1 modulo P), an all-to-all FFT-like pattern (bytes 512 * P),
# a strong-scaled 1-D halo (rank 0, interior, last rank; sizes and computation 1 / P), the
# 2-D stencil example (9 regions of the grid MPI_Dims_create makes; peers +-D1) and a 3-D halo
# (grid3d.c: 27 regions), also with collectives on its sub-communicators (x-lines by
# MPI_Cart_sub, y-z planes by MPI_Comm_split with reversed keys, a dup of the plane). Irregular
# ranks (master-worker), traced counts that cannot tell two forms apart and sub-communicators
# that no split of the grids makes (kinds.c: rows of size / 2 ranks, the even ranks) must be
# refused by name.
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
# a 3-D 7-point halo on MPI_Cart_create (27 regions of MPI_Dims_create(P, 3); peers +-1, +-T2,
# +-T1*T2): 3 x 3 x 3, 4 x 4 x 3 and 4 x 4 x 4 traced, run on 5 x 3 x 3 (not 36: SMPI 3.32's
# MPI_Dims_create(36, 3) gives 9 x 2 x 2, MPICH's and Open MPI's 4 x 3 x 3)
build_program smpi "$P/grid3d.c" "$WORK/bin-grid3d" || finish
scaled grid3d "27 48 64" 45 "$WORK/bin-grid3d" 10 halo
# the same with its sub-communicators: lines colour r % (T1 * T2), planes colour r / (T1 * T2)
# with key P - r, made by the benchmark with one MPI_Comm_split each (root0: the Reduce to the
# plane's rank 0; grid3d's rank 1 is an interior rank, refused as irregular below)
scaled grid3d-subs "27 48 64" 45 "$WORK/bin-grid3d" 10 root0
grep -q 'MPI_Comm_split(MPI_COMM_WORLD, rank / (T1 \* T2), P - rank' "$WORK/grid3d-subs.c" ||
  fail "grid3d-subs: the planes are not split by rank / (T1 * T2) with key P - rank"

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
# sub-communicators no split of the grids makes are refused, named by the call
build_program smpi "$P/kinds.c" "$WORK/bin-kinds" || finish
for n in 4 6 8; do NP=$n trace_run smpi "$WORK/kinds-$n" -- "$WORK/bin-kinds" 2; done
refused subcomm "(call site [0-9a-f]*) at 4 ranks communicates on communicator [0-9]*, a subset of the ranks that no split" \
  "$WORK/kinds-4" "$WORK/kinds-6" "$WORK/kinds-8"
for n in 27 48 64; do NP=$n trace_run smpi "$WORK/g3r1-$n" -- "$WORK/bin-grid3d" 4; done
refused root1 "ranks behave irregularly" "$WORK/g3r1-27" "$WORK/g3r1-48" "$WORK/g3r1-64"
refused two-counts "3 or more process counts" "$WORK/ring-4" "$WORK/ring-6"
finish
