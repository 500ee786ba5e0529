# Helpers sourced by the shell tests (`. "$(dirname "$0")/../lib.bash"`); .bash so that ctest
# does not run it as a test. fail MESSAGE reports a failed check and ends the test with exit 1,
# or, when the test set KEEP_GOING=1, counts it in FAILS and goes on; finish then exits 1 when
# any check failed.
FAILS=0
fail() {
  echo "FAIL: $*"
  FAILS=$((FAILS + 1))
  [ "${KEEP_GOING:-0}" = 1 ] || exit 1
}
finish() {
  [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }
}
# need_flavor NAME: skip the test (exit 77, ctest's SKIP_RETURN_CODE) unless the MPI flavor NAME
# (openmpi, mpich, smpi) was built.
need_flavor() {
  case " ${MV_FLAVORS:-} " in *" $1 "*) ;; *) echo "$1 flavor not built"; exit 77 ;; esac
}
# real_flavors: REAL_FLAVORS, the real MPI flavors built (openmpi, mpich); skips the test (exit 77)
# when there is none.
real_flavors() {
  REAL_FLAVORS=
  local f
  for f in openmpi mpich; do
    case " ${MV_FLAVORS:-} " in *" $f "*) REAL_FLAVORS+=" $f" ;; esac
  done
  [ -n "$REAL_FLAVORS" ] || { echo "no real MPI flavor built"; exit 77; }
}
# mpi_launcher FLAVOR: the launcher of a real MPI flavor.
mpi_launcher() {
  if [ "$1" = mpich ]; then echo mpiexec.mpich; else echo mpirun.openmpi; fi
}
# need_python: skip the test (exit 77) unless python3 is installed.
need_python() {
  command -v python3 > /dev/null || { echo "python3 not installed"; exit 77; }
}
# scratch VAR: a new temporary folder in the variable VAR, removed when the test exits.
scratch() {
  local d
  d=$(mktemp -d) || exit 1
  printf -v "$1" '%s' "$d"
  trap "rm -rf '$d'" EXIT
}
# expect_ok DESCRIPTION COMMAND...: the command must succeed; a failure is counted (finish ends
# the test with exit 1) and the test goes on.
expect_ok() {
  local what=$1
  shift
  "$@" || KEEP_GOING=1 fail "$what"
}
# near WHAT GOT WANT TOLERANCE: GOT (seconds) must lie within TOLERANCE of WANT, else fail.
near() {
  awk -v g="$2" -v w="$3" -v e="$4" 'BEGIN {exit !(g != "" && g > w - e && g < w + e)}' ||
    fail "$1: $2 s, expected $3 s"
}
