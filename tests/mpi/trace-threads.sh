#!/usr/bin/env bash
# Threads: a run that is granted MPI_THREAD_MULTIPLE is refused clearly (one event buffer per
# rank cannot take calls from several threads at once): rank 0 says so, the application runs
# untraced to its end (threads.c: two threads per rank exchange messages at once, every one
# arrives), no archive is written and `mpivet trace` exits 3. Below that level
# (MPI_THREAD_SERIALIZED) the same exchanges are traced: 2 ranks x 2 x 5 sends and receives.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  prog="$WORK/threads-$flavor"
  build_program "$flavor" "$MV_SRC/tests/mpi/threads.c" "$prog" || continue
  dir="$WORK/$flavor-multiple"
  # shellcheck disable=SC2046
  NP=2 timeout 120 "$MPIVET" trace -o "$dir" --mpi "$flavor" -- $(NP=2 launcher "$flavor") "$prog" multiple \
    </dev/null >"$dir.log" 2>&1
  rc=$?
  if grep -q "^provided 3" "$dir.log"; then
    [ "$rc" = 3 ] || fail "$flavor MPI_THREAD_MULTIPLE: mpivet trace exit $rc, expected 3"
    grep -q "rank 0: MPI_THREAD_MULTIPLE is not supported .*this run is not traced" "$dir.log" ||
      fail "$flavor MPI_THREAD_MULTIPLE: no message saying the run is not traced"
    grep -q "^ok" "$dir.log" || fail "$flavor MPI_THREAD_MULTIPLE: the application did not run to its end"
    [ ! -e "$dir/traces.otf2" ] || fail "$flavor MPI_THREAD_MULTIPLE: an archive was written"
  else
    echo "$flavor does not grant MPI_THREAD_MULTIPLE here: $(grep provided "$dir.log")"
  fi
  dir="$WORK/$flavor-serialized"
  NP=2 trace_run "$flavor" "$dir" -- "$prog" serialized || continue
  counts "$dir" >"$dir.counts" || { fail "$flavor serialized: otf2-print"; continue; }
  expect "$flavor MPI_THREAD_SERIALIZED" "$dir.counts" "Enter:MPI_Init_thread=2 Enter:MPI_Send@0=10 \
    Enter:MPI_Recv@1=10 MPI_SEND=20 MPI_RECV=20 Enter:MPI_Reduce=2"
done
finish
