#!/usr/bin/env bash
# Issue 15, item 12 for SimGrid XML platforms (`--platform FILE`, check and bench): the file is
# read before anything runs; a missing, malformed or host-less file, a host without speed, a
# --hosts name the file lacks and a --ppn too small are exit 2 naming the file (line:column),
# with no output folder; fewer hosts than ranks warns and records ranks_per_host (meta.json,
# report). Before: check said nothing and judged several ranks per host, a <cluster> platform
# failed at launch ("invalid argument"), only the first 64 <host>s were used, a malformed file
# or a host without speed failed after the campaign started (exit 3), a missing file was called
# a bad built-in spec, and bench took --platform with --engine mpirun.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
KEEP_GOING=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head='<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
cat > "$work/two.xml" <<EOF
$head
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <link id="l" bandwidth="1GBps" latency="1us"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
  </zone>
</platform>
EOF
cat > "$work/c70.xml" <<EOF
$head
<platform version="4.1">
  <cluster id="c" prefix="n-" suffix=".x" radical="0-59,100-109" speed="1Gf" bw="1GBps" lat="1us"/>
</platform>
EOF
sed 's|<host id="b" speed="1Gf"/>|<host id="b"/>|' "$work/two.xml" > "$work/nospeed.xml"
sed 's|</zone>||' "$work/two.xml" > "$work/malformed.xml"
printf '%s\n<platform version="4.1"><zone id="z" routing="Full"/></platform>\n' "$head" > "$work/nohost.xml"
json() { python3 -c "import json,sys; print(eval(sys.argv[2], {'m': json.load(open(sys.argv[1]))}))" "$@"; }

# fewer hosts than ranks: check warns and records the ranks per host
"$MPIVET" check --np 4:8 --ops MPI_Bcast@800 --platform "$work/two.xml" --seed 1 -o "$work/c" \
  > /dev/null 2> "$work/err"
[ $? -le 1 ] || fail "check two.xml: $(cat "$work/err")"
grep -qF "warning: np 4..8 run 2..4 ranks per host of the 2 hosts of $work/two.xml" "$work/err" ||
  fail "check: no warning: $(cat "$work/err")"
[ "$(json "$work/c/meta.json" "m['plan']['ranks_per_host']")" = "[2, 4]" ] ||
  fail "meta.json ranks_per_host: $(json "$work/c/meta.json" "m['plan'].get('ranks_per_host')")"
grep -qF "np 4..8 run 2..4 ranks per host" "$work/c/report.txt" || fail "report: no ranks per host"
[ "$(sort "$work"/c/launches/np8*/hostfile | uniq -c | tr -s ' ')" = " 4 a
 4 b" ] || fail "np 8 hostfile: $(cat "$work"/c/launches/np8*/hostfile)"

# a <cluster> radical of 70 hosts (two ranges): every rank its own host, no warning
"$MPIVET" bench --engine smpi --np 70 --ops MPI_Barrier --msizes 8 --platform "$work/c70.xml" \
  -o "$work/b70" > /dev/null 2> "$work/err" || fail "bench c70.xml: $(cat "$work/err")"
[ "$(sort -u "$work/b70/launches/hostfile" | wc -l)" = 70 ] || fail "c70: not 70 hosts"
grep -qx "n-109.x" "$work/b70/launches/hostfile" || fail "c70: no n-109.x"
grep -q warning "$work/err" && fail "c70 warned: $(cat "$work/err")"
[ "$(json "$work/b70/meta.json" "m['ranks_per_host']")" = 1 ] || fail "bench meta.json ranks_per_host"
# bench with fewer hosts: warns, records 2
"$MPIVET" bench --engine smpi --np 4 --ops MPI_Barrier --msizes 8 --platform "$work/two.xml" \
  -o "$work/b2" > /dev/null 2> "$work/err" || fail "bench two.xml: $(cat "$work/err")"
grep -qF "warning: np 4 runs 2 ranks per host of the 2 hosts" "$work/err" || fail "bench: no warning"
[ "$(json "$work/b2/meta.json" "m['ranks_per_host']")" = 2 ] || fail "bench meta.json: not 2"

# bad platforms: exit 2 before anything runs, the message names the file and the fault
bad() {   # want, platform, extra options...
  local want=$1 platform=$2
  shift 2
  for cmd in check bench; do
    rm -rf "$work/out"
    "$MPIVET" $cmd --engine smpi --np 4 --ops MPI_Barrier --platform "$platform" "$@" \
      -o "$work/out" > /dev/null 2> "$work/err"
    local rc=$?
    [ $rc = 2 ] || fail "$cmd --platform $platform $*: exit $rc, want 2"
    grep -qF -- "$want" "$work/err" || fail "$cmd --platform $platform $*: want \"$want\", got: $(cat "$work/err")"
    [ -e "$work/out" ] && fail "$cmd --platform $platform $*: created the output folder"
  done
}
bad "--platform: $work/none.xml: No such file or directory" "$work/none.xml"
bad "--platform: $work/malformed.xml:10:1: expected </zone>, got </platform>" "$work/malformed.xml"
bad "--platform: $work/nospeed.xml:6:5: <host> without the speed attribute" "$work/nospeed.xml"
bad "--platform: $work/nohost.xml:4:1: no host" "$work/nohost.xml"
bad "--platform: $work: not a file" "$work"
bad "--platform: /bin/true:1:1: expected a tag, got" /bin/true
bad "--hosts: c is not a host of $work/two.xml" "$work/two.xml" --hosts a,c
bad "--ppn 1 on the 2 hosts of $work/two.xml places 2 ranks, np goes to 4" "$work/two.xml" --ppn 1
rm -rf "$work/out"
"$MPIVET" bench --engine mpirun --mpi openmpi --np 2 --platform "$work/two.xml" -o "$work/out" \
  > /dev/null 2> "$work/err"
[ $? = 2 ] && grep -qF -- "--platform applies to --engine smpi only" "$work/err" ||
  fail "bench --engine mpirun --platform: $(cat "$work/err")"
finish
echo ok
