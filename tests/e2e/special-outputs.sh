#!/usr/bin/env bash
# Outputs that are not regular files are written in place: the atomic writers (a temporary
# renamed over the target) once replaced /dev/null with a regular file. A FIFO in a temporary
# folder stands in for /dev/null: the CSV and Extra-P writers must stream through it and leave
# it a FIFO.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/r.csv" <<'CSV'
run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid
0,mpirun,X,2,1,MPI_Bcast,default,8,time_s,0,1e-06,1
0,mpirun,X,4,1,MPI_Bcast,default,8,time_s,0,2e-06,1
CSV
"$MPIVET" convert "$work/r.csv" -o "$work/x.txt" --to extrap
fails=0
for to in extrap csv; do
  src="$work/r.csv"; [ "$to" = csv ] && src="$work/x.txt"
  mkfifo "$work/fifo"
  timeout 10 cat "$work/fifo" > "$work/got.$to" &
  reader=$!
  "$MPIVET" convert "$src" -o "$work/fifo" --to "$to"
  wait "$reader" || true
  if [ ! -p "$work/fifo" ]; then echo "FAIL $to: the FIFO was replaced"; fails=$((fails + 1)); fi
  if [ "$(wc -l < "$work/got.$to")" -lt 3 ]; then
    echo "FAIL $to: nothing came through the FIFO"; fails=$((fails + 1))
  fi
  ls "$work" | grep -q 'fifo\.tmp' && { echo "FAIL $to: temporary left"; fails=$((fails + 1)); }
  rm -f "$work/fifo"
done
[ "$fails" -eq 0 ] && echo "ok: Extra-P and CSV outputs stream through a FIFO and leave it a FIFO"
exit "$fails"
