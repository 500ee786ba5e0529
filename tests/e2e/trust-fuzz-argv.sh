#!/usr/bin/env bash
# Issue 15, the adversarial pass in CI: a short fixed-seed run of the argument fuzzer
# (tests/argv-fuzz.py; the long run is bench/trust_fuzz/run.sh) over all 12 commands. It fails on
# a crash, a hang, an exit status above 3, exit 0 with an error message, a sanitizer report, or a
# change to any of the user's files the command was not asked to write; each finding prints the
# argv that reproduces it.
set -uo pipefail
. "$(dirname "$0")/../lib.bash"
need_python
python3 "$MV_SRC/tests/argv-fuzz.py" --mpivet "$MPIVET" --src "$MV_SRC" --seed 15 \
  --max-runs 25 --launch-runs 4 --seconds 60 --timeout 30 --no-fixtures
