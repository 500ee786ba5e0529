# Helpers sourced by the trace tests (trace-*.sh); .bash so that ctest does not run it as a test.
# Needs MPIVET, MV_BUILD, MV_FLAVORS from ctest.
command -v otf2-print >/dev/null || { echo "otf2-print not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mv-trace-test.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
FAILS=0
TESTED=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

have_flavor() {
  case " $MV_FLAVORS " in *" $1 "*) ;; *) echo "skip $1: not built"; return 1 ;; esac
  [ -e "$MV_BUILD/lib/mpivet/$1/libmpivet-trace.so" ] || { echo "skip $1: no libmpivet-trace.so"; return 1; }
  TESTED=$((TESTED + 1))
}
example() { echo "$MV_BUILD/lib/mpivet/$1/$2"; }
launcher() {
  case "$1" in
    openmpi) echo "mpirun.openmpi --oversubscribe -np ${NP:-4}" ;;
    mpich) echo "mpirun.mpich -np ${NP:-4}" ;;
  esac
}
# trace_run FLAVOR DIR [mpivet trace options] -- PROGRAM ARGS: 0 when the archive exists.
trace_run() {
  local flavor=$1 dir=$2; shift 2
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  # shellcheck disable=SC2046
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
finish() {
  [ "$TESTED" -gt 0 ] || { echo "no MPI flavor with libmpivet-trace built"; exit 77; }
  [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }
  echo "all trace checks passed"
}
