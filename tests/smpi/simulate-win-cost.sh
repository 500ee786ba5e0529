#!/usr/bin/env bash
# Window creation and release under `mpivet simulate` (include/mpivet/win-cost.h): a calibration
# folder whose calibration.json holds known window costs ("windows": pieces and SMPI's own cost
# per op) makes every MPI_Win_allocate, MPI_Win_create and MPI_Win_free of a program built with it
# take longer by exactly the fitted cost at the window's size minus SMPI's own (0 when that is
# negative). Known answers: the pieces below, evaluated here with awk (the piece whose lower
# bound the size exceeds, the first one below it); the program times each call on rank 0 after a
# barrier, with and without the header (MV_WIN_COST_OFF), SMPI's timing of the code off.
# Also: a folder without "windows" (before stop 32) loads and the report says so; a malformed
# "windows" is refused.
set -u
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
scratch tmp
cat > "$tmp/win.c" <<'C'
/* rank 0 prints, per size: allocate, free of it, create, free of it (simulated seconds) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static double timed(int what, MPI_Aint bytes, char *buf, MPI_Win *w)
{
  void *base;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (what == 0)
    MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, w);
  else if (what == 1)
    MPI_Win_create(buf, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, w);
  else
    MPI_Win_free(w);
  return MPI_Wtime() - t0;
}
int main(int argc, char **argv)
{
  static const MPI_Aint sizes[] = {0, 4096, 1000000, 1048576, 4194304};
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char *buf = calloc(4194304, 1);
  for (int i = 0; i < 5; i++) {
    MPI_Win w;
    double a = timed(0, sizes[i], buf, &w), af = timed(2, 0, buf, &w);
    double c = timed(1, sizes[i], buf, &w), cf = timed(2, 0, buf, &w);
    if (rank == 0)
      printf("size %ld %.9f %.9f %.9f %.9f\n", (long)sizes[i], a, af, c, cf);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
C
# pieces "from:intercept:slope;..." and SMPI's own cost, per op (win-allocate, win-allocate-free,
# win-create, win-create-free)
ops=(win-allocate win-allocate-free win-create win-create-free)
pieces=("0:1e-4:1e-9;1048576:5e-4:2e-9" "0:3e-5:1e-10" "0:2e-4:0" "0:1e-6:0")
own=(2e-5 0 1e-5 5e-6)
folder() {  # folder DIR WINDOWS-JSON: a hand-made calibration folder
  mkdir -p "$1"
  printf '{"format": "mpivet-calibration", "version": 3, "link_latency_s": 1e-6, "link_bandwidth_Bps": 1e10, "host_speed_flops": 1e9%s}\n' \
    "$2" > "$1/calibration.json"
  printf 'smpi/host-speed:1e9f\n' > "$1/smpi-settings.txt"
  echo '/* no kernel models */' > "$1/kernels.h"
  echo '<?xml version="1.0"?>' > "$1/platform.xml"   # simulate writes its own from the json
}
windows=
for i in 0 1 2 3; do
  list=
  IFS=';' read -ra ps <<< "${pieces[$i]}"
  for p in "${ps[@]}"; do
    IFS=: read -r from a b <<< "$p"
    list+="${list:+, }{\"from_bytes\": $from, \"to_bytes\": -1, \"intercept\": $a, \"slope\": $b}"
  done
  windows+="${windows:+, }\"${ops[$i]}\": {\"smpi_s\": ${own[$i]}, \"pieces\": [$list]}"
done
folder "$tmp/cal" ", \"windows\": {$windows}"
folder "$tmp/oldcal" ""
sim() {  # sim NAME CAL [OPTION...]: output in $tmp/NAME
  local name=$1 cal=$2; shift 2
  "$MPIVET" simulate --calibration "$cal" --np 2 --cfg smpi/simulate-computation:no "$@" "$tmp/win.c" \
    > "$tmp/$name" 2>&1 || { cat "$tmp/$name"; fail "simulate ($name)"; }
}
sim with "$tmp/cal"
sim off "$tmp/cal" --cflag -DMV_WIN_COST_OFF
sim old "$tmp/oldcal"
sim json "$tmp/cal" --json
# the charge of op i at size s: the pieces' value minus SMPI's own, at least 0
want() {
  awk -v s="$2" -v own="${own[$1]}" -v list="${pieces[$1]}" 'BEGIN {
    n = split(list, p, ";"); v = 0
    for (k = 1; k <= n; k++) { split(p[k], f, ":"); if (k == 1 || s > f[1]) v = f[2] + f[3] * s }
    v -= own; printf "%.9f", (v > 0 ? v : 0) }'
}
got() {  # got NAME SIZE COLUMN
  awk -v s="$2" -v c="$3" '$1 == "size" && $2 == s {print $(c + 3)}' "$tmp/$1"
}
for s in 0 4096 1000000 1048576 4194304; do
  for i in 0 1 2 3; do
    w=$(got with "$s" "$i") o=$(got off "$s" "$i")
    d=$(awk -v a="$w" -v b="$o" 'BEGIN {printf "%.9f", a - b}')
    near "${ops[$i]} at $s B: charged" "$d" "$(want "$i" "$s")" 2e-9
  done
done
# without the header nothing is charged: the same times as a calibration without window costs
[ "$(grep '^size' "$tmp/off")" = "$(grep '^size' "$tmp/old")" ] ||
  fail "MV_WIN_COST_OFF charged something: $(grep '^size' "$tmp/off") against $(grep '^size' "$tmp/old")"
grep -q "^mpivet simulate: the calibration has no window costs" "$tmp/old" ||
  { cat "$tmp/old"; fail "an old calibration's missing window costs are not reported"; }
! grep -q "no window costs" "$tmp/with" || fail "window costs reported missing although charged"
grep -Eq '"window_costs": ?true' "$tmp/json" || { cat "$tmp/json"; fail "--json: window_costs"; }
# a malformed "windows" is refused with its file named
folder "$tmp/bad" ', "windows": {"win-allocate": {"smpi_s": 0, "pieces": [{"from_bytes": 5, "to_bytes": -1, "intercept": 1, "slope": 0}]}}'
"$MPIVET" simulate --calibration "$tmp/bad" --np 2 "$tmp/win.c" > "$tmp/bad.out" 2>&1 &&
  fail "a malformed windows member was accepted"
grep -q 'calibration.json: not JSON, or a malformed "windows"' "$tmp/bad.out" ||
  { cat "$tmp/bad.out"; fail "the malformed windows member is not named"; }
finish
echo "window costs: allocate, create and both frees charged the fitted cost minus SMPI's own at 5 sizes: ok"
