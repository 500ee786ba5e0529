#!/usr/bin/env bash
# Per-kernel accounting: the kernel calls a recording build timed (MV_EMULATE_RECORD_DIR's
# kernels-RANK.csv) against a calibration's models of the same calls (its kernels.h, pooled rows):
# per rank and kernel the calls, the measured seconds, the modelled seconds and their ratio, then
# every rank's kernel total. Calls with m or n = 0 cost nothing emulated (mpivet/emulate.h), here too. Usage: account.sh KERNELS_H CSV...
set -euo pipefail
kh=$1; shift
awk -F, '
  FNR == 1 && NR == 1 { f = 0 }
  FILENAME ~ /kernels\.h$/ {
    # {"dgemm", "", -1, {c0, ..., c7}, {s0, ..., s7}},
    if (match($0, /^ *\{"[^"]+", "", -1, \{/)) {
      line = $0; gsub(/[{}" ]/, "", line); split(line, v, ",")
      for (i = 0; i < 8; i++) coef[v[1], i] = v[4 + i]
      have[v[1]] = 1
    }
    next
  }
  FNR == 1 { next }   # the CSV header
  {
    op = $2; r = $3; m = $7; n = $8; k = $9; s = $11
    key = r SUBSEP op; calls[key]++; meas[key] += s; rtot[r] += s
    if (have[op] && (m <= 0 || n <= 0)) {
      calls0[key]++   # emulate.h: an empty call costs nothing (HPL polls with n = 0 dgemms)
    } else if (have[op]) {
      p = coef[op,0]*m*n*k + coef[op,1]*m*n + coef[op,2]*m*k + coef[op,3]*n*k + coef[op,4]*m + coef[op,5]*n + coef[op,6]*k + coef[op,7]
      model[key] += (p > 0 ? p : 0); mtot[r] += (p > 0 ? p : 0)
    } else { model[key] += s; mtot[r] += s }
  }
  END {
    printf "%4s %-14s %8s %12s %12s %7s\n", "rank", "kernel", "calls", "measured s", "model s", "ratio"
    for (key in calls) {
      split(key, q, SUBSEP)
      ratio = meas[key] > 0 ? model[key] / meas[key] : 0
      note = have[q[2]] ? "" : " (no model)"
      line = sprintf("%4s %-14s %8d %12.6f %12.6f %7.3f%s", q[1], q[2], calls[key], meas[key], model[key], ratio, note)
      print line | "sort -k1,1n -k4,4gr"
    }
    close("sort -k1,1n -k4,4gr")
    for (r in rtot) printf "rank %s: kernels measured %.6f s, modelled %.6f s (%.3f)\n", r, rtot[r], mtot[r], mtot[r] / rtot[r]
  }' "$kh" "$@"
