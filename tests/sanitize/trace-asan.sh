#!/usr/bin/env bash
# The tracer under AddressSanitizer and UBSan on real MPI (the MV_SANITIZE build compiles the
# tracer and the examples with both): every example traced with `mpivet trace` under Open MPI
# and MPICH, the sanitizer runtimes preloaded first (mpivet trace keeps them in front of the
# tracer), with the event counts of tests/mpi/trace-lib.bash, then a rank killed by SIGSEGV
# (check_crash of tests/mpi/trace-lib.bash, as in tests/mpi/trace-crash.sh: the tracer's signal
# handler flushes, the finisher builds the truncated archive). Any sanitizer report fails it.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

asan=$(gcc -print-file-name=libasan.so) ubsan=$(gcc -print-file-name=libubsan.so)
[ -e "$asan" ] && [ -e "$ubsan" ] || { echo "no libasan/libubsan from gcc"; exit 77; }
nm -D "$MV_BUILD/lib/mpivet/openmpi/libmpivet-trace.so" 2>/dev/null | grep -q __asan_report ||
  nm -D "$MV_BUILD/lib/mpivet/mpich/libmpivet-trace.so" 2>/dev/null | grep -q __asan_report ||
  { echo "the tracer is not built with AddressSanitizer (MV_SANITIZE=ON)"; exit 77; }
export MV_TRACE_PRELOAD="$asan:$ubsan"
# MPI libraries keep memory until exit: leaks are not what this test looks for
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for flavor in openmpi mpich; do
  have_flavor "$flavor" || continue
  check_examples "$flavor"
  # handle_segv=0: the SIGSEGV is the test's own; the tracer's handler passes it on to the
  # handler before it, which would otherwise be ASan's (a report of that deliberate fault)
  ASAN_OPTIONS=detect_leaks=0:handle_segv=0 check_crash "$flavor"
done
reports=$(grep -l "ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer" "$WORK"/*.log 2>/dev/null)
for f in $reports; do
  fail "sanitizer report in $(basename "$f"):"
  grep -m3 -A8 "ERROR: AddressSanitizer\|runtime error:" "$f"
done
finish
