#!/usr/bin/env bash
# mpivet calibrate (tiny: messages up to 64 KiB, 3 repetitions, 20 dgemm/dtrsm shapes) on Open MPI
# and MPICH, then mpivet simulate with the folder: the folder's files and format, the self-check
# table, refusal of a non-empty output folder, of an incomplete folder and of another format
# version, the program's output passed through, exit 3 (with the compiler's or the program's
# output) when a program fails to build or to run, a built-in topology taking calibrated values.
set -u
case " ${MV_FLAVORS//;/ } " in *" smpi "*) ;; *) echo "smpi flavor not built"; exit 77 ;; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ran=0
for mpi in openmpi mpich; do
  case " ${MV_FLAVORS//;/ } " in *" $mpi "*) ;; *) continue ;; esac
  ran=1
  cal="$tmp/cal-$mpi"
  "$MPIVET" calibrate --mpi $mpi --max-size 65536 --reps 3 --kernel-samples 20 --seed 5 -o "$cal" \
      > "$tmp/out-$mpi" 2>&1 || { cat "$tmp/out-$mpi"; fail "$mpi: calibrate"; }
  for f in calibration.json platform.xml smpi-settings.txt kernels.h report.html measurements.csv; do
    [ -s "$cal/$f" ] || fail "$mpi: $f missing"
  done
  grep -q '"format": "mpivet-calibration"' "$cal/calibration.json" || fail "$mpi: format"
  grep -q '"version": 2' "$cal/calibration.json" || fail "$mpi: version"
  for key in smpi/os smpi/or smpi/ois smpi/lat-factor smpi/bw-factor smpi/async-small-thresh \
             smpi/send-is-detached-thresh smpi/host-speed smpi/test smpi/iprobe smpi/wtime; do
    grep -q "^$key:" "$cal/smpi-settings.txt" || fail "$mpi: $key not in smpi-settings.txt"
  done
  grep -q '{"dgemm", "", -1, ' "$cal/kernels.h" || fail "$mpi: no dgemm model"
  grep -q "^self-check" "$tmp/out-$mpi" || fail "$mpi: no self-check"
  for op in pingpong send isend recv test iprobe wtime; do
    grep -Eq "^  $op +[0-9.]+ %" "$tmp/out-$mpi" || fail "$mpi: no self-check error for $op"
  done
  grep -c "<svg" "$cal/report.html" | grep -qx 4 || fail "$mpi: report.html should plot 4 operations"
done
[ $ran = 1 ] || { echo "no real MPI flavor built"; exit 77; }

# a non-empty output folder is refused, nothing in it is touched
"$MPIVET" calibrate --max-size 64 --reps 1 -o "$cal" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "not empty" "$tmp/err" || fail "non-empty folder: exit $rc"

# simulate: output passes through, the predicted time is printed; JSON; fattree takes calibrated values
cat > "$tmp/hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
  int r; char buf[1 << 16];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
  printf("hello from %d of argv %s\n", r, argc > 1 ? argv[1] : "-");
  MPI_Finalize();
  return 0;
}
C
"$MPIVET" simulate --calibration "$cal" --np 4 "$tmp/hello.c" -- xyz > "$tmp/sim" 2>&1 || { cat "$tmp/sim"; fail "simulate"; }
[ "$(grep -c '^hello from [0-3] of argv xyz$' "$tmp/sim")" = 4 ] || fail "program output not passed through"
grep -Eq "predicted time [0-9.e+-]+ s \(4 ranks\)" "$tmp/sim" || fail "no predicted time"
"$MPIVET" simulate --calibration "$cal" --platform fattree:16 --np 16 --json "$tmp/hello.c" > "$tmp/json" \
  || fail "fattree simulate"
grep -q '"predicted_s":' "$tmp/json" || fail "no JSON"
"$MPIVET" simulate --np 4 "$tmp/hello.c" > "$tmp/raw" || fail "uncalibrated simulate"
grep -q "uncalibrated platform" "$tmp/raw" || fail "uncalibrated not said"

# failures: exit 3 with the compiler's / the program's output
printf 'int main(void) { return undefined_thing; }\n' > "$tmp/bad.c"
"$MPIVET" simulate "$tmp/bad.c" > "$tmp/o" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "undefined_thing" "$tmp/o" || fail "build failure: exit $rc"
cat > "$tmp/crash.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); printf("about to fail\n"); fflush(stdout); return 4; }
C
"$MPIVET" simulate --np 2 "$tmp/crash.c" > "$tmp/o" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "about to fail" "$tmp/o" || fail "run failure: exit $rc"

# an incomplete folder and another format version are refused with exit 2
cp -r "$cal" "$tmp/incomplete"; rm "$tmp/incomplete/kernels.h"
"$MPIVET" simulate --calibration "$tmp/incomplete" "$tmp/hello.c" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "kernels.h is missing" "$tmp/err" || fail "incomplete folder: exit $rc"
cp -r "$cal" "$tmp/v2"; sed -i 's/"version": 2/"version": 1/' "$tmp/v2/calibration.json"
"$MPIVET" simulate --calibration "$tmp/v2" "$tmp/hello.c" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "version 1, this mpivet reads version 2" "$tmp/err" || fail "other version: exit $rc"
echo "calibrate + simulate: ok"
