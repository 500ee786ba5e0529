# Headless Chromium for the HTML tests (sourced; .bash so that ctest does not run it).
# browser: the Chromium binary, empty when not installed (scripts/install-deps.sh installs it).
# render URL DOM [PNG [W,H]]: the DOM after the page's scripts ran into DOM (and a screenshot of
# W x H pixels into PNG); offline (no network features), a fresh profile, 120 s at most each.
browser() { command -v chromium || command -v chromium-browser || true; }
render() {
  local url=$1 dom=$2 png=${3:-} size=${4:-1300,1000} b prof rc=0
  b=$(browser)
  prof=$(mktemp -d)
  local opts=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
              --disable-component-update --disable-sync --user-data-dir="$prof")
  timeout 120 "$b" "${opts[@]}" --dump-dom "$url" >"$dom" 2>"$dom.err" || rc=1
  if [ "$rc" = 0 ] && [ -n "$png" ]; then
    timeout 120 "$b" "${opts[@]}" --window-size="$size" --screenshot="$png" "$url" >/dev/null 2>>"$dom.err" || rc=1
  fi
  rm -rf "$prof"
  return $rc
}
# page_check HTML DOM: the page loads nothing from elsewhere, and the timeline drew every wait
# state, message and critical-path stretch of its data (the whole run is shown at load), or, when
# aggregated, bins; prints "segments waits messages critical" as drawn.
page_check() {
  python3 - "$1" "$2" <<'PY'
import json, re, sys
html, dom = open(sys.argv[1]).read(), open(sys.argv[2]).read()
if re.search(r'(src|href)="[^"#]', html):
    sys.exit("external resource referenced")
data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))
st = re.search(r'<p id="status"([^>]*)>([^<]*)</p>', dom)
if not st:
    sys.exit("no status line: the script did not run")
got = {k: int(v) for k, v in re.findall(r'data-(\w+)="(\d+)"', st.group(1))}
agg = "agg" in data
want = {"waits": 0 if agg else len(data["waits"]) // 4, "messages": 0 if agg else len(data["msgs"]) // 4,
        "critical": len(data["cpath"]) // 3}
for k, v in want.items():
    if got.get(k) != v:
        sys.exit("%s drawn %s, in the data %d" % (k, got.get(k), v))
if got.get("segments", 0) <= 0:
    sys.exit("no timeline segment drawn")
for id_ in ("timeline", "metric-rows", "callpath-rows", "causes"):
    if 'id="%s"' % id_ not in dom:
        sys.exit("no element " + id_)
if dom.count("<tr") < len(data["metrics"]):
    sys.exit("the metric pane has %d rows for %d metrics" % (dom.count("<tr"), len(data["metrics"])))
print(got["segments"], got["waits"], got["messages"], got["critical"], "aggregated" if agg else "full")
PY
}
