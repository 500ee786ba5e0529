#!/usr/bin/env bash
# mpivet benchgen end to end under SMPI (simulated computation off: deterministic): for the
# examples and our own patterns (stencil, ring, all-to-all FFT-like, wildcard master-worker),
# trace the program, generate its benchmark, build it with smpicc, trace that, and require per
# rank the same calls (function, communicator members, peer, tag, bytes, root, request) and a
# simulated time within 2 %. An unsafe exchange must be reported as a potential deadlock
# (exit 1, naming the ranks and MPI_Send), also when it goes through an MPI_Ibarrier (its
# request completes when every rank started it), or through a post/start epoch (MPI_Win_start may
# wait for the post) or a passive-target lock held across the send, and --compute-scale must
# change the time.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
. "$MV_SRC/tests/smpi/benchgen-lib.bash"

have_flavor smpi || finish
P="$MV_SRC/tests/smpi/benchgen"
for prog in ring fft master unsafe unsafe-icoll unsafe-pscw unsafe-lock; do
  build_program smpi "$P/$prog.c" "$WORK/bin-$prog" || finish
done
regen stencil 8 "$(example smpi stencil-2d)" 16 30
regen late-sender 4 "$(example smpi late-sender)" 3 5
regen imbalanced-barrier 4 "$(example smpi imbalanced-barrier)" 3 5
regen ring 8 "$WORK/bin-ring" 30
regen fft 8 "$WORK/bin-fft" 10
regen master 8 "$WORK/bin-master" 40

# the unsafe exchange: exit 1 and the two ranks named
NP=4 trace_run smpi "$WORK/unsafe" -- "$WORK/bin-unsafe"
"$MPIVET" benchgen "$WORK/unsafe" -o "$WORK/unsafe.c" >"$WORK/unsafe.out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "unsafe exchange: exit $rc, expected 1: $(cat "$WORK/unsafe.out")"
grep -q "potential deadlock: 4 ranks wait forever: rank 0 in its call 1 MPI_Send .*; rank 1 in its call 1 MPI_Send" \
  "$WORK/unsafe.out" || fail "unsafe exchange: no deadlock report naming ranks 0 and 1: $(cat "$WORK/unsafe.out")"
[ -e "$WORK/unsafe.c" ] && fail "unsafe exchange: a benchmark was written anyway"

# the same through MPI_Ibarrier: its request completes only when every rank started it
NP=4 trace_run smpi "$WORK/unsafe-icoll" -- "$WORK/bin-unsafe-icoll"
"$MPIVET" benchgen "$WORK/unsafe-icoll" -o "$WORK/unsafe-icoll.c" >"$WORK/unsafe-icoll.out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "potential deadlock: .*rank 0 in its call 1 MPI_Send .*; rank 1 in its call 2 MPI_Wait" \
  "$WORK/unsafe-icoll.out" || fail "unsafe exchange through MPI_Ibarrier: exit $rc, expected 1 naming rank 0's MPI_Send and rank 1's MPI_Wait: $(cat "$WORK/unsafe-icoll.out")"

# one-sided: MPI_Win_start may wait for the target's post, MPI_Win_lock for the holder's unlock
unsafe_rma() {
  NP=4 trace_run smpi "$WORK/$1" -- "$WORK/bin-$1"
  "$MPIVET" benchgen "$WORK/$1" -o "$WORK/$1.c" >"$WORK/$1.out" 2>&1
  local rc=$?
  [ "$rc" = 1 ] && grep -q "potential deadlock: .*$2" "$WORK/$1.out" ||
    fail "$1: exit $rc, expected 1 and a report matching '$2': $(cat "$WORK/$1.out")"
}
unsafe_rma unsafe-pscw "rank 0 in its call 2 MPI_Win_start .*; rank 1 in its call 2 MPI_Send"
unsafe_rma unsafe-lock "rank 0 in its call 4 MPI_Send .*; rank 1 in its call 2 MPI_Win_lock"

# what-if: computation twice as long makes the ring slower (it computes 20 us per iteration)
BENCHGEN_OPTS="--compute-scale 2" TOL=1000 regen ring-x2 8 "$WORK/bin-ring" 30
x1=$(sed -n 's/.*against \([0-9.]*\) s.*/\1/p' "$WORK/ring.cmp")
x2=$(sed -n 's/.*against \([0-9.]*\) s.*/\1/p' "$WORK/ring-x2.cmp")
awk -v a="$x1" -v b="$x2" 'BEGIN { exit !(b > a * 1.5) }' || fail "--compute-scale 2: $x1 s -> $x2 s"
finish
