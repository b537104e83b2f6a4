"""Hand translations of specs/programs/scalar/*.adl (see adl.py for the conventions)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import (F, asum, dabs, dmax, dmin, dpow, emit, finish, floor, grad, lit, real,  # noqa: E402
                 reset_stats, seed, stats_line)


def pow_():
    x0, y0 = F(2), F(-1, 3)
    x, y = seed("x", x0), seed("y", y0)
    r = dpow(x, 3) + dpow(x, 0) + dpow(x, -2) + dpow(y, -1) + dpow(x + y, 1)
    # hand: d/dx = 3x^2 - 2x^-3 + 1 ; d/dy = -y^-2 + 1
    assert grad(r, "x", x0) == 3 * x0 ** 2 - 2 * x0 ** -3 + 1
    assert grad(r, "y", y0) == -y0 ** -2 + 1
    emit("programs/scalar/pow.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
    ])


def pow_zero():
    x0, y0 = F(0), F(2)
    x, y = seed("x", x0), seed("y", y0)
    r = dpow(x, -1) + dpow(x, -2) * y + dpow(y, -3)
    # hand: x = 0 makes the first two terms 0 (total division), d/dy = -3 y^-4
    assert grad(r, "y", y0) == -3 * y0 ** -4
    emit("programs/scalar/pow_zero.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
        stats_line(),
    ])


def abs_min_max():
    x0, y0, z0 = F(2), F(2), F(0)
    x, y, z = seed("x", x0), seed("y", y0), seed("z", z0)
    r = dmax(x, y) * 3 + dmin(y, x) * 5 + dabs(z) * 7 + dabs(x - 4)
    # hand: tie -> max gives x (3), min gives y (5); |z|' = 0 at 0; |x - 4|' = -1 at x = 2
    assert (grad(r, "x", x0), grad(r, "y", y0), grad(r, "z", z0)) == (2, 5, 0)
    emit("programs/scalar/abs_min_max.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        f"-- input: z = {lit(z0)}",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
        f"-- grad: z = {lit(grad(r, 'z', z0))}",
    ])


def floor_real():
    x0, y0, v0 = F(5, 2), F(3), [F(-1, 2), F(0), F(3, 2)]
    x, y, v = seed("x", x0), seed("y", y0), seed("v", v0)
    r = real(floor(x)) * y + real(floor(-x)) + asum([real(floor(vi)) * vi for vi in v])
    emit("programs/scalar/floor_real.adl", [
        f"-- input: x = {lit(x0)}",
        f"-- input: y = {lit(y0)}",
        "-- input: v = [-0.5, 0, 1.5]",
        f"-- value: {lit(r)}",
        f"-- grad: x = {lit(grad(r, 'x', x0))}",
        f"-- grad: y = {lit(grad(r, 'y', y0))}",
        f"-- grad: v = {lit(grad(r, 'v', v0))}",
    ])


for case in [pow_, pow_zero, abs_min_max, floor_real]:
    reset_stats()
    case()
finish()
