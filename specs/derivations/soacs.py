"""Hand translations of specs/programs/soacs/*.adl (conventions: adl.py).

Sequential reading of the seed-004 forms: reduce/scan fold left from the neutral element
(op(acc, x_j)); with min/max that keeps the earlier value on a tie, i.e. the lowest index.
reduce_by_index folds dest[is[j]] = op(dest[is[j]], vs[j]) in index order (so a tie keeps
the destination, then the lowest index); scatter_into writes in index order (the last
write wins).  Out-of-bounds indices are dropped and counted.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, STATS, asum, dmax, dmin, emit, finish, fold, grad, hist, jvp,  # noqa: E402
                 lit, real, scan, scatter_into,
                 reset_stats, seed, stats_line, vjp)


def ew(op, a, b):
    """A built-in operator applied to slices elementwise."""
    if isinstance(a, list):
        return [ew(op, x, y) for x, y in zip(a, b)]
    return op(a, b)


ADD = lambda a, b: a + b  # noqa: E731
MUL = lambda a, b: a * b  # noqa: E731


def map_multi():
    ins = {"xs": [F(1), F(-2), F(1, 2)], "ys": [F(3), F(1), F(-1)],
           "m": [[F(1), F(2)], [F(0), F(-1)], [F(1, 3), F(1)]]}
    s = {k: seed(k, v) for k, v in ins.items()}
    out = [a * b + asum(r) * a + a * a for a, b, r in zip(s["xs"], s["ys"], s["m"])]
    cot = [F(1), F(-1), F(2)]
    lines = [f"-- input: {k} = {lit(v)}" for k, v in ins.items()]
    lines += [f"-- value: {lit(out)}", f"-- cotangent: {lit(cot)}"]
    lines += [f"-- vjp: {k} = {lit(vjp(out, cot, k, v))}" for k, v in ins.items()]
    emit("programs/soacs/map_multi.adl", lines)


def reduce_ops():
    xs0 = [F(3), F(-1, 2), F(3), F(-1, 2), F(1, 2)]
    xs = seed("xs", xs0)
    out = (fold(ADD, D(0), xs), fold(MUL, D(1), xs), fold(dmin, D(100), xs),
           fold(dmax, D(-100), xs), fold(lambda a, b: a + b + a * b, D(0), xs))
    # hand: the user operator gives prod(1 + x) - 1
    assert out[4].v == (4 * F(1, 2) * 4 * F(1, 2) * F(3, 2)) - 1
    t = [F(1), F(2), F(3), F(4), F(5)]
    cot = (F(1), F(2), F(3), F(5), F(7))
    jv = tuple(jvp([o], {"xs": t})[0] for o in out)
    vj = [sum(c * g for c, g in zip(cot, gs)) for gs in
          zip(*[grad(o, "xs", xs0) for o in out])]
    emit("programs/soacs/reduce_ops.adl", [
        f"-- input: xs = {lit(xs0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: xs = {lit(t)}",
        f"-- jvp: {lit(jv)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: xs = {lit(vj)}",
    ])


def reduce_rows():
    m0 = [[F(1), F(2), F(-1), F(3)], [F(2), F(2), F(1, 2), F(-2)], [F(2), F(-1), F(3), F(1)]]
    m = seed("m", m0)
    p = fold(lambda a, b: ew(MUL, a, b), [D(1)] * 4, m)
    hi = fold(lambda a, b: ew(dmax, a, b), [D(-10)] * 4, m)
    best = fold(lambda a, b: a if asum(a) >= asum(b) else b, [D(-10)] * 4, m)
    # row sums 5, 5/2, 5: rows 0 and 2 tie, the first wins
    assert [asum(r).v for r in m] == [5, F(5, 2), 5] and best is m[0]
    r = asum(p) + asum([h * real(k) for k, h in enumerate(hi)]) + asum([b * b for b in best])
    emit("programs/soacs/reduce_rows.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(r)}",
        f"-- grad: m = {lit(grad(r, 'm', m0))}",
    ])


def scan_():
    xs0 = [F(2), F(-1, 2), F(2), F(1, 2)]
    xs = seed("xs", xs0)
    parts = [scan(ADD, D(0), xs), scan(MUL, D(1), xs), scan(dmax, D(-100), xs),
             scan(dmin, D(100), xs), scan(lambda a, b: a + b + a * b, D(0), xs)]
    out = [parts[0][k] + parts[1][k] * 2 + parts[2][k] * 3 + parts[3][k] * 4 + parts[4][k] * 5
           for k in range(4)]
    t, cot = [F(1), F(0), F(-1), F(2)], [F(1), F(2), F(3), F(4)]
    emit("programs/soacs/scan.adl", [
        f"-- input: xs = {lit(xs0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: xs = {lit(t)}",
        f"-- jvp: {lit(jvp(out, {'xs': t}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: xs = {lit(vjp(out, cot, 'xs', xs0))}",
    ])


def scan_rows():
    m0 = [[F(1), F(-2)], [F(1, 2), F(3)], [F(-1), F(1)]]
    m = seed("m", m0)
    out = scan(lambda a, b: ew(ADD, a, b), [D(0)] * 2, [[a * a for a in r] for r in m])
    cot = [[F(1), F(2)], [F(3), F(4)], [F(5), F(6)]]
    emit("programs/soacs/scan_rows.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: m = {lit(vjp(out, cot, 'm', m0))}",
    ])


def hist_add():
    dest0, is_, vs0 = [F(1), F(0), F(-1), F(2)], [0, 2, -1, 2, 4, 0], [F(1), F(2), F(3), F(-1), F(5), F(1, 2)]
    dest, vs = seed("dest", dest0), seed("vs", vs0)
    out = hist(dest, ADD, is_, [v * v for v in vs])
    cot = [F(1), F(2), F(3), F(4)]
    emit("programs/soacs/hist_add.adl", [
        f"-- input: dest = {lit(dest0)}",
        f"-- input: is = {lit(is_)}",
        f"-- input: vs = {lit(vs0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: dest = {lit(vjp(out, cot, 'dest', dest0))}",
        f"-- vjp: vs = {lit(vjp(out, cot, 'vs', vs0))}",
        stats_line(),
    ])


def hist_rows():
    dest0 = [[F(1), F(2)], [F(-1), F(1, 2)]]
    vs0 = [[F(2), F(3)], [F(1, 2), F(-1)], [F(-1), F(2)], [F(3), F(1)]]
    dest, vs = seed("dest", dest0), seed("vs", vs0)
    out = hist(dest, lambda a, b: ew(MUL, a, b), [i % 2 for i in range(4)], vs)
    cot = [[F(1), F(-1)], [F(2), F(1)]]
    emit("programs/soacs/hist_rows.adl", [
        f"-- input: dest = {lit(dest0)}",
        f"-- input: vs = {lit(vs0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: dest = {lit(vjp(out, cot, 'dest', dest0))}",
        f"-- vjp: vs = {lit(vjp(out, cot, 'vs', vs0))}",
        stats_line(),
    ])


def hist_minmax():
    dest0, vs0 = [F(2), F(0), F(1)], [F(2), F(3), F(3), F(1), F(-1), F(0), F(-1)]
    is_ = [0, 1, 1, 2, 0, 2, 0]
    dest, vs = seed("dest", dest0), seed("vs", vs0)
    hi = hist(dest, dmax, is_, vs)
    lo = hist(dest, dmin, is_, vs)
    # the winners: hi = [dest0, vs1, dest2], lo = [vs4, dest1, vs5]
    assert hi[0] is dest[0] and hi[1] is vs[1] and hi[2] is dest[2]
    assert lo[0] is vs[4] and lo[1] is dest[1] and lo[2] is vs[5]
    r = asum([h * w for h, w in zip(hi, [1, 2, 3])]) + asum([v * w for v, w in zip(lo, [5, 7, 11])])
    emit("programs/soacs/hist_minmax.adl", [
        f"-- input: dest = {lit(dest0)}",
        f"-- input: vs = {lit(vs0)}",
        f"-- value: {lit(r)}",
        f"-- grad: dest = {lit(grad(r, 'dest', dest0))}",
        f"-- grad: vs = {lit(grad(r, 'vs', vs0))}",
    ])


def scatter_into_():
    dest0, vs0 = [F(1), F(2), F(3), F(4), F(5)], [F(1), F(-2), F(3), F(1, 2), F(7)]
    dest, vs = seed("dest", dest0), seed("vs", vs0)
    out = scatter_into([d * 2 for d in dest], [3, 1, 3, 7, -2], [v * v for v in vs])
    cot = [F(1), F(2), F(3), F(4), F(5)]
    emit("programs/soacs/scatter_into.adl", [
        f"-- input: dest = {lit(dest0)}",
        f"-- input: vs = {lit(vs0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: dest = {lit(vjp(out, cot, 'dest', dest0))}",
        f"-- vjp: vs = {lit(vjp(out, cot, 'vs', vs0))}",
        stats_line(),
    ])


def scatter_into_rows():
    dest0, vs0 = [[F(1), F(2)], [F(3), F(-1)], [F(1, 2), F(4)]], [[F(2), F(-3)], [F(5), F(1)]]
    dest, vs = seed("dest", dest0), seed("vs", vs0)
    s = scatter_into(dest, [0, 2], vs)
    r = asum([[a * b for a, b in zip(ra, rb)] for ra, rb in zip(s, dest)])
    emit("programs/soacs/scatter_into_rows.adl", [
        f"-- input: dest = {lit(dest0)}",
        f"-- input: vs = {lit(vs0)}",
        f"-- value: {lit(r)}",
        f"-- grad: dest = {lit(grad(r, 'dest', dest0))}",
        f"-- grad: vs = {lit(grad(r, 'vs', vs0))}",
        stats_line(),
    ])


def loop_newton():
    a0 = F(2)
    a = seed("a", a0)
    g = a
    for _ in range(3):
        g = (g + a / g) / 2
    assert g.v == F(577, 408)
    emit("programs/soacs/loop_newton.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- value: {lit(g)}",
        f"-- grad: a = {lit(grad(g, 'a', a0))}",
    ])


def loop_tuple():
    c0, x0 = [F(1), F(-2), F(1, 2), F(3)], F(-1, 2)
    c, x = seed("c", c0), seed("x", x0)
    s, p = D(0), D(1)
    for i in range(4):
        s, p = s + c[i] * p, p * x
    r = s + p
    # hand: d/dc_i = x^i ; d/dx = c1 + 2 c2 x + 3 c3 x^2 + 4 x^3
    assert grad(r, "c", c0) == [x0 ** i for i in range(4)]
    assert grad(r, "x", x0) == c0[1] + 2 * c0[2] * x0 + 3 * c0[3] * x0 ** 2 + 4 * x0 ** 3
    emit("programs/soacs/loop_tuple.adl", [
        f"-- input: c = {lit(c0)}",
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: c = {lit(grad(r, 'c', c0))}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


for case in [map_multi, reduce_ops, reduce_rows, scan_, scan_rows, hist_add, hist_rows,
             hist_minmax, scatter_into_, scatter_into_rows, loop_newton, loop_tuple]:
    reset_stats()
    case()
finish()
