"""Hand translations of specs/programs/dual/*.adl (conventions: adl.py).

The printed gradient programs of these files (`-- gradient-program[dual]:`) are the
engine's output and are checked by the runner (text, and evaluation against the headers
derived here); this script derives the value and derivative headers independently."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, STATS, asum, dmax, emit, finish, grad, lit, read, seed,  # noqa: E402
                 vjp, zeros)


def fig18():
    x0 = [F(1), F(2), F(3), F(4), F(5)]
    x = seed("x", x0)
    r = asum([x[i] * x[4 - i] for i in range(5)])
    assert grad(r, "x", x0) == [2 * x0[4 - k] for k in range(5)]
    emit("programs/dual/fig18.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def conv():
    x0 = [F(k) for k in [1, -2, 3, 0, F(1, 2), 4, -1, 2, 5, F(-3, 2)]]
    w0 = [F(1, 2), F(-1), F(2)]
    x, w = seed("x", x0), seed("w", w0)
    y = [asum([x[i + k] * w[k] for k in range(3)]) for i in range(8)]
    r = asum([yi * yi for yi in y])
    emit("programs/dual/conv.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: w = {lit(grad(r, 'w', w0))}",
    ])


def let_shared():
    x0 = [F(1, 2), F(-2), F(3)]
    x = seed("x", x0)
    y = [a * a for a in x]
    z = [b * a + b for a, b in zip(x, y)]
    r = asum([c * b for c, b in zip(z, y)])
    # hand: r = sum(x^5 + x^4), dr/dx = 5 x^4 + 4 x^3
    assert grad(r, "x", x0) == [5 * a ** 4 + 4 * a ** 3 for a in x0]
    emit("programs/dual/let_shared.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def gather_scatter():
    x0 = [F(1), F(-2), F(1, 2), F(3), F(-1)]
    w0 = [F(2), F(1, 3), F(-1)]
    x, w = seed("x", x0), seed("w", w0)
    gx = [read(x, i - 1) for i in range(6)]
    gw = [read(w, j % 3) for j in range(6)]
    prod = [a * b for a, b in zip(gx, gw)]
    out = zeros([3])
    for k in range(6):
        out[k // 2] = out[k // 2] + prod[k]
    cot = [F(1), F(-2), F(3)]
    emit("programs/dual/gather_scatter.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
        f"-- vjp: w = {lit(vjp(out, cot, 'w', w0))}",
    ])


def select_div():
    x0 = [F(3), F(-1), F(2), F(1, 2)]
    y0 = [F(0), F(2), F(2), F(-1, 4)]
    x, y = seed("x", x0), seed("y", y0)
    terms = []
    for a, b in zip(x, y):
        if a > b:
            terms.append(a / b)
        else:
            terms.append(dmax(a, b) * b)
    r = asum(terms)
    emit("programs/dual/select_div.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
    ])


for case in [fig18, conv, let_shared, gather_scatter, select_div]:
    STATS.update({k: 0 for k in STATS})
    case()
finish()
