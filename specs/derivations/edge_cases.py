"""Hand translations of the edge-case golden programs added after the first round
(inlining hygiene, laziness inside build, unusual scatter/gather index maps, loops over
arrays, rank 3, empty arrays, masks, nested tuples, user operators in reduce_by_index and
capturing operators). Conventions: adl.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, STATS, asum, dmax, emit, finish, grad, jvp, lit, read, real,  # noqa: E402
                 reset_stats, seed, stats_line, vjp, zeros)


def inline_hygiene():
    x0, a0 = [F(1), F(-2), F(1, 2)], F(3, 2)
    x, a = seed("x", x0), seed("a", a0)

    def scale(v, s):
        return [e * s for e in v]

    def twice(v, s):
        return scale(scale(v, s), s)

    r = asum(scale(x, a * 2)) + asum(twice(x, a)) * a
    # hand: f = 2a sum(x) + a^3 sum(x)
    sx = sum(x0)
    assert r.v == 2 * a0 * sx + a0 ** 3 * sx
    assert grad(r, "a", a0) == 2 * sx + 3 * a0 ** 2 * sx
    emit("programs/basics/inline_hygiene.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: a = {lit(a0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: a = {lit(grad(r, 'a', a0))}",
    ])


def if_in_build():
    x0 = [F(2), F(0), F(-3), F(1, 4)]
    x = seed("x", x0)
    r = asum([1 / x[i] if x[i] > 0 else x[i] * x[i] for i in range(4)])
    emit("programs/control/if_in_build.adl", [
        "-- mode: strict",
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        stats_line(),
    ])


def scatter_sum_rows():
    m0 = [[F(1), F(2), F(-1)], [F(1, 2), F(0), F(3)]]
    m = seed("m", m0)
    out = zeros([2])
    for i in range(2):
        for j in range(3):
            out[i] = out[i] + m[i][j] * m[i][j]
    cot = [F(1), F(-2)]
    emit("programs/gather_scatter/scatter_sum_rows.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: m = {lit(vjp(out, cot, 'm', m0))}",
    ])


def gather_empty_index():
    v0 = [F(1), F(-2), F(1, 3)]
    v = seed("v", v0)
    g = [v, v]  # gather([2], v, i => []) : two copies of v
    s = [v, [e * 2 for e in v]]
    out = [[p * q for p, q in zip(ra, rb)] for ra, rb in zip(g, s)]
    cot = [[F(1), F(2), F(3)], [F(-1), F(0), F(1)]]
    # hand: out = [v^2, 2 v^2] -> vjp = 2 v cot0 + 4 v cot1
    assert vjp(out, cot, "v", v0) == [2 * v0[k] * cot[0][k] + 4 * v0[k] * cot[1][k] for k in range(3)]
    emit("programs/gather_scatter/gather_empty_index.adl", [
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: v = {lit(vjp(out, cot, 'v', v0))}",
    ])


def loop_array():
    x0 = [F(1), F(2), F(-1), F(1, 2)]
    x = seed("x", x0)
    v = list(x)
    for i in range(4):
        new = read(v, i) * read(v, (i + 1) % 4) + 1
        v = list(v)
        v[i] = new  # scatter_into of one element (in bounds, no collision)
    cot = [F(1), F(1), F(1), F(1)]
    t = [F(1), F(0), F(0), F(0)]
    emit("programs/soacs/loop_array.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(v)}",
        f"-- tangent: x = {lit(t)}",
        f"-- jvp: {lit(jvp(v, {'x': t}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(v, cot, 'x', x0))}",
        stats_line(),
    ])


def build3d():
    a0 = [[F(1), F(2), F(-1)], [F(0), F(1, 2), F(3)]]
    b0 = [[F(2), F(1)], [F(-1), F(1, 3)], [F(1), F(1)]]
    a, b = seed("a", a0), seed("b", b0)
    t = [[[a[i][j] * b[j][k] - real(i * k) for k in range(2)] for j in range(3)] for i in range(2)]
    so = [[t[0][j][k] + t[1][j][k] for k in range(2)] for j in range(3)]
    out = [[so[j][k] + t[1][2][k] * F(1, 2) for k in range(2)] for j in range(3)]
    cot = [[F(1), F(0)], [F(0), F(1)], [F(2), F(-1)]]
    emit("programs/arrays/build3d.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- input: b = {lit(b0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: a = {lit(vjp(out, cot, 'a', a0))}",
        f"-- vjp: b = {lit(vjp(out, cot, 'b', b0))}",
    ])


def empty_build():
    y0 = F(3)
    y = seed("y", y0)
    e = []
    prod = D(1)
    for v in e:
        prod = prod * v
    mx = D(-5)
    for v in e:
        mx = dmax(mx, v)
    r = asum(e) + prod * y + mx + asum([]) + y * y
    emit("programs/arrays/empty_build.adl", [
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
    ])


def masks():
    x0 = [F(1), F(-2), F(3), F(1, 2)]
    x = seed("x", x0)
    even = [i % 2 == 0 for i in range(4)]
    big = [max(i, 2) - min(i, 1) >= 2 for i in range(4)]
    inner = [-x[i] if (not even[i]) or big[i] else x[i] for i in range(4)]
    out = [x[i] * x[i] if even[i] and not big[i] else inner[i] for i in range(4)]
    cot = [F(1), F(2), F(3), F(4)]
    emit("programs/arrays/masks.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
    ])


def nested_tuple():
    x0, v0 = F(2), [F(1), F(-1, 2)]
    x, v = seed("x", x0), seed("v", v0)
    p = ((x * x, [e * x for e in v]), asum(v))
    out = ((p[0][0] + p[1], p[0][1]), p[0][1][1] - p[1])
    flat_out = [out[0][0]] + out[0][1] + [out[1]]
    tx, tv = F(1), [F(0), F(2)]
    jv = ((jvp([out[0][0]], {"x": tx, "v": tv})[0], jvp(out[0][1], {"x": tx, "v": tv})),
          jvp([out[1]], {"x": tx, "v": tv})[0])
    cot = ((F(1), [F(2), F(3)]), F(-1))
    flat_cot = [cot[0][0]] + cot[0][1] + [cot[1]]
    emit("programs/tuples/nested_tuple.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: x = {lit(tx)}",
        f"-- tangent: v = {lit(tv)}",
        f"-- jvp: {lit(jv)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(flat_out, flat_cot, 'x', x0))}",
        f"-- vjp: v = {lit(vjp(flat_out, flat_cot, 'v', v0))}",
    ])


def hist_lambda():
    dest0, vs0 = [F(1, 2), F(2)], [F(1), F(3), F(-1, 2), F(2)]
    dest, vs = seed("dest", dest0), seed("vs", vs0)
    out = list(dest)
    for i, v in zip([1, 0, 1, 1], vs):
        out[i] = out[i] + v + out[i] * v
    # hand: bucket b ends at (1 + dest_b) prod_{j in b} (1 + vs_j) - 1
    assert out[0].v == (1 + dest0[0]) * (1 + vs0[1]) - 1
    assert out[1].v == (1 + dest0[1]) * (1 + vs0[0]) * (1 + vs0[2]) * (1 + vs0[3]) - 1
    cot = [F(1), F(1, 2)]
    emit("programs/soacs/hist_lambda.adl", [
        f"-- input: dest = {lit(dest0)}",
        f"-- input: vs = {lit(vs0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: dest = {lit(vjp(out, cot, 'dest', dest0))}",
        f"-- vjp: vs = {lit(vjp(out, cot, 'vs', vs0))}",
    ])


def reduce_capture():
    xs0, w0 = [F(1), F(-1, 2), F(2), F(1, 3)], F(1, 2)
    xs, w = seed("xs", xs0), seed("w", w0)

    def op(a, b):
        return a + b + w * a * b

    acc = D(0)
    sc = []
    for x in xs:
        acc = op(acc, x)
        sc.append(acc)
    r = acc + asum(sc)
    emit("programs/soacs/reduce_capture.adl", [
        f"-- input: xs = {lit(xs0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(r)}",
        f"-- grad: xs = {lit(grad(r, 'xs', xs0))}",
        f"-- grad: w = {lit(grad(r, 'w', w0))}",
    ])


def fold_ne(better, ne, xs):
    """reduce/scan with min/max as docs/language.md states it: an element wins a tie
    against the neutral element; among equal elements the lowest index wins."""
    acc, from_ne, out = D(ne), True, []
    for x in xs:
        if better(x.v, acc.v) or (from_ne and x.v == acc.v):
            acc, from_ne = x, False
        out.append(acc)
    return acc, out


def reduce_ne_ties():
    xs0 = [F(1), F(2), F(-1), F(2)]
    xs = seed("xs", xs0)
    hi, _ = fold_ne(lambda a, b: a > b, 2, xs)
    lo, _ = fold_ne(lambda a, b: a < b, -1, xs)
    _, sc = fold_ne(lambda a, b: a > b, 2, xs)
    assert hi is xs[1] and lo is xs[2] and sc[0].t == {} and all(c is xs[1] for c in sc[1:])
    r = hi + lo * 3 + asum(sc)
    emit("programs/soacs/reduce_ne_ties.adl", [
        f"-- input: xs = {lit(xs0)}",
        f"-- value: {lit(r)}",
        f"-- grad: xs = {lit(grad(r, 'xs', xs0))}",
    ])


for case in [reduce_ne_ties, inline_hygiene, if_in_build, scatter_sum_rows, gather_empty_index, loop_array,
             build3d, empty_build, masks, nested_tuple, hist_lambda, reduce_capture]:
    reset_stats()
    case()
finish()
_ = STATS
