"""Hand derivations of specs/programs/tssa/*.adl: the worked examples of seed 001,
*Differentiating a Tensor Language* (§1, §2.1–§2.3, §5.1), as core programs
(conventions: specs/derivations/adl.py). The paper's formulas were lost in extraction, so
the concrete programs are reconstructions; each expectation is recomputed here by dual
numbers over Fraction and cross-checked against a closed form derived by hand.

Run as `python3 specs/derivations/tssa.py [--check | --write]` (check_all.py runs it)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import F, asum, emit, finish, grad, lit, read, seed, vjp  # noqa: E402

A3 = [[F(1), F(2), F(3)], [F(4), F(5), F(6)], [F(7), F(8), F(10)]]


def conv(x, w, m):
    return [asum([w[j] * read(x, i + j) for j in range(len(w))]) for i in range(m)]


def conv_loss():
    x0, w0, y0 = [F(v) for v in [1, 2, 3, 4, 5]], [F(1), F(2), F(-1)], [F(0), F(1), F(2)]
    x, w, y = seed("x", x0), seed("w", w0), seed("y", y0)
    z = conv(x, w, 3)
    r = [zi - yi for zi, yi in zip(z, y)]
    loss = asum([ri * ri for ri in r])
    # by hand: g = 2 r; dx = correlation of g with w; dw_j = sum_i g_i x_{i+j}; dy = -g
    rv = [sum(w0[j] * x0[i + j] for j in range(3)) - y0[i] for i in range(3)]
    g = [2 * v for v in rv]
    assert grad(loss, "x", x0) == [sum(w0[j] * g[k - j] for j in range(3) if 0 <= k - j < 3)
                                   for k in range(5)]
    assert grad(loss, "w", w0) == [sum(g[i] * x0[i + j] for i in range(3)) for j in range(3)]
    assert grad(loss, "y", y0) == [-v for v in g]
    emit("programs/tssa/conv_loss.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(loss)}",
        f"-- grad: x = {lit(grad(loss, 'x', x0))}",
        f"-- grad: w = {lit(grad(loss, 'w', w0))}",
        f"-- grad: y = {lit(grad(loss, 'y', y0))}",
    ])


def conv_adjoint():
    x0, w0 = [F(v) for v in [1, 2, 3, 4, 5]], [F(1), F(2), F(-1)]
    x, w = seed("x", x0), seed("w", w0)
    z = conv(x, w, 3)
    dz = [F(1), F(-1), F(2)]
    # by hand: the adjoint of the convolution is the correlation
    # dx[k] = sum_j [0 <= k - j < 3] w[j] dz[k - j]
    corr = [sum(w0[j] * dz[k - j] for j in range(3) if 0 <= k - j < 3) for k in range(5)]
    assert vjp(z, dz, "x", x0) == corr == [1, 1, -1, 5, -2]
    # adjoint law with dx = [2, -1, 0, 3, 1]: <conv(dx), dz> = <dx, conv^T dz> = 14
    dx = [F(2), F(-1), F(0), F(3), F(1)]
    lhs = sum(sum(w0[j] * dx[i + j] for j in range(3)) * dz[i] for i in range(3))
    assert lhs == sum(a * b for a, b in zip(dx, corr)) == 14
    emit("programs/tssa/conv_adjoint.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit([zi.v for zi in z])}",
        f"-- cotangent: {lit(dz)}",
        f"-- vjp: x = {lit(vjp(z, dz, 'x', x0))}",
        f"-- vjp: w = {lit(vjp(z, dz, 'w', w0))}",
    ])


def traces():
    a = seed("a", A3)
    tr = asum([a[i][i] for i in range(3)])
    r = tr + tr + tr + tr
    # by hand: 4 traces; the gradient is 4 on the diagonal
    assert grad(r, "a", A3) == [[4 if p == q else 0 for q in range(3)] for p in range(3)]
    emit("programs/tssa/traces.adl", [
        f"-- input: a = {lit(A3)}",
        f"-- value: {lit(r)}",
        f"-- grad: a = {lit(grad(r, 'a', A3))}",
    ])


def col_row():
    a = seed("a", A3)
    r = asum([a[i][0] * a[0][i] for i in range(3)])
    # by hand: d/da[p][q] = [q == 0] a[0][p] + [p == 0] a[q][0]
    assert grad(r, "a", A3) == [[(A3[0][p] if q == 0 else 0) + (A3[q][0] if p == 0 else 0)
                                 for q in range(3)] for p in range(3)]
    emit("programs/tssa/col_row.adl", [
        f"-- input: a = {lit(A3)}",
        f"-- value: {lit(r)}",
        f"-- grad: a = {lit(grad(r, 'a', A3))}",
    ])


def skipped_entry():
    x0 = [F(v) for v in [1, 2, 3, 4, 5]]
    x = seed("x", x0)
    r = asum([x[i] if i != 3 else 0 * x[i] for i in range(5)])
    assert grad(r, "x", x0) == [0 if i == 3 else 1 for i in range(5)]
    emit("programs/tssa/skipped_entry.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def one_hot():
    x0 = [F(3), F(-1, 2), F(7), F(2), F(-4)]
    x = seed("x", x0)
    # probing with [i == 2]: the derivative is the one-hot vector e_2
    r = asum([x[i] * x[i] if i == 2 else 0 * x[i] for i in range(5)])
    assert grad(r, "x", x0) == [2 * x0[2] if i == 2 else 0 for i in range(5)]
    emit("programs/tssa/one_hot.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def eye_trace():
    a = seed("a", A3)
    s = asum([a[i][i] for i in range(3)])
    out = [[s if p == q else 0 * s for q in range(3)] for p in range(3)]
    ct = [[F(1), F(2), F(3)], [F(4), F(5), F(6)], [F(7), F(8), F(9)]]
    # by hand: trace^T = eye, eye^T = trace: the adjoint is trace(ct) on the diagonal
    t = sum(ct[i][i] for i in range(3))
    flat_out = [v for row in out for v in row]
    flat_ct = [v for row in ct for v in row]
    assert vjp(flat_out, flat_ct, "a", A3) == [[t if p == q else 0 for q in range(3)]
                                               for p in range(3)]
    emit("programs/tssa/eye_trace.adl", [
        f"-- input: a = {lit(A3)}",
        f"-- value: {lit([[v.v for v in row] for row in out])}",
        f"-- cotangent: {lit(ct)}",
        f"-- vjp: a = {lit(vjp(flat_out, flat_ct, 'a', A3))}",
    ])


def lift_pred():
    x0 = [F(1), F(2), F(3), F(4)]
    x = seed("x", x0)
    r = asum([(x[i] * x[i] + x[i] * x[i]) if i <= 1 else 0 * x[i] for i in range(4)])
    assert grad(r, "x", x0) == [4 * x0[i] if i <= 1 else 0 for i in range(4)]
    emit("programs/tssa/lift_pred.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def dead_code():
    x0 = F(2)
    x = seed("x", [x0])[0]
    r = 3 * x
    assert grad(r, "x", [x0]) == [3]
    emit("programs/tssa/dead_code.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', [x0])[0])}",
    ])


def batched_deconv():
    w0 = [F(1), F(-2)]
    xb0 = [[F(1), F(2), F(3), F(4)], [F(0), F(-1), F(2), F(1)]]
    yb0 = [[F(1), F(0), F(2)], [F(2), F(1), F(-1)]]
    w, xb, yb = seed("w", w0), seed("xb", xb0), seed("yb", yb0)
    out = []
    for j in range(2):
        acc = []
        for b in range(2):
            r = [asum([w[k] * read(xb[b], i + k) for k in range(2)]) - yb[b][i] for i in range(3)]
            acc.append(asum([2 * r[i] * read(xb[b], i + j) for i in range(3)]))
        out.append(asum(acc))
    # by hand: out is the gradient of L(w) = sum_b sum_i r_bi^2 with respect to w
    wl = seed("w", w0)
    res = [[asum([wl[k] * xb0[b][i + k] for k in range(2)]) - yb0[b][i] for i in range(3)]
           for b in range(2)]
    loss = asum([r * r for row in res for r in row])
    assert [o.v for o in out] == grad(loss, "w", w0) == [-50, -118]
    emit("programs/tssa/batched_deconv.adl", [
        f"-- input: w = {lit(w0)}",
        f"-- input: xb = {lit(xb0)}",
        f"-- input: yb = {lit(yb0)}",
        f"-- value: {lit([o.v for o in out])}",
        "-- cotangent: [1, -1]",
        f"-- vjp: w = {lit(vjp(out, [F(1), F(-1)], 'w', w0))}",
        f"-- vjp: xb = {lit(vjp(out, [F(1), F(-1)], 'xb', xb0))}",
        f"-- vjp: yb = {lit(vjp(out, [F(1), F(-1)], 'yb', yb0))}",
    ])


def linear_dag():
    x10, x20 = F(3), F(-1)
    x1, x2 = seed("x1", [x10])[0], seed("x2", [x20])[0]
    a = x1 + x2
    b = 2 * a
    c = a + x2
    y = b + c
    # by hand: y = 3 x1 + 4 x2
    assert (grad(y, "x1", [x10]), grad(y, "x2", [x20])) == ([3], [4])
    emit("programs/tssa/linear_dag.adl", [
        f"-- input: x1 = {lit(x10)}",
        f"-- input: x2 = {lit(x20)}",
        f"-- value: {lit(y)}",
        f"-- grad: x1 = {lit(grad(y, 'x1', [x10])[0])}",
        f"-- grad: x2 = {lit(grad(y, 'x2', [x20])[0])}",
    ])


conv_loss()
conv_adjoint()
traces()
col_row()
skipped_entry()
one_hot()
eye_trace()
lift_pred()
dead_code()
batched_deconv()
linear_dag()
finish()
