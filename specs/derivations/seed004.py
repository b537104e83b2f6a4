"""Hand translations of specs/programs/seed004/*.adl, the running examples of seed 004
(*AD for an Array Language with Nested Parallelism*, sections 2 to 6), derived from the
programs and our semantics (docs/language.md), never from Adora.  Several programs are
also checked against a derivative formula written out by hand from the section's rule
(the multiplicative cases of section 5.1.1, the argmin rule, the scatter rule of 5.3,
the matrix product's vjp, the strip-mined loop's equality with the original)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import F, D, dmax, dmin, finish, read  # noqa: E402
from futhark_common import (ADD, MUL, case, ew, fold, fs, hist, jac, same, scan,  # noqa: E402
                            scatter_into, vjp_of)

P = "programs/seed004/"


def straight_line():
    def f(x0, x1):
        t = x0 * x1
        return (t + x0, t * t)
    out, _ = case(P + "s2_straight_line.adl", [("x0", F(3), "R"), ("x1", F(-1, 2), "R")], f,
                  tan={"x0": F(1), "x1": F(2)}, cot=(F(1), F(-2)))
    # hand: d y0 = (x1 + 1) dx0 + x0 dx1 ; d y1 = 2 t (x1 dx0 + x0 dx1)
    t = F(3) * F(-1, 2)
    same("straight line vjp x0", vjp_of(out, (1, -2), "x0", 3), (F(-1, 2) + 1) - 2 * 2 * t * F(-1, 2))
    same("straight line vjp x1", vjp_of(out, (1, -2), "x1", 1), 3 - 2 * 2 * t * 3)


def variadic_loop():
    def f(xs, ys):
        acc = [x * y + x for x, y in zip(xs, ys)]
        for _ in range(3):
            acc = [a * y for a, y in zip(acc, ys)]
        return acc
    case(P + "s2_1_variadic_loop.adl", [("xs", fs([1, 2, -1]), "R"), ("ys", fs([2, F(1, 2), 3]), "R")],
         f, tan=True, cot=fs([1, 2, 3]))


def nest():
    def f(xss, c):
        return [[x * x * c for x in xs] if fold(ADD, D(0), xs) > 0 else [x + c for x in xs]
                for xs in xss]
    case(P + "s4_1_nest.adl", [("xss", fs([[1, 2, -1], [-3, 1, 1], [0, F(1, 2), 2]]), "R"),
                               ("c", F(2), "R")], f, tan=True, cot=fs([[1, 0, 2], [1, 1, 1], [-1, 2, 1]]))


def indexing():
    def f(xs):
        a, b, c = xs[1], xs[3], xs[1]
        return a * b + c * c
    xs0 = fs([5, 2, 7, -3])
    out, _ = case(P + "s4_2_indexing.adl", [("xs", xs0, "R")], f, grad=True)
    same("indexing", jac(out, "xs", xs0)[0], [0, -3 + 2 * 2, 0, 2])


def loop_fig4(w, steps):
    def f(x, w):
        a = x * 2
        for k in steps(len(w)):
            a = a * w[k] + x
        return a * a
    return f


def loops():
    w0 = fs([1, F(1, 2), -1, 2, F(1, 3), 1])
    params = [("x", F(3, 2), "R"), ("w", w0, "R")]
    plain = loop_fig4(w0, lambda n: range(n))
    out1, _ = case(P + "s4_3_loop.adl", params, plain, grad=True, tan=True)
    strip = loop_fig4(w0, lambda n: [k * 3 + j for k in range(2) for j in range(3)])
    out2, _ = case(P + "s4_3_stripmined.adl", params, strip, grad=True, tan=True)
    same("strip-mined equals original", [out2.v] + jac(out2, "w", w0)[0] + jac(out2, "x", 0)[0],
         [out1.v] + jac(out1, "w", w0)[0] + jac(out1, "x", 0)[0])


def reduces():
    op = lambda a, b: a + b + 2 * a * b  # noqa: E731
    xs0 = fs([1, F(-1, 4), 2, F(1, 2)])
    out, _ = case(P + "s5_1_reduce_general.adl", [("xs", xs0, "R")], lambda xs: fold(op, D(0), xs),
                  grad=True, tan=True)
    # hand: 1 + 2 r = prod(1 + 2 x), so dr/dx_i = prod_{j != i} (1 + 2 x_j)
    ps = [1 + 2 * x for x in xs0]
    same("general reduce closed form", out.v, (fold(MUL, F(1), ps) - 1) / 2)
    same("general reduce gradient", jac(out, "xs", xs0)[0],
         [fold(MUL, F(1), ps[:i] + ps[i + 1:]) for i in range(4)])

    a0, b0, c0 = fs([2, 3, F(1, 2), -1]), fs([2, 0, 5, 3]), fs([0, 4, 0, 2])

    def f(a, b, c):
        return fold(MUL, D(1), a) + 2 * fold(MUL, D(1), b) + 3 * fold(MUL, D(1), c)
    out, _ = case(P + "s5_1_1_reduce_mul.adl", [("a", a0, "R"), ("b", b0, "R"), ("c", c0, "R")], f,
                  grad=True, tan=True)
    pa = fold(MUL, F(1), a0)
    same("no zero: adjoint = product / x", jac(out, "a", a0)[0], [pa / x for x in a0])
    same("one zero: only the zero", jac(out, "b", b0)[0], [0, 2 * 2 * 5 * 3, 0, 0])
    same("two zeros: none", jac(out, "c", c0)[0], [0, 0, 0, 0])

    xs0 = fs([2, -1, 4, -1, 4])
    out, v = case(P + "s5_1_1_reduce_add_minmax.adl", [("xs", xs0, "R")],
                  lambda xs: (fold(ADD, D(0), xs), fold(dmin, D(100), xs), fold(dmax, D(-100), xs)),
                  tan=True, cot=(F(1), F(2), F(3)))
    same("argmin / argmax first index", vjp_of(out, (1, 2, 3), "xs", xs0), [1, 3, 4, 1, 1])

    vs0 = fs([3, 2, 0, 5, -1, 4])
    is_ = [0, 1, 0, 3, 1, 0]

    def rbi(vs):
        d = [D(1), D(2), D(3)]
        return [hist(d, op, is_, vs) for op in (ADD, MUL, dmin, dmax)]
    case(P + "s5_1_2_reduce_by_index.adl", [("vs", vs0, "R")], rbi, tan=True,
         cot=fs([[1, 1, 1], [1, 2, 1], [1, -1, 1], [2, 1, 1]]), stats=True)


def scans():
    xs0, m0 = fs([1, F(1, 2), -2, 3]), fs([[1, 2], [F(-1, 2), 3], [2, -1]])
    op = lambda a, b: a + b + a * b  # noqa: E731
    case(P + "s5_2_scan.adl", [("xs", xs0, "R"), ("m", m0, "R")],
         lambda xs, m: (scan(op, D(0), xs), scan(ew(ADD), [D(0)] * 2, m)),
         tan=True, cot=(fs([1, -1, 2, 1]), fs([[1, 0], [2, 1], [-1, 1]])))


def scatter():
    x0, vs0 = fs([1, 2, 3, -1, F(1, 2)]), fs([7, -2])
    cot = fs([1, 2, 3, 4, 5])
    out, _ = case(P + "s5_3_scatter.adl", [("x", x0, "R"), ("vs", vs0, "R")],
                  lambda x, vs: scatter_into([a * a for a in x], [3, 0], vs), tan=True, cot=cot,
                  stats=True)
    # hand (section 5.3): vs gets cot at is; xs's adjoint is cot zeroed at is, then 2 x
    same("scatter vs", vjp_of(out, cot, "vs", vs0), [cot[3], cot[0]])
    same("scatter x", vjp_of(out, cot, "x", x0),
         [0 if k in (3, 0) else 2 * x0[k] * cot[k] for k in range(5)])


def map_free():
    xs0 = fs([1, 2, 3, 4, 5, 6])
    case(P + "s5_4_map_free.adl", [("xs", xs0, "R"), ("c", F(-2), "R")],
         lambda xs, c: [read(xs, i) * c for i in [4, 1, 1]], tan=True, cot=fs([1, 2, 3]))


def matmul():
    a0, b0 = fs([[1, 2, -1], [0, F(1, 2), 3]]), fs([[2, 1], [-1, 0], [F(1, 3), 4]])
    cot = fs([[1, -1], [2, 3]])

    def f(xss, yss):
        yst = [list(c) for c in zip(*yss)]
        return [[fold(ADD, D(0), [x * y for x, y in zip(xs, ys)]) for ys in yst] for xs in xss]
    out, _ = case(P + "s6_1_matmul.adl", [("xss", a0, "R"), ("yss", b0, "R")], f, tan=True, cot=cot)
    # hand: vjp_xss = C yss^T, vjp_yss = xss^T C
    same("matmul vjp xss", vjp_of(out, cot, "xss", a0),
         [[sum(cot[i][j] * b0[k][j] for j in range(2)) for k in range(3)] for i in range(2)])
    same("matmul vjp yss", vjp_of(out, cot, "yss", b0),
         [[sum(a0[i][k] * cot[i][j] for i in range(2)) for j in range(2)] for k in range(3)])


def loops62():
    def dep(x0, c):
        ys = scatter_into([D(0)] * 5, [0], [x0])
        for i in range(4):
            ys = scatter_into(ys, [i + 1], [ys[i] * c + 1])
        return ys
    case(P + "s6_2_dependent_loop.adl", [("x0", F(2), "R"), ("c", F(-1, 2), "R")], dep, tan=True,
         cot=fs([1, 1, 2, 1, 3]), stats=True)

    def inplace(x, c):
        y = list(x)
        for i in range(len(x) - 1):
            y = scatter_into(y, [i + 1], [y[i] * c + x[i + 1]])
        return y
    xs, c0 = fs([1, 2, 3, 4]), F(1, 2)
    out, _ = case(P + "s6_2_inplace_memory.adl", [("x", xs, "R"), ("c", c0, "R")], inplace,
                  cot=fs([1, 1, 1, 1]), stats=True)
    # hand: y_k = c y_(k-1) + x_k, so d(sum y)/dx_k = sum_(j >= k) c^(j - k)
    same("in-place loop vjp x", vjp_of(out, (1, 1, 1, 1), "x", xs),
         [sum(c0 ** (j - k) for j in range(k, 4)) for k in range(4)])

    def wb(x, a):
        y = x
        for _ in range(8):
            y = y * a if y < 10 else y
        return y
    out, _ = case(P + "s6_2_while_bound.adl", [("x", F(1), "R"), ("a", F(3, 2), "R")], wb, grad=True)
    # hand: six multiplications run, y = x a^6
    same("while bound", (out.v, jac(out, "x", 1)[0], jac(out, "a", 0)[0]),
         (F(3, 2) ** 6, [F(3, 2) ** 6], [6 * F(3, 2) ** 5]))


for part in [straight_line, variadic_loop, nest, indexing, loops, reduces, scans, scatter,
             map_free, matmul, loops62]:
    part()
finish()
