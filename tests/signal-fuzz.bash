# Signals at random moments and concurrent runs (issue 15's adversarial pass), sourced by
# bench/trust_fuzz/run.sh (long) and tests/e2e/trust-signals.sh (short). Needs MPIVET, SEED and
# ROUNDS set, lib.bash sourced (fail/finish), and a scratch folder in W.
#
# A round starts a command in a session of its own, waits a random 0..T s (seeded: RANDOM=SEED),
# and sends one of SIGINT to the session (Ctrl-C), SIGTERM to mpivet alone (kill), SIGKILL to the
# session (kill -9 of the job). Afterwards:
#   - no process of the run is left, and the folder's lock is free (the next command on it is not
#     refused "in use");
#   - an interrupted run exits 2 or 3 (never 0 or 1, which would claim a result);
#   - check: the report exists only when the journal holds every launch, and `check --resume`
#     gives rows byte-identical (sorted) to an uninterrupted run with the same seed (docs/check.md);
#   - convert, benchgen: the output file is absent or identical to the uninterrupted run's
#     (atomic writes, docs/formats.md), and no temporary file is left next to it;
#   - trace: the next `trace -o DIR` is refused as holding an earlier trace (never replaced), and
#     `analyze DIR` ends by itself with exit 0 (a note names a cut archive) or 2.
# Concurrent: two runs of one command on one output at once: one of them is refused with exit 2
# before it writes, the other one's output is what a single run writes.

SIGS=(INT TERM KILL)

# run_cut NAME T CMD...: run CMD with a signal after a random 0..T s; RC gets its exit status
# (or 0/1 when it ended first), SIG the signal sent ("" when it ended first).
run_cut() {
  local name=$1 t=$2
  shift 2
  setsid "$@" > "$W/$name.out" 2> "$W/$name.err" &
  local pid=$! ms=$((RANDOM % (t * 1000 + 1)))
  SIG=${SIGS[RANDOM % 3]}
  sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
  # a zombie (ended, not yet reaped) takes kill -0 too: only a running process is cut
  if kill -0 "$pid" 2> /dev/null && [ "$(ps -o stat= -p "$pid" | cut -c1)" != Z ]; then
    case $SIG in
      TERM) kill -TERM "$pid" 2> /dev/null || SIG="" ;;
      *) kill -"$SIG" -- -"$pid" 2> /dev/null || SIG="" ;;
    esac
  else
    SIG=""
  fi
  local sent_ns
  sent_ns=$(date +%s%N)
  RC=0
  wait "$pid" || RC=$?
  # ended within 200 ms of the signal with 0 or 1: it was leaving already (its last launch was
  # done; a stop-25 round saw calibrate pass `ps` as running, then exit 0 1 ms later). A run
  # that ignored the signal would go on for its remaining launches.
  if [ -n "$SIG" ] && [ "$RC" -lt 2 ] && [ $(($(date +%s%N) - sent_ns)) -lt 200000000 ]; then
    echo "note: $name: SIG$SIG at ${ms} ms came as it ended (exit $RC within 200 ms)"
    SIG=""
  fi
  CUT_AT="${ms} ms"
  # the run's processes end within 5 s (launchers take their time on a loaded machine: a fixed
  # 0.3 s reported sessions that were empty a moment later, at load 33 on 2 cores)
  local tries=0
  while pgrep -s "$pid" > /dev/null && [ $tries -lt 50 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
  local left
  left=$(pgrep -s "$pid" -a | head -3)
  if [ -n "$left" ]; then
    fail "$name: SIG$SIG after $CUT_AT: processes left after 5 s: $left"
    pkill -KILL -s "$pid" 2> /dev/null
  fi
  if [ -n "$SIG" ] && [ "$RC" -lt 2 ]; then
    # the signal reached mpivet while it ran: it must not claim a result
    fail "$name: exit $RC after SIG$SIG at $CUT_AT"
  fi
  if [ -n "$SIG" ] && grep -q "finished in" "$W/$name.err"; then
    fail "$name: says \"finished\" after SIG$SIG at $CUT_AT: $(grep "finished in" "$W/$name.err")"
  fi
  grep -qE "AddressSanitizer|runtime error:" "$W/$name.err" && fail "$name: sanitizer report"
  ROUNDS_RUN=$((ROUNDS_RUN + 1))
}

# not_in_use NAME FILE: the command's stderr in FILE must not say the folder is still locked.
not_in_use() {
  grep -q "in use" "$2" && fail "$1: lock not released after SIG$SIG at $CUT_AT: $(head -2 "$2")"
  return 0
}

