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
#   both solves and DIR/warm-RANK.csv, the warm solve's calls (warm-calls.awk); with more ranks than
#   cores placed and run as hpl_real (MV_EMULATE_RECORD_CLOCK=thread: calls timed in CPU time).
# - hpl_warm_gflops [FILE]: the last (warm) solve's Gflop/s of hpccoutf.txt (or FILE).
# - hpl_median: the median of the numbers on stdin, one a line.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
rt=(); [ "$(id -u)" = 0 ] && rt=(chrt -f 20)
source "$here/keep-memory.sh"
hpl_input() {
  sed -e "s/@N@/$1/; s/@NB@/$2/; s/@P@/$3/; s/@Q@/$4/" "$here/hpccinf.in" > hpccinf.txt
  sed -i -E 's/^1( +# of problems sizes)/2\1/; s/^([0-9]+)( +Ns)/\1 \1\2/' hpccinf.txt
}
hpl_real() {
  local np=$1 bind=() real_rt=("${rt[@]}")
  if [ "$np" -gt "$(nproc)" ]; then
    bind=(--bind-to core:overload-allowed --map-by core --mca mpi_yield_when_idle 1)
    real_rt=(timeout "${HPL_TIMEOUT:-120}")
  fi
  rm -f hpccoutf.txt
  "${real_rt[@]}" mpirun.openmpi --oversubscribe "${bind[@]}" "${keep[@]}" -np "$np" "$out/hpl-openmpi" > /dev/null
}
hpl_record() {
  local np=$1 d=$2 bind=() rec_rt=("${rt[@]}") pass=(-x MV_EMULATE_RECORD_DIR)
  [ -n "${MV_EMULATE_RECORD_CLOCK:-}" ] && pass+=(-x MV_EMULATE_RECORD_CLOCK)
  if [ "$np" -gt "$(nproc)" ]; then   # as hpl_real (calibrate.sh allows it with the thread clock)
    bind=(--bind-to core:overload-allowed --map-by core --mca mpi_yield_when_idle 1)
    rec_rt=(timeout "${HPL_TIMEOUT:-120}")
  fi
  (cd "$d" && MV_EMULATE_RECORD_DIR="$d" "${rec_rt[@]}" mpirun.openmpi --oversubscribe "${bind[@]}" \
     "${pass[@]}" "${keep[@]}" -np "$np" "$out/hpl-record" > out.txt &&
   for f in kernels-*.csv; do awk -F, -f "$here/warm-calls.awk" "$f" > "warm-${f#kernels-}"; done)
}
hpl_warm_gflops() { awk '/^WR/ {g = $7} END {print g + 0}' "${1:-hpccoutf.txt}"; }
hpl_median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
