#!/usr/bin/env bash
# The compressed trace and the generated benchmark do not grow with the iteration count (issue
# 18): under SMPI (deterministic), the stencil-2d example and the ring pattern traced at 20 and
# 1000 iterations (8 ranks) give compressed.mvt files within 4 bytes of each other (the grammar
# is the same; format version 4 keeps means, bin weights relative to the fullest and binary32
# spans: only the repeat counts, varints, are a byte longer per factor 128, once per distinct
# loop structure), and generated C files within 64 bytes with the same lines but for numbers; from 16
# to 64 ranks the stencil's compressed trace grows by at most 10 %. The full figures (10..10000
# iterations, 16..1024 ranks, ratio to OTF2) are bench/benchgen/size's.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

have_flavor smpi || finish
build_program smpi "$MV_SRC/tests/smpi/benchgen/ring.c" "$WORK/bin-ring" || finish
# platform NP: the simulated cluster trace_run uses, one host per rank
platform() {
  "$MPIVET" platform "cluster:$1" -o "$WORK/cluster.xml" --hostfile "$WORK/hostfile" --np "$1" >/dev/null ||
    { fail "mpivet platform cluster:$1"; return 1; }
}

# gen NAME NP PROGRAM ARGS: traced (compressed trace only), benchmark generated into $WORK/NAME.c
gen() {
  local name=$1 np=$2; shift 2
  NP=$np trace_run smpi "$WORK/$name" --format otf2,mvt -- "$@" || return 1
  "$MPIVET" benchgen "$WORK/$name" -o "$WORK/$name.c" >"$WORK/$name.gen" 2>&1 ||
    { fail "$name: benchgen: $(cat "$WORK/$name.gen")"; return 1; }
}
bytes() { stat -c %s "$1"; }
# within NAME A B LIMIT PCT: |A - B| <= LIMIT bytes or PCT % of A
within() {
  local d=$(($3 - $2))
  echo "$1: $2 -> $3 bytes ($d)"
  [ "${d#-}" -le "$4" ] || [ $((${d#-} * 100)) -le $(($2 * $5)) ] ||
    fail "$1 grows from $2 to $3 bytes (more than $4 bytes and $5 %)"
}
for prog in stencil ring; do
  for it in 20 1000; do
    case $prog in
      stencil) gen "$prog-$it" 8 "$(example smpi stencil-2d)" 16 "$it" ;;
      ring) gen "$prog-$it" 8 "$WORK/bin-ring" "$it" ;;
    esac || continue
  done
  [ -e "$WORK/$prog-1000.c" ] && [ -e "$WORK/$prog-20.c" ] || continue
  within "$prog compressed.mvt, 20 -> 1000 iterations" "$(bytes "$WORK/$prog-20/compressed.mvt")" \
    "$(bytes "$WORK/$prog-1000/compressed.mvt")" 4 0
  within "$prog generated C, 20 -> 1000 iterations" "$(bytes "$WORK/$prog-20.c")" "$(bytes "$WORK/$prog-1000.c")" 64 0
  # the same lines but for numbers (repeat counts, time sums, the trace's name)
  diff <(sed 's/[0-9.e+-]\+/N/g' "$WORK/$prog-20.c" | grep -v 'N$') \
       <(sed 's/[0-9.e+-]\+/N/g' "$WORK/$prog-1000.c" | grep -v 'N$') >"$WORK/$prog.diff" ||
    fail "$prog: the generated programs differ in more than numbers: $(head -20 "$WORK/$prog.diff")"
done

# 16 -> 64 ranks, 20 iterations: from a 4 x 4 grid on, the stencil has its 9 kinds of rank
# (corners, edges, interior), whatever their number
for np in 16 64; do
  platform "$np" && gen "stencil-np$np" "$np" "$(example smpi stencil-2d)" 16 20
done
if [ -e "$WORK/stencil-np16/compressed.mvt" ] && [ -e "$WORK/stencil-np64/compressed.mvt" ]; then
  a=$(bytes "$WORK/stencil-np16/compressed.mvt"); b=$(bytes "$WORK/stencil-np64/compressed.mvt")
  echo "stencil compressed.mvt, 16 -> 64 ranks: $a -> $b bytes"
  [ $((b * 10)) -le $((a * 11)) ] || fail "stencil compressed.mvt grows from $a to $b bytes from 16 to 64 ranks (over 10 %)"
fi
# MPIVET_TRACE_TIMES=1 (bench/benchgen/merge-time): rank 0 says the compressed trace's parts;
# 5 ranks merge in ceil(log2 5) = 3 rounds. Unset, nothing is said.
for t in 1 ""; do
  MPIVET_TRACE_TIMES=$t NP=5 trace_run smpi "$WORK/times$t" --format otf2,mvt -- "$WORK/bin-ring" 5 || continue
  n=$(grep -c 'compressed trace at finalize' "$WORK/times$t.log")
  if [ -n "$t" ]; then
    grep -q 'rank 0: compressed trace at finalize, CPU s summed over 5 ranks (largest one rank): compression [0-9.]* ([0-9.]*; wall [0-9.]*), merge in 3 rounds [0-9.]* ([0-9.]*), writing [0-9.]* ([0-9.]*); rank 0.s wall s: rounds [0-9.]*, writing and closing [0-9.]*$' "$WORK/times$t.log" ||
      fail "MPIVET_TRACE_TIMES=1: no line of the parts at 5 ranks, 3 rounds: $(cat "$WORK/times$t.log")"
    [ "$n" = 1 ] || fail "MPIVET_TRACE_TIMES=1: $n lines, expected one (rank 0)"
  else
    [ "$n" = 0 ] || fail "MPIVET_TRACE_TIMES unset: $n lines of the parts, expected none"
  fi
done
finish
