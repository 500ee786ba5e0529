#!/usr/bin/env python3
"""The layer check (ARCHITECTURE.md section 4, docs/layout.md): no component includes a header
of a layer above it or of another component on its own layer. A public header
include/mpivet/X.h belongs to the component whose .c files define most of the functions it
declares; a header that declares no function (an X-macro table, constants) is vocabulary that
every layer may include. A private header src/C/x.h belongs to C.
Usage: layers.py SOURCE_DIR [OLD=NEW ...] (OLD=NEW ranks a folder as a component of the table,
e.g. common=util to check an older tree).
Exit 0 and a summary when the layers hold, 1 with one line per violation."""
import os
import re
import sys

# The layers, lowest first: a component may use its own files and those of lower layers only.
LAYERS = [
    ["util"],
    ["stats"],
    ["results"],
    ["model"],
    ["guidelines", "regress"],
    ["sim"],                       # built-in platforms, which the smpi engine writes
    ["bench", "calib", "campaign", "cpuclock", "trace", "analyze"],
    ["benchgen"],
    ["report"],
    ["cli"],
]
RANK = {c: i for i, layer in enumerate(LAYERS) for c in layer}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DECL = re.compile(r'^[A-Za-z_][^;{}()#]*?\b(mv_[a-z0-9_]+)\s*\(', re.M)


def c_files(root):
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                yield os.path.join(d, n)


def component_of(src, path):
    return os.path.relpath(path, src).split(os.sep)[0]


def header_owners(top):
    """include/mpivet/X.h -> component, from where its functions are defined."""
    src = os.path.join(top, "src")
    defined = {}
    for path in c_files(src):
        if path.endswith(".c"):
            text = open(path, encoding="utf-8", errors="replace").read()
            for m in re.finditer(r'^[A-Za-z_][^;{}()#=]*?\b(mv_[a-z0-9_]+)\s*\([^;{]*\)\s*\{', text, re.M):
                defined.setdefault(m.group(1), component_of(src, path))
    owners = {}
    inc = os.path.join(top, "include", "mpivet")
    for name in sorted(os.listdir(inc)):
        if not name.endswith(".h"):
            continue
        text = open(os.path.join(inc, name), encoding="utf-8", errors="replace").read()
        votes = {}
        for fn in DECL.findall(text):
            if fn in defined:
                votes[defined[fn]] = votes.get(defined[fn], 0) + 1
        owners["mpivet/" + name] = max(votes, key=votes.get) if votes else None
    return owners


def check(top):
    src = os.path.join(top, "src")
    owners = header_owners(top)
    bad = []
    for comp in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, comp)):
            continue
        if comp not in RANK:
            bad.append(f"src/{comp}: not in the layer table of tests/layers.py (add it to a layer)")
            continue
        for path in c_files(os.path.join(src, comp)):
            text = open(path, encoding="utf-8", errors="replace").read()
            for inc in INCLUDE.findall(text):
                if inc.startswith("mpivet/"):
                    owner = owners.get(inc)
                elif "/" in inc and inc.split("/")[0] in RANK:
                    owner = inc.split("/")[0]
                else:
                    continue   # a header of its own folder or a generated one
                if owner is None or owner == comp or owner not in RANK:
                    continue   # not in the table: said once for its folder
                if RANK[owner] >= RANK[comp]:
                    rel = os.path.relpath(path, top)
                    bad.append(f"{rel}: includes \"{inc}\" of {owner} (layer {RANK[owner]}), "
                               f"not below {comp} (layer {RANK[comp]})")
    # Public headers obey the layers of their owners too.
    for hdr, owner in sorted(owners.items()):
        if owner is None:
            continue
        text = open(os.path.join(top, "include", hdr), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE.findall(text):
            other = owners.get(inc)
            if other and other != owner and RANK.get(other, -1) >= RANK.get(owner, -1) >= 0:
                bad.append(f"include/{hdr} ({owner}): includes \"{inc}\" of {other}, not below")
    return owners, bad


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for alias in sys.argv[2:]:
        old, new = alias.split("=", 1)
        RANK[old] = RANK[new]
    owners, bad = check(top)
    for line in bad:
        print(line)
    if bad:
        print(f"layers: {len(bad)} violation(s)")
        return 1
    vocab = sorted(h for h, o in owners.items() if o is None)
    print(f"layers: ok ({len(owners)} public headers; vocabulary headers: {', '.join(vocab) or 'none'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
