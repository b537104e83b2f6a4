"""Hand translations of specs/programs/gather_scatter/*.adl (conventions: adl.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, STATS, asum, emit, finish, grad, lit, read, real, reset_stats,  # noqa: E402
                 seed, stats_line, vjp, zeros)


def write_add(dest, i, v):
    """dest[i] += v for scatter (out of bounds: dropped, counted)."""
    if 0 <= i < len(dest):
        if isinstance(v, list):
            dest[i] = [a + b for a, b in zip(dest[i], v)]
        else:
            dest[i] = dest[i] + v
    else:
        STATS["oob_writes"] += 1


def gather_basic():
    x0 = [[F(k * 2 + c) / 2 for c in range(2)] for k in range(7)]
    x = seed("x", x0)
    out = [[read(read(x, 2 * (i + j)), i) * 3 for j in range(3)] for i in range(2)]
    cot = [[F(1), F(2), F(3)], [F(4), F(5), F(6)]]
    emit("programs/gather_scatter/gather_basic.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
        stats_line(),
    ])


def gather_rows():
    m0 = [[F(1), F(2), F(3)], [F(-1), F(0), F(1, 2)], [F(2), F(2), F(-3)]]
    m = seed("m", m0)
    g = [read(m, i * 2 % 3) for i in range(4)]
    r = asum([[a * a for a in row] for row in g])
    # hand: rows gathered 0, 2, 1, 0 -> grad = 2 * count(row) * m
    counts = [2, 1, 1]
    assert grad(r, "m", m0) == [[2 * counts[i] * a for a in m0[i]] for i in range(3)]
    emit("programs/gather_scatter/gather_rows.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(r)}",
        f"-- grad: m = {lit(grad(r, 'm', m0))}",
    ])


def gather_oob():
    x0 = [F(1), F(2), F(3), F(-1), F(1, 2), F(5)]
    x = seed("x", x0)
    g = [read(x, i * 2 - 1) for i in range(5)]
    r = asum([g[i] * g[i] * real(i) for i in range(5)])
    emit("programs/gather_scatter/gather_oob.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        stats_line(),
    ])


def gather_prefix_oob():
    m0 = [[F(1), F(2), F(3)], [F(4), F(5), F(6)]]
    m = seed("m", m0)
    a = [read(m, i - 1) for i in range(3)]
    b = [read(m, 2 - i) for i in range(3)]
    out = [[p * q for p, q in zip(ra, rb)] for ra, rb in zip(a, b)]
    cot = [[F(1), F(2), F(3)], [F(4), F(5), F(6)], [F(7), F(8), F(9)]]
    emit("programs/gather_scatter/gather_prefix_oob.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: m = {lit(vjp(out, cot, 'm', m0))}",
    ])


def scatter_collide():
    x0 = [F(1), F(2), F(-1), F(1, 2), F(3), F(1), F(-2)]
    x = seed("x", x0)
    dest = zeros([3])
    for i in range(7):
        write_add(dest, i % 3, x[i] * x[i])
    cot = [F(1), F(2), F(3)]
    # hand: vjp_i = 2 x_i cot[i % 3]
    assert vjp(dest, cot, "x", x0) == [2 * x0[i] * cot[i % 3] for i in range(7)]
    emit("programs/gather_scatter/scatter_collide.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(dest)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(dest, cot, 'x', x0))}",
        stats_line(),
    ])


def scatter_2d():
    x0 = [[F(k), F(-k, 2)] for k in range(1, 10)]
    x = seed("x", x0)
    dest = zeros([7, 2])
    for i in range(9):
        for j in range(2):
            dest[i % 7][j] = dest[i % 7][j] + x[i][j]
    cot = [[F(k), F(1)] for k in range(7)]
    emit("programs/gather_scatter/scatter_2d.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(dest)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(dest, cot, 'x', x0))}",
    ])


def scatter_rows():
    x0 = [[F(1), F(2), F(3)], [F(-1), F(1, 2), F(0)], [F(4), F(-2), F(1)]]
    x = seed("x", x0)
    s = zeros([4, 3])
    for i in range(3):
        write_add(s, 2 - i, x[i])
    r = asum([[a * a * F(1, 2) for a in row] for row in s]) + s[0][1] + asum(s[3])
    emit("programs/gather_scatter/scatter_rows.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def scatter_oob():
    x0 = [F(1), F(2), F(3), F(4), F(5), F(6)]
    x = seed("x", x0)
    dest = zeros([4])
    for i in range(6):
        write_add(dest, i - 1, x[i] * 2)
    cot = [F(1), F(2), F(3), F(4)]
    emit("programs/gather_scatter/scatter_oob.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(dest)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(dest, cot, 'x', x0))}",
        stats_line(),
    ])


def index_oob():
    x0 = [F(1), F(2), F(-3), F(1, 2)]
    x = seed("x", x0)
    r = asum([read(x, i + 2) * read(x, i) + read(x, i - 3) for i in range(4)])
    # hand: f = x2 x0 + x3 x1 + x0
    assert r.v == x0[2] * x0[0] + x0[3] * x0[1] + x0[0]
    emit("programs/gather_scatter/index_oob.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        stats_line(),
    ])


for case in [gather_basic, gather_rows, gather_oob, gather_prefix_oob, scatter_collide,
             scatter_2d, scatter_rows, scatter_oob, index_oob]:
    reset_stats()
    case()
finish()
_ = D
