#!/usr/bin/env bash
# Issue 15, item 15: every command that writes, on a full disk (a 64 KiB tmpfs filled up) and in
# a read-only folder (a read-only tmpfs: chmod does not stop root), exits non-zero with a message
# naming the path and the system's reason, leaves no partial output file, and keeps the old
# content of a file it would have replaced. Before: "input/output error" (convert, analyze,
# platform), "write error"/"cannot write" with no reason (regress, platform), no path ("cannot
# create the campaign folder"), a launch failure with no cause (bench), and empty a.html,
# a.cubex, j.xml, j.json, p.xml, h files left behind on the full disk.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
KEEP_GOING=1
work=$(mktemp -d)
mkdir "$work/full" "$work/ro"
mount -t tmpfs -o size=64k tmpfs "$work/full" 2>/dev/null || { rmdir "$work/full" "$work/ro"; rm -rf "$work"; echo "cannot mount a tmpfs (not root?)"; exit 77; }
cleanup() { umount "$work/full" "$work/ro" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mount -t tmpfs -o ro,size=64k tmpfs "$work/ro" || fail "cannot mount a read-only tmpfs"
echo "old platform" > "$work/full/keep.xml"
dd if=/dev/zero of="$work/full/filler" bs=4k count=100 2>/dev/null
cat > "$work/r.csv" <<'CSV'
run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid
0,mpirun,X,2,1,MPI_Bcast,default,8,time_s,0,1e-06,1
0,mpirun,X,4,1,MPI_Bcast,default,8,time_s,0,2e-06,1
0,mpirun,X,8,1,MPI_Bcast,default,8,time_s,0,3e-06,1
CSV
synth=$(dirname "$MPIVET")/mv-otf2-synth
[ -x "$synth" ] && "$synth" stencil "$work/s4" 4 5 50000 > /dev/null

# expect WHY TARGET -- COMMAND...: non-zero exit below 128, TARGET and WHY in the message, and
# TARGET (a file) not left behind
expect() {
  local why=$1 target=$2
  shift 3
  "$@" > /dev/null 2> "$work/err"
  local rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "$*: exit $rc"
  grep -qF -- "$target" "$work/err" || fail "$*: message does not name $target: $(cat "$work/err")"
  grep -qiF -- "$why" "$work/err" || fail "$*: message does not say \"$why\": $(cat "$work/err")"
  grep -q "input/output error" "$work/err" && fail "$*: says only input/output error"
  [ -f "$target" ] && fail "$*: left $target behind"
  return 0
}
for d in full ro; do
  T=$work/$d
  why="No space left on device"
  [ $d = ro ] && why="Read-only file system"
  expect "$why" "$T/x.txt" -- "$MPIVET" convert "$work/r.csv" -o "$T/x.txt" --to extrap
  expect "$why" "$T/j.xml" -- "$MPIVET" regress "$work/r.csv" --baseline "$work/r.csv" --junit "$T/j.xml"
  expect "$why" "$T/j.json" -- "$MPIVET" regress "$work/r.csv" --baseline "$work/r.csv" --json "$T/j.json"
  expect "$why" "$T/p.xml" -- "$MPIVET" platform cluster:4 -o "$T/p.xml"
  expect "$why" "$T/h" -- "$MPIVET" platform cluster:4 -o "$work/p.xml" --hostfile "$T/h" --np 4
  if [ -x "$synth" ]; then
    expect "$why" "$T/a.html" -- "$MPIVET" analyze "$work/s4" --html "$T/a.html"
    expect "$why" "$T/a.cubex" -- "$MPIVET" analyze "$work/s4" --cube "$T/a.cubex"
  fi
  case " ${MV_FLAVORS:-} " in *" smpi "*)
    [ $d = ro ] || why="no space left on"
    expect "$why" "$T/c" -- "$MPIVET" check --np 4:8 --ops MPI_Bcast@8 -o "$T/c"
    expect "$why" "$T/b" -- "$MPIVET" bench --np 2 --ops MPI_Barrier --msizes 8 -o "$T/b" ;;
  esac
done
# a file that would be replaced keeps its old content on a full disk
"$MPIVET" platform cluster:4 -o "$work/full/keep.xml" 2> /dev/null && fail "platform -o on a full disk: exit 0"
[ "$(cat "$work/full/keep.xml")" = "old platform" ] || fail "keep.xml changed: $(head -c 100 "$work/full/keep.xml")"
ls "$work/full" | grep -q '\.tmp\.' && fail "temporary left: $(ls "$work/full")"
finish
echo ok
