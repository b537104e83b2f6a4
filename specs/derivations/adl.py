"""Independent route for the golden programs' expectations (standard library only).

Each golden program is translated BY HAND into plain Python over `fractions.Fraction`
(exact) or `float` (the few `numeric: f64` programs).  Real scalars are `D` dual numbers
carrying a sparse tangent map {input-scalar key: derivative}, so one evaluation of the
hand translation yields the value, the gradient, any JVP and any VJP.  Integers are plain
Python `int`, booleans plain `bool` (they carry no tangent: derivatives are taken with
respect to real inputs only).

Nothing here reads or runs Adora.  The conventions of docs/language.md are spelled out below:

* total division: `x / 0 = 0` (counted in STATS['div_by_zero']); its tangent is 0;
* out-of-bounds reads give 0 (counted); out-of-bounds writes are dropped (counted);
* `max(a, b)` picks `a` when `a >= b`, `min(a, b)` picks `a` when `a <= b`;
* `abs'(0) = 0`;
* Z division is floor division, `%` its remainder (Python's `//` and `%`).

`emit(path, lines)` prints the header lines of one program; with `--check` on the command
line it instead compares them with the header lines of specs/<path> and fails loudly.
"""

import math
import os
import sys
from fractions import Fraction

F = Fraction

STATS = {"div_by_zero": 0, "oob_reads": 0, "oob_writes": 0, "colliding_writes": 0}


# ---------------------------------------------------------------- the SOACs, sequentially
# (docs/language.md): the one reading of reduce, scan, reduce_by_index and scatter_into the
# derivation scripts share.

def fold(op, ne, xs):
    """reduce: folds from the left starting at ne (ties of min/max keep the earlier)."""
    acc = ne
    for x in xs:
        acc = op(acc, x)
    return acc


def scan(op, ne, xs):
    """Inclusive scan from the left."""
    out, acc = [], ne
    for x in xs:
        acc = op(acc, x)
        out.append(acc)
    return out


def hist(dest, op, is_, vs):
    """reduce_by_index: dest[i] = op(dest[i], v) in index order; out of bounds dropped."""
    dest = list(dest)
    for i, v in zip(is_, vs):
        if 0 <= i < len(dest):
            dest[i] = op(dest[i], v)
        else:
            STATS["oob_writes"] += 1
    return dest


def scatter_into(dest, is_, vs):
    """The last write in index order wins; collisions and out-of-bounds writes counted."""
    dest = list(dest)
    written = set()
    for i, v in zip(is_, vs):
        if 0 <= i < len(dest):
            if i in written:
                STATS["colliding_writes"] += 1
            written.add(i)
            dest[i] = v
        else:
            STATS["oob_writes"] += 1
    return dest


def reset_stats():
    for k in STATS:
        STATS[k] = 0


def stats_line(*keys):
    keys = keys or tuple(STATS)
    return "-- stats: " + " ".join(f"{k}={STATS[k]}" for k in keys)


# ---------------------------------------------------------------- dual numbers


def _add_maps(a, b, sa=1, sb=1):
    out = {}
    for k, v in a.items():
        out[k] = out.get(k, 0) + sa * v
    for k, v in b.items():
        out[k] = out.get(k, 0) + sb * v
    return {k: v for k, v in out.items() if v != 0}


def _scale(a, s):
    return {k: v * s for k, v in a.items() if v * s != 0}


class D:
    """A real scalar: value `v` (Fraction or float) and tangent map `t`."""

    __slots__ = ("v", "t")

    def __init__(self, v, t=None):
        if isinstance(v, bool):
            raise TypeError("bool is not a real")
        if isinstance(v, int):
            v = Fraction(v)
        self.v = v
        self.t = t or {}

    def __repr__(self):
        return f"D({self.v}, {self.t})"

    def __add__(self, o):
        o = lift(o)
        return D(self.v + o.v, _add_maps(self.t, o.t))

    __radd__ = __add__

    def __sub__(self, o):
        o = lift(o)
        return D(self.v - o.v, _add_maps(self.t, o.t, 1, -1))

    def __rsub__(self, o):
        return lift(o) - self

    def __mul__(self, o):
        o = lift(o)
        return D(self.v * o.v, _add_maps(self.t, o.t, o.v, self.v))

    __rmul__ = __mul__

    def __truediv__(self, o):
        return div(self, o)

    def __rtruediv__(self, o):
        return div(lift(o), self)

    def __neg__(self):
        return D(-self.v, _scale(self.t, -1))

    # comparisons look at values only
    def __lt__(self, o):
        return self.v < lift(o).v

    def __le__(self, o):
        return self.v <= lift(o).v

    def __gt__(self, o):
        return self.v > lift(o).v

    def __ge__(self, o):
        return self.v >= lift(o).v

    def eq(self, o):
        return self.v == lift(o).v


