#!/usr/bin/env bash
# The CLI contract: --help lists every command of commands.def, --version works, every command
# has --help (exit 0), unknown commands and unknown options give one line on stderr and exit 2.
set -u
. "$(dirname "$0")/../lib.bash"
out=$("$MPIVET" --help) || fail "--help exited $?"
cmds=$(sed -n 's/^MV_COMMAND(\([a-z]*\),.*/\1/p' "$MV_SRC/src/cli/commands.def")
[ -n "$cmds" ] || fail "no commands in commands.def"
for c in $cmds; do
  echo "$out" | grep -q "^  $c " || fail "mpivet --help does not list $c"
  "$MPIVET" "$c" --help >/dev/null 2>&1 || fail "mpivet $c --help exited $?"
  err=$("$MPIVET" "$c" --no-such-option 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "mpivet $c --no-such-option exited $rc, want 2"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "mpivet $c --no-such-option: want one line, got: $err"
done
"$MPIVET" --version | grep -Eq '^mpivet [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]+|unknown\)' || fail "--version"
err=$("$MPIVET" frobnicate 2>&1); rc=$?
[ $rc -eq 2 ] || fail "unknown command exited $rc"
[ "$err" = "mpivet: 'frobnicate' is not a command (see mpivet --help)" ] || fail "unknown command message: $err"
"$MPIVET" >/dev/null 2>&1; [ $? -eq 2 ] || fail "no command should exit 2"
echo "cli-basics: ok"
