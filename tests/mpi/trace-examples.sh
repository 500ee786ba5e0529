#!/usr/bin/env bash
# Traces every example under Open MPI and MPICH with `mpivet trace` (4 ranks, short delays)
# and checks that otf2-print reads the archive and that event counts equal the MPI calls the
# example makes (the table in trace-lib.bash).
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

for flavor in openmpi mpich; do
  have_flavor "$flavor" && check_examples "$flavor"
done
finish
