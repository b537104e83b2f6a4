"""Hand translations of specs/programs/inferred/*.adl (conventions: adl.py).

These programs use integer literals whose base type is inferred from their uses
(docs/language.md, "Literal typing"). The translation types each literal BY HAND from the
program text, following that page: a literal, or a `let`-bound constant, that meets a real
is a Fraction (a real constant), one used as an index or in Z arithmetic is a Python int
(Z, with floor division `zdiv`). Nothing here runs Adora.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, asum, emit, finish, grad, jvp, lit, real, reset_stats, seed, vjp,  # noqa: E402
                 zdiv, zmod)


def let_array_dot():
    x0 = [F(1, 2), F(-2), F(3)]
    x = seed("x", x0)
    c = [F(1), F(2), F(-3)]  # R[3]: multiplied with x
    r = asum([a * b for a, b in zip(x, c)]) + c[0]
    assert grad(r, "x", x0) == c  # hand: d/dx sum(x * c) = c
    emit("programs/inferred/let_array_dot.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def let_matrix():
    x0 = [F(1, 3), F(-1)]
    x = seed("x", x0)
    m = [[F(1), F(2)], [F(3), F(4)]]  # R[2, 2]: rows multiplied with x
    out = [asum([m[i][j] * x[j] for j in range(2)]) for i in range(2)]
    tx, cot = [F(1), F(2)], [F(1), F(-1)]
    # hand: the Jacobian is m, so the JVP is m tx and the VJP is m^T cot
    assert jvp(out, {"x": tx}) == [sum(m[i][j] * tx[j] for j in range(2)) for i in range(2)]
    assert vjp(out, cot, "x", x0) == [sum(m[i][j] * cot[i] for i in range(2)) for j in range(2)]
    emit("programs/inferred/let_matrix.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: x = {lit(tx)}",
        f"-- jvp: {lit(jvp(out, {'x': tx}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
    ])


def let_division():
    x0 = [F(2), F(-1), F(5)]
    x = seed("x", x0)
    h = F(1) / F(2)  # R: multiplied with reals, so the exact quotient 1/2
    n = zdiv(4, 2)  # Z: an index, so the Z (floor) division
    r = x[n] * h + asum(x) * h * h
    assert h == F(1, 2) and n == 2
    emit("programs/inferred/let_division.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def tuple_literals():
    x0 = [F(3), F(1, 2)]
    x = seed("x", x0)
    t = (F(2), [F(1), F(-1)], 1)  # (R, R[2], Z): t.2 is an index
    a, b = F(3), F(1) / F(4)  # both R: a times a real, b plus a real
    r = t[0] * asum([p * q for p, q in zip(x, t[1])]) + x[t[2]] * a + b
    emit("programs/inferred/tuple_literals.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def def_args():
    x0 = [F(1), F(-2), F(1, 3)]
    x = seed("x", x0)

    def scale(v, s):
        return [a * s for a in v]

    def offset():
        return [F(1), F(2), F(3)]  # R[3]: the declared result type

    c, k = [F(1), F(0), F(-1)], F(2)  # R[3] and R: arguments of scale(v: R[3], s: R)
    r = asum([a * b for a, b in zip(scale(c, k), x)]) + asum(
        [a * b for a, b in zip(scale(x, F(3)), offset())])
    # hand: d/dx = k c + 3 offset = [2 + 3, 0 + 6, -2 + 9]
    assert grad(r, "x", x0) == [F(5), F(6), F(7)]
    emit("programs/inferred/def_args.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def loop_map():
    x0, v0 = F(1, 2), [F(1), F(-1), F(2)]
    x, v = seed("x", x0), seed("v", v0)
    c = [F(1), F(2), F(3)]  # R[3]: the map's result is multiplied with v
    s = F(0)  # R: the accumulator meets `s * x`
    for _ in range(4):
        s = s * x + F(1)
    r = s + asum([a * a * b for a, b in zip(c, v)])
    # hand: p = 1 + x + x^2 + x^3, p' = 1 + 2x + 3x^2; d/dv = c^2
    assert grad(r, "x", x0) == 1 + 2 * x0 + 3 * x0 ** 2
    assert grad(r, "v", v0) == [F(1), F(4), F(9)]
    emit("programs/inferred/loop_map.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: v = {lit(grad(r, 'v', v0))}",
    ])


def mixed_uses():
    x0 = [F(1), F(2), F(-3), F(1, 2)]
    x = seed("x", x0)
    n, m, k = 2, F(3), 5  # Z (index), R (factor of reals), Z (operand of %)
    r = x[n] * m + x[n + 1] * real(zmod(k, 3)) - m
    emit("programs/inferred/mixed_uses.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


for case in [let_array_dot, let_matrix, let_division, tuple_literals, def_args, loop_map,
             mixed_uses]:
    reset_stats()
    case()
finish()
