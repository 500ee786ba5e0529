#!/usr/bin/env bash
# The 1024-rank HPL simulation of issue 19: the emulated HPL with contiguous panels
# (hpl-smpi-contig of build.sh with the calibration CAL: HPL_NO_MPI_DATATYPE, see there) at
# N (default 20000) on a 32 x 32 grid, NB 128, on a calibrated fat tree of 1024 hosts, with the
# parameters of the thesis' Stampede run (table 1.1): binary-exchange swap, long-modified panel
# broadcast, look-ahead depth 0. The ring broadcasts (1rM, 2rM) poll with MPI_Iprobe while a
# panel is on its way, and under SMPI every poll is a simulated call: at 64 ranks and N 5000 the
# run took more than 10 min with 1rM/depth 1 and 14 s with LnM/depth 0 (LnM does not probe).
# smpi/simulate-computation:no: the modelled kernels are injected, the rest of HPL's code is not
# timed (on a loaded machine its CPU time would enter the prediction); SMPI still reads the
# thread's CPU clock around every call, a system call here, which cpuclock.c (LD_PRELOAD) answers
# from the vDSO's monotonic clock.
# Prints HPL's line, the prediction, wall and CPU time and peak memory: /usr/bin/time's maximum
# resident size counts every page of SMPI_SHARED_MALLOC once per mapping (SimGrid maps the shared
# block with MAP_POPULATE: 7.9 GB of RSS for 1.1 GB of memory), so the proportional set size
# (sampled every 2 s) is also given, and as root the simulation runs in a memory cgroup limited to
# MEM_LIMIT (default 4G; cgroup v2, else v1's memory controller): the kernel charges each physical
# page once and kills the run beyond the limit, so "fits in 4 GB" is enforced, and the group's
# peak is printed.
# The machine is shared: the load average before and after is printed, and as root the simulation
# runs under `chrt -f 20` (at normal priority under load 16-26 it took 38 min of wall time for 6.8
# min of CPU); wall and CPU time are both printed.
# Usage: scale-1024.sh CAL [N=20000] [NB=128]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
cal=$(cd "$1" && pwd); n=${2:-20000}; nb=${3:-128}
mpivet=${MPIVET:-$top/build/bin/mpivet}
out=${HPL_OUT:-$(mktemp -d)}; mkdir -p "$out"   # HPL_OUT may be a new folder
bash "$here/build.sh" "$out" "$cal" > "$out/build.log"
cc -O2 -shared -fPIC "$here/cpuclock.c" -o "$out/cpuclock.so" -ldl   # see cpuclock.c
d="$out/run-1024-$n"; mkdir -p "$d/wd"; cd "$d"
sed -e "s/@N@/$n/; s/@NB@/$nb/; s/@P@/32/; s/@Q@/32/" \
    -E -e 's/^[0-9]+( +BCASTs)/5\1/; s/^[0-9]+( +DEPTHs)/0\1/; s/^[0-9]+( +SWAP )/0\1/' \
    "$here/hpccinf.in" > hpccinf.txt
pss_peak() {  # the largest proportional set size (KiB) of smpimain while it runs
  local max=0 p v
  while sleep 2; do
    p=$(pgrep -f "smpimain $out/hpl-smpi-contig" | head -1) || { [ "$max" -gt 0 ] && break; continue; }
    v=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
    [ "${v:-0}" -gt "$max" ] && { max=$v; echo "$max" > pss.txt; }
  done
}
# A memory cgroup for the run: prints its folder and the names of its limit, peak and OOM files.
memcg() {
  local g
  if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    g=/sys/fs/cgroup/mpivet-hpl-$$; mkdir "$g" && echo "$g memory.max memory.peak memory.events"
  elif [ -w /sys/fs/cgroup/memory ]; then
    g=/sys/fs/cgroup/memory/mpivet-hpl-$$; mkdir "$g" && echo "$g memory.limit_in_bytes memory.max_usage_in_bytes memory.oom_control"
  fi
}
limit=${MEM_LIMIT:-4G}
cg=(); [ "$(id -u)" = 0 ] && read -r -a cg <<< "$(memcg || true)"
[ ${#cg[@]} -eq 4 ] && { echo "$limit" > "${cg[0]}/${cg[1]}"; trap 'rmdir "${cg[0]}" 2>/dev/null || true' EXIT; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
pss_peak & sampler=$!
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
status=0
( [ ${#cg[@]} -eq 4 ] && echo "$BASHPID" > "${cg[0]}/cgroup.procs"
  LD_PRELOAD="$out/cpuclock.so" exec /usr/bin/time -v -o time.txt "${rt[@]}" "$mpivet" simulate --calibration "$cal" --platform fattree:1024 \
    --np 1024 --workdir "$d/wd" --cfg smpi/simulate-computation:no "$out/hpl-smpi-contig" > sim.txt ) || status=$?
kill "$sampler" 2>/dev/null || true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E '^hpl:|predicted' sim.txt || true
awk -F': ' '/Elapsed|User time|System time|Maximum resident/ {print "  " $1 ": " $2}' time.txt
echo "  peak proportional set size: $(( $(cat pss.txt 2>/dev/null || echo 0) / 1024 )) MiB"
if [ ${#cg[@]} -eq 4 ]; then
  echo "  memory cgroup: limit $(( $(cat "${cg[0]}/${cg[1]}") / 1048576 )) MiB, peak $(( $(cat "${cg[0]}/${cg[2]}") / 1048576 )) MiB, OOM kills $(awk '/^oom_kill / {print $2}' "${cg[0]}/${cg[3]}")"
else
  echo "  memory cgroup: none (not root, or no writable memory controller): the limit is not enforced"
fi
exit "$status"
