#!/usr/bin/env bash
# Issue 15, item 13: a long option given without its value is named, never shown as its
# internal code (a NUL byte for --alpha, "-c" for --resume); exit 2.
set -uo pipefail
fail() { echo "FAIL: $*"; exit 1; }
t() {  # t WANT-MESSAGE ARGS...
  want=$1; shift
  err=$("$MPIVET" "$@" 2>&1 > /dev/null); rc=$?
  [ $rc -eq 2 ] || fail "mpivet $*: exit $rc, want 2"
  printf '%s' "$err" | grep -qF "$want" || fail "mpivet $*: '$err', want '$want'"
  printf '%s' "$err" | tr -d '\n' | LC_ALL=C grep -q '[^[:print:]]' && fail "mpivet $*: unprintable byte in '$err'"
  return 0
}
t "option --resume needs a value" check --resume
t "option --alpha needs a value" guidelines --alpha
t "option --alpha needs a value" regress new.csv --alpha
t "option --expect needs a value" model --expect
t "option --rank needs a value" analyze --rank
t "option --mpi needs a value" trace --mpi
t "option --runs needs a value" bench --runs
t "unknown option --bogus" check --bogus
t "option --json takes no value" guidelines --json=yes r.csv
echo ok
