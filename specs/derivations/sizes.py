"""Hand translations of specs/programs/sizes/*.adl (conventions: adl.py). The programs
have size parameters; each translation takes its sizes from the inputs' lengths, as
Adora binds them (docs/language.md, "Size parameters")."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import F, asum, emit, finish, grad, lit, real, seed  # noqa: E402


def conv(path, x0, w0):
    n, k = len(x0), len(w0)
    x, w = seed("x", x0), seed("w", w0)
    y = [asum([x[i + j] * w[j] for j in range(k)]) for i in range(n - k + 1)]
    r = asum([yi * yi for yi in y])
    yv = [sum(x0[i + j] * w0[j] for j in range(k)) for i in range(n - k + 1)]
    # hand: df/dw_j = sum_i 2 y_i x_{i+j}
    assert grad(r, "w", w0) == [sum(2 * yv[i] * x0[i + j] for i in range(n - k + 1))
                                for j in range(k)]
    emit(path, [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: w = {lit(grad(r, 'w', w0))}",
    ])


def mean_var():
    x0 = [F(1), F(-2), F(1, 2), F(4), F(3, 2)]
    n = len(x0)
    x = seed("x", x0)
    m = asum(x) / real(n)
    r = asum([(xi - m) * (xi - m) for xi in x]) / real(n)
    mv = sum(x0) / n
    # hand: d var / d x_i = 2 (x_i - mean) / n (the mean's own derivative sums to zero)
    assert grad(r, "x", x0) == [2 * (xi - mv) / n for xi in x0]
    emit("programs/sizes/mean_var.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def matmul():
    a0 = [[F(1), F(2), F(-1)], [F(1, 2), F(0), F(3)]]
    b0 = [[F(2), F(1)], [F(-1), F(1, 3)], [F(4), F(0)]]
    m, n, p = len(a0), len(b0), len(b0[0])
    a, b = seed("a", a0), seed("b", b0)
    c = [[asum([a[i][k] * b[k][j] for k in range(n)]) for j in range(p)] for i in range(m)]
    r = asum([v * v for row in c for v in row])
    cv = [[sum(a0[i][k] * b0[k][j] for k in range(n)) for j in range(p)] for i in range(m)]
    # hand: df/da = 2 C B^T
    assert grad(r, "a", a0) == [[sum(2 * cv[i][j] * b0[k][j] for j in range(p))
                                 for k in range(n)] for i in range(m)]
    emit("programs/sizes/matmul.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- input: b = {lit(b0)}",
        f"-- value: {lit(r)}",
        f"-- grad: a = {lit(grad(r, 'a', a0))}",
        f"-- grad: b = {lit(grad(r, 'b', b0))}",
    ])


def pairs():
    x0 = [F(3), F(-1, 2), F(2), F(5), F(-4), F(1, 3)]
    m = len(x0)
    x = seed("x", x0)
    r = asum([x[2 * i] * x[2 * i + 1] for i in range(m // 2)])
    # hand: each element's partner
    assert grad(r, "x", x0) == [x0[i + 1] if i % 2 == 0 else x0[i - 1] for i in range(m)]
    emit("programs/sizes/pairs.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def weighted_steps():
    x0 = [F(1), F(3), F(-1, 2), F(2)]
    n = len(x0)
    x = seed("x", x0)
    s = F(0)
    for i in range(n - 1):
        s = s + real(i) * (x[i + 1] - x[i]) * (x[i + 1] - x[i])
    r = s + asum([x[n - 1] for _ in range(max(n - 2, 1))])
    emit("programs/sizes/weighted_steps.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


conv("programs/sizes/conv1d.adl",
     [F(1), F(-2), F(3), F(0), F(1, 2), F(4), F(-1)], [F(1, 2), F(-1), F(2)])
conv("programs/sizes/conv1d_tiny.adl", [F(2), F(-1), F(1, 3), F(1)], [F(1), F(0), F(-2), F(1, 2)])
mean_var()
matmul()
pairs()
weighted_steps()
finish()
