"""Hand translations of specs/programs/sizes/*.adl (conventions: adl.py). The programs
have size parameters; each translation takes its sizes from the inputs' lengths, as
Adora binds them (docs/language.md, "Size parameters")."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import D, F, asum, emit, finish, grad, lit, real, seed  # noqa: E402


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


# Helpers with size parameters (docs/language.md, "Helpers with size parameters"): each
# hand translation is a Python function of lists, so it serves every size; the sizes of
# each call are the lengths of its arguments.


def h_dot(x, y):
    return asum([xi * yi for xi, yi in zip(x, y)])


def h_conv(x, w):
    n, k = len(x), len(w)
    return [asum([x[i + j] * w[j] for j in range(k)]) for i in range(n - k + 1)]


def h_mean(v):
    return asum(v) / real(len(v))


def helper_dot_two_sizes():
    a0 = [F(1), F(-2), F(1, 2)]
    b0 = [F(3), F(1, 3), F(-1), F(2), F(1, 2)]
    a, b = seed("a", a0), seed("b", b0)
    m = len(b0)
    r = h_dot(a, a) * h_dot(b, b) + h_dot(b, [real(i) * b[i] for i in range(m)])
    aa, bb = sum(v * v for v in a0), sum(v * v for v in b0)
    # hand: d/da = 2 a (b.b); d/db_i = 2 b_i (a.a) + 2 i b_i
    assert grad(r, "a", a0) == [2 * v * bb for v in a0]
    assert grad(r, "b", b0) == [2 * v * aa + 2 * i * v for i, v in enumerate(b0)]
    emit("programs/sizes/helper_dot_two_sizes.adl", [
        f"-- input: a = {lit(a0)}",
        f"-- input: b = {lit(b0)}",
        f"-- value: {lit(r)}",
        f"-- grad: a = {lit(grad(r, 'a', a0))}",
        f"-- grad: b = {lit(grad(r, 'b', b0))}",
    ])


def helper_conv_twice():
    x0 = [F(1), F(-1), F(2), F(1, 2), F(0), F(3), F(-2)]
    w0 = [F(1, 2), F(-1)]
    x, w = seed("x", x0), seed("w", w0)
    y = h_conv(h_conv(x, w), w)
    r = asum([v * v for v in y])
    # hand: conv(conv(x, w), w) is the valid convolution of x with w * w = [1/4, -1, 1]
    ww = [w0[0] * w0[0], 2 * w0[0] * w0[1], w0[1] * w0[1]]
    yv = [sum(x0[i + j] * ww[j] for j in range(3)) for i in range(5)]
    assert [d.v for d in y] == yv
    assert grad(r, "x", x0) == [sum(2 * yv[i] * ww[p - i] for i in range(5) if 0 <= p - i < 3)
                                for p in range(7)]
    emit("programs/sizes/helper_conv_twice.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: w = {lit(grad(r, 'w', w0))}",
    ])


def helper_gram_mean():
    x0 = [[F(1), F(2)], [F(-1), F(1, 2)], [F(3), F(0)]]
    x = seed("x", x0)
    nr = len(x0)
    g = [[h_dot(x[i], x[j]) for j in range(nr)] for i in range(nr)]
    r = h_mean(g[0]) * h_mean(x[nr - 1]) + h_mean([h_mean(g[i]) for i in range(nr)])
    gv = [[sum(a * b for a, b in zip(x0[i], x0[j])) for j in range(nr)] for i in range(nr)]
    # hand: the value from plain Fractions
    want = (sum(gv[0]) / 3) * (sum(x0[2]) / 2) + sum(sum(row) / 3 for row in gv) / 3
    assert r.v == want
    emit("programs/sizes/helper_gram_mean.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def helper_pad_loop():
    x0 = [F(2), F(-1), F(1, 2), F(3)]
    t0 = F(1, 2)
    x, t = seed("x", x0), seed("t", [t0])[0]
    c = x + [D(0), D(0)]
    a = c[0]
    for i in range(len(c) - 1):
        a = a * t + c[i + 1]
    tile = [[x[i] * real(i + 1) for i in range(len(x0))] for _ in range(2)]
    r = a + asum(tile) * t
    # hand: horner(c, t) = sum_i c_i t^(5 - i); the tile sums to 2 sum_i (i + 1) x_i
    assert r.v == sum(v * t0 ** (5 - i) for i, v in enumerate(x0)) + \
        2 * sum((i + 1) * v for i, v in enumerate(x0)) * t0
    emit("programs/sizes/helper_pad_loop.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: t = {lit(t0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: t = {lit(grad(r, 't', [t0])[0])}",
    ])


conv("programs/sizes/conv1d.adl",
     [F(1), F(-2), F(3), F(0), F(1, 2), F(4), F(-1)], [F(1, 2), F(-1), F(2)])
conv("programs/sizes/conv1d_tiny.adl", [F(2), F(-1), F(1, 3), F(1)], [F(1), F(0), F(-2), F(1, 2)])
mean_var()
matmul()
pairs()
weighted_steps()
helper_dot_two_sizes()
helper_conv_twice()
helper_gram_mean()
helper_pad_loop()
finish()
