#!/usr/bin/env bash
# Traces every example under SimGrid SMPI (the <name>-traced builds, which link libmpivet-trace)
# with `mpivet trace --mpi smpi -- smpirun ...` on 4 ranks and checks that otf2-print reads the
# archive and that event counts equal the MPI calls (the table in tests/mpi/trace-lib.bash).
# A program that does not link the library gets a clear error (exit 3) instead of a silent no-op.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

have_flavor smpi || finish
check_examples smpi
dir="$WORK/unlinked"
# shellcheck disable=SC2046
TMPDIR="$WORK/smpi-tmp" timeout 120 "$MPIVET" trace -o "$dir" -- $(launcher smpi) \
  "$MV_BUILD/lib/mpivet/smpi/late-sender" 1 1 </dev/null >"$dir.log" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "unlinked program: exit $rc, expected 3"
grep -q "no trace was written: under SMPI link the application with libmpivet-trace" "$dir.log" ||
  fail "unlinked program: no hint to link the library: $(tail -3 "$dir.log")"
finish
