#!/usr/bin/env bash
# Builds HPL (from Debian's hpcc source, fetch-hpl.sh) with our patch hpl-mpivet.patch applied to a
# copy: OUT/hpl-openmpi (real, OpenBLAS; OUT/pretouch.so is preloaded into its runs,
# keep-memory.sh), OUT/hpl-record (the same, every BLAS call and HPL's row-swap/copy kernels
# timed: MV_EMULATE_RECORD_DIR=D writes D/kernels-RANK.csv for `mpivet calibrate
# --kernel-records`), and with a calibration folder OUT/hpl-smpi (smpicc, the
# calibration's kernels.h force-included: the modelled kernels emulated, no matrix generation nor
# verification, one shared matrix) and OUT/hpl-smpi-contig (the same with contiguous panels, below).
# Usage: build.sh OUT [CALIBRATION_DIR]; HPL_CONTIG=0 skips hpl-smpi-contig (the 1024-rank build).
# HPL_DATATYPES=0 builds every flavour with HPL_NO_MPI_DATATYPE (contiguous panels and row
# pieces, as hpl-smpi-contig; objects in OUT/obj-FLAVOR-contig); stop 33: the real 4-rank run was
# as fast with it (N = 3000: 53.05 / 51.69 against 50.24 / 51.11 Gflop/s).
# HPL_TIMERS=1 builds every flavour with HPL's own phase timers (-DHPL_DETAILED_TIMING, objects in
# OUT/obj-FLAVOR-timers): each rank prints its wall seconds per phase of every solve on stderr
# ("mv-timers rank R N n total .. rfact .. pfact .. mxswp .. update .. laswp .. ptrsv .."; under
# SMPI in simulated time), so a real run and its simulation can be compared phase by phase.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); top=$(cd "$here/../.." && pwd)
out=$1; cal=${2:-}
mkdir -p "$out"
[ -d "$here/src/hpl" ] || bash "$here/fetch-hpl.sh" "$here/src"
src="$out/hpl-src"
if [ ! -d "$src" ]; then
  cp -r "$here/src/hpl" "$src"
  patch -s -d "$src" -p1 < "$here/hpl-mpivet.patch"
