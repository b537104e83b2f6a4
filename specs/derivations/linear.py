"""Hand derivations of specs/programs/linear/*.adl (conventions: specs/derivations/adl.py).

Run as `python3 specs/derivations/linear.py [--check | --write]` (check_all.py runs it)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import F, asum, dsin, emit, finish, grad, jvp, lit, seed, vjp  # noqa: E402


def fig6():
    x0, y0 = 0.5, 2.0
    x, y = seed("x", x0), seed("y", y0)
    z = dsin(x)
    w = z * y
    r = w * x
    # by hand: r = sin(x) y x; dr/dx = cos(x) y x + sin(x) y; dr/dy = sin(x) x
    assert abs(grad(r, "x", x0) - (math.cos(x0) * y0 * x0 + math.sin(x0) * y0)) < 1e-15
    assert abs(grad(r, "y", y0) - math.sin(x0) * x0) < 1e-15
    emit("programs/linear/fig6_jvp.adl", [
        "-- numeric: f64 tol=1e-9",
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
        "-- tangent: x = 1.0",
        "-- tangent: y = -0.5",
        f"-- jvp: {lit(jvp(r, {'x': 1.0, 'y': -0.5}))}",
    ])


def fig10():
    x0, y0, z0 = F(3, 2), F(-2), [F(1), F(1, 2), F(-3)]
    x, y, z = seed("x", x0), seed("y", y0), seed("z", z0)
    r = (x * y + asum(z), [y + x * zi for zi in z])
    ct = (F(2), [F(1), F(-1), F(1, 3)])
    # by hand (the transpose): ct_y = x ct0 + sum(ct1), ct_z = ct0 + x ct1,
    # ct_x = ct0 y + <ct1, z>
    cy = x0 * ct[0] + sum(ct[1])
    cz = [ct[0] + x0 * c for c in ct[1]]
    cx = ct[0] * y0 + sum(c * zi for c, zi in zip(ct[1], z0))
    flat_r = [r[0]] + r[1]
    flat_ct = [ct[0]] + ct[1]
    assert vjp(flat_r, flat_ct, "y", y0) == cy
    assert vjp(flat_r, flat_ct, "z", z0) == cz
    assert vjp(flat_r, flat_ct, "x", x0) == cx
    emit("programs/linear/fig10_transpose.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- input: z = {lit(z0)}",
        f"-- value: {lit((r[0].v, [d.v for d in r[1]]))}",
        f"-- cotangent: {lit(ct)}",
        f"-- vjp: x = {lit(cx)}",
        f"-- vjp: y = {lit(cy)}",
        f"-- vjp: z = {lit(cz)}",
    ])


fig6()
fig10()
finish()
