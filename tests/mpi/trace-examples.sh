#!/usr/bin/env bash
# Traces every example under Open MPI and MPICH with `mpivet trace` (4 ranks, short delays)
# and checks that otf2-print reads the archive and that event counts equal the MPI calls the
# example makes (counted by hand from examples/*.c for 4 ranks and the arguments below).
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

# example | arguments | expected counts (Enter:<region> counts the calls, other keys events)
read -r -d '' TABLE <<'T'
late-sender|3 20|Enter:MPI_Send=6 Enter:MPI_Recv=6 MPI_SEND=6 MPI_RECV=6
late-receiver|3 20|Enter:MPI_Send=6 Enter:MPI_Recv=6 MPI_SEND=6 MPI_RECV=6
imbalanced-barrier|3 10|Enter:MPI_Barrier=12 MPI_COLLECTIVE_BEGIN=12 MPI_COLLECTIVE_END=12
imbalanced-fence|3 10|Enter:MPI_Win_create=4 Enter:MPI_Win_fence=16 Enter:MPI_Put=12 Enter:MPI_Win_free=4 RMA_WIN_CREATE=4 RMA_WIN_DESTROY=4 RMA_COLLECTIVE_BEGIN=24 RMA_COLLECTIVE_END=24 RMA_PUT=12 RMA_OP_COMPLETE_NON_BLOCKING=12
late-post|3 20|Enter:MPI_Win_post=3 Enter:MPI_Win_wait=3 Enter:MPI_Win_start=9 Enter:MPI_Put=9 Enter:MPI_Win_complete=9 Enter:MPI_Group_incl=3 Enter:MPI_Group_excl=1 RMA_GROUP_SYNC=24 RMA_PUT=9 RMA_OP_COMPLETE_NON_BLOCKING=9
early-wait|3 20|Enter:MPI_Win_post=3 Enter:MPI_Win_wait=3 Enter:MPI_Win_start=9 Enter:MPI_Put=9 Enter:MPI_Get=9 Enter:MPI_Win_complete=9 RMA_GROUP_SYNC=24 RMA_PUT=9 RMA_GET=9 RMA_OP_COMPLETE_NON_BLOCKING=18 RMA_OP_COMPLETE_REMOTE=9
lock-chain|20 2 2|Enter:MPI_Win_allocate=4 Enter:MPI_Barrier=8 Enter:MPI_Win_lock=4 Enter:MPI_Win_unlock=4 Enter:MPI_Accumulate=3 RMA_REQUEST_LOCK=4 RMA_RELEASE_LOCK=4 RMA_ATOMIC=3 RMA_OP_COMPLETE_NON_BLOCKING=3 RMA_OP_COMPLETE_REMOTE=3
stencil-2d|32 20|Enter:MPI_Cart_create=4 Enter:MPI_Irecv=320 Enter:MPI_Isend=320 Enter:MPI_Waitall=80 Enter:MPI_Allreduce=8 Enter:MPI_Comm_free=4 MPI_ISEND=160 MPI_ISEND_COMPLETE=160 MPI_IRECV_REQUEST=160 MPI_IRECV=160 MPI_COLLECTIVE_END=8
T

for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  while IFS='|' read -r ex args want; do
    dir="$WORK/$flavor-$ex"
    buffer=8M
    [ "$ex" = stencil-2d ] && buffer=4k  # forces many flushes of the bounded buffer
    trace_run "$flavor" "$dir" --buffer "$buffer" -- "$(example "$flavor" "$ex")" $args || continue
    counts "$dir" >"$dir.counts" || { fail "$flavor $ex: otf2-print cannot read the archive"; continue; }
    expect "$flavor $ex" "$dir.counts" "Enter:MPI_Init=4 Enter:MPI_Finalize=4 $want"
    balanced "$flavor $ex" "$dir.counts"
    [ -e "$dir/TRUNCATED" ] && fail "$flavor $ex: marked truncated after a clean run"
  done <<<"$TABLE"
  # --record keeps only the chosen groups: no point-to-point events with --record coll
  dir="$WORK/$flavor-record"
  if trace_run "$flavor" "$dir" --record coll -- "$(example "$flavor" late-sender)" 2 1; then
    counts "$dir" >"$dir.counts"
    expect "$flavor --record coll" "$dir.counts" "Enter:MPI_Send=0 MPI_SEND=0 Enter:MPI_Init=4"
  fi
done
finish
