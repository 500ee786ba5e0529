#!/usr/bin/env bash
# mpivet benchgen on every kind of call, under SMPI (simulated computation off: deterministic):
# a 3-D grid (MPI_Cart_create over 2 x 2 x 2, 7-point halo) with collectives on sub-communicators
# made by MPI_Cart_sub, MPI_Comm_split (planes, ranks reordered) and MPI_Comm_dup of a plane; the
# one-sided pattern (fence, post/start/complete/wait, lock/lock_all with flush; put, get,
# accumulate, fetch-and-op; a window on a split communicator) and the other kinds (persistent
# point-to-point, Waitany/Waitsome/Testany, non-blocking collectives, communicators from dup,
# split and create, collectives with their datatypes and reductions) and the v-collectives
# (Gatherv, Scatterv, Allgatherv, Alltoallv, Reduce_scatter with counts that differ per member:
# the counts are recorded, rank-relative) and their non-blocking versions (Igatherv, Iscatterv,
# Iallgatherv, Ialltoallv, Ireduce_scatter, two in flight at a time). Each is traced, generated,
# built with smpicc, re-traced: per rank the same calls (function, communicator members, peer,
# tag, bytes, root, request, window, datatype, reduction) and a simulated time within 2 %.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
. "$MV_SRC/tests/smpi/benchgen-lib.bash"

have_flavor smpi || finish
P="$MV_SRC/tests/smpi/benchgen"
for prog in rma kinds vcoll ivcoll kinds2 grid3d; do
  build_program smpi "$P/$prog.c" "$WORK/bin-$prog" || finish
done
regen rma 8 "$WORK/bin-rma" 40
grep -q "MPI_Win_post" "$WORK/rma.c" && grep -q "MPI_Win_lock_all" "$WORK/rma.c" &&
  grep -q "MPI_Fetch_and_op(sbuf, rbuf, MPI_LONG, .*MPI_SUM" "$WORK/rma.c" ||
  fail "rma: the generated program lacks post, lock_all or the fetch-and-op on longs with MPI_SUM"
regen kinds 8 "$WORK/bin-kinds" 40
grep -q "MPI_Startall(2" "$WORK/kinds.c" && grep -q "MPI_Iallreduce(.*MPI_INT, MPI_MAX" "$WORK/kinds.c" &&
  grep -q "MPI_Reduce(.*MPI_LONG, MPI_PROD" "$WORK/kinds.c" ||
  fail "kinds: the generated program lacks Startall, the Iallreduce on ints with MPI_MAX or the MPI_PROD reduce"
regen vcoll 8 "$WORK/bin-vcoll" 20
grep -q "MPI_Alltoallv(sbuf, vc\[0\], vc\[1\], MPI_FLOAT" "$WORK/vcoll.c" &&
  grep -q "MPI_Reduce_scatter(sbuf, rbuf, vc\[2\], MPI_DOUBLE, MPI_MAX" "$WORK/vcoll.c" ||
  fail "vcoll: the generated program lacks the Alltoallv of floats or the MPI_MAX Reduce_scatter"
regen ivcoll 8 "$WORK/bin-ivcoll" 20
for call in "MPI_Igatherv(sbuf, .*MPI_DOUBLE, rslot" "MPI_Iscatterv(sbuf, vq\[0\], vq\[1\], MPI_FLOAT" \
            "MPI_Iallgatherv(" "MPI_Ialltoallv(sbuf, vq\[0\], vq\[1\], MPI_INT" "MPI_Ireduce_scatter(.*MPI_LONG, MPI_SUM"; do
  grep -q "$call" "$WORK/ivcoll.c" || fail "ivcoll: the generated program lacks $call"
done
# one MPI_Comm_split per creation number (the x-lines, the planes, their dups), as the application
# made each with one call: a split per communicator put the benchmark +6.8 % behind its trace
regen grid3d 8 "$WORK/bin-grid3d" 8
n=$(grep -c "MPI_Comm_split(MPI_COMM_WORLD" "$WORK/grid3d.c")
[ "$n" = 3 ] || fail "grid3d: $n MPI_Comm_split calls in make_comms, expected 3 (one per creation number)"
# the kinds the others leave out (kinds2.c); its Test loops make it +2.6 % slower under SMPI
TOL=5 regen kinds2 8 "$WORK/bin-kinds2" 5
for call in MPI_Ssend MPI_Irsend MPI_Issend MPI_Sendrecv_replace MPI_Get_accumulate MPI_Compare_and_swap \
            MPI_Win_flush_local_all MPI_Win_sync MPI_Ireduce_scatter_block MPI_Iexscan MPI_Ialltoall \
            MPI_Exscan MPI_Reduce_scatter_block "MPI_Start(" "complete(4" "complete(5" "complete(7"; do
  grep -q "$call" "$WORK/kinds2.c" || fail "kinds2: the generated program lacks $call"
done
finish
