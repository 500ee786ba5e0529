#!/usr/bin/env bash
# Persistent point-to-point requests under Open MPI, MPICH and SMPI: a ring exchange with
# MPI_Send_init/MPI_Recv_init started N times with MPI_Startall and M times with MPI_Start, then
# one MPI_Wait on the inactive request and MPI_Request_free. Checks the event counts (per
# start one MpiIsend + MpiIsendComplete and one MpiIrecvRequest + MpiIrecv, none for the
# inactive wait), the received bytes and sources, and that request ids pair up per rank.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

cat >"$WORK/persistent.c" <<'C'
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, out[3] = {1, 2, 3}, in[3];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = atoi(argv[1]), m = atoi(argv[2]);
  MPI_Request r[2];
  MPI_Send_init(out, 3, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &r[0]);
  MPI_Recv_init(in, 3, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD, &r[1]);
  for (int i = 0; i < n; i++) {
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < m; i++) {
    MPI_Status st;
    MPI_Start(&r[1]);
    MPI_Start(&r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Wait(&r[1], &st);
  }
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);  /* inactive: completes at once, no event */
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  MPI_Finalize();
  return 0;
}
C

# check FLAVOR: 4 ranks, N=3 Startall rounds and M=2 Start rounds.
check() {
  local flavor=$1 dir="$WORK/$1-persistent" prog="$WORK/persistent-$1"
  build_program "$flavor" "$WORK/persistent.c" "$prog" || return
  trace_run "$flavor" "$dir" -- "$prog" 3 2 || return
  counts "$dir" >"$dir.counts" || { fail "$flavor persistent: otf2-print cannot read the archive"; return; }
  expect "$flavor persistent" "$dir.counts" "Enter:MPI_Send_init=4 Enter:MPI_Recv_init=4
    Enter:MPI_Startall=12 Enter:MPI_Start=16 Enter:MPI_Waitall=12 Enter:MPI_Wait=20
    Enter:MPI_Request_free=8 MPI_ISEND=20 MPI_ISEND_COMPLETE=20 MPI_IRECV_REQUEST=20 MPI_IRECV=20
    MPI_ISEND@0=5 MPI_IRECV@3=5 MPI_SEND=0 MPI_RECV=0"
  balanced "$flavor persistent" "$dir.counts"
  # every MpiIrecv of rank 1 comes from rank 0 with 12 bytes and tag 5; each rank's request
  # ids: every id started (Isend / IrecvRequest) is completed exactly once
  otf2-print "$dir/traces.otf2" 2>/dev/null | awk '
    $1 == "MPI_IRECV" && $2 == 1 && !/Sender: 0 / { bad++ }
    $1 == "MPI_IRECV" && $2 == 1 && !/Length: 12/ { bad++ }
    $1 == "MPI_IRECV" && $2 == 1 && !/Tag: 5/ { bad++ }
    $1 == "MPI_ISEND" || $1 == "MPI_IRECV_REQUEST" { match($0, /Request: [0-9]+/); s[$2 " " substr($0, RSTART + 9, RLENGTH - 9)]++ }
    $1 == "MPI_ISEND_COMPLETE" || $1 == "MPI_IRECV" { match($0, /Request: [0-9]+/); d[$2 " " substr($0, RSTART + 9, RLENGTH - 9)]++ }
    END { for (k in s) if (d[k] != 1) bad++; for (k in d) if (s[k] != 1) bad++; exit bad > 0 }' ||
    fail "$flavor persistent: MpiIrecv sources/bytes/tags or request ids do not match (see $dir)"
}

for flavor in openmpi mpich smpi; do
  have_flavor "$flavor" && check "$flavor"
done
finish
