#!/usr/bin/env bash
# Issue 15, the adversarial pass in CI: signals at random moments (seeded) into `mpivet check`
# (SMPI) and `mpivet convert`, two checks at once on one output folder and two converts at once
# into one new file (tests/signal-fuzz.bash; bench/trust_fuzz/run.sh runs more rounds and bench, trace, benchgen and calibrate too). After a
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
# two converts at once into one new file: the second is refused (both exited 0 before h15's fix;
# tests/e2e/trust-convert.sh holds both runs past their check every time)
rm -f "$W/cx.extrap"
concurrent convert "$W/cx.extrap" "$MPIVET" convert "$W/big.csv" --to extrap -o "$W/cx.extrap"
echo "$ROUNDS_RUN runs"
finish
echo ok
