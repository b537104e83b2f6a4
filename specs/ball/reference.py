#!/usr/bin/env python3
"""Independent 60-digit reference values for `--numeric ball` (docs/oracle.md,
"Certified enclosures").

Standard library only: `decimal` at 80 digits of working precision, `exp`, `ln` and
`sqrt` from `decimal` itself, `sin`, `cos` and `tanh` by their Taylor series (after an
exact-enough range reduction by a 80-digit pi), printed to 60 significant digits.

    python3 specs/ball/reference.py units      # the points of the unit tests
    python3 specs/ball/reference.py goldens    # the expectations of specs/programs/ball
"""
import sys
from decimal import Decimal as D, getcontext

getcontext().prec = 80


def pi():
    # Machin: pi = 16 atan(1/5) - 4 atan(1/239).
    def atan_inv(n):
        x = D(1) / n
        x2 = x * x
        s, t, k = D(0), x, 0
        while True:
            term = t / (2 * k + 1)
            if abs(term) < D(10) ** -90:
                break
            s += term if k % 2 == 0 else -term
            t *= x2
            k += 1
        return s
    return 16 * atan_inv(5) - 4 * atan_inv(239)


PI = pi()


def exp(x):
    return D(x).exp()


def ln(x):
    return D(x).ln()


def sqrt(x):
    return D(x).sqrt()


def sin(x):
    x = D(x)
    x = x - (2 * PI) * (x / (2 * PI)).to_integral_value()
    s, t, k = D(0), x, 1
    while abs(t) > D(10) ** -90:
        s += t
        t = -t * x * x / ((k + 1) * (k + 2))
        k += 2
    return s


def cos(x):
    x = D(x)
    x = x - (2 * PI) * (x / (2 * PI)).to_integral_value()
    s, t, k = D(0), D(1), 0
    while abs(t) > D(10) ** -90:
        s += t
        t = -t * x * x / ((k + 1) * (k + 2))
        k += 2
    return s


def tanh(x):
    e = exp(2 * D(x))
    return (e - 1) / (e + 1)


def sigmoid(x):
    return 1 / (1 + exp(-D(x)))


def q(s):
    """A rational literal `p/q` or `n` as a Decimal."""
    if "/" in s:
        a, b = s.split("/")
        return D(a) / D(b)
    return D(s)


def show(x):
    return format(+x.normalize(), ".60g") if x != 0 else "0"


def units():
    pts = {
        "exp": ["1/3", "-5/2", "10", "1/1024", "-40"],
        "log": ["2", "1/3", "1000000", "7/5"],
        "sin": ["1", "22/7", "100", "-1/7", "1000000"],
        "cos": ["1", "22/7", "100", "-1/7", "1000000"],
        "tanh": ["1/2", "-3", "20", "1/1000"],
        "sqrt": ["2", "1/3", "10000000001", "9/4"],
    }
    fns = {"exp": exp, "log": ln, "sin": sin, "cos": cos, "tanh": tanh, "sqrt": sqrt}
    for name, xs in pts.items():
        for x in xs:
            getcontext().prec = 80
            v = fns[name](q(x))
            print(f'    ("{name}", "{x}", "{show(v)}"),')


def nested(a):
    return "[" + ", ".join(nested(x) for x in a) + "]" if isinstance(a, list) else show(a)


def goldens():
    """`-- value:` and `-- grad: NAME = ...` lines; the names are those of the inputs,
    in order, given on the command line after `goldens PROGRAM`."""
    from golden_values import GOLDENS
    want = sys.argv[2]
    for name, f in GOLDENS:
        if name != want:
            continue
        v, gs = f()
        print(f"-- value: {show(v)}")
        for param, g in zip(sys.argv[3:], gs):
            print(f"-- grad: {param} = {nested(g)}")


if __name__ == "__main__":
    getcontext().prec = 80
    {"units": units, "goldens": goldens}[sys.argv[1] if len(sys.argv) > 1 else "units"]()
