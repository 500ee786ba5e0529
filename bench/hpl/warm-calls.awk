# The warm (second) solve's kernel calls of a recorded HPL run's kernels-RANK.csv (hpl-record,
# two solves per run): the header, then every row after the first verification dgemv (n > NB =
# 128) and pdlange's idamax calls right after it, up to the second verification dgemv. The first
# solve pays the process's one-time costs (OpenBLAS's first call of a variant: one dtrsm of
# 128 x 128 x 128 took 0.4-1.6 ms cold against 62-70 us warm, 2 ranks, N = 1000), which the
# simulation, whose prediction is the warm solve too, must not be fitted on.
# Usage: awk -F, -f warm-calls.awk kernels-RANK.csv
FNR == 1 { print; next }
$2 == "dgemv" && $8 > 128 { v++; skip = 1; next }
v == 1 && skip && $2 == "idamax" { next }
{ skip = 0 }
v == 1 { print }
