# Helpers sourced by the trace tests (trace-*.sh); .bash so that ctest does not run it as a test.
# Needs MPIVET, MV_BUILD, MV_SRC from ctest.
command -v otf2-print >/dev/null || { echo "otf2-print not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mv-trace-test.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
TESTED=0
KEEP_GOING=1
. "$MV_SRC/tests/lib.bash"

# have_flavor FLAVOR: 0 when the tracer and the examples are built for it (the built files
# decide, not MV_FLAVORS).
have_flavor() {
  [ -e "$MV_BUILD/lib/mpivet/$1/libmpivet-trace.so" ] || { echo "skip $1: no libmpivet-trace.so"; return 1; }
  if [ "$1" = smpi ]; then
    [ -e "$(example smpi late-sender)" ] || { echo "skip smpi: examples not built"; return 1; }
    mkdir -p "$WORK/smpi-tmp"
    "$MPIVET" platform cluster:8 -o "$WORK/cluster.xml" --hostfile "$WORK/hostfile" --np 8 ||
      { fail "mpivet platform"; return 1; }
  fi
  TESTED=$((TESTED + 1))
}
# Under SMPI the tracer cannot be preloaded: the <name>-traced builds link it.
example() {
  local suffix=
  [ "$1" = smpi ] && suffix=-traced
  echo "$MV_BUILD/lib/mpivet/$1/$2$suffix"
}
# SMPI: simulated computation off, so that time stamps are simulated time only (deterministic).
launcher() {
  case "$1" in
    openmpi) echo "mpirun.openmpi --oversubscribe -np ${NP:-4}" ;;
    mpich) echo "mpirun.mpich -np ${NP:-4}" ;;
    smpi) echo "smpirun -quiet -np ${NP:-4} -platform $WORK/cluster.xml -hostfile $WORK/hostfile" \
               "--cfg=smpi/simulate-computation:no" ;;
  esac
}
# build_program FLAVOR SOURCE OUT: compiles a test program for FLAVOR (SMPI: linked with the
# tracer, which cannot be preloaded there); 0 on success, a failure noted otherwise.
build_program() {
  local cc lib="$MV_BUILD/lib/mpivet/smpi"
  case $1 in
    openmpi) cc=(mpicc.openmpi) ;;
    mpich) cc=(mpicc.mpich) ;;
    smpi) cc=(smpicc -L"$lib" -Wl,--no-as-needed -lmpivet-trace -Wl,--as-needed
              -Wl,--disable-new-dtags,-rpath,"$lib") ;;
  esac
  "${cc[0]}" -O1 -o "$3" "$2" "${cc[@]:1}" >"$3.log" 2>&1 ||
    { fail "$1: cannot build $2: $(tail -3 "$3.log")"; return 1; }
}
# trace_run FLAVOR DIR [mpivet trace options] -- PROGRAM ARGS: 0 when the archive exists.
trace_run() {
  local flavor=$1 dir=$2; shift 2
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  # smpirun puts TMPDIR first in LD_LIBRARY_PATH: a private one keeps stray libraries out.
  # MV_TRACE_PRELOAD: libraries preloaded around `mpivet trace` (the sanitizer runtimes).
  # shellcheck disable=SC2046
  TMPDIR="$WORK/smpi-tmp" env ${MV_TRACE_PRELOAD:+LD_PRELOAD="$MV_TRACE_PRELOAD"} \
    timeout 120 "$MPIVET" trace -o "$dir" --mpi "$flavor" "${opts[@]}" -- $(launcher "$flavor") "$@" \
    </dev/null >"$dir.log" 2>&1
  local rc=$?
  [ -n "${EXPECT_RC:-}" ] && [ "$rc" != "$EXPECT_RC" ] && fail "$flavor $*: exit $rc, expected $EXPECT_RC"
  [ -z "${EXPECT_RC:-}" ] && [ "$rc" != 0 ] && { fail "$flavor $*: exit $rc"; cat "$dir.log"; return 1; }
  [ -e "$dir/traces.otf2" ] || { fail "$flavor $*: no archive"; cat "$dir.log"; return 1; }
}
# counts DIR: "Enter:<region> n" and "<EVENT> n" lines from otf2-print, also per location with @rank.
counts() {
  otf2-print "$1/traces.otf2" 2>"$1.print-errors" | awk '
    $1 == "ENTER" { match($0, /Region: "[^"]*"/); r = substr($0, RSTART + 9, RLENGTH - 10);
                    n["Enter:" r]++; n["Enter:" r "@" $2]++ }
    $1 ~ /^[A-Z_]+$/ && $2 ~ /^[0-9]+$/ { n[$1]++; n[$1 "@" $2]++ }
    END { for (k in n) print k, n[k] }' || return 1
  [ ! -s "$1.print-errors" ] || { cat "$1.print-errors"; return 1; }
}
# expect LABEL FILE "key=count ...": every key must have exactly that count (missing = 0).
expect() {
  local label=$1 file=$2 kv key want got
  for kv in $3; do
    key=${kv%=*}; want=${kv##*=}
    got=$(awk -v k="$key" '$1 == k { print $2 }' "$file")
    [ "${got:-0}" = "$want" ] || fail "$label: $key = ${got:-0}, expected $want"
  done
}
balanced() {
  local e l
  e=$(awk '$1 == "ENTER" { print $2 }' "$2"); l=$(awk '$1 == "LEAVE" { print $2 }' "$2")
  [ "$e" = "$l" ] || fail "$1: $e Enter events but $l Leave events"
}
# The examples, their arguments and the expected counts for 4 ranks (Enter:<region> counts
# the calls, other keys events), counted by hand from examples/*.c.
read -r -d '' EXAMPLES_TABLE <<'T'
late-sender|3 20|Enter:MPI_Send=6 Enter:MPI_Recv=6 MPI_SEND=6 MPI_RECV=6
late-receiver|3 20|Enter:MPI_Send=6 Enter:MPI_Recv=6 MPI_SEND=6 MPI_RECV=6
imbalanced-barrier|3 10|Enter:MPI_Barrier=12 MPI_COLLECTIVE_BEGIN=12 MPI_COLLECTIVE_END=12
imbalanced-fence|3 10|Enter:MPI_Win_create=4 Enter:MPI_Win_fence=16 Enter:MPI_Put=12 Enter:MPI_Win_free=4 RMA_WIN_CREATE=4 RMA_WIN_DESTROY=4 RMA_COLLECTIVE_BEGIN=24 RMA_COLLECTIVE_END=24 RMA_PUT=12 RMA_OP_COMPLETE_NON_BLOCKING=12
late-post|3 20|Enter:MPI_Win_post=3 Enter:MPI_Win_wait=3 Enter:MPI_Win_start=9 Enter:MPI_Put=9 Enter:MPI_Win_complete=9 Enter:MPI_Group_incl=3 Enter:MPI_Group_excl=1 RMA_GROUP_SYNC=24 RMA_PUT=9 RMA_OP_COMPLETE_NON_BLOCKING=9
early-wait|3 20|Enter:MPI_Win_post=3 Enter:MPI_Win_wait=3 Enter:MPI_Win_start=9 Enter:MPI_Put=9 Enter:MPI_Get=9 Enter:MPI_Win_complete=9 RMA_GROUP_SYNC=24 RMA_PUT=9 RMA_GET=9 RMA_OP_COMPLETE_NON_BLOCKING=18 RMA_OP_COMPLETE_REMOTE=9
lock-chain|20 2 2|Enter:MPI_Win_allocate=4 Enter:MPI_Barrier=8 Enter:MPI_Win_lock=4 Enter:MPI_Win_unlock=4 Enter:MPI_Accumulate=3 RMA_REQUEST_LOCK=4 RMA_RELEASE_LOCK=4 RMA_ATOMIC=3 RMA_OP_COMPLETE_NON_BLOCKING=3 RMA_OP_COMPLETE_REMOTE=3
stencil-2d|32 20|Enter:MPI_Cart_create=4 Enter:MPI_Irecv=320 Enter:MPI_Isend=320 Enter:MPI_Waitall=80 Enter:MPI_Allreduce=8 Enter:MPI_Comm_free=4 MPI_ISEND=160 MPI_ISEND_COMPLETE=160 MPI_IRECV_REQUEST=160 MPI_IRECV=160 MPI_COLLECTIVE_END=8
T
# check_examples FLAVOR: every example traced, read back, counted; --record keeps only its groups.
check_examples() {
  local flavor=$1 ex args want dir buffer
  while IFS='|' read -r ex args want; do
    dir="$WORK/$flavor-$ex"
    buffer=8M
    [ "$ex" = stencil-2d ] && buffer=4k  # forces many flushes of the bounded buffer
    # shellcheck disable=SC2086
    trace_run "$flavor" "$dir" --buffer "$buffer" -- "$(example "$flavor" "$ex")" $args || continue
    counts "$dir" >"$dir.counts" || { fail "$flavor $ex: otf2-print cannot read the archive"; continue; }
    expect "$flavor $ex" "$dir.counts" "Enter:MPI_Init=4 Enter:MPI_Finalize=4 $want"
    balanced "$flavor $ex" "$dir.counts"
    [ -e "$dir/TRUNCATED" ] && fail "$flavor $ex: marked truncated after a clean run"
  done <<<"$EXAMPLES_TABLE"
  dir="$WORK/$flavor-record"
  if trace_run "$flavor" "$dir" --record coll -- "$(example "$flavor" late-sender)" 2 1; then
    counts "$dir" >"$dir.counts"
    expect "$flavor --record coll" "$dir.counts" "Enter:MPI_Send=0 MPI_SEND=0 Enter:MPI_Init=4"
  fi
  # --callstack 2: every call site starts at the application's frame, never the tracer's
  dir="$WORK/$flavor-callstack"
  if trace_run "$flavor" "$dir" --callstack 2 -- "$(example "$flavor" late-sender)" 1 1; then
    local bad
    bad=$(awk '!/^#/ && $2 !~ /^late-sender/' "$dir/callsites.txt")
    [ -z "$bad" ] && grep -q "^[0-9a-f]* late-sender" "$dir/callsites.txt" ||
      fail "$flavor --callstack 2: call sites not starting in late-sender: ${bad:-none at all}"
  fi
}
# check_crash FLAVOR: crash-rank's rank 1 raises SIGSEGV at iteration 50 of 100: `mpivet trace`
# exits 3 and leaves a readable archive marked truncated (TRUNCATED file naming signal 11 on
# rank 1, OTF2 property MPIVET::TRUNCATED=true) with rank 1's 50 completed MPI_Sendrecv calls.
check_crash() {
  local flavor=$1 dir="$WORK/$1-crash"
  EXPECT_RC=3 trace_run "$flavor" "$dir" -- "$(example "$flavor" crash-rank)" 100 || return
  counts "$dir" >"$dir.counts" || { fail "$flavor: otf2-print cannot read the truncated archive"; return; }
  # ranks killed by the launcher (SIGKILL) before their first flush have no events: only
  # rank 1, whose signal handler flushed, is certain
  expect "$flavor crash" "$dir.counts" "Enter:MPI_Sendrecv@1=50 Enter:MPI_Init@1=1 Enter:MPI_Finalize=0"
  grep -q "rank 1: signal 11" "$dir/TRUNCATED" 2>/dev/null ||
    fail "$flavor: TRUNCATED does not name signal 11 on rank 1: $(cat "$dir/TRUNCATED" 2>&1)"
  grep -q "MPIVET::TRUNCATED" "$dir/traces.otf2" ||
    fail "$flavor: the anchor file lacks the MPIVET::TRUNCATED property"
  otf2-print -A "$dir/traces.otf2" 2>/dev/null | grep -A1 "MPIVET::TRUNCATED" | grep -q true ||
    fail "$flavor: MPIVET::TRUNCATED is not true"
}
finish() {
  [ "$TESTED" -gt 0 ] || { echo "no MPI flavor with libmpivet-trace built"; exit 77; }
  [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }
  echo "all trace checks passed"
}
