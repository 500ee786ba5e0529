#!/usr/bin/env bash
# mpivet calibrate (tiny: messages up to 64 KiB, 3 repetitions, 20 dgemm/dtrsm shapes) on Open MPI
# and MPICH, then mpivet simulate with the folder: the folder's files and format, the self-check
# table, refusal of a non-empty output folder, of an incomplete folder and of another format
# version, the program's output passed through, exit 3 (with the compiler's or the program's
# output) when a program fails to build or to run, a built-in topology taking calibrated values;
# the window costs' fits (calibration.json's "windows", with SMPI's own cost from the self-check).
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
  # messages up to 8 MiB get 3 x --reps repetitions (since stop 32), an Isend 6 x more (stop 34)
  n=$(grep -c '^[0-9]*,isend,[0-9]*,[^,]*,same,65536,' "$cal/measurements.csv")
  [ "$n" = 54 ] || fail "$mpi: $n isend rows of 65536 B, expected 3 x 3 x 6"
  grep -q '"format": "mpivet-calibration"' "$cal/calibration.json" || fail "$mpi: format"
  grep -q '"version": 3' "$cal/calibration.json" || fail "$mpi: version"
  for key in smpi/os smpi/or smpi/ois smpi/lat-factor smpi/bw-factor smpi/async-small-thresh \
             smpi/send-is-detached-thresh smpi/host-speed smpi/test smpi/iprobe smpi/wtime; do
    grep -q "^$key:" "$cal/smpi-settings.txt" || fail "$mpi: $key not in smpi-settings.txt"
  done
  grep -q '{"dgemm", "", -1, 0, ' "$cal/kernels.h" || fail "$mpi: no dgemm model"
  # the first write to a fresh page: a positive figure, charged through first-touch.h
  grep -Eq '"page_touch_s": [0-9.]+e-0[4-8]' "$cal/calibration.json" || fail "$mpi: page_touch_s"
  grep -q '^#include "mpivet/first-touch.h"' "$cal/kernels.h" || fail "$mpi: first-touch.h not included"
  # one read of the thread CPU clock (SMPI's timer), taken off by simulate: 10 ns to 100 us
  grep -Eq '"cpu_clock_read_s": [0-9.]+e-0[5-8]' "$cal/calibration.json" || fail "$mpi: cpu_clock_read_s"
  grep -q "^self-check" "$tmp/out-$mpi" || fail "$mpi: no self-check"
  for op in pingpong send isend recv late-send test iprobe wtime; do
    grep -Eq "^  $op +[0-9.]+ %" "$tmp/out-$mpi" || fail "$mpi: no self-check error for $op"
  done
  # the measurement's own noise beside the error: Isend has 3 x 3 x 6 = 54 samples a size, enough
  # for two halves of 10 (mv_calib_split_noise), so its column has a value, not "-"
  grep -Eq "^  isend +[0-9.]+ % \[ *[0-9.]+ %\]" "$tmp/out-$mpi" || fail "$mpi: no noise for isend"
  # window creation and release: a fit of each op, SMPI's own cost from the self-check (0.1-10 us)
  for op in win-allocate win-allocate-free win-create win-create-free; do
    grep -A1 "\"$op\": {" "$cal/calibration.json" | grep -Eq '"smpi_s": [0-9.]+e-0[5-7]' ||
      fail "$mpi: no $op fit with SMPI's own cost in calibration.json"
    grep -Eq "^  $op +[0-9]+ segments" "$tmp/out-$mpi" || fail "$mpi: $op not printed"
  done
  grep -c "<svg" "$cal/report.html" | grep -qx 9 || fail "$mpi: report.html should plot 9 operations"
  # --measurements: the same measurements fitted again give the same settings and models
  "$MPIVET" calibrate --mpi $mpi --measurements "$cal/measurements.csv" --no-self-check \
      -o "$tmp/refit-$mpi" > "$tmp/refit-out" 2>&1 || { cat "$tmp/refit-out"; fail "$mpi: refit"; }
  cmp -s "$cal/measurements.csv" "$tmp/refit-$mpi/measurements.csv" || fail "$mpi: refit's measurements.csv"
  for f in smpi-settings.txt kernels.h; do
    cmp "$cal/$f" "$tmp/refit-$mpi/$f" || fail "$mpi: refit's $f differs"
  done
