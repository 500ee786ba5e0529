#!/usr/bin/env bash
# Builds HPL (from Debian's hpcc source, fetch-hpl.sh) with our patch hpl-mpivet.patch applied to a
# copy: OUT/hpl-openmpi (real, OpenBLAS), OUT/hpl-record (the same, every BLAS call and HPL's
# row-swap/copy kernels timed: MV_EMULATE_RECORD_DIR=D writes D/kernels-RANK.csv for `mpivet
# calibrate --kernel-records`), and with a calibration folder OUT/hpl-smpi (smpicc, the
# calibration's kernels.h force-included: the modelled kernels emulated, no matrix generation nor
# verification, one shared matrix). Usage: build.sh OUT [CALIBRATION_DIR]
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
# HPL_NO_MPI_DATATYPE (one of HPL's own compile options): panels travel as contiguous doubles
# copied into the panel's buffer (HPL_copyL) instead of an MPI struct type over the matrix. Under
# SMPI a derived type is packed into a fresh private buffer for every message, so each byte of a
# panel was copied three times and page-faulted in; contiguous sends from the partially shared
# panel copy only its private pages. Real and emulated builds use the same option.
opts="-DHPL_CALL_CBLAS -DHPL_NO_MPI_DATATYPE"
defining() { case $1 in src/pauxil/HPL_dlaswp*|src/auxil/HPL_dlacpy.c|src/auxil/HPL_dlatcpy.c) echo -DMV_HPL_DEFINING ;; esac; }
export -f defining
build() {  # build FLAVOR CC EXTRA...
  local flavor=$1 cc=$2; shift 2
  local obj="$out/obj-$flavor"; mkdir -p "$obj"
  for f in $files; do echo "$f"; done | xargs -P 2 -I{} bash -c \
    "o=\"$obj/\$(echo {} | tr / _).o\"; [ -f \"\$o\" ] || $cc -O2 -w $opts -I$src/include -I$top/include $* \$(defining {}) -c $src/{} -o \"\$o\""
  $cc -O2 -w -I"$src/include" -I"$top/include" "$@" "$here/main.c" "$obj"/*.o -o "$out/hpl-$flavor" -lopenblas -lm
}
build openmpi mpicc.openmpi
build record mpicc.openmpi -DMV_EMULATE_RECORD
if [ -n "$cal" ]; then   # every object includes kernels.h: another calibration rebuilds them
  cmp -s "$cal/kernels.h" "$out/obj-smpi/kernels.h" || rm -rf "$out/obj-smpi"
  mkdir -p "$out/obj-smpi"; cp "$cal/kernels.h" "$out/obj-smpi/kernels.h"
  build smpi smpicc -include "$cal/kernels.h"
fi
echo "build: $(ls -d "$out"/hpl-openmpi "$out"/hpl-record "$out"/hpl-smpi 2>/dev/null | tr '\n' ' ')"
