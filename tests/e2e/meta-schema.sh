#!/usr/bin/env bash
# meta.json has one schema (docs/formats.md): `mpivet bench`, `mpivet check` and each launch's
# mpivet-bench meta start with the same head (format "mpivet-meta", version 3, mpivet_version,
# mpivet_git_revision, writer, in this order) read back by Python's json module, and each
# writer's part has its documented keys. Every other JSON document (report.json, model --json,
# regress --json, guidelines --json) starts with the same two keys, "format" and "version"
# (docs/formats.md, "JSON documents"). Small SMPI runs (seconds).
set -euo pipefail
. "$(dirname "$0")/../lib.bash"
need_flavor smpi
need_python
scratch work

"$MPIVET" bench --engine smpi --np 4 --ops MPI_Bcast --msizes 8 --reps 2 --runs 2 -o "$work/b" \
  > "$work/bench.log" 2>&1 || { cat "$work/bench.log"; fail "mpivet bench"; }
rc=0
"$MPIVET" check --np 4:8 --runs 1 --reps 2 -o "$work/c" > "$work/check.log" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$work/check.log"; fail "mpivet check exit $rc"; }
version=$("$MPIVET" --version 2>&1 | head -1)

python3 - "$work" "$version" <<'PY' || fail "meta.json schema"
import glob, json, sys
work, version = sys.argv[1], sys.argv[2]
head = ["format", "version", "mpivet_version", "mpivet_git_revision", "writer"]
part = {
    "mpivet bench": ["engine", "flavor", "np", "ppn", "runs", "launches"],
    "mpivet check": ["library", "engine", "command_line", "hosts", "environment", "plan"],
    "mpivet-bench": ["flavor", "library", "engine", "nprocs", "clock_sync", "seed", "jobs"],
}
files = {f"{work}/b/meta.json": "mpivet bench", f"{work}/c/meta.json": "mpivet check"}
files.update({f: "mpivet-bench" for f in glob.glob(f"{work}/b/launches/*.json")})
assert len(files) >= 3, f"expected bench's, check's and launch metas, got {sorted(files)}"
revisions = set()
for path, writer in files.items():
    with open(path) as fp:
        meta = json.load(fp)
    keys = list(meta)
    assert keys[:5] == head, f"{path}: head {keys[:5]}, want {head}"
    assert (meta["format"], meta["version"]) == ("mpivet-meta", 3), f"{path}: {meta['format']!r} {meta['version']!r}"
    assert meta["writer"] == writer, f"{path}: writer {meta['writer']!r}, want {writer!r}"
    assert meta["mpivet_version"] in version, f"{path}: version {meta['mpivet_version']!r} vs {version!r}"
    revisions.add(meta["mpivet_git_revision"])
    missing = [k for k in part[writer] if k not in meta]
    assert not missing, f"{path}: {writer} part lacks {missing}"
assert len(revisions) == 1, f"git revisions differ: {revisions}"
launch = json.load(open(f"{work}/b/meta.json"))["launches"][0]
assert launch["clock_sync_method"], f"bench meta lost the launch's clock sync method: {launch}"
print(f"ok: {len(files)} meta.json files share the schema")
PY
"$MPIVET" model --json "$work/c/results.csv" > "$work/model.json" 2> "$work/model.err" ||
  { cat "$work/model.err"; fail "mpivet model --json"; }
rc=0
"$MPIVET" regress "$work/b/results.csv" --baseline "$work/b/results.csv" --min-launches 1 \
  --json "$work/regress.json" > /dev/null 2>&1 || rc=$?
[ "$rc" -le 1 ] || fail "mpivet regress exit $rc"
rc=0
"$MPIVET" guidelines --json "$work/c/results.csv" > "$work/guidelines.json" 2> "$work/gl.err" || rc=$?
[ "$rc" -le 2 ] && [ -s "$work/guidelines.json" ] || { cat "$work/gl.err"; fail "mpivet guidelines exit $rc"; }
python3 - "$work" <<'PY' || fail "JSON heads"
import json, sys
work = sys.argv[1]
want = {"c/report.json": ("mpivet-report", 2), "model.json": ("mpivet-judgement", 2),
        "regress.json": ("mpivet-regress", 1), "guidelines.json": ("mpivet-guidelines", 1)}
for name, (fmt, version) in want.items():
    doc = json.load(open(f"{work}/{name}"))
    assert list(doc)[:2] == ["format", "version"], f"{name}: first keys {list(doc)[:2]}"
    assert (doc["format"], doc["version"]) == (fmt, version), f"{name}: {doc['format']!r} {doc['version']!r}"
print(f"ok: {len(want)} other JSON documents start with format and version")
PY