signals_check() {
  local args=(--engine smpi --np 4,8,16 --ops MPI_Bcast@800,MPI_Allreduce@800 --runs 2 --reps 3
              --seed 42)
  "$MPIVET" check "${args[@]}" -o "$W/ref-check" > /dev/null 2>&1
  sort "$W/ref-check/results.csv" > "$W/ref-check.sorted"
  local i total
  total=$(wc -l < "$W/ref-check/campaign.journal")
  for i in $(seq 1 "$ROUNDS"); do
    rm -rf "$W/c"
    run_cut check 6 "$MPIVET" check "${args[@]}" -o "$W/c"
    [ -d "$W/c" ] || continue
    if [ -f "$W/c/report.txt" ] && [ "$(wc -l < "$W/c/campaign.journal" 2> /dev/null)" != "$total" ]; then
      fail "check: a report beside an unfinished journal after SIG$SIG at $CUT_AT"
    fi
    [ -f "$W/c/campaign.plan" ] || continue   # cut before the plan: nothing to resume
    "$MPIVET" check --resume "$W/c" > /dev/null 2> "$W/resume.err"
    local rc=$?
    not_in_use check "$W/resume.err"
    [ $rc -le 1 ] || { fail "check: resume after SIG$SIG at $CUT_AT: exit $rc: $(tail -2 "$W/resume.err")"; continue; }
    sort "$W/c/results.csv" | cmp -s - "$W/ref-check.sorted" ||
      fail "check: rows after SIG$SIG at $CUT_AT and resume differ from an uninterrupted run"
  done
}

signals_bench() {
  local i
  for i in $(seq 1 "$ROUNDS"); do
    rm -rf "$W/b"
    run_cut bench 3 "$MPIVET" bench --engine smpi --np 8 --runs 3 --ops MPI_Bcast --msizes 8,1024 -o "$W/b"
    [ -d "$W/b" ] || continue
    "$MPIVET" bench --engine smpi --np 2 --runs 1 --ops MPI_Bcast --msizes 8 -o "$W/b" > /dev/null 2> "$W/again.err"
    not_in_use bench "$W/again.err"
    if [ -f "$W/b/results.csv" ] && [ -n "$(tail -c 1 "$W/b/results.csv")" ]; then
      fail "bench: results.csv ends in a torn line after SIG$SIG at $CUT_AT"
    fi
  done
}

# atomic_cut NAME REF OUT T CMD...: OUT is absent or identical to REF after the cut run.
atomic_cut() {
  local name=$1 ref=$2 out=$3 t=$4 i
  shift 4
  for i in $(seq 1 "$ROUNDS"); do
    rm -f "$out"
    run_cut "$name" "$t" "$@"
    [ ! -e "$out" ] || cmp -s "$out" "$ref" ||
      fail "$name: a partial $out after SIG$SIG at $CUT_AT (exit $RC)"
    local left
    left=$(find "$(dirname "$out")" -maxdepth 1 -newer "$ref" -name "$(basename "$out")?*" | head -3)
    [ -z "$left" ] || { fail "$name: temporary files left after SIG$SIG: $left"; rm -f $left; }
  done
}

signals_convert() {
  local big=$W/big.csv
  { echo "run,engine,library,nprocs,ppn,op,impl,msize,metric,rep,value,valid"
    awk 'BEGIN { for (r = 0; r < 3; r++) for (p = 2; p <= 4096; p *= 2) for (k = 0; k < 20000; k++)
                   printf "%d,smpi,SMPI,%d,1,MPI_Bcast,default,8,time_s,%d,%g,1\n", r, p, k, p * 1e-6 }'
  } > "$big"
  "$MPIVET" convert "$big" --to extrap -o "$W/ref.extrap" > /dev/null 2>&1 || fail "convert: reference run"
  atomic_cut convert "$W/ref.extrap" "$W/cut.extrap" 2 "$MPIVET" convert "$big" --to extrap -o "$W/cut.extrap"
}

# A trace of a small SMPI program (the tracer linked in, as docs/trace.md says); TRACE_CMD runs it.
make_trace_program() {
  local lib=$MV_BUILD/lib/smpi
  [ -f "$lib/libmpivet-trace.so" ] || lib=$(dirname "$(find "$MV_BUILD" -path '*smpi*/libmpivet-trace.so' | head -1)")
  cat > "$W/ring.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
  int rank, size, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 2000; i++) {
    MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
C
  smpicc "$W/ring.c" -o "$W/ring" -L "$lib" -Wl,--no-as-needed -lmpivet-trace \
    -Wl,--disable-new-dtags,-rpath,"$lib" > "$W/smpicc.log" 2>&1 || return 1
  "$MPIVET" platform cluster:4 -o "$W/p4.xml" > /dev/null
  TRACE_CMD=(smpirun -quiet -platform "$W/p4.xml" -np 4 "$W/ring")
}

