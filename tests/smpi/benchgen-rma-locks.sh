#!/usr/bin/env bash
# The one-sided replay failure seen in 1 of 6 MPICH traces of rma.c, made deterministic: the
# fixture benchgen/rma-mpich.mvt is one such trace (tests/smpi/benchgen/rma.c, 10 iterations,
# MPICH 4.0.2 at 4 ranks). Its benchmark made SMPI 3.32 stop, with "Deadlock detected" under
# `mpivet simulate` or "Cannot release that mutex: you're not the owner" under smpirun: SimGrid's
# MPI_Win_lock grants an exclusive lock while another rank still holds a shared one (the mode it
# keeps per target is reset by any unlock), and an unlock then releases a mutex its caller does not
# own. The benchmark now holds the exclusive lock back until the shared holders are gone (under
# SMPI only, docs/benchgen.md): it must run to its end, and re-traced make the trace's calls.
# (A format version bump refuses the fixture: re-trace rma.c under MPICH and keep a trace whose
# benchmark failed before.)
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
. "$MV_SRC/tests/smpi/benchgen-lib.bash"

have_flavor smpi || finish
mkdir -p "$WORK/tr"
cp "$MV_SRC/tests/smpi/benchgen/rma-mpich.mvt" "$WORK/tr/compressed.mvt"
"$MPIVET" benchgen "$WORK/tr" -o "$WORK/bench.c" >"$WORK/gen.log" 2>&1 ||
  { fail "benchgen exit $?: $(cat "$WORK/gen.log")"; finish; }
grep -q "lk_lock(2, 0, peer(0, 2), 1);" "$WORK/bench.c" || fail "the exclusive lock is not guarded"
warnfree "$WORK/bench.c" || finish
build_program smpi "$WORK/bench.c" "$WORK/bench" || finish
NP=4 trace_run smpi "$WORK/re" -- "$WORK/bench" || finish
grep -q "^elapsed [0-9.]* s" "$WORK/re.log" || fail "the benchmark did not finish under SMPI: $(grep -v '^\[0.000000\]' "$WORK/re.log" | head -5)"
"$MPIVET" benchgen "$WORK/tr" --compare "$WORK/re" >"$WORK/cmp" 2>&1 ||
  fail "re-traced calls differ: $(cat "$WORK/cmp")"
echo "rma-mpich under SMPI: $(cat "$WORK/cmp")"
finish