def lift(x):
    if isinstance(x, D):
        return x
    if isinstance(x, bool):
        raise TypeError("bool is not a real")
    return D(x)


def div(a, b):
    """Total real division: a / 0 = 0 with zero tangent (counted)."""
    a, b = lift(a), lift(b)
    if b.v == 0:
        STATS["div_by_zero"] += 1
        return D(0 * a.v)
    q = a.v / b.v
    # (a/b)' = a'/b - a b'/b^2
    return D(q, _add_maps(a.t, b.t, 1 / b.v, -q / b.v))


def zdiv(a, b):
    """Z floor division, total: a / 0 = 0 (counted)."""
    if b == 0:
        STATS["div_by_zero"] += 1
        return 0
    return a // b


def zmod(a, b):
    """Z remainder of floor division (sign of the divisor)."""
    if b == 0:
        raise ValueError("x % 0 is not used by the corpus")
    return a % b


def dmax(a, b):
    a, b = lift(a), lift(b)
    return a if a.v >= b.v else b


def dmin(a, b):
    a, b = lift(a), lift(b)
    return a if a.v <= b.v else b


def dabs(a):
    a = lift(a)
    if a.v > 0:
        return a
    if a.v < 0:
        return -a
    return D(0 * a.v)  # abs'(0) = 0


def dpow(x, k):
    """pow(x, k) for a static integer k; negative k is 1 / x^|k| (total)."""
    x = lift(x)
    if k >= 0:
        r = D(1 + 0 * x.v)
        for _ in range(k):
            r = r * x
        return r
    return div(D(1 + 0 * x.v), dpow(x, -k))


def floor(x):
    """R -> Z."""
    return math.floor(lift(x).v)


def real(n):
    """Z -> R (a constant: no tangent)."""
    return D(Fraction(n))


# transcendental functions (float duals only)
def _unary(f, df):
    def g(x):
        x = lift(x)
        return D(f(x.v), _scale(x.t, df(x.v)))

    return g


dexp = _unary(math.exp, math.exp)
dlog = _unary(math.log, lambda v: 1 / v)
dsin = _unary(math.sin, math.cos)
dcos = _unary(math.cos, lambda v: -math.sin(v))
dtanh = _unary(math.tanh, lambda v: 1 - math.tanh(v) ** 2)
dsqrt = _unary(math.sqrt, lambda v: 1 / (2 * math.sqrt(v)))


# ---------------------------------------------------------------- arrays (nested lists)


def shape(a):
    s = []
    while isinstance(a, list):
        s.append(len(a))
        a = a[0]
    return s


def flat(a):
    if isinstance(a, list):
        out = []
        for x in a:
            out.extend(flat(x))
        return out
    return [a]


def unflat(xs, sh):
    if not sh:
        return xs[0]
    step = len(xs) // sh[0]
    return [unflat(xs[i * step:(i + 1) * step], sh[1:]) for i in range(sh[0])]


def amap(f, *arrays):
    """Elementwise map over equally shaped nested lists (scalars allowed)."""
    if isinstance(arrays[0], list):
        return [amap(f, *xs) for xs in zip(*arrays)]
    return f(*arrays)


def zeros(sh):
    if not sh:
        return D(0)
    return [zeros(sh[1:]) for _ in range(sh[0])]


def read(xs, i):
    """xs[i] with the out-of-bounds convention (reads 0 of the slice's shape, counted)."""
    if 0 <= i < len(xs):
        return xs[i]
    STATS["oob_reads"] += 1
    return zeros(shape(xs)[1:])


def asum(a):
    r = D(0)
    for x in flat(a):
        r = r + x
    return r


