#!/usr/bin/env bash
# The kernel recording's clock (mpivet/emulate.h, -DMV_EMULATE_RECORD): by default a call is timed
# in wall time; with MV_EMULATE_RECORD_CLOCK=thread in the thread's CPU time (for ranks that share
# a core: a call's wall time would include its core-mate's turns), the clock read's own cost taken
# off. Known answers from what the calls do, on every real MPI built, 1 rank:
# - "dgemm" sleeps 20 ms (usleep): wall time >= 20 ms; CPU time under 2 ms (a sleep computes
#   nothing);
# - "dtrsm" spins until its thread has used 20 ms of CPU: CPU time 20 ms (19-25 ms: a read of the
#   clock at each turn of the loop), wall time at least that, however loaded the machine.
# And the record's bytes column: a call's leading dimension in bytes through MV_EMULATE_LD
# ("dger", 12288), 0 through MV_EMULATE.
set -u
. "$(dirname "$0")/../lib.bash"
real_flavors
scratch tmp
cat > "$tmp/rec.c" <<'C'
#include <mpi.h>
#include <time.h>
#include <unistd.h>
#include "mpivet/emulate.h"
static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static void spin(double s) { for (double t0 = cpu(); cpu() - t0 < s;) {} }
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MV_EMULATE("dgemm", 1, 1, 1, usleep(20000));
  MV_EMULATE("dtrsm", 1, 1, 1, spin(0.02));
  MV_EMULATE_LD("dger", 2, 3, 1, 12288, spin(0.001));
  MPI_Finalize();
  return 0;
}
C
secs() { awk -F, -v k="$2" '$2 == k {print $11}' "$1/kernels-0.csv"; }
for mpi in $REAL_FLAVORS; do
  cc=mpicc.$mpi
  $cc -O2 -DMV_EMULATE_RECORD -I"$MV_SRC/include" "$tmp/rec.c" -o "$tmp/rec-$mpi" -lm ||
    { fail "$mpi: build"; continue; }
  launcher=$(mpi_launcher $mpi)
  for clock in wall thread; do
    d="$tmp/$mpi-$clock"; mkdir -p "$d"
    extra=(); [ $clock = thread ] && extra=(MV_EMULATE_RECORD_CLOCK=thread)
    env MV_EMULATE_RECORD_DIR="$d" "${extra[@]}" $launcher -n 1 "$tmp/rec-$mpi" ||
      { fail "$mpi $clock: run"; continue; }
    [ -s "$d/kernels-0.csv" ] || { fail "$mpi $clock: no record"; continue; }
  done
  awk -v s="$(secs "$tmp/$mpi-wall" dgemm)" 'BEGIN {exit !(s >= 0.02)}' ||
    fail "$mpi: wall clock: a 20 ms sleep recorded as $(secs "$tmp/$mpi-wall" dgemm) s"
  awk -v s="$(secs "$tmp/$mpi-wall" dtrsm)" 'BEGIN {exit !(s >= 0.019)}' ||
    fail "$mpi: wall clock: 20 ms of CPU recorded as $(secs "$tmp/$mpi-wall" dtrsm) s"
  awk -v s="$(secs "$tmp/$mpi-thread" dgemm)" 'BEGIN {exit !(s < 0.002)}' ||
    fail "$mpi: thread clock: a 20 ms sleep recorded as $(secs "$tmp/$mpi-thread" dgemm) s"
  near "$mpi: thread clock: 20 ms of CPU" "$(secs "$tmp/$mpi-thread" dtrsm)" 0.022 0.003
  ld=$(awk -F, '$2 == "dger" {print $6 "," $7 "," $8}' "$tmp/$mpi-wall/kernels-0.csv")
  [ "$ld" = "12288,2,3" ] || fail "$mpi: MV_EMULATE_LD: bytes,m,n \"$ld\", expected 12288,2,3"
  ld=$(awk -F, '$2 == "dgemm" {print $6}' "$tmp/$mpi-wall/kernels-0.csv")
  [ "$ld" = 0 ] || fail "$mpi: MV_EMULATE: bytes \"$ld\", expected 0"
done
finish
echo "recording clocks: ok"
