#!/bin/bash
# The parallel analyzer (mpivet-analyze-mpi under Open MPI and MPICH, 2 and 3 processes) must
# give exactly the serial `mpivet analyze --json` on every synthetic archive of the unit tests
# (all patterns) and on a synthetic stencil with an imbalanced rank; with 3 processes the
# records are exchanged in rounds of 50 events (MPIVET_ANALYZE_STEP) to exercise the streaming,
# and the timelines go through the temporary file in blocks of 3 points with 2 blocks cached and
# to process 0 in rounds of 12 points, the wait states and synchronization points in rounds by time
# of 300 bytes (MPIVET_ANALYZE_ROUND: 100 per process, one wait or three sync points).
# Also on the stencil with one rank's event file cut in half: every analysis reads the same events
# (each location up to its cut) and names the same cut location.
set -u
work=$(mktemp -d /tmp/mv-analyze-par-XXXXXX)
trap 'rm -rf "$work"' EXIT
ran=0
MV_ANALYZE_KEEP=$work "$MV_BUILD/tests/test-analyze" >/dev/null 2>&1 || { echo "unit test failed"; exit 1; }
# root causes and critical path (archives r*): delay costs are fractions, identical to the bit
MV_ANALYZE_KEEP=$work "$MV_BUILD/tests/test-analyze-rootcause" >/dev/null 2>&1 || { echo "unit test failed"; exit 1; }
# one-sided root causes (archives o*)
MV_ANALYZE_KEEP=$work "$MV_BUILD/tests/test-analyze-rma-rootcause" >/dev/null 2>&1 || { echo "unit test failed"; exit 1; }
"$MV_BUILD/bin/mv-otf2-synth" stencil "$work/stencil" 6 50 30000 || exit 1
mkdir -p "$work/cut" && cp -r "$work/stencil/." "$work/cut/" || exit 1
evt="$work/cut/traces/2.evt"
truncate -s $(( $(stat -c %s "$evt") / 2 )) "$evt" || exit 1
"$MPIVET" analyze "$work/cut" --json > "$work/cut.json" 2>/dev/null
grep -q '"partial_note": "events of rank 2 (location 2) cut after event' "$work/cut.json" ||
  { echo "FAIL: the cut archive is not reported as cut on rank 2"; grep partial "$work/cut.json"; exit 1; }
strip() { grep -v '"tool":'; }
for flavor in openmpi mpich; do
  prog="$MV_BUILD/lib/mpivet/$flavor/mpivet-analyze-mpi"
  [ -x "$prog" ] || continue
  case $flavor in
    openmpi) run=(mpirun --oversubscribe) ;;
    mpich) run=(mpirun.mpich) ;;
  esac
  for dir in "$work"/a* "$work"/r* "$work"/o* "$work/stencil" "$work/cut"; do
    if ! "$MPIVET" analyze "$dir" --json > "$work/serial.raw" 2>/dev/null; then
      # an archive the serial analysis refuses (the unit tests' garbage anchor) must fail in parallel too
      if "${run[@]}" -np 2 "$prog" "$dir" --json >/dev/null 2>&1; then
        echo "FAIL: $flavor: parallel analysis accepted $dir, the serial one did not"
        exit 1
      fi
      continue
    fi
    strip < "$work/serial.raw" > "$work/serial.json"
    for np in 2 3; do
      step=0 block=0 round=0
      [ $np = 3 ] && step=50 block=3 round=300
      MPIVET_ANALYZE_STEP=$step MPIVET_ANALYZE_BLOCK=$block MPIVET_ANALYZE_ROUND=$round MPIVET_ANALYZE_CACHE=2 "${run[@]}" -np $np "$prog" "$dir" --json 2>/dev/null | strip > "$work/par.json"
      if ! cmp -s "$work/serial.json" "$work/par.json"; then
        echo "FAIL: $flavor -np $np differs from serial on $dir"
        diff "$work/serial.json" "$work/par.json" | head -20
        exit 1
      fi
      ran=$((ran + 1))
    done
  done
done
[ $ran -gt 0 ] || { echo "no MPI flavor built: skip"; exit 77; }
echo "ok: $ran parallel analyses identical to the serial ones"