def seed(name, value):
    """Turns a nested list of numbers into duals whose tangent keys are (name, flat index)."""
    xs = flat(value)
    ds = [D(x, {(name, k): 1}) for k, x in enumerate(xs)]
    return unflat(ds, shape(value))


def const(value):
    """A nested list of numbers as duals without tangents."""
    return amap(lambda x: D(x), value)


# ---------------------------------------------------------------- derivatives


def grad(result, name, value):
    """Gradient of the scalar `result` w.r.t. the input `name` (shaped like `value`)."""
    n = len(flat(value))
    g = [result.t.get((name, k), 0 * result.v) for k in range(n)]
    return unflat(g, shape(value))


def jvp(result, tangents):
    """Tangent of `result` (nested duals) for input tangents {name: nested numbers}."""

    def one(d):
        acc = 0 * d.v
        for (name, k), dv in d.t.items():
            if name in tangents:
                acc += dv * flat(tangents[name])[k]
        return acc

    return amap(lambda d: one(lift(d)) if not isinstance(d, (bool, int)) else d, result)


def vjp(result, cot, name, value):
    """Cotangent of input `name` for the output cotangent `cot` (shaped like `result`)."""
    n = len(flat(value))
    outs = flat(result)
    cs = flat(cot)
    g = []
    for k in range(n):
        acc = 0
        for d, c in zip(outs, cs):
            acc += c * lift(d).t.get((name, k), 0)
        g.append(acc)
    return unflat(g, shape(value))


# ---------------------------------------------------------------- literals


def num(x):
    """A number as an Adora literal: integers `3`, rationals `-1/3`, floats fixed-point."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, D):
        x = x.v
    if isinstance(x, float):
        if x != x or x in (math.inf, -math.inf):
            raise ValueError("non-finite float")
        s = f"{x:.17f}".rstrip("0")
        if s.endswith("."):
            s += "0"
        return s
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator}"


def lit(v):
    """Nested lists / tuples / numbers as an Adora literal."""
    if isinstance(v, tuple):
        return "(" + ", ".join(lit(x) for x in v) + ")"
    if isinstance(v, list):
        return "[" + ", ".join(lit(x) for x in v) + "]"
    return num(v)


# ---------------------------------------------------------------- output / check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER_KEYS = ("input", "value", "grad", "tangent", "jvp", "cotangent", "vjp", "entry",
               "stats", "numeric", "mode")
FAILURES = []


def file_headers(path):
    out = []
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            s = line.rstrip("\n")
            if not s.startswith("--"):
                if s.strip():
                    break
                continue
            if is_header(s):
                out.append(s.rstrip())
    return out


def is_header(line):
    s = line.rstrip("\n")
    if not s.startswith("--"):
        return False
    body = s[2:].strip()
    return ":" in body and body.split(":", 1)[0] in HEADER_KEYS


def write_headers(path, lines):
    """Replaces the header lines of specs/<path> by `lines`, after its free comments."""
    full = os.path.join(ROOT, path)
    with open(full) as f:
        text = f.read().split("\n")
    k = 0
    while k < len(text) and (text[k].startswith("--") or not text[k].strip()):
        k += 1
    lead = [l for l in text[:k] if not is_header(l)]
    while lead and not lead[-1].strip():
        lead.pop()
    out = lead + lines + [""] + text[k:]
    with open(full, "w") as f:
        f.write("\n".join(out))


def emit(path, lines):
    """Prints (or, with --check, verifies; with --write, writes) the header lines of
    specs/<path>."""
    lines = [l.rstrip() for l in lines]
    if "--write" in sys.argv:
        write_headers(path, lines)
        print(f"wrote {path}")
    elif "--check" in sys.argv:
        have = file_headers(path)
        if have != lines:
            FAILURES.append(path)
            print(f"MISMATCH {path}")
            for l in lines:
                mark = " " if l in have else "+"
                print(f"  {mark} {l}")
            for l in have:
                if l not in lines:
                    print(f"  - {l}")
        else:
            print(f"ok {path}")
    else:
        print(f"== {path}")
        for l in lines:
            print(l)
        print()


def finish():
    if FAILURES:
        print(f"{len(FAILURES)} file(s) differ")
        sys.exit(1)
