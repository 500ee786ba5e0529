#!/usr/bin/env bash
# Per-kernel accounting: the kernel calls a recording build timed (MV_EMULATE_RECORD_DIR's
# kernels-RANK.csv, or its warm solve alone, warm-RANK.csv of calibrate.sh) against a
# calibration's models of the same calls (its kernels.h, pooled rows; a call takes the row of its
# range of m n k, as mpivet/emulate.h does): per rank and kernel the calls, the measured seconds,
# the modelled seconds and their ratio, every rank's kernel total, then per kernel and size class
# (m n k within a factor 16, all ranks) the same ratio. Calls with m or n = 0 cost nothing
# emulated (mpivet/emulate.h), here too. Then, for calls recorded with their leading dimension
# (MV_EMULATE_LD: HPL's dgemm), the same per kernel for a leading dimension that is a multiple of
# 4 KiB and for the others. Last, per CSV, its cold start: the measured minus the
# modelled seconds of its calls within the first COLD_WINDOW seconds (default 0.002) of its
# kernel time (a warm-RANK.csv starts with a solve: MV_EMULATE_COLD, mpivet/emulate.h).
# Usage: account.sh KERNELS_H CSV...
set -euo pipefail
kh=$1; shift
awk -F, '
  FILENAME ~ /kernels\.h$/ {
    # {"dgemm", "", -1, from, {c0, ..., c7}, {s0, ..., s7}},   rows of a kernel ascending in from
    if (match($0, /^ *\{"[^"]+", "", -1, [^{]*\{/)) {
      old = $0 ~ /-1, \{/   # a version-2 kernels.h: no ranges
      line = $0; gsub(/[{}" ]/, "", line); split(line, v, ",")
      r = ++rows[v[1]]; from[v[1], r] = old ? 0 : v[4] + 0
      for (i = 0; i < 8; i++) coef[v[1], r, i] = v[5 - old + i]
    }
    next
  }
  FNR == 1 { next }   # the CSV header
  {
    op = $2; r = $3; m = $7; n = $8; k = $9; s = $11
    key = r SUBSEP op; calls[key]++; meas[key] += s; rtot[r] += s
    if (FNR == 2) { files[++nf] = FILENAME; ktime = 0 }
    ktime += s; cold_in = ktime <= window
    if (cold_in) cold[nf] += s
    if (!rows[op]) { model[key] += s; mtot[r] += s; if (cold_in) cold[nf] -= s; next }
    if (m <= 0 || n <= 0) next   # emulate.h: an empty call costs nothing (HPL polls with n = 0 dgemms)
    w = m * n * k; j = 1
    while (j < rows[op] && from[op, j + 1] <= w) j++
    p = coef[op,j,0]*w + coef[op,j,1]*m*n + coef[op,j,2]*m*k + coef[op,j,3]*n*k + coef[op,j,4]*m + coef[op,j,5]*n + coef[op,j,6]*k + coef[op,j,7]
    p = p > 0 ? p : 0
    model[key] += p; mtot[r] += p
    if (cold_in) cold[nf] -= p
    c = w >= 1 ? int(log(w) / log(16)) : 0; ck = op SUBSEP c
    ccalls[ck]++; cmeas[ck] += s; cmodel[ck] += p
    if ($6 > 0) {   # the leading dimension of the call in bytes (MV_EMULATE_LD), 0: not recorded
      lk = op SUBSEP ($6 % 4096 == 0 ? "a multiple of 4 KiB" : "other")
      lcalls[lk]++; lmeas[lk] += s; lmodel[lk] += p
    }
  }
  END {
    printf "%4s %-14s %8s %12s %12s %7s\n", "rank", "kernel", "calls", "measured s", "model s", "ratio"
    for (key in calls) {
      split(key, q, SUBSEP)
      ratio = meas[key] > 0 ? model[key] / meas[key] : 0
      note = rows[q[2]] ? "" : " (no model)"
      line = sprintf("%4s %-14s %8d %12.6f %12.6f %7.3f%s", q[1], q[2], calls[key], meas[key], model[key], ratio, note)
      print line | "sort -k1,1n -k4,4gr"
    }
    close("sort -k1,1n -k4,4gr")
    for (r in rtot) printf "rank %s: kernels measured %.6f s, modelled %.6f s (%.3f)\n", r, rtot[r], mtot[r], mtot[r] / rtot[r]
    printf "%-14s %-17s %8s %12s %12s %7s\n", "kernel", "m n k", "calls", "measured s", "model s", "ratio"
    for (ck in ccalls) {
      split(ck, q, SUBSEP)
      line = sprintf("%-14s 16^%-2d..16^%-2d    %8d %12.6f %12.6f %7.3f", q[1], q[2], q[2] + 1, ccalls[ck], cmeas[ck], cmodel[ck], cmodel[ck] / cmeas[ck])
      print line | "sort -k1,1 -k2,2V"
    }
    close("sort -k1,1 -k2,2V")
    for (lk in lcalls) {
      split(lk, q, SUBSEP)
      printf "%-14s ld %-19s %8d %12.6f %12.6f %7.3f\n", q[1], q[2], lcalls[lk], lmeas[lk], lmodel[lk], lmodel[lk] / lmeas[lk]
    }
    for (i = 1; i <= nf; i++)
      printf "cold start %s: %.6f s over the models in the first %g s of kernel time\n", files[i], cold[i], window
  }' window="${COLD_WINDOW:-0.002}" "$kh" "$@"
