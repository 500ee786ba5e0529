#!/usr/bin/env bash
# Traces every example under SimGrid SMPI (the <name>-traced builds, which link libmpivet-trace)
# with `mpivet trace --mpi smpi -- smpirun ...` on 4 ranks and checks that otf2-print reads the
# archive and that event counts equal the MPI calls (the table in tests/mpi/trace-lib.bash).
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

have_flavor smpi && check_examples smpi
finish
