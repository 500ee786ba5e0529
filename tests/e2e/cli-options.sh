#!/usr/bin/env bash
# Every command parses its options through mv_cli_getopt: an option error is one line that names
# the option, short ones with their long name, and tells a missing value from an unknown option;
# exit 2. Each command is tried, so a command that bypasses the helper shows here.
set -u
. "$(dirname "$0")/../lib.bash"
KEEP_GOING=1
t() {  # t WANT-MESSAGE ARGS...
  local want=$1 err rc; shift
  err=$("$MPIVET" "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "mpivet $*: exit $rc, want 2"
  [ "$err" = "$want" ] || fail "mpivet $*: got '$err', want '$want'"
}
for c in bench benchgen calibrate convert platform; do
  t "mpivet $c: option -o (--output) needs a value (see mpivet $c --help)" $c -o
done
t "mpivet check: option -o (--output) needs a value (see mpivet check --help)" check -o
t "mpivet trace: option -o (--output) needs a value (see mpivet trace --help)" trace -o
t "mpivet model: option -e (--expect) needs a value (see mpivet model --help)" model r.csv -e
for c in analyze bench benchgen calibrate check convert guidelines model platform regress simulate trace; do
  t "mpivet $c: unknown option -Z (see mpivet $c --help)" $c -Z
done
t "mpivet bench: option --np needs a value (see mpivet bench --help)" bench --np
t "mpivet simulate: option --np needs a value (see mpivet simulate --help)" simulate --np
t "mpivet platform: option --np needs a value (see mpivet platform --help)" platform --np
t "mpivet analyze: option --np needs a value (see mpivet analyze --help)" analyze --np
t "mpivet check: option --np needs a value (see mpivet check --help)" check --np
t "mpivet calibrate: option --np needs a value (see mpivet calibrate --help)" calibrate --np
t "mpivet check: unknown option --bogus (see mpivet check --help)" check --bogus
t "mpivet regress: option --no-growth takes no value (see mpivet regress --help)" regress --no-growth=1 n.csv
finish
echo "cli-options: ok"
