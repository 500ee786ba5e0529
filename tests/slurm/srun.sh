#!/usr/bin/env bash
# The srun engine on a real one-node Slurm (scripts/slurm-local.sh: munged, slurmctld, slurmd as
# root, stopped at the end, also on failure), with both MPIs: `mpivet bench --engine srun` and a
# small `mpivet check --engine srun` record nprocs 2; `mpivet trace -- srun ...` traces 2 ranks;
# a world of the wrong size (srun --mpi=none gives MPICH singletons) exits 3 with the message and
# no row. Skipped (77) with the reason when the daemons cannot start.
set -u
tmp=$(mktemp -d); chmod 755 "$tmp"
export MV_SLURM_DIR=$tmp/slurm SLURM_CONF=$tmp/slurm/slurm.conf
slurm=$MV_SRC/scripts/slurm-local.sh
cleanup() { bash "$slurm" stop >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "$0")/../lib.bash"

# One Slurm at a time on this machine (its ports are fixed): wait for another test's to stop.
exec 9> /tmp/mpivet-slurm-test.lock
flock -w 600 9 || { echo "skip: another Slurm test held the lock for 10 minutes"; exit 77; }
if ! bash "$slurm" start > "$tmp/start.log" 2>&1; then
  cat "$tmp/start.log"
  echo "skip: the one-node Slurm cannot start (reason above)"
  exit 77
fi
sinfo

ran=0
# nprocs column of a results.csv: every row must say 2
nprocs_of() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "nprocs") c = i; next }
                      { print $c }' "$1" | sort -u | tr '\n' ' '; }
for mpi in openmpi mpich; do
  case " $MV_FLAVORS " in *" $mpi "*) ;; *) continue ;; esac
  ran=1
  pmi=pmix; [ $mpi = mpich ] && pmi=pmi2

  "$MPIVET" bench --engine srun --mpi $mpi --np 2 --ops MPI_Bcast --msizes 8 --runs 1 --reps 3 \
    --time-limit 2 --timeout 120 -o "$tmp/$mpi-bench" || fail "$mpi: mpivet bench --engine srun"
  grep -q -- "srun --mpi=$pmi --ntasks=2 --time=2 " "$tmp/$mpi-bench/meta.json" \
    || fail "$mpi: the launch command lacks --mpi=$pmi: $(grep -o '"command": "[^"]*' "$tmp/$mpi-bench/meta.json")"
  [ "$(nprocs_of "$tmp/$mpi-bench/results.csv")" = "2 " ] \
    || fail "$mpi: bench recorded nprocs $(nprocs_of "$tmp/$mpi-bench/results.csv")"
  echo "$mpi: bench --engine srun: nprocs $(nprocs_of "$tmp/$mpi-bench/results.csv")($(grep -c ,srun, "$tmp/$mpi-bench/results.csv") rows)"

  # more ranks than the node's CPUs: the engine adds --overcommit itself (no SLURM_OVERCOMMIT)
  cpus=$(sinfo -h -o %c | head -1 | tr -dc 0-9)
  over=$((cpus + 2))
  env -u SLURM_OVERCOMMIT "$MPIVET" bench --engine srun --mpi $mpi --np $over --ops MPI_Bcast \
    --msizes 8 --runs 1 --reps 3 --timeout 120 -o "$tmp/$mpi-over" || fail "$mpi: bench --np $over"
  grep -q -- "--overcommit" "$tmp/$mpi-over/meta.json" || fail "$mpi: --np $over without --overcommit"
  [ "$(nprocs_of "$tmp/$mpi-over/results.csv")" = "$over " ] \
    || fail "$mpi: --np $over recorded nprocs $(nprocs_of "$tmp/$mpi-over/results.csv")"
  grep -q -- "--overcommit" "$tmp/$mpi-bench/meta.json" && fail "$mpi: --overcommit at --np 2"
  echo "$mpi: bench --engine srun --np $over on $cpus CPUs: --overcommit, nprocs $over"

  # singletons: MPICH with no PMI plugin; Open MPI cannot start without PMIx at all
  "$MPIVET" bench --engine srun --mpi $mpi --pmi none --np 2 --ops MPI_Bcast --msizes 8 --runs 1 \
    --reps 3 --timeout 120 -o "$tmp/$mpi-none" 2> "$tmp/$mpi-none.err"
  rc=$?
  cat "$tmp/$mpi-none.err"
  [ $rc -eq 3 ] || fail "$mpi: srun --mpi=none exited $rc, expected 3"
  [ ! -s "$tmp/$mpi-none/results.csv" ] || [ "$(wc -l < "$tmp/$mpi-none/results.csv")" -le 1 ] \
    || fail "$mpi: rows written by a failed launch"
  if [ $mpi = mpich ]; then
    grep -q "the MPI world has 1 rank, but 2 were requested" "$tmp/$mpi-none.err" \
      || fail "$mpi: no world-size message"
  fi

  printf 'MPI_Bcast time_s O(log p)\n' > "$tmp/bcast.expect"
  "$MPIVET" check --engine srun --mpi $mpi --np 1,2 --ops MPI_Bcast@8 --runs 1 --reps 3 \
    --expect "$tmp/bcast.expect" --seed 1 -o "$tmp/$mpi-check" > "$tmp/$mpi-check.out" 2>&1
  rc=$?
  [ $rc -le 1 ] || { cat "$tmp/$mpi-check.out"; fail "$mpi: mpivet check --engine srun exited $rc"; }
  [ "$(nprocs_of "$tmp/$mpi-check/results.csv")" = "1 2 " ] \
    || fail "$mpi: check recorded nprocs $(nprocs_of "$tmp/$mpi-check/results.csv")"
  [ -s "$tmp/$mpi-check/report.txt" ] || fail "$mpi: no report.txt"
  echo "$mpi: check --engine srun: exit $rc, nprocs $(nprocs_of "$tmp/$mpi-check/results.csv")"

  prog=$MV_BUILD/lib/mpivet/$mpi/late-sender
  if [ -x "$prog" ]; then
    timeout 120 "$MPIVET" trace --mpi $mpi -o "$tmp/$mpi-trace" -- srun --mpi=$pmi -n 2 "$prog" \
      > "$tmp/$mpi-trace.log" 2>&1 || { cat "$tmp/$mpi-trace.log"; fail "$mpi: mpivet trace -- srun"; }
    n=$(otf2-print -G "$tmp/$mpi-trace/traces.otf2" | grep -c '^LOCATION .*Type: CPU_THREAD')
    [ "$n" -eq 2 ] || fail "$mpi: the trace has $n locations, expected 2"
    echo "$mpi: trace -- srun --mpi=$pmi -n 2: $n locations"
    if [ $mpi = mpich ]; then
      timeout 120 "$MPIVET" trace --mpi $mpi -o "$tmp/$mpi-trace1" -- srun --mpi=none -n 2 "$prog" \
        > "$tmp/$mpi-trace1.log" 2>&1
      rc=$?
      cat "$tmp/$mpi-trace1.log"
      [ $rc -eq 3 ] || fail "$mpi: trace of singletons exited $rc, expected 3"
      grep -q "the MPI world has 1 rank, but 2 were started (SLURM_STEP_NUM_TASKS=2)" \
        "$tmp/$mpi-trace1.log" || fail "$mpi: no world-size message from the tracer"
    fi
  fi
done
[ $ran = 1 ] || { echo "skip: no real MPI flavor built"; exit 77; }
echo ok
