"""Hand translations of specs/programs/{control,tuples,numeric}/*.adl (conventions: adl.py).

The numeric programs run over Python floats (IEEE binary64, like Adora's f64 mode) with the
derivative rules of adl.py's _unary (exp' = exp, log' = 1/x, sin' = cos, cos' = -sin,
tanh' = 1 - tanh^2, sqrt' = 1 / (2 sqrt)); Adora compares them within tol=1e-9.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, D, asum, dcos, dexp, dlog, dpow, dsin, dsqrt, dtanh, emit, finish,  # noqa: E402
                 floor, grad, jvp, lit, read, real, reset_stats, seed, stats_line, vjp)

NUMERIC = "-- numeric: f64 tol=1e-9"


def if_lazy():
    x0, v0, k = F(3), [F(1, 2), F(-4)], 1
    x, v = seed("x", x0), seed("v", v0)
    # lazy: only the taken branch is evaluated (so no division by zero, no bad read)
    r = x * x + read(v, k) if x > 0 else x / (x - x) + read(v, k + 5)
    emit("programs/control/if_lazy.adl", [
        "-- mode: strict",
        f"-- input: x = {lit(x0)}",
        f"-- input: v = {lit(v0)}",
        f"-- input: k = {k}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: v = {lit(grad(r, 'v', v0))}",
        stats_line(),
    ])


def if_chain():
    x0, k, flag = F(1, 2), 2, True
    x = seed("x", x0)
    y = x * real(k) if flag else -x
    r = y if k == 0 else (y * y if k == 1 else dpow(y, 3))
    # hand: f = (2x)^3 = 8 x^3, f' = 24 x^2
    assert grad(r, "x", x0) == 24 * x0 ** 2
    emit("programs/control/if_chain.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: k = {k}",
        "-- input: flag = true",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
    ])


def tuple_return():
    v0, w0 = [F(1), F(-2), F(1, 2)], F(3)
    v, w = seed("v", v0), seed("w", w0)
    s, q = asum(v), asum([a * a for a in v])
    p = (q - s * s / 3, [a * w for a in v])
    out = (p[0] * w, [a + s for a in p[1]])
    tv, tw = [F(1), F(0), F(-1)], F(1, 2)
    jv = (jvp([out[0]], {"v": tv, "w": tw})[0], jvp(out[1], {"v": tv, "w": tw}))
    cot = (F(2), [F(1), F(-1), F(3)])
    flat_out, flat_cot = [out[0]] + out[1], [cot[0]] + cot[1]
    emit("programs/tuples/tuple_return.adl", [
        f"-- input: v = {lit(v0)}",
        f"-- input: w = {lit(w0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: v = {lit(tv)}",
        f"-- tangent: w = {lit(tw)}",
        f"-- jvp: {lit(jv)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: v = {lit(vjp(flat_out, flat_cot, 'v', v0))}",
        f"-- vjp: w = {lit(vjp(flat_out, flat_cot, 'w', w0))}",
    ])


def tuple_param():
    a0, v0, k = F(2), [F(1), F(-1, 2)], 3
    a, v = seed("a", a0), seed("v", v0)
    r = a * asum(v) * real(k) + v[0] * a
    g = (grad(r, "a", a0), grad(r, "v", v0))
    emit("programs/tuples/tuple_param.adl", [
        f"-- input: p = {lit((a0, v0))}",
        f"-- input: k = {k}",
        f"-- value: {lit(r)}",
        f"-- grad: p = {lit(g)}",
        f"-- tangent: p = {lit((F(1), [F(0), F(1)]))}",
        f"-- jvp: {lit(jvp([r], {'a': F(1), 'v': [F(0), F(1)]})[0])}",
    ])


def tuple_int_result():
    x0, n = [F(1, 2), F(1), F(1)], 3
    x = seed("x", x0)
    out = ([a * real(n) for a in x], n * 2 + floor(asum(x)))
    t = [F(1), F(-1), F(2)]
    jv = (jvp(out[0], {"x": t}), out[1])
    cot = ([F(1), F(2), F(3)], 0)
    emit("programs/tuples/tuple_int_result.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: n = {n}",
        f"-- value: {lit(out)}",
        f"-- tangent: x = {lit(t)}",
        f"-- jvp: {lit(jv)}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out[0], cot[0], 'x', x0))}",
    ])


def transcendental():
    x0, y0 = 0.5, 1.25
    x, y = seed("x", x0), seed("y", y0)
    r = dexp(x) * dsin(y) + dlog(y) * dcos(x) + dtanh(x * y) + dsqrt(x + y)
    # hand formulas
    sech2 = 1 - math.tanh(x0 * y0) ** 2
    gx = (math.exp(x0) * math.sin(y0) - math.log(y0) * math.sin(x0) + y0 * sech2
          + 1 / (2 * math.sqrt(x0 + y0)))
    gy = (math.exp(x0) * math.cos(y0) + math.cos(x0) / y0 + x0 * sech2
          + 1 / (2 * math.sqrt(x0 + y0)))
    assert abs(grad(r, "x", x0) - gx) < 1e-12 and abs(grad(r, "y", y0) - gy) < 1e-12
    emit("programs/numeric/transcendental.adl", [
        NUMERIC,
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(gx)}",
        f"-- grad: y = {lit(gy)}",
    ])


def logistic():
    ins = {"w": [0.5, -1.0, 0.25],
           "xs": [[1.0, 2.0, -1.0], [0.5, 0.0, 1.0], [-1.0, 1.0, 2.0], [2.0, -0.5, 0.0]],
           "ys": [1.0, 0.0, 1.0, 0.0]}
    s = {k: seed(k, v) for k, v in ins.items()}
    z = [asum([a * b for a, b in zip(s["w"], x)]) for x in s["xs"]]
    r = asum([dlog(1 + dexp(zi)) - yi * zi for zi, yi in zip(z, s["ys"])]) / 4
    # hand: dL/dw = sum_i (sigmoid(z_i) - y_i) x_i / 4
    zv = [sum(a * b for a, b in zip(ins["w"], x)) for x in ins["xs"]]
    sig = [1 / (1 + math.exp(-t)) for t in zv]
    gw = [sum((sig[i] - ins["ys"][i]) * ins["xs"][i][j] for i in range(4)) / 4 for j in range(3)]
    assert all(abs(p - q) < 1e-12 for p, q in zip(grad(r, "w", ins["w"]), gw))
    lines = [NUMERIC] + [f"-- input: {k} = {lit(v)}" for k, v in ins.items()]
    lines.append(f"-- value: {lit(r)}")
    lines += [f"-- grad: {k} = {lit(grad(r, k, v))}" for k, v in ins.items()]
    emit("programs/numeric/logistic.adl", lines)


def vector_funcs():
    x0 = [0.5, -0.25, 2.0]
    x = seed("x", x0)
    out = [dsin(a) * dcos(a) + dsqrt(a * a + 1) - dtanh(a) + dexp(-a) * dlog(a + 2) for a in x]
    t, cot = [1.0, 2.0, -1.0], [1.0, -1.0, 0.5]
    emit("programs/numeric/vector_funcs.adl", [
        NUMERIC,
        f"-- input: x = {lit(x0)}",
        f"-- value: {lit(out)}",
        f"-- tangent: x = {lit(t)}",
        f"-- jvp: {lit(jvp(out, {'x': t}))}",
        f"-- cotangent: {lit(cot)}",
        f"-- vjp: x = {lit(vjp(out, cot, 'x', x0))}",
    ])


for case in [if_lazy, if_chain, tuple_return, tuple_param, tuple_int_result, transcendental,
             logistic, vector_funcs]:
    reset_stats()
    case()
finish()
_ = D
