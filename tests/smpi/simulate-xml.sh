#!/usr/bin/env bash
# Issue 15 (stop 23): `mpivet simulate --platform FILE.xml` runs on the user's SimGrid file as it
# is. A 1 MB message over the file's one 1 MBps link takes about 1 s of simulated time (SMPI's
# bandwidth factors keep it within 0.9 .. 1.5 s), where the built-in cluster:2 (10 GBps) takes
# under 10 ms: the file, not a built-in platform, was simulated. A malformed file, or --np/--ppn
# that its hosts cannot hold, is refused with exit 2 before smpicc runs (the work folder stays empty).
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/send.c" <<'C'
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
  int rank;
  char *buf = calloc(1000000, 1);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Send(buf, 1000000, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  else
    MPI_Recv(buf, 1000000, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  free(buf);
  return 0;
}
C
cat > "$tmp/two.xml" <<'X'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <link id="slow" bandwidth="1MBps" latency="0us"/>
    <route src="a" dst="b"><link_ctn id="slow"/></route>
  </zone>
</platform>
X
cp "$tmp/two.xml" "$tmp/two.orig"
"$MPIVET" simulate --platform "$tmp/two.xml" --np 2 --json "$tmp/send.c" > "$tmp/xml.json" 2> "$tmp/xml.err" ||
  { cat "$tmp/xml.err"; fail "simulate --platform FILE.xml: exit $?"; }
t=$(sed -n 's/.*"predicted_s": *\([0-9.e+-]*\).*/\1/p' "$tmp/xml.json")
awk -v t="$t" 'BEGIN { exit !(t >= 0.9 && t <= 1.5) }' ||
  fail "1 MB over a 1 MBps link predicted $t s, expected 0.9 .. 1.5 s ($(cat "$tmp/xml.json"))"
cmp -s "$tmp/two.xml" "$tmp/two.orig" || fail "the platform file was changed"
"$MPIVET" simulate --platform cluster:2 --np 2 --json "$tmp/send.c" > "$tmp/spec.json" 2>&1 ||
  fail "simulate --platform cluster:2: exit $?"
s=$(sed -n 's/.*"predicted_s": *\([0-9.e+-]*\).*/\1/p' "$tmp/spec.json")
awk -v s="$s" 'BEGIN { exit !(s < 0.01) }' || fail "cluster:2 predicted $s s, expected < 0.01 s"
# refused before anything runs: a bad file (FILE:LINE:COLUMN), too few hosts for --ppn
sed 's/speed="1Gf"//' "$tmp/two.xml" > "$tmp/nospeed.xml"
for args in "--platform $tmp/nospeed.xml --np 2" "--platform $tmp/two.xml --np 3 --ppn 1"; do
  mkdir -p "$tmp/w"
  # shellcheck disable=SC2086
  "$MPIVET" simulate $args --workdir "$tmp/w" "$tmp/send.c" > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc = 2 ] || fail "simulate $args: exit $rc, expected 2 ($(cat "$tmp/err"))"
  [ -z "$(ls -A "$tmp/w")" ] || fail "simulate $args: wrote $(ls "$tmp/w") before refusing"
done
grep -q "nospeed.xml:[0-9]*:[0-9]*:" <("$MPIVET" simulate --platform "$tmp/nospeed.xml" "$tmp/send.c" 2>&1) ||
  fail "a bad platform file is not named with line and column"
echo "simulate --platform FILE.xml: predicted $t s on the file's 1 MBps link, $s s on cluster:2: ok"