done
[ $ran = 1 ] || { echo "no real MPI flavor built"; exit 77; }

# --measurements of a file that is not there: a message naming it, exit 2, no folder made
"$MPIVET" calibrate --measurements "$tmp/none.csv" -o "$tmp/refit-none" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "none.csv" "$tmp/err" || { cat "$tmp/err"; fail "missing --measurements: exit $rc"; }
[ ! -e "$tmp/refit-none" ] || fail "missing --measurements: the output folder was made"

# mpivet-calib's repetitions: Isends above 8 MiB get 12 x --reps (stop 35; 6 x before), those up
# to 8 MiB 3 x 6 x --reps (3 x 6 x 1 = 18 rows at 8 MiB, 12 at 11.3 MiB)
calib=$(dirname "$MPIVET")/../lib/mpivet/openmpi/mpivet-calib
case " ${MV_FLAVORS//;/ } " in *" openmpi "*) [ -x "$calib" ] || fail "$calib not built" ;; esac
if [ -x "$calib" ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 2 "$calib" \
      --max-size 12000000 --reps 1 --kernels none --seed 3 --out "$tmp/big.csv" > "$tmp/big.out" 2>&1 ||
    { cat "$tmp/big.out"; fail "mpivet-calib up to 12 MB"; }
  for want in 8388608:18 11863283:12; do
    n=$(grep -c "^[0-9]*,isend,[0-9]*,[^,]*,same,${want%:*}," "$tmp/big.csv")
    [ "$n" = "${want#*:}" ] || fail "$n isend rows of ${want%:*} B, expected ${want#*:}"
  done
fi

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
# the folder whose build.log the error names is kept (without --workdir: a temporary one)
log=$(sed -n 's/.*smpicc failed (output in \([^)]*\)).*/\1/p' "$tmp/o")
[ -s "$log" ] && grep -q "undefined_thing" "$log" && grep -q "^mpivet simulate: kept $(dirname "$log") " "$tmp/o" ||
  { cat "$tmp/o"; fail "build failure: the build log the error names is gone"; }
[ -z "$log" ] || rm -rf "$(dirname "$log")"
cat > "$tmp/crash.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); printf("about to fail\n"); fflush(stdout); return 4; }
C
"$MPIVET" simulate --np 2 "$tmp/crash.c" > "$tmp/o" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "about to fail" "$tmp/o" || fail "run failure: exit $rc"
rm -rf "$(sed -n 's/^mpivet simulate: kept \([^ ]*\) .*/\1/p' "$tmp/o")"

# an incomplete folder and another format version are refused with exit 2
cp -r "$cal" "$tmp/incomplete"; rm "$tmp/incomplete/kernels.h"
"$MPIVET" simulate --calibration "$tmp/incomplete" "$tmp/hello.c" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "kernels.h is missing" "$tmp/err" || fail "incomplete folder: exit $rc"
cp -r "$cal" "$tmp/v2"; sed -i 's/"version": 3/"version": 2/' "$tmp/v2/calibration.json"
"$MPIVET" simulate --calibration "$tmp/v2" "$tmp/hello.c" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "version 2, this mpivet reads version 3" "$tmp/err" || fail "other version: exit $rc"
# per-host kernel models (M_H): a 2-host platform whose second host's dgemm model is twice the
# first's; each rank emulates one dgemm of 1e-3 s (host node-0) or 2e-3 s (node-1, matched by
# index) and prints the simulated time it took; a kernel without a row runs (pooled row absent)
# and is reported once on stderr.
# Ranges of call size: node-0's dgemm has a second row from m n k = 1e7 at 5e-9 s per mnk, so a
# 300 x 300 x 200 call (1.8e7) takes 0.09 s there and 2e-9 x 1.8e7 = 0.036 s on node-1.
cp -r "$cal" "$tmp/hosts"
flops=$(grep -o '"host_speed_flops": [0-9.e+-]*' "$cal/calibration.json" | awk '{print $2}')
echo "#define MV_EMULATE_HOST_FLOPS $flops" > "$tmp/hosts/kernels.h"
cat >> "$tmp/hosts/kernels.h" <<'H'
#define MV_EMULATE_MODEL_TABLE \
  {"dgemm", "", -1, 0, {1e-9, 0, 0, 0, 0, 0, 0, 0}, {0}}, \
  {"dgemm", "calibrated-a", 0, 0, {1e-9, 0, 0, 0, 0, 0, 0, 0}, {0}}, \
  {"dgemm", "calibrated-a", 0, 1e7, {5e-9, 0, 0, 0, 0, 0, 0, 0}, {0}}, \
  {"dgemm", "calibrated-b", 1, 0, {2e-9, 0, 0, 0, 0, 0, 0, 0}, {0}},
H
cat > "$tmp/hosts.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include "mpivet/emulate.h"
int main(int argc, char **argv)
{
  int r, ran = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double t0 = MPI_Wtime();
  MV_EMULATE("dgemm", 100, 100, 100, ran = 1);
  double t = MPI_Wtime() - t0;
  MV_EMULATE("dtrsm", 10, 10, 10, ran = 2);
  MV_EMULATE("dtrsv", 0, 10, 1, ran = 2);   /* empty, no model: costs nothing, not reported */
  int also = 0;   /* MV_EMULATE_ALSO_RUN: the statement runs and the model is charged */
  t0 = MPI_Wtime();
  MV_EMULATE_ALSO_RUN("dgemm", 100, 100, 100, also = 3);
  double t_also = MPI_Wtime() - t0;
  t0 = MPI_Wtime();
  MV_EMULATE("dgemm", 300, 300, 200, ran = 4);
  printf("rank %d big %.6f s\n", r, MPI_Wtime() - t0);
  printf("rank %d dgemm %.6f s ran %d\n", r, t, ran);
  printf("rank %d also-run %.6f s ran %d\n", r, t_also, also);
  MPI_Finalize();
  return 0;
}
C
"$MPIVET" simulate --calibration "$tmp/hosts" --platform cluster:2 --np 2 --cfg smpi/simulate-computation:no \
    "$tmp/hosts.c" > "$tmp/o" 2>&1 \
  || { cat "$tmp/o"; fail "per-host simulate"; }
awk '/^rank 0 dgemm .* ran 2$/ {a = $4} /^rank 1 dgemm .* ran 2$/ {b = $4}
     END {exit !(a > 0.00099 && a < 0.00102 && b > 0.00199 && b < 0.00203)}' "$tmp/o" \
  || { cat "$tmp/o"; fail "per-host kernel models not applied (expected 1 ms on node-0, 2 ms on node-1)"; }
awk '/^rank 0 also-run .* ran 3$/ {a = $4} /^rank 1 also-run .* ran 3$/ {b = $4}
     END {exit !(a > 0.00099 && a < 0.00102 && b > 0.00199 && b < 0.00203)}' "$tmp/o" \
  || { cat "$tmp/o"; fail "MV_EMULATE_ALSO_RUN: the statement must run and the model be charged (1 ms, 2 ms)"; }
awk '/^rank 0 big / {a = $4} /^rank 1 big / {b = $4}
     END {exit !(a > 0.0899 && a < 0.0902 && b > 0.0359 && b < 0.0362)}' "$tmp/o" \
  || { cat "$tmp/o"; fail "ranges of call size: expected 0.09 s on node-0 (its second row), 0.036 s on node-1"; }
grep -q '^mpivet/emulate.h: .*hosts.c:[0-9]*: kernel dtrsm has no model in kernels.h' "$tmp/o" \
  || { cat "$tmp/o"; fail "a kernel without a model must be reported"; }
[ "$(grep -c 'has no model' "$tmp/o")" = 1 ] || { cat "$tmp/o"; fail "no-model report: once, rank 0, not for an empty call"; }
echo "calibrate + simulate: ok"
