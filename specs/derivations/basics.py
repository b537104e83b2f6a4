"""Hand translations of specs/programs/basics/*.adl (see adl.py for the conventions)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, amap, asum, dabs, div, dmax, dmin, emit, finish, grad, jvp, lit,
                 real, reset_stats, seed, stats_line, vjp, zdiv, zmod)  # noqa: E402


def design_example():
    x0 = [F(1), F(2), F(3)]
    x = seed("x", x0)
    r = asum([x[i] * x[2 - i] for i in range(3)])
    # hand formula: d/dx_k sum_i x_i x_{2-i} = 2 x_{2-k}
    assert grad(r, "x", x0) == [2 * x0[2 - k] for k in range(3)]
    emit("programs/basics/design_example.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def arith_scalar():
    x0, y0 = F(1, 2), F(3)
    x, y = seed("x", x0), seed("y", y0)
    r = (x + F(1, 10)) * (y - 2) / (x * y + 1) - -x
    # hand formula: f = (x + 1/10)(y - 2)/(xy + 1) + x
    num_, den = (x0 + F(1, 10)) * (y0 - 2), x0 * y0 + 1
    dfx = ((y0 - 2) * den - num_ * y0) / den ** 2 + 1
    dfy = ((x0 + F(1, 10)) * den - num_ * x0) / den ** 2
    assert grad(r, "x", x0) == dfx and grad(r, "y", y0) == dfy
    tx, ty = F(1), F(-2)
    emit("programs/basics/arith_scalar.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(dfx)}",
        f"-- grad: y = {lit(dfy)}",
        f"-- tangent: x = {lit(tx)}",
        f"-- tangent: y = {lit(ty)}",
        f"-- jvp: {lit(jvp(r, {'x': tx, 'y': ty}))}",
    ])


def decimals():
    x0 = F(4)
    x = seed("x", x0)
    sel = 3 * x if F(1, 10) + F(2, 10) == F(3, 10) else 0 * x
    r = F(1, 10) * x + F(2, 10) * x - F(3, 10) * x + F(-1, 8) * x * x + F(5, 2) + sel
    emit("programs/basics/decimals.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def broadcast():
    x0, s0 = [F(1), F(-2), F(1, 2)], F(3)
    x, s = seed("x", x0), seed("s", s0)
    r = asum([(2 * xi + 1) * (xi - s) / 4 - s for xi in x])
    # hand formula: d/dx_i = (2 (x_i - s) + (2 x_i + 1)) / 4 ; d/ds = -sum(2 x_i + 1)/4 - 3
    assert grad(r, "x", x0) == [(2 * (xi - s0) + 2 * xi + 1) / 4 for xi in x0]
    assert grad(r, "s", s0) == -sum(2 * xi + 1 for xi in x0) / 4 - 3
    emit("programs/basics/broadcast.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: s = {lit(s0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: s = {lit(grad(r, 's', s0))}",
    ])


def broadcast_cmp():
    x0 = [F(2), F(1, 2), F(-3), F(0)]
    x = seed("x", x0)
    out = [(dmin(xi, 1) if xi > 0 else F(1, 2) * xi) + dmax(xi, -1) - 1 for xi in x]
    cot = [F(1), F(2), F(3), F(4)]
    t = [F(1), F(1), F(1), F(1)]
    emit("programs/basics/broadcast_cmp.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: x = {lit(t)}",
        f"-- jvp: {lit(jvp(out, {'x': t}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
    ])


def integers():
    a, b = 7, 2
    out = [zdiv(a, b), zmod(a, b), zdiv(-a, b), zmod(-a, b), zdiv(a, -b), zmod(a, -b),
           abs(-a) * b - 1, max(a, b) - min(a, b)]
    assert out == [3, 1, -4, 1, -4, -1, 13, 5]
    emit("programs/basics/integers.adl", [
        f"-- input: a = {a}",
        f"-- input: b = {b}",
        f"-- value: {lit(out)}",
    ])


def bool_logic():
    p, q, x, y, m, n = True, False, F(1, 3), F(1, 2), 2, 2
    out = [not p, p and q, p or q, p or (q and q), (q and p) or p, x < y, x <= y, x > y,
           x >= y, x == y, x != y, m != n, (p == q) == (m < n), m + 1 > n * 1, p and True,
           q or False]
    emit("programs/basics/bool_logic.adl", [
        "-- input: p = true",
        "-- input: q = false",
        f"-- input: x = {lit(x)}",
        "-- input: y = 0.5",
        f"-- input: m = {m}",
        f"-- input: n = {n}",
        f"-- value: {lit(out)}",
    ])


def div_by_zero():
    reset_stats()
    x0, y0, n = F(3), F(2), 5
    x, y = seed("x", x0), seed("y", y0)
    r = x / (y - y) + x / y + real(zdiv(n, n - n)) + real(zdiv(n, 2))
    # hand: f = 0 + x/y + 0 + 2 ; df/dx = 1/y ; df/dy = -x/y^2
    assert grad(r, "x", x0) == 1 / y0 and grad(r, "y", y0) == -x0 / y0 ** 2
    emit("programs/basics/div_by_zero.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- input: n = {n}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
        stats_line(),
    ])


def defs_let():
    x0, y0 = [F(1), F(2), F(3)], [F(0), F(1), F(-1)]
    x, y = seed("x", x0), seed("y", y0)

    def sq(a):
        return a * a

    def norm2(v):
        return asum([sq(v[i]) for i in range(3)])

    d = [a - b for a, b in zip(x, y)]
    d = [di * 2 for di in d]
    r = norm2(d) + sq(asum(x))
    # hand: f = 4 |x - y|^2 + (sum x)^2 ; df/dx = 8 (x - y) + 2 sum x ; df/dy = -8 (x - y)
    sx = sum(x0)
    assert grad(r, "x", x0) == [8 * (a - b) + 2 * sx for a, b in zip(x0, y0)]
    assert grad(r, "y", y0) == [-8 * (a - b) for a, b in zip(x0, y0)]
    emit("programs/basics/defs_let.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
    ])


def int_literals_as_reals():
    x0, v0 = F(3, 2), [F(2), F(-1), F(1, 3)]
    x, v = seed("x", x0), seed("v", v0)
    a = [ai * vi for ai, vi in zip([x, D(1), D(2)], v)]
    b = (D(2) if x > 1 else D(3)) * x
    c = [dmax(vi, 0) for vi in v]
    d = asum([vi * 2 for vi in v])
    r = asum(a) + b + asum(c) + d + 1
    emit("programs/basics/int_literals_as_reals.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: v = {lit(grad(r, 'v', v0))}",
    ])


for case in [design_example, arith_scalar, decimals, broadcast, broadcast_cmp, integers,
             bool_logic, div_by_zero, defs_let, int_literals_as_reals]:
    reset_stats()
    case()
finish()
_ = (amap, dabs, div)