fi
files=$(cd "$src" && find src testing -name '*.c' | sort)
# The definitions of HPL's own kernels must not see the call-site macros of hpl_blas.h.
defining() { case $1 in src/pauxil/HPL_dlaswp*|src/auxil/HPL_dlacpy.c|src/auxil/HPL_dlatcpy.c|src/pfact/HPL_dlocswp[NT].c) echo -DMV_HPL_DEFINING ;; esac; }
export -f defining
timers=(); sfx=""; [ "${HPL_TIMERS:-0}" = 1 ] && timers=(-DHPL_DETAILED_TIMING) && sfx=-timers
[ "${HPL_DATATYPES:-1}" = 0 ] && timers+=(-DHPL_NO_MPI_DATATYPE) && sfx=$sfx-contig
build() {  # build FLAVOR CC EXTRA...
  local flavor=$1 cc=$2; shift 2
  set -- "${timers[@]}" "$@"
  local obj="$out/obj-$flavor$sfx"; mkdir -p "$obj"
  for f in $files; do echo "$f"; done | xargs -P 2 -I{} bash -c \
    "o=\"$obj/\$(echo {} | tr / _).o\"; [ -f \"\$o\" ] || $cc -O2 -w -DHPL_CALL_CBLAS -I$src/include -I$top/include $* \$(defining {}) -c $src/{} -o \"\$o\""
  $cc -O2 -w -I"$src/include" -I"$top/include" "$@" "$here/main.c" "$obj"/*.o -o "$out/hpl-$flavor" -lopenblas -lm
}
build openmpi mpicc.openmpi
build record mpicc.openmpi -DMV_EMULATE_RECORD
cc -O2 -shared -fPIC "$here/pretouch.c" -o "$out/pretouch.so"   # the real runs' preload (keep-memory.sh)
# hpl-smpi-contig, for the 1024-rank run (scale-1024.sh), is built with HPL_NO_MPI_DATATYPE (one of
# HPL's own options): a panel travels as contiguous doubles copied into its buffer (HPL_copyL)
# instead of an MPI struct type over the matrix. SMPI packs a derived type into a fresh private
# buffer for every message, so each byte of a panel was copied three times and page-faulted in
# (at 1024 ranks the run grew faster than N); contiguous sends from the partially shared panel
# copy only its private pages. The real runs and the small simulations keep HPL's default (struct
# types): built with the option, real HPL ran 47-48 Gflop/s instead of 60-62 at N 2000 on 2 ranks.
# HPL_CALL_SECONDS=S (emulated builds): S seconds of HPL's own code charged with every emulated
# kernel call (MV_EMULATE_CALL_SECONDS, mpivet/emulate.h; calibrate.sh measures it on one rank).
# HPL_COLD_SECONDS=C (emulated builds): C seconds charged at the start of every solve, the first
# kernel calls' cold start (MV_EMULATE_COLD, mpivet/emulate.h; validate.sh measures it).
# HPL_HANDOFF_SECONDS=H (> 0) also builds hpl-smpi-handoff, for ranks that share cores: every
# completed receive sleeps H simulated seconds (MV_EMULATE_HANDOFF_SECONDS,
# mpivet/emulate-handoff.h; hpl.sh measures H with bench/sim/oversub.sh). HPL_WAKE_QUANTILES=q0,..,q100
# adds to it the wake-up of a receiver whose core-mate computes (MV_EMULATE_WAKE_QUANTILES, the
# deciles of the delay in seconds; oversub.sh's wake-quantiles line), HPL_SPIN_SECONDS=X and
# HPL_SPIN_AFTER_SECONDS=D the core time a waiting rank takes from its computing core-mate
# (MV_EMULATE_SPIN_SECONDS, _AFTER_SECONDS; oversub.sh's spin-seconds line).
# The emulated flavours are built with the late probe (-DMV_EMULATE_PROBE_LATE,
# mpivet/emulate-handoff.h; HPL_PROBE_LATE=0 leaves it out): a panel that arrived while a rank
# updated is found by its second MPI_Iprobe, one update chunk later, as Open MPI and MPICH do
# (bench/sim/probe-late.c).
# HPL_SCHED_TICK_SECONDS=T adds the core's scheduler to hpl-smpi-handoff (MV_EMULATE_SCHED_TICK_SECONDS,
# mpivet/emulate-sched.h: a core's ranks take turns, handed over at ticks of T), HPL_COPY=1 the
# receiver's copy as core time (MV_EMULATE_COPY: the calibration's recv fit, in kernels.h).
if [ -n "$cal" ]; then   # every object includes kernels.h: another calibration rebuilds them
  flavors="smpi"; [ "${HPL_CONTIG:-1}" = 0 ] || flavors="smpi smpi-contig"
  handoff=${HPL_HANDOFF_SECONDS:-0}; wake=()
  [ -n "${HPL_WAKE_QUANTILES:-}" ] && wake=(-DMV_EMULATE_WAKE_QUANTILES="$HPL_WAKE_QUANTILES")
  [ -n "${HPL_SPIN_SECONDS:-}" ] &&
    wake+=(-DMV_EMULATE_SPIN_SECONDS="$HPL_SPIN_SECONDS" -DMV_EMULATE_SPIN_AFTER_SECONDS="${HPL_SPIN_AFTER_SECONDS:-0}")
  [ -n "${HPL_SCHED_TICK_SECONDS:-}" ] && wake+=(-DMV_EMULATE_SCHED_TICK_SECONDS="$HPL_SCHED_TICK_SECONDS")
  [ "${HPL_COPY:-0}" = 1 ] && wake+=(-DMV_EMULATE_COPY)
  if awk -v h="$handoff" 'BEGIN {exit !(h > 0)}'; then flavors="$flavors smpi-handoff"
  else rm -f "$out/hpl-smpi-handoff"; fi   # hpl.sh takes it when it exists
  emu=(-include "$cal/kernels.h" -DMV_EMULATE_CALL_SECONDS="${HPL_CALL_SECONDS:-0.0}"
       -DMV_EMULATE_COLD_SECONDS="${HPL_COLD_SECONDS:-0.0}")
  [ "${HPL_PROBE_LATE:-1}" = 1 ] && emu+=(-DMV_EMULATE_PROBE_LATE)
  for flavor in $flavors; do
    o="$out/obj-$flavor$sfx"
    w=(); [ "$flavor" = smpi-handoff ] && w=("${wake[@]}")
    { cat "$cal/kernels.h"; echo "/* ${emu[*]} handoff $handoff${w[*]:+ ${w[*]}} */"; } > "$out/kernels.h.new"
    cmp -s "$out/kernels.h.new" "$o/kernels.h" || rm -rf "$o"
    mkdir -p "$o"; mv "$out/kernels.h.new" "$o/kernels.h"
  done
  build smpi smpicc "${emu[@]}"
  [ "${HPL_CONTIG:-1}" = 0 ] || build smpi-contig smpicc "${emu[@]}" -DHPL_NO_MPI_DATATYPE
  case " $flavors " in *" smpi-handoff "*) build smpi-handoff smpicc "${emu[@]}" -DMV_EMULATE_HANDOFF_SECONDS="$handoff" "${wake[@]}" ;; esac
fi
echo "build: $(ls -d "$out"/hpl-openmpi "$out"/hpl-record "$out"/hpl-smpi* 2>/dev/null | tr '\n' ' ')"
