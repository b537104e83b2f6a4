"""Hand translations of specs/programs/{conv,linalg,networks}/*.adl (conventions: adl.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, asum, dabs, dmax, dpow, emit, finish, grad, jvp, lit,  # noqa: E402
                 reset_stats, seed, vjp)


def self_convolution():
    x0 = [F(1), F(2), F(3), F(4), F(5)]
    x = seed("x", x0)
    r = asum([x[i] * x[4 - i] for i in range(5)])
    assert grad(r, "x", x0) == [2 * x0[4 - k] for k in range(5)]
    emit("programs/conv/self_convolution.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def conv1d():
    x0 = [F(k) for k in [1, -2, 3, 0, F(1, 2), 4, -1, 2, 5, F(-3, 2)]]
    w0 = [F(1, 2), F(-1), F(2)]
    x, w = seed("x", x0), seed("w", w0)
    y = [asum([x[i + k] * w[k] for k in range(3)]) for i in range(8)]
    r = asum([yi * yi for yi in y])
    # hand: df/dw_k = sum_i 2 y_i x_{i+k}; df/dx_j = sum_{i+k=j} 2 y_i w_k
    yv = [sum(x0[i + k] * w0[k] for k in range(3)) for i in range(8)]
    assert grad(r, "w", w0) == [sum(2 * yv[i] * x0[i + k] for i in range(8)) for k in range(3)]
    assert grad(r, "x", x0) == [sum(2 * yv[i] * w0[j - i] for i in range(8) if 0 <= j - i < 3)
                                for j in range(10)]
    emit("programs/conv/conv1d.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: w = {lit(grad(r, 'w', w0))}",
    ])


def conv2d():
    img0 = [[F((3 * i + 5 * j) % 7 - 3, 2) for j in range(4)] for i in range(4)]
    k0 = [[F(1), F(-1, 2)], [F(2), F(1, 3)]]
    img, k = seed("img", img0), seed("k", k0)
    y = [[asum([img[i + a][j + b] * k[a][b] for a in range(2) for b in range(2)])
          for j in range(3)] for i in range(3)]
    r = asum([[v * v for v in row] for row in y]) / 9
    emit("programs/conv/conv2d.adl", [
        f"-- input: img = {lit(img0)}",
        f"-- input: k = {lit(k0)}",
        f"-- value: {lit(r)}",
        f"-- grad: img = {lit(grad(r, 'img', img0))}",
        f"-- grad: k = {lit(grad(r, 'k', k0))}",
    ])


def matmul_common():
    a0 = [[F(1), F(2), F(-1)], [F(1, 2), F(0), F(3)]]
    b0 = [[F(2), F(1)], [F(-1), F(1, 3)], [F(4), F(0)]]
    a, b = seed("a", a0), seed("b", b0)
    c = [[asum([a[i][kk] * b[kk][j] for kk in range(3)]) for j in range(2)] for i in range(2)]
    ta = [[F(1), F(0), F(0)], [F(0), F(1), F(1)]]
    tb = [[F(0), F(1)], [F(1), F(0)], [F(-1), F(2)]]
    cot = [[F(1), F(-1)], [F(2), F(1, 2)]]
    # hand: vjp_a = cot b^T, vjp_b = a^T cot, jvp = ta b + a tb
    va = [[sum(cot[i][j] * b0[kk][j] for j in range(2)) for kk in range(3)] for i in range(2)]
    vb = [[sum(a0[i][kk] * cot[i][j] for i in range(2)) for j in range(2)] for kk in range(3)]
    jv = [[sum(ta[i][kk] * b0[kk][j] + a0[i][kk] * tb[kk][j] for kk in range(3))
           for j in range(2)] for i in range(2)]
    assert vjp(c, cot, "a", a0) == va and vjp(c, cot, "b", b0) == vb
    assert jvp(c, {"a": ta, "b": tb}) == jv
    return [
        f"-- input: a = {lit(a0)}",
        f"-- input: b = {lit(b0)}",
        f"-- value: {lit(c)}",
        f"-- tangent: a = {lit(ta)}",
        f"-- tangent: b = {lit(tb)}",
        f"-- jvp: {lit(jv)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: a = {lit(va)}",
        f"-- vjp: b = {lit(vb)}",
    ]


def matmul():
    emit("programs/linalg/matmul.adl", matmul_common())


def matmul_map():
    emit("programs/linalg/matmul_map.adl", ["-- entry: product"] + matmul_common())


def matvec():
    m0 = [[F(1), F(-2), F(1, 2)], [F(3), F(0), F(1)]]
    v0 = [F(2), F(1), F(-4)]
    m, v = seed("m", m0), seed("v", v0)
    y = [asum([m[i][kk] * v[kk] for kk in range(3)]) for i in range(2)]
    r = asum([yi * yi for yi in y])
    yv = [sum(m0[i][kk] * v0[kk] for kk in range(3)) for i in range(2)]
    assert grad(r, "m", m0) == [[2 * yv[i] * v0[kk] for kk in range(3)] for i in range(2)]
    emit("programs/linalg/matvec.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(r)}",
        f"-- grad: m = {lit(grad(r, 'm', m0))}",
        f"-- grad: v = {lit(grad(r, 'v', v0))}",
    ])


def iverson():
    m0 = [[F(1), F(2), F(3)], [F(-1), F(1, 2), F(4)], [F(2), F(0), F(-3)]]
    v0 = [F(1), F(-2), F(1, 3)]
    m, v = seed("m", m0), seed("v", v0)
    out = [asum([m[i][kk] * v[kk] if kk <= i else D(0) for kk in range(3)]) for i in range(3)]
    cot = [F(1), F(2), F(3)]
    emit("programs/linalg/iverson.adl", [
        f"-- input: m = {lit(m0)}",
        f"-- input: v = {lit(v0)}",
        f"-- value: {lit(out)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: m = {lit(vjp(out, cot, 'm', m0))}",
        f"-- vjp: v = {lit(vjp(out, cot, 'v', v0))}",
    ])


def mlp_rational():
    ins = {
        "w1": [[F(1, 2), F(-1)], [F(2), F(1, 3)], [F(-1), F(1)]],
        "b1": [F(0), F(-1, 2), F(1)],
        "w2": [F(1), F(-2), F(1, 2)],
        "b2": F(1, 4),
        "x": [F(2), F(-1)],
        "t": F(1),
    }
    s = {k: seed(k, v) for k, v in ins.items()}
    pre = [asum([s["w1"][i][j] * s["x"][j] for j in range(2)]) + s["b1"][i] for i in range(3)]
    h = [p / (1 + dabs(p)) for p in pre]
    y = asum([a * b for a, b in zip(s["w2"], h)]) + s["b2"]
    r = (y - s["t"]) * (y - s["t"]) / 2
    lines = [f"-- input: {k} = {lit(v)}" for k, v in ins.items()]
    lines.append(f"-- value: {lit(r)}")
    lines += [f"-- grad: {k} = {lit(grad(r, k, v))}" for k, v in ins.items()]
    emit("programs/networks/mlp_rational.adl", lines)


def relu_net():
    ins = {
        "w": [[F(1), F(-1)], [F(1, 2), F(2)]],
        "b": [F(0), F(-1)],
        "xs": [[F(1), F(1)], [F(2), F(-1)], [F(0), F(1, 2)]],
        "ys": [F(1), F(2), F(-1)],
    }
    s = {k: seed(k, v) for k, v in ins.items()}

    def layer(w, b, x):
        pre = [asum([r[j] * x[j] for j in range(2)]) + bi for r, bi in zip(w, b)]
        return [dmax(p, 0) for p in pre]

    preds = [asum(layer(s["w"], s["b"], x)) for x in s["xs"]]
    r = asum([dpow(p - y, 2) for p, y in zip(preds, s["ys"])]) + F(1, 100) * asum(
        [[a * a for a in row] for row in s["w"]])
    lines = [f"-- input: {k} = {lit(v)}" for k, v in ins.items()]
    lines.append(f"-- value: {lit(r)}")
    lines += [f"-- grad: {k} = {lit(grad(r, k, v))}" for k, v in ins.items()]
    emit("programs/networks/relu_net.adl", lines)


for case in [self_convolution, conv1d, conv2d, matmul, matmul_map, matvec, iverson,
             mlp_rational, relu_net]:
    reset_stats()
    case()
finish()
