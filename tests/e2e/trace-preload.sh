#!/usr/bin/env bash
# `mpivet trace` puts the tracer at the front of LD_PRELOAD (its MPI functions must win over
# another preloaded PMPI tool's), except behind leading sanitizer runtimes, which must load
# first (AddressSanitizer refuses to start otherwise). The launcher here is a shell that
# writes the LD_PRELOAD it got; paths that do not exist are only warned about by ld.so.
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
echo "LD_PRELOAD order as expected"
