#!/usr/bin/env bash
# Traces the stencil-2d example under SimGrid SMPI on 256 simulated ranks (16 x 16, one host
# each) and checks the archive's event counts, in total and on a corner and an inner rank
# (counted by hand from examples/stencil-2d.c), then analyzes it. MPI_Finalize used to gather
# the tracer's id lists with MPI_Allgather, quadratic in wall time under SMPI: this run then
# took over 10 minutes instead of 2 s, and the 120 s guard of trace_run fails it.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

have_flavor smpi || finish
"$MPIVET" platform cluster:256 -o "$WORK/cluster.xml" --hostfile "$WORK/hostfile" --np 256 ||
  { fail "mpivet platform cluster:256"; finish; }
dir="$WORK/stencil-256"
# 20 iterations: every rank posts 4 Irecv/Isend per iteration (MPI_PROC_NULL at the borders
# is a call without a message); a 16 x 16 grid has 2 x 2 x 16 x 15 = 960 directed neighbour
# pairs, so 960 x 20 = 19200 messages; MPI_Allreduce every 10th iteration.
if NP=256 trace_run smpi "$dir" -- "$(example smpi stencil-2d)" 64 20; then
  if counts "$dir" >"$dir.counts"; then
    expect "smpi 256 ranks" "$dir.counts" "Enter:MPI_Init=256 Enter:MPI_Finalize=256
      Enter:MPI_Cart_create=256 Enter:MPI_Comm_free=256 Enter:MPI_Irecv=20480
      Enter:MPI_Isend=20480 Enter:MPI_Waitall=5120 Enter:MPI_Allreduce=512
      MPI_ISEND=19200 MPI_ISEND_COMPLETE=19200 MPI_IRECV_REQUEST=19200 MPI_IRECV=19200
      MPI_COLLECTIVE_BEGIN=512 MPI_COLLECTIVE_END=512
      MPI_IRECV@0=40 MPI_IRECV@17=80 MPI_IRECV@255=40 Enter:MPI_Irecv@255=80"
    balanced "smpi 256 ranks" "$dir.counts"
  else
    fail "smpi 256 ranks: otf2-print cannot read the archive"
  fi
  timeout 120 "$MPIVET" analyze "$dir" >"$dir.analysis" 2>&1 ||
    fail "mpivet analyze on 256 ranks: $(tail -3 "$dir.analysis")"
  grep -q "Late Sender .*MPI_Waitall" "$dir.analysis" ||
    fail "mpivet analyze on 256 ranks: no Late Sender in MPI_Waitall: $(head -20 "$dir.analysis")"
fi
finish
