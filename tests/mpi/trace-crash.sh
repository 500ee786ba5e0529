#!/usr/bin/env bash
# Crash test: rank 1 of crash-rank raises SIGSEGV at iteration 50 of 100 (ring MPI_Sendrecv +
# MPI_Barrier). `mpivet trace` must exit 3 (the application failed), and leave an archive that
# otf2-print reads, marked truncated (TRUNCATED file naming signal 11 on rank 1, OTF2 property
# MPIVET::TRUNCATED=true), holding rank 1's 50 completed MPI_Sendrecv calls.
# Records written late (mpi-functions.spec, column records) are not lost on a fatal signal: on
# 2 ranks, rank 0's MPI_Recv (records pending until the next call) and its MPI_Ssend blocked in
# PMPI (Enter and MpiSend written when it returns) when rank 1 sends it SIGTERM. With the
# argument "again", the MPI_Ssend that blocks is the second from its call site, so it takes the
# fast path (hooks.h), which keeps nothing of a send in memory while PMPI runs: that one call is
# missing from the trace, the first one (received) and everything before are there. With "recv",
# the second MPI_Recv from one site (a fast receive) blocks: its Enter is there, no MpiRecv and
# no Leave (its pending record has no Leave stamp yet).
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

cat >"$WORK/blocked-send.c" <<'C'
#include <mpi.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, pid = (int)getpid();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int again = argc > 1 && strcmp(argv[1], "again") == 0;
  int recv = argc > 1 && strcmp(argv[1], "recv") == 0;
  volatile int calls = 1 + again + recv;  /* loops the compiler keeps: one call site each */
  if (rank == 0) {
    MPI_Send(&pid, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&pid, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < calls && !recv; i++)
      MPI_Ssend(&pid, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);  /* the last one never received */
    for (int i = 0, got; i < calls && recv; i++)
      MPI_Recv(&got, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  /* the last one never sent */
  } else if (rank == 1) {
    int peer, first;
    MPI_Recv(&peer, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&pid, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (again)
      MPI_Recv(&first, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (recv)
      MPI_Send(&pid, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    sleep(1);  /* rank 0 blocks in MPI_Ssend meanwhile */
    kill((pid_t)peer, SIGTERM);
    sleep(30);  /* the launcher ends this rank when rank 0 dies */
  }
  MPI_Finalize();
  return 0;
}
C

for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  check_crash "$flavor"

  dir="$WORK/$flavor-blocked" prog="$WORK/blocked-send-$flavor"
  build_program "$flavor" "$WORK/blocked-send.c" "$prog" || continue
  NP=2 EXPECT_RC=3 trace_run "$flavor" "$dir" -- "$prog" || continue
  counts "$dir" >"$dir.counts" || { fail "$flavor: otf2-print cannot read the blocked-send archive"; continue; }
  expect "$flavor blocked send" "$dir.counts" "Enter:MPI_Send@0=1 Enter:MPI_Recv@0=1 \
    Enter:MPI_Ssend@0=1 MPI_SEND@0=2 MPI_RECV@0=1 ENTER@0=4 LEAVE@0=3"
  grep -q "rank 0: signal 15" "$dir/TRUNCATED" 2>/dev/null ||
    fail "$flavor: TRUNCATED does not name signal 15 on rank 0: $(cat "$dir/TRUNCATED" 2>&1)"

  dir="$WORK/$flavor-blocked-again"
  NP=2 EXPECT_RC=3 trace_run "$flavor" "$dir" -- "$prog" again || continue
  counts "$dir" >"$dir.counts" || { fail "$flavor: otf2-print cannot read the blocked-again archive"; continue; }
  expect "$flavor blocked fast send" "$dir.counts" "Enter:MPI_Send@0=1 Enter:MPI_Recv@0=1 \
    Enter:MPI_Ssend@0=1 MPI_SEND@0=2 MPI_RECV@0=1 ENTER@0=4 LEAVE@0=4"

  dir="$WORK/$flavor-blocked-recv"
  NP=2 EXPECT_RC=3 trace_run "$flavor" "$dir" -- "$prog" recv || continue
  counts "$dir" >"$dir.counts" || { fail "$flavor: otf2-print cannot read the blocked-recv archive"; continue; }
  expect "$flavor blocked fast receive" "$dir.counts" "Enter:MPI_Recv@0=3 MPI_RECV@0=2 ENTER@0=5 \
    LEAVE@0=4"
done
finish
