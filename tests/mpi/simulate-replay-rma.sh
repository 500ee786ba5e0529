#!/usr/bin/env bash
# Replay with RMA under SMPI (issue 19, item 5), through the generated benchmark: a real Open MPI
# run of bench/sim/rma-epochs.c (fence epochs with put and accumulate on a window of a split
# communicator, post/start/complete/wait and an exclusive lock on a world window) is traced,
# `mpivet benchgen`
# writes its benchmark, and `mpivet simulate` runs that C file under SMPI: it must finish, print
# the benchmark's elapsed time and a predicted time, and the generated program must hold the
# one-sided epochs and the split communicator (SMPI's own trace replay has no RMA at all).
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"
case " ${MV_FLAVORS//;/ } " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
have_flavor openmpi || finish
TESTED=1
build_program openmpi "$MV_SRC/bench/sim/rma-epochs.c" "$WORK/rma" || finish
# Open MPI 4.1's default one-sided component (osc/rdma) aborts this program now and then with
# MPI_ERR_WIN at 4 oversubscribed ranks (3 of 12 runs here); osc/pt2pt ran it 12 of 12 times.
OMPI_MCA_osc=pt2pt NP=4 trace_run openmpi "$WORK/tr" -- "$WORK/rma" 10 || finish
"$MPIVET" benchgen "$WORK/tr" -o "$WORK/bench.c" >"$WORK/gen.log" 2>&1 ||
  { fail "benchgen exit $?: $(cat "$WORK/gen.log")"; finish; }
for call in MPI_Win_create MPI_Win_fence MPI_Win_post MPI_Win_start MPI_Win_complete MPI_Win_wait \
            MPI_Win_lock MPI_Put MPI_Accumulate MPI_Comm_split; do
  grep -q "$call(" "$WORK/bench.c" || fail "the generated benchmark has no $call"
done
timeout 300 "$MPIVET" simulate --np 4 --ppn 2 "$WORK/bench.c" >"$WORK/sim.out" 2>&1 ||
  { fail "simulate exit $?: $(tail -5 "$WORK/sim.out")"; finish; }
grep -Eq "^elapsed [0-9.]+ s" "$WORK/sim.out" || fail "the benchmark's own time is missing: $(head -3 "$WORK/sim.out")"
grep -Eq "predicted time [0-9.e+-]+ s \(4 ranks\)" "$WORK/sim.out" || fail "no predicted time"
# A generated benchmark is recognised (its computation is replayed as simulated sleeps, so SMPI's
# timing of its code is off); the hand-written program it came from is not one.
grep -q "(a generated benchmark: " "$WORK/sim.out" || fail "the generated benchmark was not recognised"
timeout 300 "$MPIVET" simulate --np 4 --ppn 2 --json "$MV_SRC/bench/sim/rma-epochs.c" -- 3 >"$WORK/own.json" 2>&1 ||
  { fail "simulate of rma-epochs.c exit $?: $(tail -5 "$WORK/own.json")"; finish; }
grep -q '"generated_benchmark": *false' "$WORK/own.json" || fail "rma-epochs.c taken for a generated benchmark: $(tail -3 "$WORK/own.json")"
cat "$WORK/sim.out"
finish
