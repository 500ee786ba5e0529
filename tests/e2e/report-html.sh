#!/usr/bin/env bash
# report.html renders offline in headless Chromium, has one SVG plot per function of
# report.json (Gather twice: at 800 B in total and at 800 B per process, one plot each), loads
# no external resource, shows the verdict and the model table, and gives y axes and points units.
set -euo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed (scripts/install-deps.sh)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -E '^(MPI_Bcast|bcast_as_binomial|MPI_Reduce|MPI_Allreduce|MPI_Gather) |^rule MPI_Allreduce' \
  "$MV_SRC/share/mpivet/default.expect" > "$work/six.expect"
"$MPIVET" check --np 4:32 --ops MPI_Bcast@800,bcast_as_binomial@800,MPI_Reduce@800,MPI_Allreduce@800,MPI_Gather@800,MPI_Gather@800p \
  --expect "$work/six.expect" --runs 1 --reps 3 --seed 3 -o "$work/c" > "$work/out" 2> "$work/err" || [ $? -eq 1 ]
html="$work/c/report.html"
[ -s "$html" ] || { cat "$work/err"; exit 1; }
if grep -Eo '(src|href)="[^"#]*"' "$html" | grep -q .; then
  echo "FAIL: external resource referenced"; grep -Eo '(src|href)="[^"]*"' "$html"; exit 1
fi
profile=$(mktemp -d)
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --dump-dom "file://$html" > "$work/dom.html" 2> "$work/chromium.err" || {
  rm -rf "$profile"; tail -5 "$work/chromium.err"; exit 1; }
rm -rf "$profile"
functions=$(grep -c '"function":' "$work/c/report.json")
svgs=$(grep -o '<svg' "$work/dom.html" | wc -l)
points=$(grep -o 'class="pt"' "$work/dom.html" | wc -l)
echo "functions in report.json: $functions, SVG plots rendered: $svgs, measured points drawn: $points"
[ "$functions" -eq 6 ] && [ "$svgs" -eq "$functions" ] || { echo "FAIL: plot count"; exit 1; }
grep -q 'Gather (800 B per process)</text>' "$work/dom.html" \
  || { echo "FAIL: no plot titled 800 B per process"; exit 1; }
[ "$points" -ge $((functions * 4)) ] || { echo "FAIL: too few points drawn"; exit 1; }
# every y axis names its unit, and the tick labels are in it (SMPI times here: µs or ms)
units=$(grep -Eo '>time_s \((ns|µs|ms|s)\)</text>' "$work/dom.html" | wc -l)
[ "$units" -eq "$functions" ] || { echo "FAIL: $units of $functions y axes name a unit"; exit 1; }
grep -Eq '<title>p=[0-9]+ median=[0-9.]+ (µs|ms) ' "$work/dom.html" || { echo "FAIL: point tips without units"; exit 1; }
grep -q 'id="verdict"' "$work/dom.html" && grep -q 'id="models"' "$work/dom.html"
grep -q '<polyline' "$work/dom.html"
echo "ok"
