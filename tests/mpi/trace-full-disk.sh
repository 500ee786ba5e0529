#!/usr/bin/env bash
# Full disk: the trace folder is a 256 KiB tmpfs (needs root and mount rights, else skip) and
# stencil-2d records far more than that with a 4 KiB buffer. The run must end (no hang) with
# `mpivet trace` exiting 3, every rank saying "No space left on device" once, and mpivet naming
# the folder where no readable trace could be built; the application itself completes.
set -u
. "$MV_SRC/tests/mpi/trace-lib.bash"

small="$WORK/small"
mkdir -p "$small"
mount -t tmpfs -o size=256k tmpfs "$small" 2>/dev/null || { echo "cannot mount a small tmpfs (not root?): skip"; exit 77; }
trap 'umount "$small"; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT

for flavor in openmpi mpich smpi; do
  have_flavor "$flavor" || continue
  dir="$small/$flavor" log="$WORK/$flavor-full.log" before=$FAILS
  # shellcheck disable=SC2046
  TMPDIR="$WORK/smpi-tmp" timeout 120 "$MPIVET" trace -o "$dir" --buffer 4k --mpi "$flavor" -- \
    $(launcher "$flavor") "$(example "$flavor" stencil-2d)" 32 200 </dev/null >"$log" 2>&1
  rc=$?
  [ "$rc" = 124 ] && fail "$flavor: still running after 120 s (hang on a full disk?)"
  [ "$rc" = 3 ] || fail "$flavor: mpivet trace exited $rc, expected 3"
  n=$(grep -c "cannot write the trace in $dir/mpivet-raw: No space left on device; recording stopped" "$log")
  [ "$n" = 4 ] || fail "$flavor: $n of 4 ranks reported the full disk"
  grep -q "stencil-2d: 4 ranks" "$log" || fail "$flavor: the application did not complete"
  grep -q "mpivet trace: $dir: no readable trace could be built" "$log" || fail "$flavor: no final error"
  [ "$FAILS" = "$before" ] || cat "$log"
  rm -rf "$dir"
done
finish
