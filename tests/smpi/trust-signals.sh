#!/usr/bin/env bash
# Issue 15, the adversarial pass in CI: signals at random moments (seeded) into `mpivet check`
# (SMPI) and `mpivet convert`, and two checks at once on one output folder (tests/signal-fuzz.bash;
# bench/trust_fuzz/run.sh runs more rounds and bench, trace, benchgen and calibrate too). After a
# cut: nothing of the run is left, the lock is free, no report beside an unfinished journal,
# `check --resume` gives rows identical to an uninterrupted run, a convert output is absent or
# whole, no temporary file is left; an interrupted run never exits 0 or 1, and never says
# "finished".
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
KEEP_GOING=1
scratch W
ROUNDS=${ROUNDS:-2}
RANDOM=15
ROUNDS_RUN=0
. "$MV_SRC/tests/signal-fuzz.bash"
signals_check
signals_convert
rm -rf "$W/cc"
concurrent check "$W/cc" "$MPIVET" check --engine smpi --np 4 --ops MPI_Bcast --msizes 8 --runs 1 -o "$W/cc"
# Two converts at once to one new file both succeed (the existence check and the rename are
# not one step): a known open finding of stop 23, left to bench/trust_fuzz/run.sh, which reports it.
echo "$ROUNDS_RUN runs"
finish
echo ok
