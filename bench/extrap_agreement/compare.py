"""mpivet's leading terms against Extra-P's on Extra-P's own text corpus (tests/data/extrap/text).
Reads reference.tsv (one line per series: the leading terms Extra-P 4.2.5's default modeler gives,
where they come from, and, for a series where mpivet answers otherwise, why, with the leading terms
mpivet gave when that was written), runs `mpivet model --json` on every file named there, prints
one line per series and the agreement ratio.
Exit 1 when a one-parameter difference has no explanation in reference.tsv, when an explanation is
stale (the difference is gone, or mpivet now answers other terms than the ones it explains), when
the one-parameter ratio falls below --min, or when
the ratio on series of several parameters (counted apart; their differences are explained in
reference.tsv where investigated, not required) falls below --min-multi. Usage:
  compare.py MPIVET CORPUS_DIR REFERENCE_TSV [--min 0.9] [--min-multi 0.5]"""
import json
import subprocess
import sys

from terms import leading, parse_mpivet


def parameters(path):
    out = []
    for line in open(path):
        w = line.split()
        if len(w) >= 2 and w[0] == "PARAMETER":   # one name a line, or several
            out.extend(w[1:])
    return out


def mpivet_leads(mpivet, path):
    """(callpath, metric) -> (leading terms of the one function over the whole range, segments'
    leading terms joined by ' | ' or '')."""
    params = parameters(path)
    res = subprocess.run([mpivet, "model", "--json", path], capture_output=True, text=True)
    if res.returncode not in (0, 1):
        raise SystemExit(f"{path}: mpivet model exited {res.returncode}: {res.stderr.strip()}")
    out = {}
    for f in json.loads(res.stdout)["functions"]:
        segs = " | ".join(leading(parse_mpivet(s["terms"], params)) for s in f.get("segments") or [])
        whole = f.get("whole_range") or f      # with segments, the function they replace
        out[(f["function"], f["metric"])] = (leading(parse_mpivet(whole["terms"], params)), segs)
    return out


def main(argv):
    mpivet, corpus, ref = argv[1:4]
    minimum = float(argv[argv.index("--min") + 1]) if "--min" in argv else 0.0
    min_multi = float(argv[argv.index("--min-multi") + 1]) if "--min-multi" in argv else 0.0
    rows = [l.rstrip("\n").split("\t") for l in open(ref) if l.strip() and not l.startswith("#")]
    cache, bad, unexplained = {}, [], 0
    agree, total = {1: 0, 2: 0}, {1: 0, 2: 0}    # one parameter, several
    print(f"{'file':34} {'series':40} {'Extra-P':26} {'mpivet':26} agree")
    for file, callpath, metric, lead, _model, source, note, explained in rows:
        if file not in cache:
            cache[file] = mpivet_leads(mpivet, f"{corpus}/{file}")
        got, segs = cache[file].get((callpath, metric), ("(missing)", ""))
        # Like with like: Extra-P's segmented modeler against mpivet's segments (its one function
        # where it finds none), Extra-P's default modeler, which fits one function over the whole
        # range, against mpivet's one function over the whole range (the one its segments
        # replace when it finds a regime change).
        if "segmented modeler" in source:
            got = segs or got
        same = got == lead
        kind = 1 if len(parameters(f"{corpus}/{file}")) == 1 else 2
        total[kind] += 1
        agree[kind] += same
        print(f"{file:34} {callpath + ' ' + metric:40} {lead:26} {got:26} {'yes' if same else 'NO'}")
        if not same:
            print(f"    why: {note}" if note else "    why: not investigated"
                  if kind == 2 else "    why: (no explanation)")
            if not note and kind == 1:
                bad.append(f"{file} {callpath} {metric}: differs without an explanation")
            elif note and explained != got:
                bad.append(f"{file} {callpath} {metric}: reference.tsv explains mpivet's "
                           f"{explained or '(none recorded)'}, but mpivet now answers {got}")
            unexplained += not note and kind == 2
        elif note:
            bad.append(f"{file} {callpath} {metric}: agrees now, but reference.tsv explains a difference")
    ratio = agree[1] / total[1] if total[1] else 0.0
    ratio_multi = agree[2] / total[2] if total[2] else 0.0
    print(f"\nagreement with Extra-P 4.2.5 on one-parameter series: {agree[1]} of {total[1]} "
          f"({100 * ratio:.1f} %), every difference explained above")
    print(f"on series of 2 to 4 parameters: {agree[2]} of {total[2]} "
          f"({100 * agree[2] / max(total[2], 1):.1f} %); {total[2] - agree[2] - unexplained} "
          f"differences explained above, {unexplained} not investigated")
    for b in bad:
        print(f"error: {b}")
    if ratio < minimum:
        print(f"error: agreement {100 * ratio:.1f} % below {100 * minimum:.0f} %")
    if ratio_multi < min_multi:
        print(f"error: agreement on several parameters {100 * ratio_multi:.1f} % below "
              f"{100 * min_multi:.0f} %")
    return 1 if bad or ratio < minimum or ratio_multi < min_multi else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
