"""Shared helpers of the derivation scripts for translated test suites (futhark_ad.py,
seed004.py, workloads.py): one golden case from a hand translation, tuple-aware JVPs and
VJPs, Jacobians, the sequential readings of the second-order array combinators, and
comparisons with the values a source test states.  Conventions: adl.py; nothing here
reads or runs Adora."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, STATS, emit, flat, fold, hist, lift, lit, reset_stats, scan,  # noqa: E402, F401
                 scatter_into, seed,
                 shape, stats_line, unflat)


def tflat(x):
    """Flattens nested lists and tuples to their scalars, in order."""
    if isinstance(x, (list, tuple)):
        out = []
        for y in x:
            out.extend(tflat(y))
        return out
    return [x]


def tmap(f, x):
    """Applies f to every scalar of nested lists and tuples, keeping the structure."""
    if isinstance(x, tuple):
        return tuple(tmap(f, y) for y in x)
    if isinstance(x, list):
        return [tmap(f, y) for y in x]
    return f(x)


def _tan(d, name, k):
    return lift(d).t.get((name, k), 0) if not isinstance(d, (bool, int)) else 0


def jac(out, name, value):
    """J[o][k]: derivative of the o-th scalar of `out` by the k-th scalar of input `name`."""
    n = len(flat(value))
    return [[F(_tan(d, name, k)) for k in range(n)] for d in tflat(out)]


def jvp_of(out, tangents):
    """The tangent of `out` for input tangents {name: nested numbers}; Z/B parts copied."""
    def one(d):
        if isinstance(d, (bool, int)):
            return d
        acc = 0 * lift(d).v
        for (name, k), dv in lift(d).t.items():
            if name in tangents:
                acc += dv * flat(tangents[name])[k]
        return acc
    return tmap(one, out)


def vjp_of(out, cot, name, value):
    """The cotangent of input `name` for the output cotangent `cot` (shaped like `out`)."""
    outs, cs = tflat(out), tflat(cot)
    n = len(flat(value))
    g = []
    for k in range(n):
        acc = F(0) if not isinstance(lift(outs[0]).v if outs else 0, float) else 0.0
        for d, c in zip(outs, cs):
            acc += c * _tan(d, name, k)
        g.append(acc)
    return unflat(g, shape(value))


def ramp(value):
    """A deterministic tangent shaped like `value`: -2, -1, 0, 1, 2, -2, ..."""
    xs = flat(value)
    return unflat([F(k % 5 - 2) for k in range(len(xs))], shape(value))


def case(path, params, f, grad=False, tan=None, cot=None, stats=False, numeric=None):
    """Evaluates the hand translation `f` on `params` [(name, value, 'R' | 'Z' | 'B')],
    emits the header lines of specs/<path> and returns (out, seeded inputs).  `grad`:
    gradient lines (scalar results); `tan`: {name: tangent} or True (a ramp for every
    real input); `cot`: the output cotangent, or True for all ones; `numeric`: the text of
    a `-- numeric:` line (f64 programs, whose inputs are floats)."""
    reset_stats()
    vals = {n: (seed(n, v) if k == "R" else v) for n, v, k in params}
    out = f(**vals)
    reals = [(n, v) for n, v, k in params if k == "R"]
    lines = [f"-- numeric: {numeric}"] if numeric else []
    lines += [f"-- input: {n} = {lit(v)}" for n, v, _ in params]
    lines.append(f"-- value: {lit(out)}")
    if grad:
        for n, v in reals:
            lines.append(f"-- grad: {n} = {lit(vjp_of(out, F(1), n, v))}")
    if tan is not None:
        if tan is True:
            tan = {n: ramp(v) for n, v in reals}
        lines += [f"-- tangent: {n} = {lit(t)}" for n, t in tan.items()]
        lines.append(f"-- jvp: {lit(jvp_of(out, tan))}")
    if cot is not None:
        if cot is True:
            cot = tmap(lambda _: F(1), tmap(lambda d: d, out))
        lines.append(f"-- cotangent: {lit(cot)}")
        for n, v in reals:
            lines.append(f"-- vjp: {n} = {lit(vjp_of(out, cot, n, v))}")
    if stats:
        lines.append(stats_line())
    emit(path, lines)
    return out, vals


def same(what, got, want, tol=None):
    """Fails loudly unless `got` equals the stated `want` (exactly, or within `tol`)."""
    g = [a.v if isinstance(a, D) else a for a in tflat(got)]
    w = tflat(want)
    ok = len(g) == len(w) and all(
        (abs(F(a) - F(b)) <= tol if tol is not None else F(a) == F(b)) for a, b in zip(g, w))
    if not ok:
        raise AssertionError(f"{what}: derived {got}, the source test states {want}")


def fs(xs):
    return [F(x) for x in xs] if not isinstance(xs[0], list) else [fs(x) for x in xs]


def transpose(m):
    return [list(r) for r in zip(*m)]


def sparse(rows, n, cols):
    """A rows x cols matrix from {row: {col: value}} (how the sparse expectations of the
    histogram tests are transcribed)."""
    return [[F(n.get(r, {}).get(c, 0)) for c in range(cols)] for r in range(rows)]


def onehot(n, i):
    return [F(1) if j == i else F(0) for j in range(n)]


# ------------------------------------------------ sequential readings of the combinators


def ew(op):
    """A scalar operator lifted to slices elementwise."""
    def g(a, b):
        if isinstance(a, list):
            return [g(x, y) for x, y in zip(a, b)]
        return op(a, b)
    return g


ADD = lambda a, b: a + b  # noqa: E731
MUL = lambda a, b: a * b  # noqa: E731
