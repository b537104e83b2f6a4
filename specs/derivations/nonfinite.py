"""Hand translation of specs/programs/numeric/infinities.adl (docs/language.md,
"Non-finite literals"), in IEEE doubles (Python floats) since the program's literals are
infinite. Nothing here runs Adora.

    def main(x: R[3], y: R) -> R = reduce(max, -inf, x) + min(y, inf) * 0.5

The fold of max from -inf keeps the earlier value on a tie (the lowest index wins), so
the gradient of the maximum is the one-hot of its first index; min(y, inf) is y for every
finite y, with derivative 1 in y.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import emit, finish  # noqa: E402


def fmt(v):
    """A double as the golden format writes it: `inf`, `-inf`, or a decimal."""
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(float(v))


def vec(vs):
    return "[" + ", ".join(fmt(v) for v in vs) + "]"


def infinities():
    x, y = [3.0, -1.0, 2.0], 2.0
    acc, arg = -math.inf, None
    for k, v in enumerate(x):
        if v > acc:  # strictly greater: a tie keeps the earlier element
            acc, arg = v, k
    value = acc + min(y, math.inf) * 0.5
    gx = [1.0 if k == arg else 0.0 for k in range(3)]
    gy = 0.5  # d/dy min(y, inf) * 0.5 with y < inf
    tx, ty = [1.0, 1.0, 1.0], -math.inf
    jvp = sum(g * t for g, t in zip(gx, tx)) + gy * ty
    emit("programs/numeric/infinities.adl", [
        "-- numeric: f64 tol=1e-12",
        f"-- input: x = {vec(x)}",
        f"-- input: y = {fmt(y)}",
        f"-- value: {fmt(value)}",
        f"-- grad: x = {vec(gx)}",
        f"-- grad: y = {fmt(gy)}",
        f"-- tangent: x = {vec(tx)}",
        f"-- tangent: y = {fmt(ty)}",
        f"-- jvp: {fmt(jvp)}",
    ])


if __name__ == "__main__":
    infinities()
    finish()
