#!/bin/bash
# `mpivet analyze TRACE --cube FILE.cubex`: the CUBE4 report of a synthetic stencil trace is read
# back with Python's standard library following the published CUBE4 layout (tar of anchor.xml,
# <metric id>.index = "CUBEX.INDEX", int32 1, int16 version, uint8 format 1 (sparse), int32 N,
# N cnode ids in depth-first order; <id>.data = "CUBEX.DATA" then N x locations values of the
# metric's dtype) and must hold exactly the analysis of --json: for every metric, call path and
# rank, the metric's value with its sub-metrics. The parallel analyzer writes the same file.
set -u
work=$(mktemp -d /tmp/mv-analyze-cube-XXXXXX)
trap 'rm -rf "$work"' EXIT
KEEP_GOING=1
. "$(dirname "$0")/../lib.bash"
synth="$MV_BUILD/bin/mv-otf2-synth"
[ -x "$synth" ] || { echo "analyze not built (no OTF2): skip"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing: skip"; exit 77; }
"$synth" stencil "$work/t" 4 20 50000 || exit 1

"$MPIVET" analyze "$work/t" --cube "$work/t.cubex" --json >"$work/t.json" || fail "analyze --cube failed"
python3 - "$work/t.cubex" "$work/t.json" <<'P' || fail "the cube does not hold the analysis (see above)"
import json, struct, sys, tarfile
import xml.etree.ElementTree as ET

cube, want = sys.argv[1], json.load(open(sys.argv[2]))
bad = []
tar = tarfile.open(cube)
members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
root = ET.fromstring(members["anchor.xml"])
assert root.tag == "cube" and root.get("version") == "4.4", root.attrib

# metric tree: same keys and parents as the JSON report, ids in depth-first order
metrics = {}
def walk_metrics(node, parent):
    for m in node.findall("metric"):
        metrics[int(m.get("id"))] = (m.findtext("uniq_name"), parent, m.findtext("dtype"), m.get("type"))
        walk_metrics(m, m.findtext("uniq_name"))
walk_metrics(root.find("metrics"), None)
assert sorted(metrics) == list(range(len(metrics))), "metric ids not 0..n-1"
jparent = {m["key"]: m["parent"] for m in want["metrics"]}
for mid, (key, parent, dtype, kind) in metrics.items():
    if jparent.get(key, "missing") != parent:
        bad.append(f"metric {key}: parent {parent}, JSON says {jparent.get(key, 'missing')}")
    if kind != "EXCLUSIVE" or dtype not in ("DOUBLE", "UINT64"):
        bad.append(f"metric {key}: type {kind}, dtype {dtype}")
if len(metrics) != len(jparent):
    bad.append(f"{len(metrics)} metrics in the cube, {len(jparent)} in the JSON")

# call tree: one root, ids in preorder, callees are regions; path strings as in the JSON
regions = {int(r.get("id")): r.findtext("name") for r in root.find("program").findall("region")}
paths, order = {}, []
def walk_cnodes(node, prefix):
    for c in node.findall("cnode"):
        cid, callee = int(c.get("id")), int(c.get("calleeId"))
        if callee not in regions:
            bad.append(f"cnode {cid}: unknown region {callee}")
        label = regions.get(callee, "?") + ("@" + c.get("mod") if c.get("mod") else "")
        path = label if prefix is None else (label if prefix == "" else prefix + " > " + label)
        order.append(cid)
        paths[cid] = path
        walk_cnodes(c, "" if prefix is None else path)   # the root is the artificial "program"
walk_cnodes(root.find("program"), None)
assert len(root.find("program").findall("cnode")) == 1, "expected one root cnode"
assert order == list(range(len(order))), "cnode ids are not in depth-first preorder"
locs = [int(l.get("Id")) for l in root.iter("location")]
ranks = [int(g.findtext("rank")) for g in root.iter("locationgroup")]
assert locs == list(range(want["locations"])), locs

# expected: own values of the JSON, summed up the metric tree, by (key, path, rank)
jpath = {c["id"]: c["path"] for c in want["callpaths"]}
expect = {}
for v in want["values"]:
    key = v["metric"]
    while key is not None:
        k = (key, jpath[v["callpath"]], v["rank"])
        expect[k] = expect.get(k, 0) + v["ticks"]
        key = jparent[key]
res = want["timer_resolution"]
seen = set()
for mid, (key, parent, dtype, kind) in metrics.items():
    idx, dat = members[f"{mid}.index"], members[f"{mid}.data"]
    assert idx[:11] == b"CUBEX.INDEX" and dat[:10] == b"CUBEX.DATA", key
    one, version, fmt, n = struct.unpack("<ihBi", idx[11:22])
    assert one == 1 and fmt == 1 and len(idx) == 22 + 4 * n, (key, one, fmt, n, len(idx))
    cids = struct.unpack(f"<{n}i", idx[22:])
    assert list(cids) == sorted(cids), key
    nl = len(locs)
    assert len(dat) == 10 + 8 * n * nl, (key, len(dat), n, nl)
    vals = struct.unpack(f"<{n * nl}" + ("d" if dtype == "DOUBLE" else "Q"), dat[10:])
    for i, cid in enumerate(cids):
        for l in range(nl):
            got = vals[i * nl + l]
            k = (key, paths[cid], ranks[l])
            ticks = expect.get(k, 0)
            w = ticks / res if dtype == "DOUBLE" else ticks
            if abs(got - w) > 1e-12 * max(1.0, abs(w)):
                bad.append(f"{key} @ {paths[cid]} rank {ranks[l]}: cube {got}, JSON {w}")
            seen.add(k)
missing = [k for k, t in expect.items() if t and k not in seen]
bad += [f"{k}: in the JSON ({expect[k]} ticks), not in the cube" for k in missing]
for b in bad[:20]:
    print("  " + b)
print(f"cube: {len(metrics)} metrics, {len(order)} cnodes, {len(locs)} locations, "
      f"{len(expect)} nonzero values checked, {len(bad)} mismatches")
sys.exit(1 if bad else 0)
P

# a second run and the parallel analyzer write byte-identical files
"$MPIVET" analyze "$work/t" --cube "$work/t2.cubex" >/dev/null || fail "second --cube run failed"
cmp -s "$work/t.cubex" "$work/t2.cubex" || fail "two runs wrote different cubes"
if [ -e "$MV_BUILD/lib/mpivet/openmpi/mpivet-analyze-mpi" ]; then
  "$MPIVET" analyze "$work/t" --np 2 --cube "$work/tp.cubex" >/dev/null 2>"$work/np.err" ||
    fail "--np 2 --cube failed: $(cat "$work/np.err")"
  cmp -s "$work/t.cubex" "$work/tp.cubex" || fail "the parallel analyzer wrote a different cube"
  # a --cube that is a dangling symlink: both analyzers replace the link, neither creates its
  # target (the parallel one did, with fopen, until stop 25)
  for np in 0 2; do   # 0: the serial analyzer
    ln -s "$work/target-$np" "$work/link-$np.cubex"
    "$MPIVET" analyze "$work/t" $([ $np = 0 ] || echo --np $np) --cube "$work/link-$np.cubex" >/dev/null 2>"$work/np.err" ||
      fail "--np $np --cube LINK failed: $(cat "$work/np.err")"
    [ ! -e "$work/target-$np" ] || fail "--np $np --cube LINK created the link's target"
    cmp -s "$work/t.cubex" "$work/link-$np.cubex" || fail "--np $np --cube LINK: a different cube"
  done
fi
"$MPIVET" analyze "$work/t" --cube "$work/no/such/dir/x.cubex" >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "unwritable cube path: exit status not 2"
grep -q "cannot write .*/x.cubex: No such file or directory" "$work/err" || fail "unwritable cube path: $(cat "$work/err")"
finish
echo "all cube checks passed"
