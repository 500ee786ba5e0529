#!/usr/bin/env bash
# `mpivet trace` puts the tracer at the front of LD_PRELOAD (its MPI functions must win over
# another preloaded PMPI tool's), except behind leading sanitizer runtimes, which must load
# first (AddressSanitizer refuses to start otherwise). The launcher here is a shell that
# writes the LD_PRELOAD it got; paths that do not exist are only warned about by ld.so.
# A command that gives the ranks an LD_PRELOAD of its own (mpirun -x LD_PRELOAD=..., MPICH's
# -env/-genv LD_PRELOAD ..., env LD_PRELOAD=...) would run them untraced: refused (exit 2,
# naming the argument) before it runs; -x LD_PRELOAD without a value passes the tracer's on.
set -u
. "$(dirname "$0")/../lib.bash"
lib=$(dirname "$MPIVET")/../lib/mpivet/openmpi/libmpivet-trace.so
[ -e "$lib" ] || { echo "skip: no Open MPI tracer built"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# got PRELOAD: the LD_PRELOAD the launched command saw, the tracer's path written as T
got() {
  LD_PRELOAD="$1" "$MPIVET" trace --mpi openmpi -o "$work/tr" -- \
    sh -c 'printf "%s" "$LD_PRELOAD" >"$0"' "$work/seen" >/dev/null 2>&1
  sed "s#$lib#T#" "$work/seen"
}
[ "$(got "")" = "T" ] || fail "empty LD_PRELOAD: got '$(got "")'"
[ "$(got "/x/libother.so")" = "T:/x/libother.so" ] || fail "other tool: got '$(got /x/libother.so)'"
[ "$(got "/x/libasan.so.8")" = "/x/libasan.so.8:T" ] || fail "asan: got '$(got /x/libasan.so.8)'"
want="/x/libasan.so.8:/y/libubsan.so.1 T:/x/libother.so"
[ "$(got "/x/libasan.so.8:/y/libubsan.so.1 /x/libother.so")" = "$want" ] ||
  fail "asan, ubsan, other: got '$(got "/x/libasan.so.8:/y/libubsan.so.1 /x/libother.so")'"
[ "$(got "/x/libother.so:/x/libasan.so.8")" = "T:/x/libother.so:/x/libasan.so.8" ] ||
  fail "asan not first: got '$(got "/x/libother.so:/x/libasan.so.8")'"
# refused FLAVOR LAUNCH...: exit 2, the argument named, the command not run
refused() {
  local flavor=$1; shift
  rm -rf "$work/tr2" "$work/ran"
  "$MPIVET" trace --mpi "$flavor" -o "$work/tr2" -- "$@" > "$work/out" 2>&1; rc=$?
  [ "$rc" = 2 ] || { cat "$work/out"; fail "$*: exit $rc, expected 2"; }
  grep -q "sets the ranks' LD_PRELOAD" "$work/out" || { cat "$work/out"; fail "$*: no reason given"; }
  [ ! -e "$work/ran" ] || fail "$*: the command ran"
}
refused openmpi mpirun.openmpi -np 2 -x LD_PRELOAD=/x/libother.so touch "$work/ran"
refused mpich mpirun.mpich -np 2 -genv LD_PRELOAD /x/libother.so touch "$work/ran"
refused openmpi env LD_PRELOAD=/x/libother.so touch "$work/ran"
rm -rf "$work/tr"
"$MPIVET" trace --mpi openmpi -o "$work/tr" -- sh -c 'touch "$0"' "$work/ran" -x LD_PRELOAD > /dev/null 2>&1
[ -e "$work/ran" ] || fail "an argument LD_PRELOAD without a value was refused"
echo "LD_PRELOAD order as expected; a command's own LD_PRELOAD refused"
