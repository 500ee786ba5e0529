#!/usr/bin/env bash
# Builds HPL (from Debian's hpcc source, fetch-hpl.sh) with our patch hpl-mpivet.patch applied to a
# copy: OUT/hpl-openmpi (real, OpenBLAS), and with a calibration folder OUT/hpl-smpi (smpicc, the
# calibration's kernels.h force-included: dgemm/dtrsm emulated, no matrix generation nor
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
build() {  # build FLAVOR CC EXTRA...
  local flavor=$1 cc=$2; shift 2
  local obj="$out/obj-$flavor"; mkdir -p "$obj"
  for f in $files; do echo "$f"; done | xargs -P 2 -I{} sh -c \
    "o=\"$obj/\$(echo {} | tr / _).o\"; [ -f \"\$o\" ] || $cc -O2 -w -DHPL_CALL_CBLAS -I$src/include -I$top/include $* -c $src/{} -o \"\$o\""
  $cc -O2 -w -I"$src/include" -I"$top/include" "$@" "$here/main.c" "$obj"/*.o -o "$out/hpl-$flavor" -lopenblas -lm
}
build openmpi mpicc.openmpi
[ -z "$cal" ] || build smpi smpicc -include "$cal/kernels.h"
echo "build: $(ls "$out"/hpl-* | tr '\n' ' ')"
