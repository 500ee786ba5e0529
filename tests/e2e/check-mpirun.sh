#!/usr/bin/env bash
# mpivet check --engine mpirun --np 2,4,8 with Open MPI and with MPICH (oversubscribed on a
# small machine): the campaign completes, the three reports and meta.json name the library.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ran=0
for mpi in openmpi mpich; do
  case " ${MV_FLAVORS:-} " in *" $mpi "*) ;; *) echo "$mpi not built: skipped"; continue ;; esac
  rc=0
  "$MPIVET" check --engine mpirun --mpi "$mpi" --np 2,4,8 --ops MPI_Bcast,MPI_Allreduce,MPI_Gather \
    --runs 2 --reps 5 --seed 5 -o "$work/$mpi" > "$work/$mpi.out" 2> "$work/$mpi.err" || rc=$?
  [ "$rc" -le 1 ] || { echo "FAIL: $mpi exit $rc"; tail -5 "$work/$mpi.err"; exit 1; }
  for f in results.csv report.txt report.json report.html meta.json; do [ -s "$work/$mpi/$f" ]; done
  rows=$(grep -c ',time_s,' "$work/$mpi/results.csv")   # 3 ops x 2 runs x 3 np x 5 reps
  [ "$rows" -eq 90 ] || { echo "FAIL: $mpi: $rows time rows, want 90"; exit 1; }
  grep -q '"library": "' "$work/$mpi/meta.json"
  echo "$mpi: exit $rc, $rows rows, $(grep -m1 '^library:' "$work/$mpi/report.txt")"
  ran=1
done
[ "$ran" -eq 1 ] || exit 77
