#!/usr/bin/env bash
# SMPI's own clock in `mpivet simulate` (src/cpuclock/cpuclock.c): SMPI times the code between two
# MPI calls with the thread CPU clock, a system call whose own cost (c, 0.6-2.1 us on KVM guests)
# lands in every interval and so in the simulated computation of every MPI call. With a
# calibration that gives c (cpu_clock_read_s), simulate takes c off each interval.
# Known answer, independent of the shim: c is measured here by a native program (1000 reads, as
# mpivet-calib does); the simulated program measures the CPU time of its own work with a direct
# system call (which neither SMPI's clock_gettime nor the shim sees), so per call
#   residual = simulated time per call - its measured work - smpi/iprobe
# is SMPI's overhead per interval: c + SimGrid's wrapper code without the correction, about c less
# with it. Checked: residual(raw) - residual(corrected) within 30 % of c, raw residual >= 0.8 c, and
# the report (text, --json: reads counted, cost, corrected or not, the warning when not).
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/cost.c" <<'C'
#include <stdio.h>
#include <time.h>
static double t(void) { struct timespec ts; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return ts.tv_sec + 1e-9 * ts.tv_nsec; }
int main(void)
{
  double best = 1;
  for (int r = 0; r < 5; r++) {
    double t0 = t();
    for (int i = 0; i < 1000; i++)
      t();
    double c = (t() - t0) / 1001;
    best = c < best ? c : best;
  }
  printf("%.9g\n", best);
  return 0;
}
C
cat > "$tmp/calls.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static volatile double sink;
static double cpu(void)   /* the real thread CPU clock, past SMPI's macro and the shim */
{
  struct timespec ts;
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
int main(int argc, char **argv)
{
  int r, flag, calls = 4000;
  double work = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (r == 0)
    for (int i = 0; i < calls; i++) {
      double w0 = cpu(), x = 0;
      for (int k = 0; k < 3000; k++)   /* a few us: every interval above smpi/cpu-threshold */
        x += k * 1e-9;
      sink = x;
      work += cpu() - w0;
      MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
  double t = MPI_Wtime() - t0;
  if (r == 0)
    printf("calls %d per-call %.9g work %.9g\n", calls, t / calls, work / calls);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
C
cc -O2 "$tmp/cost.c" -o "$tmp/cost" || fail "cannot build the clock-cost program"
c=$("$tmp/cost")
echo "thread CPU clock: $c s a read"
cal=$tmp/cal
mkdir "$cal"
printf '{"format": "mpivet-calibration", "version": 3, "link_latency_s": 1e-6, "link_bandwidth_Bps": 1e10, "host_speed_flops": 1e9, "cpu_clock_read_s": %s}\n' \
  "$c" > "$cal/calibration.json"
printf 'smpi/host-speed:1e9f\nsmpi/iprobe:1e-8\nsmpi/grow-injected-times:no\n' > "$cal/smpi-settings.txt"
echo '/* no kernel models */' > "$cal/kernels.h"
echo '<?xml version="1.0"?>' > "$cal/platform.xml"   # simulate writes its own from the json
sim() {  # sim NAME [OPTION...]: output in $tmp/NAME
  local name=$1; shift
  "$MPIVET" simulate --calibration "$cal" --np 2 --workdir "$tmp/wd" "$@" "$prog" > "$tmp/$name" 2>&1 ||
    { cat "$tmp/$name"; fail "simulate ($name)"; }
  prog=$tmp/wd/program
}
prog=$tmp/calls.c
sim corrected
sim raw --no-clock-correction
sim json --json
residual() { awk '/^calls/ {printf "%.9g", $4 - $6 - 1e-8}' "$tmp/$1"; }
rc=$(residual corrected) rr=$(residual raw)
echo "SMPI's overhead per MPI call: raw $rr s, corrected $rc s"
awk -v c="$c" -v r="$rr" -v k="$rc" 'BEGIN {d = r - k; exit !(d > 0.7 * c && d < 1.3 * c)}' ||
  fail "the correction took $(awk -v r="$rr" -v k="$rc" 'BEGIN {print r - k}') s a call off, expected the clock's $c s"
awk -v c="$c" -v r="$rr" 'BEGIN {exit !(r >= 0.8 * c)}' ||
  fail "uncorrected, SMPI's overhead per call ($rr s) should hold the clock's own cost ($c s)"
grep -Eq "^mpivet simulate: SMPI's timing of the code read the thread CPU clock [0-9]+ times; the cost of a read" "$tmp/corrected" ||
  fail "the correction is not reported"
reads=$(sed -n 's/.*thread CPU clock \([0-9]*\) times.*/\1/p' "$tmp/corrected")
[ "${reads:-0}" -ge 8000 ] || fail "reads counted: ${reads:-none}, expected at least 2 per MPI call (8000)"
grep -q "^mpivet simulate: warning: SMPI's timing of the code read the thread CPU clock" "$tmp/raw" ||
  fail "--no-clock-correction: no warning with the estimated bias"
grep -Eq '"cpu_clock_corrected": ?true' "$tmp/json" && grep -Eq '"code_timed": ?true' "$tmp/json" &&
  grep -Eq '"cpu_clock_reads": ?[0-9]{4,}' "$tmp/json" && grep -Eq '"cpu_clock_bias_s": ?[0-9]' "$tmp/json" ||
  { cat "$tmp/json"; fail "--json: the clock fields"; }
# a clock answered more cheaply behind the shim (bench/hpl/cpuclock.c maps it to CLOCK_MONOTONIC,
# hpl.sh's HPL_COMPUTE=timed): the shim takes off what a read costs there, not the calibrated cost
cc -O2 -shared -fPIC "$MV_SRC/bench/hpl/cpuclock.c" -o "$tmp/mono.so" -ldl || fail "cannot build cpuclock.c"
LD_PRELOAD="$tmp/mono.so" "$MPIVET" simulate --calibration "$cal" --np 2 --json "$prog" > "$tmp/mono" 2>&1 ||
  { cat "$tmp/mono"; fail "simulate with cpuclock.c preloaded"; }
used=$(sed -n 's/.*"cpu_clock_read_s": \{0,1\}\([0-9.e+-]*\).*/\1/p' "$tmp/mono")
awk -v u="$used" -v c="$c" 'BEGIN {exit !(u != "" && u < 0.5 * c)}' ||
  fail "behind a cheaper clock the shim took off ${used:-nothing} s a read, expected less than half of $c s"
# a generated benchmark's code is not timed: nothing to correct, nothing said
"$MPIVET" simulate --calibration "$cal" --np 2 --cfg smpi/simulate-computation:no --json "$prog" > "$tmp/off" 2>&1 ||
  fail "simulate without timing of the code"
grep -Eq '"code_timed": ?false' "$tmp/off" && grep -Eq '"cpu_clock_corrected": ?false' "$tmp/off" ||
  { cat "$tmp/off"; fail "simulate-computation:no: the code is not timed"; }
finish
echo "cpu clock correction: ok"
