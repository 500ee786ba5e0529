# Sourced by hpl.sh, calibrate.sh and validate.sh: how one real or recorded HPL run is made, in
# one place. Needs $here (bench/hpl) and $out (the build folder of build.sh); sets rt (chrt -f 20
# as root) and, through keep-memory.sh, keep.
# - hpl_input N NB P Q: hpccinf.txt in the current folder for two solves of order N on a P x Q
#   grid (the second, warm solve is the measurement: the first pays the process's one-time costs).
# - hpl_real NP: one run of OUT/hpl-openmpi in the current folder (its hpccinf.txt); 0 when it
#   ended. As root under chrt -f 20 up to as many ranks as cores; with more ranks than cores
#   bound round-robin to the cores, yielding, at normal priority under timeout (HPL_TIMEOUT,
#   120 s): hpl.sh says why.
# - hpl_record NP DIR: one run of OUT/hpl-record in DIR (its hpccinf.txt), DIR/kernels-RANK.csv of
#   both solves and DIR/warm-RANK.csv, the warm solve's calls (warm-calls.awk); placed as hpl_real,
#   and with more ranks than cores timed in CPU time (MV_EMULATE_RECORD_CLOCK=thread).
# - hpl_warm_gflops [FILE]: the last (warm) solve's Gflop/s of hpccoutf.txt (or FILE).
# - hpl_median: the median of the numbers on stdin, one a line.
# - hpl_cold KERNELS_H DIR...: a solve's cold start (MV_EMULATE_COLD, mpivet/emulate.h) in seconds:
#   per recorded run DIR (warm-RANK.csv), the largest over its ranks of account.sh's cold start
#   (the first panel's owner pays it on the critical path), the median over the runs.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
source "$here/keep-memory.sh"
hpl_input() {
  sed -e "s/@N@/$1/; s/@NB@/$2/; s/@P@/$3/; s/@Q@/$4/" "$here/hpccinf.in" > hpccinf.txt
  sed -i -E 's/^1( +# of problems sizes)/2\1/; s/^([0-9]+)( +Ns)/\1 \1\2/' hpccinf.txt
}
# hpl_place NP: how a run of NP ranks is placed and launched, in place and launch_rt. Up to as
# many ranks as cores: as root under chrt -f 20. More: bound round-robin to the cores, yielding,
# at normal priority under timeout (hpl.sh says why).
hpl_place() {
  place=(); launch_rt=("${rt[@]}")
  if [ "$1" -gt "$(nproc)" ]; then
    place=(--bind-to core:overload-allowed --map-by core --mca mpi_yield_when_idle 1)
    launch_rt=(timeout "${HPL_TIMEOUT:-120}")
  fi
}
hpl_real() {
  local np=$1 place launch_rt; hpl_place "$np"
  rm -f hpccoutf.txt
  "${launch_rt[@]}" mpirun.openmpi --oversubscribe "${place[@]}" "${keep[@]}" -np "$np" "$out/hpl-openmpi" > /dev/null
}
hpl_record() {   # more ranks than cores: timed in CPU time (a call's wall time holds its core-mate's turns)
  local np=$1 d=$2 place launch_rt clock=${MV_EMULATE_RECORD_CLOCK:-}; hpl_place "$np"
  [ "$np" -gt "$(nproc)" ] && clock=thread
  (cd "$d" && MV_EMULATE_RECORD_DIR="$d" MV_EMULATE_RECORD_CLOCK="$clock" "${launch_rt[@]}" mpirun.openmpi \
     --oversubscribe "${place[@]}" -x MV_EMULATE_RECORD_DIR -x MV_EMULATE_RECORD_CLOCK "${keep[@]}" \
     -np "$np" "$out/hpl-record" > out.txt &&
   for f in kernels-*.csv; do awk -F, -f "$here/warm-calls.awk" "$f" > "warm-${f#kernels-}"; done)
}
hpl_warm_gflops() { awk '/^WR/ {g = $7} END {print g + 0}' "${1:-hpccoutf.txt}"; }
hpl_median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
hpl_cold() {
  local kh=$1 rd; shift
  for rd in "$@"; do
    bash "$here/account.sh" "$kh" "$rd"/warm-*.csv |
      awk '/^cold start / {c = $4 + 0; if (!n++ || c > m) m = c} END {if (n) printf "%.6g\n", m}'
  done | hpl_median
}
