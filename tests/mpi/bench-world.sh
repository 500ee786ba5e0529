#!/usr/bin/env bash
# mpivet-bench refuses a world of another size than requested (--np) or than the launcher says it
# started (OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_STEP_NUM_TASKS): exit 3, the reason, no row.
set -u
. "$(dirname "$0")/../lib.bash"
real_flavors
scratch tmp
for mpi in $REAL_FLAVORS; do
  bench="$MV_BUILD/lib/mpivet/$mpi/mpivet-bench"
  launcher=$(mpi_launcher $mpi)
  $launcher -n 2 "$bench" --np 3 --ops MPI_Bcast --msizes 8 --reps 2 --out "$tmp/$mpi.csv" \
    2> "$tmp/$mpi.err"
  rc=$?
  [ $rc -ne 0 ] || fail "$mpi: a world of 2 ranks accepted for --np 3"
  grep -q "mpivet-bench: the MPI world has 2 ranks, but 3 were requested" "$tmp/$mpi.err" \
    || fail "$mpi: message: $(cat "$tmp/$mpi.err")"
  [ ! -s "$tmp/$mpi.csv" ] || fail "$mpi: rows written"
  # a singleton that a launcher says is one of two (what srun without PMI gives)
  SLURM_STEP_NUM_TASKS=2 "$bench" --ops MPI_Bcast --msizes 8 --reps 2 --out "$tmp/$mpi-1.csv" \
    2> "$tmp/$mpi-1.err"
  rc=$?
  [ $rc -eq 3 ] || fail "$mpi: singleton of a 2-task step exited $rc"
  grep -q "the MPI world has 1 rank, but 2 were started (SLURM_STEP_NUM_TASKS=2)" "$tmp/$mpi-1.err" \
    || fail "$mpi: singleton message: $(cat "$tmp/$mpi-1.err")"
  # the same world, when it is as large as requested, runs
  $launcher -n 2 "$bench" --np 2 --ops MPI_Bcast --msizes 8 --reps 2 --out "$tmp/$mpi-2.csv" \
    2> "$tmp/$mpi-2.err" || fail "$mpi: --np 2 on 2 ranks: $(cat "$tmp/$mpi-2.err")"
  grep -q ',2,.*MPI_Bcast' "$tmp/$mpi-2.csv" || fail "$mpi: no rows at --np 2"
  # through mpivet bench: exit 3 and the bench's reason in the message
  "$MPIVET" bench --engine mpirun --mpi $mpi --np 2 --ops MPI_Bcast --msizes 8 --runs 1 --reps 2 \
    -o "$tmp/$mpi-cli" > /dev/null 2>&1 || fail "$mpi: mpivet bench --np 2"
done
echo ok
