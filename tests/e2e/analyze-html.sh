#!/usr/bin/env bash
# `mpivet analyze --html` on synthetic stencil archives (tools/synth-main.c: rank 0's kernel
# 50 us slower per iteration, its grid neighbours wait for it), rendered in headless Chromium:
# the page loads nothing from elsewhere, its script draws every wait state, message and
# critical-path stretch of its data, the metric pane has a row per metric, the root causes name
# rank 0's kernel and the ranks that waited for it (2 x 2 grid: ranks 1 and 2). A large trace
# (64 ranks, 600 iterations, ~0.94 M events) is binned and its page stays under 1 MB. An existing
# file is never overwritten, and --html refuses --np. Rows keep at least 1 px up to 1024 ranks.
set -u
. "$MV_SRC/tests/lib.bash"
. "$MV_SRC/tests/chromium.bash"
synth="$MV_BUILD/bin/mv-otf2-synth"
[ -x "$synth" ] || { echo "analyze not built (no OTF2): skip"; exit 77; }
[ -n "$(browser)" ] || { echo "chromium not installed (scripts/install-deps.sh)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$synth" stencil "$work/s4" 4 20 50000 >/dev/null || fail "synth stencil 4"
"$MPIVET" analyze "$work/s4" --html "$work/s4.html" >"$work/s4.txt" || fail "analyze --html"
render "file://$work/s4.html" "$work/s4.dom" || fail "chromium: $(tail -3 "$work/s4.dom.err")"
drawn=$(page_check "$work/s4.html" "$work/s4.dom") || fail "page: $drawn"
echo "4 ranks, drawn (segments waits messages critical): $drawn"
# 20 iterations x 4 ranks x 4 messages; rank 0's neighbours wait in every iteration
set -- $drawn
[ "$3" -eq 320 ] || fail "messages drawn: $3, want 320"
[ "$2" -gt 0 ] || fail "no wait state drawn"
grep -q "is caused by main &gt; iteration &gt; compute &gt; kernel on rank 0" "$work/s4.dom" ||
  fail "root cause not on the page: $(grep -A3 'id="causes"' "$work/s4.dom")"
grep -q "of waiting on ranks 1-2 is caused by main &gt; iteration &gt; compute &gt; kernel on rank 0 (0.001 s longer" \
  "$work/s4.dom" || fail "the waiting ranks or the delay (20 x 50 us = 0.001 s) are not on the page"

# Row height: at most 22 px in 640 px, not below 1 px up to 1024 rows (then a taller canvas:
# TOP 8 + rows + axis 28). The 4-rank page: 8 + 4 x 22 + 28 = 124 px. The same page with its data
# given 700 rows (rows 4-699 copies of rank 0's timeline; a real 700-rank archive takes 15 s to
# write): 8 + 700 x 1 + 28 = 736 px (before stop 25: rows of 640/700 px, 676 px in all).
grep -q '<canvas id="timeline" height="124"' "$work/s4.dom" || fail "4 ranks: $(grep -o '<canvas[^>]*>' "$work/s4.dom")"
python3 - "$work/s4.html" "$work/rows700.html" <<'PY' || fail "cannot widen the page to 700 rows"
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'(<script type="application/json" id="data">)(.*?)(</script>)', html, re.S)
d = json.loads(m.group(2))
d["rows"] = list(range(700))
d["tl"] = d["tl"] + [d["tl"][0]] * 696
open(sys.argv[2], "w").write(html[:m.start(2)] + json.dumps(d).replace("</", "<\\/") + html[m.end(2):])
PY
render "file://$work/rows700.html" "$work/rows700.dom" || fail "chromium (700 rows)"
drawn=$(page_check "$work/rows700.html" "$work/rows700.dom") || fail "700-row page: $drawn"
grep -q '<canvas id="timeline" height="736"' "$work/rows700.dom" ||
  fail "700 rows: $(grep -o '<canvas[^>]*>' "$work/rows700.dom"), want height 736 (1 px rows)"

"$synth" stencil "$work/big" 64 600 20000 >/dev/null || fail "synth stencil 64"
"$MPIVET" analyze "$work/big" --html "$work/big.html" >/dev/null || fail "analyze --html (large)"
size=$(stat -c %s "$work/big.html")
render "file://$work/big.html" "$work/big.dom" || fail "chromium (large)"
drawn=$(page_check "$work/big.html" "$work/big.dom") || fail "large page: $drawn"
echo "64 ranks x 600 iterations: page $size bytes, drawn $drawn"
case "$drawn" in *aggregated) ;; *) fail "the large timeline is not binned" ;; esac
[ "$size" -lt 1000000 ] || fail "the binned page has $size bytes"

cp "$work/s4.html" "$work/keep.html"
"$MPIVET" analyze "$work/s4" --html "$work/s4.html" >/dev/null 2>"$work/err"
[ $? -eq 2 ] || fail "--html over an existing file: not exit 2"
cmp -s "$work/s4.html" "$work/keep.html" || fail "--html overwrote an existing file"
"$MPIVET" analyze "$work/s4" --np 2 --html "$work/x.html" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--html with --np: not exit 2"
finish
echo ok
