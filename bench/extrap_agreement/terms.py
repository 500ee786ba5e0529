"""Leading terms of a PMNF function, as Extra-P prints it or as mpivet's --json gives it, in one
normal form shared by bench/extrap_agreement/compare.py: the terms no other term dominates, each
as `p^(a/b)*log2(p)^k` over positional parameter names p, q, r, s (first, second, ... parameter
of the file), with a leading `-` when the coefficient is negative; `1` for a constant."""
from fractions import Fraction
import re

NAMES = "pqrs"


def _factor_text(idx, poly, log):
    out = []
    if poly != 0:
        out.append(f"{NAMES[idx]}^({poly})" if poly.denominator != 1 or poly < 0
                   else f"{NAMES[idx]}^{poly.numerator}")
    if log != 0:
        out.append(f"log2({NAMES[idx]})^{log}")
    return out


def term_text(term):
    """term: (sign, ((idx, poly, log), ...)) sorted by idx."""
    sign, factors = term
    parts = [t for idx, poly, log in factors for t in _factor_text(idx, poly, log)]
    return ("-" if sign < 0 else "") + "*".join(parts)


def _dominates(a, b):
    """a >= b in every parameter (lexicographic poly, log), a != b."""
    fa = {i: (p, l) for i, p, l in a[1]}
    fb = {i: (p, l) for i, p, l in b[1]}
    for i in set(fa) | set(fb):
        if fa.get(i, (0, 0)) < fb.get(i, (0, 0)):
            return False
    return fa != fb


def leading(terms):
    """Normal form of the leading terms of a list of (sign, factors) terms."""
    terms = [t for t in terms if t[1]]
    lead = [t for t in terms if not any(_dominates(u, t) for u in terms if u is not t)]
    return " + ".join(sorted(term_text(t) for t in lead)) if lead else "1"


_FACTOR = re.compile(r"^(log2\()?([a-z])\)?\^\((-?[0-9./]+)\)$")


def parse_extrap(text, params):
    """Extra-P's printed function ("c0 + c1 * p^(2) * log2(p)^(1) + ...") as terms; params maps
    Extra-P's parameter names (p, q, ... by position) to indices."""
    terms = []
    for chunk in text.split(" + ")[1:] if " + " in text else []:
        fields = chunk.split(" * ")
        try:
            coef = float(fields.pop(0))
        except ValueError:      # a coefficient of 1 is not printed
            coef, fields = 1.0, chunk.split(" * ")
        factors = {}
        for f in fields:
            m = _FACTOR.match(f.strip())
            if not m:
                raise ValueError(f"unknown factor {f!r} in {text!r}")
            idx = params.index(m.group(2))
            poly, log = factors.get(idx, (Fraction(0), 0))
            if m.group(1):
                log += int(Fraction(m.group(3)))
            else:
                poly += Fraction(m.group(3)).limit_denominator(12)
            factors[idx] = (poly, log)
        terms.append((1 if coef >= 0 else -1,
                      tuple(sorted((i, p, l) for i, (p, l) in factors.items()))))
    return terms


def parse_mpivet(terms_json, params):
    """mpivet's --json "terms" ([{"coefficient", "factors": [{"param", "poly", "log"}]}])."""
    terms = []
    for t in terms_json:
        factors = tuple(sorted((params.index(f["param"]),
                                Fraction(f["poly"]).limit_denominator(12), int(f["log"]))
                               for f in t["factors"]))
        terms.append((1 if t["coefficient"] >= 0 else -1, factors))
    return terms
