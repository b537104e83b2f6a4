"""Hand translations of specs/programs/arrays/*.adl (see adl.py for the conventions)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, asum, emit, finish, flat, grad, jvp, lit, real, reset_stats,  # noqa: E402
                 seed, stats_line, unflat, vjp)


def index_prefix():
    a0 = [[F(1), F(2)], [F(3), F(4)], [F(5), F(6)]]
    a = seed("a", a0)
    r_ = a[1]
    r = asum([p * q for p, q in zip(r_, a[2])]) + a[0][1] * a[2][0]
    emit("programs/arrays/index_prefix.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- value: {lit(r)}",
        f"-- grad: a = {lit(grad(r, 'a', a0))}",
    ])


def build2d():
    a0 = [[F(1), F(-2)], [F(1, 2), F(3)], [F(2), F(-1, 3)]]
    a = seed("a", a0)
    out = [[a[j][i] * real(i + 2 * j) + a[2 - j][1 - i] * a[j][i] for j in range(3)]
           for i in range(2)]
    t = [[F(1), F(0)], [F(2), F(-1)], [F(0), F(1, 2)]]
    cot = [[F(1), F(2), F(3)], [F(-1), F(1, 2), F(0)]]
    emit("programs/arrays/build2d.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: a = {lit(t)}",
        f"-- jvp: {lit(jvp(out, {'a': t}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: a = {lit(vjp(out, cot, 'a', a0))}",
    ])


def literals_stack():
    x0, y0, v0 = F(2), F(-3), [F(1, 2), F(5)]
    x, y, v = seed("x", x0), seed("y", y0), seed("v", v0)
    m = [[x, D(1)], [D(F(5, 2)), x * y]]
    w = [v, [y, -y]]
    out = [[p * q for p, q in zip(w[0], w[1])],
           [p - q for p, q in zip(m[1], v)],
           [p * q for p, q in zip(m[0], v)]]
    cot = [[F(1), F(2)], [F(3), F(4)], [F(5), F(6)]]
    emit("programs/arrays/literals_stack.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
        f"-- vjp: y = {lit(vjp(out, cot, 'y', y0))}",
        f"-- vjp: v = {lit(vjp(out, cot, 'v', v0))}",
    ])


def transpose_reshape():
    a0 = [[F(1), F(2), F(3)], [F(4), F(5), F(6)]]
    t0 = [[[F(i * 12 + j * 4 + k, 2) for k in range(4)] for j in range(3)] for i in range(2)]
    a, t = seed("a", a0), seed("t", t0)
    # u[k][i][j] = t[i][j][k]  (result dim 0 is input dim 2, dim 1 is dim 0, dim 2 is dim 1)
    u = [[[t[i][j][k] for j in range(3)] for i in range(2)] for k in range(4)]
    f = unflat(flat(t), [6, 4])
    at = [[a[j][i] for j in range(2)] for i in range(3)]
    out = [[at[i][j] * at[i][j] + u[i + 1][j][i] + f[i * 2 + j][3 - i] for j in range(2)]
           for i in range(3)]
    # hand: u[i+1, j, i] = t[j, i, i+1] and f[r, c] = t[r // 3, r % 3, c]
    for i in range(3):
        for j in range(2):
            r = i * 2 + j
            want = a0[j][i] ** 2 + t0[j][i][i + 1] + t0[r // 3][r % 3][3 - i]
            assert out[i][j].v == want
    cot = [[F(1), F(-1)], [F(2), F(1, 2)], [F(3), F(0)]]
    emit("programs/arrays/transpose_reshape.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- input: t = {lit(t0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: a = {lit(vjp(out, cot, 'a', a0))}",
        f"-- vjp: t = {lit(vjp(out, cot, 't', t0))}",
    ])


def iota_append():
    x0, m0 = [F(2), F(-1), F(1, 2)], [[F(1), F(2)], [F(3), F(4)]]
    x, m = seed("x", x0), seed("m", m0)
    r = [real(i) * x[i] for i in range(3)]
    v = r + [x[0] * x[0]]
    out = m + [[v[0] + v[3], v[1]], [v[2], asum(v)]]
    cot = [[F(1), F(1)], [F(1), F(1)], [F(2), F(3)], [F(5), F(7)]]
    emit("programs/arrays/iota_append.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
        f"-- vjp: m = {lit(vjp(out, cot, 'm', m0))}",
    ])


def replicate_sum_outer():
    x0, m0 = [F(1), F(2), F(-1)], [[F(1, 2), F(0), F(2)], [F(3), F(-1), F(1)]]
    x, m = seed("x", x0), seed("m", m0)
    rr = [x, x]
    c = [rr[0][k] * m[0][k] + rr[1][k] * m[1][k] for k in range(3)]
    s4 = [[m[i][k] * 4 for k in range(3)] for i in range(2)]  # sum_outer(replicate(4, m))
    r = asum([ck * xk for ck, xk in zip(c, x)]) + asum(s4)
    # hand: f = sum_k x_k^2 (m0k + m1k) + 4 sum m
    assert grad(r, "x", x0) == [2 * x0[k] * (m0[0][k] + m0[1][k]) for k in range(3)]
    assert grad(r, "m", m0) == [[x0[k] ** 2 + 4 for k in range(3)] for _ in range(2)]
    emit("programs/arrays/replicate_sum_outer.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: m = {lit(grad(r, 'm', m0))}",
    ])


def select_elementwise():
    x0 = [F(2), F(0), F(-4)]
    x = seed("x", x0)
    inv = [1 / xi for xi in x]  # strict: computed for every element, 1/0 counted
    out = [inv[k] if not x[k].eq(0) else x[k] for k in range(3)]
    t, cot = [F(1), F(2), F(3)], [F(1), F(1), F(1)]
    emit("programs/arrays/select_elementwise.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: x = {lit(t)}",
        f"-- jvp: {lit(jvp(out, {'x': t}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
        stats_line(),
    ])


def select_whole():
    x0, s0 = [F(1), F(-2), F(3)], F(0)
    x, s = seed("x", x0), seed("s", s0)
    a = [xi / s for xi in x]  # strict: three divisions by zero
    b = [xi * xi for xi in x]
    first = a if s > 0 else b
    c = [xi * s for xi in x]
    second = c if s.eq(0) else x
    r = asum(first) + asum(second)
    emit("programs/arrays/select_whole.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: s = {lit(s0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: s = {lit(grad(r, 's', s0))}",
        stats_line(),
    ])


for case in [index_prefix, build2d, literals_stack, transpose_reshape, iota_append,
             replicate_sum_outer, select_elementwise, select_whole]:
    reset_stats()
    case()
finish()
