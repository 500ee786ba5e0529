#!/usr/bin/env bash
# Byte counts and roots of MpiCollectiveEnd under Open MPI, MPICH and SMPI, on MPI_COMM_WORLD
# and on a split communicator whose ranks run in reverse order (so that a wrong cached rank or
# size shows): 4 ranks, rank 0's events against values computed by hand from the calls below
# and the rules in docs/trace.md (this rank's bytes; the root counts every copy it sends).
# The same calls non-blocking (MPI_Ibcast ..., one MPI_Waitall per communicator) must give
# NonBlockingCollectiveComplete events with the same values, each paired by its request id
# with one NonBlockingCollectiveRequest inside the call.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

cat >"$WORK/collectives.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, buf[64] = {0}, out[256], counts[8], displs[8];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 8; i++)
    counts[i] = i + 1, displs[i] = 10 * i;
  MPI_Comm sub;  /* even and odd ranks, highest world rank first */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &sub);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, sub};
  for (int k = 0; k < 2; k++) {
    MPI_Comm c = comms[k];
    int r;
    MPI_Comm_rank(c, &r);
    MPI_Bcast(buf, 3, MPI_INT, 1, c);
    MPI_Gather(buf, 2, MPI_INT, out, 2, MPI_INT, 0, c);
    MPI_Allgather(buf, 2, MPI_INT, out, 2, MPI_INT, c);
    MPI_Alltoall(buf, 1, MPI_INT, out, 1, MPI_INT, c);
    MPI_Scatterv(buf, counts, displs, MPI_INT, out, counts[r], MPI_INT, 0, c);
    MPI_Gatherv(buf, counts[r], MPI_INT, out, counts, displs, MPI_INT, 0, c);
    MPI_Allgatherv(buf, counts[r], MPI_INT, out, counts, displs, MPI_INT, c);
    MPI_Reduce_scatter(buf, out, counts, MPI_INT, MPI_SUM, c);
    MPI_Allreduce(buf, out, 2, MPI_INT, MPI_SUM, c);
  }
  static int outs[9][256];
  for (int k = 0; k < 2; k++) {
    MPI_Comm c = comms[k];
    MPI_Request q[9];
    int r;
    MPI_Comm_rank(c, &r);
    MPI_Ibcast(buf, 3, MPI_INT, 1, c, &q[0]);
    MPI_Igather(buf, 2, MPI_INT, outs[1], 2, MPI_INT, 0, c, &q[1]);
    MPI_Iallgather(buf, 2, MPI_INT, outs[2], 2, MPI_INT, c, &q[2]);
    MPI_Ialltoall(buf, 1, MPI_INT, outs[3], 1, MPI_INT, c, &q[3]);
    MPI_Iscatterv(buf, counts, displs, MPI_INT, outs[4], counts[r], MPI_INT, 0, c, &q[4]);
    MPI_Igatherv(buf, counts[r], MPI_INT, outs[5], counts, displs, MPI_INT, 0, c, &q[5]);
    MPI_Iallgatherv(buf, counts[r], MPI_INT, outs[6], counts, displs, MPI_INT, c, &q[6]);
    MPI_Ireduce_scatter(buf, outs[7], counts, MPI_INT, MPI_SUM, c, &q[7]);
    MPI_Iallreduce(buf, outs[8], 2, MPI_INT, MPI_SUM, c, &q[8]);
    MPI_Waitall(9, q, MPI_STATUSES_IGNORE);
  }
  MPI_Comm_free(&sub);
  MPI_Finalize();
  return 0;
}
C

# Rank 0: rank 0 of 4 in WORLD; rank 1 of 2 in the split (world ranks 2, 0).
read -r -d '' EXPECTED <<'T'
BCAST WORLD root 1 sent 0 received 12
GATHER WORLD root 0 sent 8 received 32
ALLGATHER WORLD root NONE sent 8 received 32
ALLTOALL WORLD root NONE sent 16 received 16
SCATTERV WORLD root 0 sent 40 received 4
GATHERV WORLD root 0 sent 4 received 40
ALLGATHERV WORLD root NONE sent 4 received 40
REDUCE_SCATTER WORLD root NONE sent 40 received 4
ALLREDUCE WORLD root NONE sent 8 received 8
BCAST SUB root 1 sent 12 received 0
GATHER SUB root 0 sent 8 received 0
ALLGATHER SUB root NONE sent 8 received 16
ALLTOALL SUB root NONE sent 8 received 8
SCATTERV SUB root 0 sent 0 received 8
GATHERV SUB root 0 sent 8 received 0
ALLGATHERV SUB root NONE sent 8 received 12
REDUCE_SCATTER SUB root NONE sent 12 received 8
ALLREDUCE SUB root NONE sent 8 received 8
T

check() {
  local flavor=$1 dir="$WORK/$1-collectives" prog="$WORK/collectives-$1"
  build_program "$flavor" "$WORK/collectives.c" "$prog" || return
  trace_run "$flavor" "$dir" -- "$prog" || return
  local event
  for event in MPI_COLLECTIVE_END NON_BLOCKING_COLLECTIVE_COMPLETE; do
    otf2-print "$dir/traces.otf2" 2>/dev/null | awk -v ev="$event" '$1 == ev && $2 == 0 {
        match($0, /Operation: [A-Z_]+/); op = substr($0, RSTART + 11, RLENGTH - 11)
        comm = /Communicator: "MPI_COMM_WORLD"/ ? "WORLD" : "SUB"
        match($0, /Root: [0-9A-Z]+/); root = substr($0, RSTART + 6, RLENGTH - 6)
        match($0, /Sent: [0-9]+/); sent = substr($0, RSTART + 6, RLENGTH - 6)
        match($0, /Received: [0-9]+/); recv = substr($0, RSTART + 10, RLENGTH - 10)
        print op, comm, "root", root, "sent", sent, "received", recv }' >"$dir.got"
    diff <(echo "$EXPECTED") "$dir.got" >"$dir.diff" ||
      fail "$flavor collectives: rank 0's $event differ (expected < > got): $(cat "$dir.diff")"
  done
  # every rank: 18 requests, each completed once, requested inside an MPI_I* call
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk '
    $1 == "ENTER" { match($0, /Region: "[^"]*"/); in_call[$2] = substr($0, RSTART + 9, RLENGTH - 10) }
    $1 == "LEAVE" { in_call[$2] = "" }
    $1 == "NON_BLOCKING_COLLECTIVE_REQUEST" { match($0, /Request: [0-9]+/); req[$2 " " substr($0, RSTART + 9, RLENGTH - 9)]++; n++
      if (in_call[$2] !~ /^MPI_I/) bad++ }
    $1 == "NON_BLOCKING_COLLECTIVE_COMPLETE" { match($0, /Request: [0-9]+/); done[$2 " " substr($0, RSTART + 9, RLENGTH - 9)]++
      if (in_call[$2] != "MPI_Waitall") bad++ }
    END { for (k in req) if (done[k] != 1) bad++; for (k in done) if (req[k] != 1) bad++
          exit (n != 72 || bad > 0) }' ||
    fail "$flavor collectives: non-blocking requests and completions do not pair up (see $dir)"
}

for flavor in openmpi mpich smpi; do
  have_flavor "$flavor" && check "$flavor"
done
finish