signals_trace() {
  local i
  make_trace_program || { fail "trace: smpicc failed: $(tail -3 "$W/smpicc.log")"; return; }
  "$MPIVET" trace -o "$W/ref-trace" -- "${TRACE_CMD[@]}" > /dev/null 2>&1 || fail "trace: reference run"
  for i in $(seq 1 "$ROUNDS"); do
    rm -rf "$W/t"
    run_cut trace 3 "$MPIVET" trace -o "$W/t" -- "${TRACE_CMD[@]}"
    [ -d "$W/t" ] || continue
    # what the cut run left, looked at before the second run writes its own trace there
    local left
    left=$(ls -A "$W/t" | grep -v '^\.mpivet.lock$')
    "$MPIVET" trace -o "$W/t" -- "${TRACE_CMD[@]}" > /dev/null 2> "$W/again.err"
    local rc=$?
    not_in_use trace "$W/again.err"
    if [ -n "$left" ] && [ $rc -ne 2 ]; then
      fail "trace: a second trace into a cut one's folder: exit $rc after SIG$SIG at $CUT_AT"
    fi
    timeout 60 "$MPIVET" analyze "$W/t" > /dev/null 2> "$W/an.err"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "analyze of a trace cut by SIG$SIG at $CUT_AT: exit $rc"
  done
}

signals_benchgen() {
  [ -d "$W/ref-trace" ] || return 0
  "$MPIVET" benchgen "$W/ref-trace" -o "$W/ref-bench.c" > /dev/null 2>&1 || fail "benchgen: reference run"
  atomic_cut benchgen "$W/ref-bench.c" "$W/cut-bench.c" 1 "$MPIVET" benchgen "$W/ref-trace" -o "$W/cut-bench.c"
}

signals_calibrate() {
  local i args=(--np 2 --max-size 1024 --reps 2 --kernels none --no-self-check --seed 3)
  for i in $(seq 1 "$ROUNDS"); do
    rm -rf "$W/cal"
    run_cut calibrate 4 "$MPIVET" calibrate "${args[@]}" -o "$W/cal"
    [ -d "$W/cal" ] || continue
    "$MPIVET" calibrate "${args[@]}" -o "$W/cal" > /dev/null 2> "$W/again.err"
    not_in_use calibrate "$W/again.err"
    [ -n "$SIG" ] || continue
    # a cut calibration folder must not pass for a calibration
    echo 'int main(void) { return 0; }' > "$W/nop.c"
    if "$MPIVET" simulate --calibration "$W/cal" --np 2 "$W/nop.c" > /dev/null 2>&1 &&
       [ ! -f "$W/cal/calibration.json" ]; then
      fail "calibrate: a folder cut by SIG$SIG at $CUT_AT is used by simulate --calibration"
    fi
  done
}

# concurrent NAME OUT CMD...: two runs at once on OUT; at most one succeeds, a refused one says so.
concurrent() {
  local name=$1 out=$2
  shift 2
  "$@" > "$W/c1.out" 2> "$W/c1.err" &
  local p1=$!
  "$@" > "$W/c2.out" 2> "$W/c2.err" &
  local p2=$! r1=0 r2=0
  wait $p1 || r1=$?
  wait $p2 || r2=$?
  ROUNDS_RUN=$((ROUNDS_RUN + 1))
  for r in $r1 $r2; do [ $r -lt 128 ] || fail "$name at once: killed by a signal (exit $r)"; done
  if [ $r1 -le 1 ] && [ $r2 -le 1 ]; then
    fail "$name at once on $out: both runs succeeded (exit $r1, $r2)"
  fi
  grep -qE "AddressSanitizer|runtime error:|Segmentation" "$W/c1.err" "$W/c2.err" &&
    fail "$name at once: a crash: $(grep -hE 'Sanitizer|Segmentation' "$W/c1.err" "$W/c2.err" | head -2)"
  return 0
}

concurrent_all() {
  rm -rf "$W/cc"
  concurrent check "$W/cc" "$MPIVET" check --engine smpi --np 4 --ops MPI_Bcast --msizes 8 --runs 1 -o "$W/cc"
  rm -rf "$W/cb"
  concurrent bench "$W/cb" "$MPIVET" bench --engine smpi --np 4 --ops MPI_Bcast --msizes 8 --runs 1 -o "$W/cb"
  rm -f "$W/cx.extrap"
  concurrent convert "$W/cx.extrap" "$MPIVET" convert "$W/big.csv" --to extrap -o "$W/cx.extrap"
  if [ -n "${TRACE_CMD+x}" ]; then
    rm -rf "$W/ct"
    concurrent trace "$W/ct" "$MPIVET" trace -o "$W/ct" -- "${TRACE_CMD[@]}"
  fi
  rm -rf "$W/ccal"
  concurrent calibrate "$W/ccal" "$MPIVET" calibrate --np 2 --max-size 1024 --reps 2 --kernels none --no-self-check -o "$W/ccal"
}
