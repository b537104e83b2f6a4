"""Hand translations of the histogram (reduce_by_index) programs of
specs/programs/futhark_ad/, translated from the published Futhark AD tests
(github.com/diku-dk/futhark, tests/ad/hist_*.fut and reducebyindex*.fut); the rest of the
directory is derived by futhark_ad.py, whose docstring states the method: a hand
translation from the Futhark test and our semantics, never Adora, compared with the values
the Futhark test states (`same`)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import F, D, dmax, dpow, finish  # noqa: E402
from futhark_common import (ADD, MUL, case, fold, fs, hist, jac, onehot, same, sparse,  # noqa: E402
                            vjp_of)

P = "programs/futhark_ad/"
# ---------------------------------------------------------------- histograms


IS18 = [4, 5, 2, 4, 5, 2, 0, 0, 4, 5, 1, 4, 1, 3, 3, 1, 8, -1]
VS18 = [11, 16, 7, 0, 14, 6, 2, 1, 13, 0, 5, 0, 3, 0, 9, 4, 17, 18]
C8 = [1, 2, 3, 4, 5, 6, 7, 8]
DST8 = [1, 2, 0, 4, 5, 0, 9, 0]


def hist_c(name, dest0, op, want_vs, want_c):
    """hist_add.fut, hist_mul.fut, hist_complex.fut: r = hist op ne m is vs; r * c.
    Futhark's rev_map gives, per output bin, the vs- and c-derivatives."""
    params = [("is", IS18, "Z"), ("vs", fs(VS18), "R"), ("c", fs(C8), "R")]

    def f(is_, vs, c):
        return [a * b for a, b in zip(hist([D(dest0)] * 8, op, is_, vs), c)]
    out, _ = case(P + name, params, lambda **k: f(k["is"], k["vs"], k["c"]), tan=True,
                  cot=fs([1, -1, 2, 1, 3, 1, -2, 1]), stats=True)
    same(name + " vs-Jacobian", jac(out, "vs", VS18), sparse(8, want_vs, 18))
    same(name + " c-Jacobian", jac(out, "c", C8),
         [[F(w) if r == k else 0 for k in range(8)] for r, w in enumerate(want_c)])


def histograms():
    hist_c("hist_add.adl", 0, ADD,
           {0: {6: 1, 7: 1}, 1: {10: 2, 12: 2, 15: 2}, 2: {2: 3, 5: 3}, 3: {13: 4, 14: 4},
            4: {0: 5, 3: 5, 8: 5, 11: 5}, 5: {1: 6, 4: 6, 9: 6}},
           [3, 12, 13, 9, 24, 30, 0, 0])
    hist_c("hist_mul.adl", 1, MUL,
           {0: {6: 1, 7: 2}, 1: {10: 24, 12: 40, 15: 30}, 2: {2: 18, 5: 21}, 3: {13: 36},
            5: {9: 1344}},
           [2, 60, 42, 0, 0, 0, 1, 1])
    hist_c("hist_lambda.adl", F(1, 2), lambda x, y: x * y * 2,
           {0: {6: 2, 7: 4}, 1: {10: 96, 12: 160, 15: 120}, 2: {2: 36, 5: 42}, 3: {13: 72},
            5: {9: 5376}},
           [4, 240, 84, 0, 0, 0, F(1, 2), F(1, 2)])

    out, _ = case(P + "hist_max.adl", [("is", IS18, "Z"), ("vs", fs(VS18), "R")],
                  lambda **k: hist([D(-1000)] * 5, dmax, k["is"], k["vs"]), tan=True,
                  cot=fs([1, 2, 3, 4, 5]), stats=True)
    same("hist_minmax rev_map", jac(out, "vs", VS18),
         sparse(5, {0: {6: 1}, 1: {10: 1}, 2: {2: 1}, 3: {14: 1}, 4: {8: 1}}, 18))


def rbi_dest():
    ones8 = [F(1)] * 8
    lam = lambda x, y: x * y * 2  # noqa: E731
    params = [("is", IS18, "Z"), ("dst", fs(DST8), "R"), ("vs", fs(VS18), "R"), ("c", fs(C8), "R")]
    out, _ = case(P + "rbi_lambda_dest.adl", params,
                  lambda **k: [a * b for a, b in zip(hist(k["dst"], lam, k["is"], k["vs"]), k["c"])],
                  cot=ones8, stats=True)
    same("reducebyindex0 dst", vjp_of(out, ones8, "dst", DST8), [8, 960, 504, 0, 0, 0, 7, 8])
    same("reducebyindex0 vs", vjp_of(out, ones8, "vs", VS18),
         [0, 0, 0, 0, 0, 0, 4, 8, 0, 0, 384, 0, 640, 576, 0, 480, 0, 0])
    same("reducebyindex0 c", vjp_of(out, ones8, "c", C8), [8, 960, 0, 0, 0, 0, 9, 0])

    is9, dst4 = [0, 1, 2, 3, 2, 1, 0, 1, 2], [0, 1, 2, 3]
    vs9, c9 = [2, 3, 4, 5, 6, 0, 8, 9, 1], [1, 2, 3, 4, 5, 6, 7, 8, 9]
    params = [("is", is9, "Z"), ("dst", fs(dst4), "R"), ("vs", fs(vs9), "R"), ("c", fs(c9), "R")]
    ones4 = [F(1)] * 4
    out, _ = case(P + "rbi_mul_scaled.adl", params,
                  lambda **k: hist(k["dst"], MUL, k["is"], [a * b for a, b in zip(k["c"], k["vs"])]),
                  cot=ones4)
    same("reducebyindex2 dst", vjp_of(out, ones4, "dst", dst4), [112, 0, 3240, 20])
    same("reducebyindex2 vs", vjp_of(out, ones4, "vs", vs9), [0, 0, 1620, 12, 1080, 2592, 0, 0, 6480])
    same("reducebyindex2 c", vjp_of(out, ones4, "c", c9), [0, 0, 2160, 15, 1296, 0, 0, 0, 720])

    is7, vs7 = [0, 1, 2, 1, 0, 1, 2], [1, 2, 3, 4, 5, 6, 7]

    def two(is_, vs):
        r1 = hist([D(1)] * 4, MUL, [i + 1 for i in is_], vs)
        r2 = hist([D(0)] * 4, ADD, is_, [v + 2 for v in vs])
        return [a + b for a, b in zip(r1, r2)]
    out, _ = case(P + "rbi_two_hists.adl", [("is", is7, "Z"), ("vs", fs(vs7), "R")],
                  lambda **k: two(k["is"], k["vs"]), tan=True, cot=fs([1, 2, 3, 4]), stats=True)
    same("reducebyindex3 rev", jac(out, "vs", vs7),
         [[1, 0, 0, 0, 1, 0, 0], [5, 1, 0, 1, 1, 1, 0], [0, 24, 1, 12, 0, 8, 1], [0, 0, 7, 0, 0, 0, 3]])


def rbi_ops():
    is9 = [0, 1, 2, 1, 0, 1, 2, 1, 0]
    vs0, vs1 = list(range(1, 10)), list(range(10, 19))
    vs = fs([[a, b] for a, b in zip(vs0, vs1)])
    op = lambda p, q: [p[1] * q[0] + q[1] * p[0], p[1] * q[1]]  # noqa: E731
    cot = [[F(1), F(1)]] * 4
    out, _ = case(P + "rbi_pair_op.adl", [("is", is9, "Z"), ("vs", vs, "R")],
                  lambda **k: hist([[D(0), D(1)]] * 4, op, k["is"], k["vs"]), tan=True, cot=cot)
    g = vjp_of(out, cot, "vs", vs)
    # reducebyindex4.fut states 15 and 22 for index 2 (bin 2 = indices 2 and 6). The
    # operator is associative and commutative with neutral element (0, 1), so bin 2 is
    # (b2 a6 + b6 a2, b2 b6) whatever the order, and with cotangent (1, 1) its derivatives
    # by a2 and b2 are b6 = 16 and a6 + b6 = 23; the test's own values for index 6
    # (b2 = 12, a2 + b2 = 15) follow the same formula. We keep 16 and 23; every other
    # stated value agrees.
    fut0 = [252, 3315, 15, 2805, 180, 2431, 12, 2145, 140]
    fut1 = [468, 7221, 22, 5757, 288, 4765, 15, 4053, 204]
    assert (g[2][0], g[2][1]) == (vs1[6], vs0[6] + vs1[6]) == (16, 23)
    same("reducebyindex4 vs0", [r[0] for k, r in enumerate(g) if k != 2], fut0[:2] + fut0[3:])
    same("reducebyindex4 vs1", [r[1] for k, r in enumerate(g) if k != 2], fut1[:2] + fut1[3:])

    def sat(x, y):
        return D(15) if D(15) - x < y else x + y
    is8, dst5, as8 = [0, 1, 2, 1, 0, 1, 2, 1], [15, 1, 2, 15, 16], [1, 2, 12, 3, 2, 4, 7, 5]
    ones5 = [F(1)] * 5
    out, _ = case(P + "rbi_saturating.adl",
                  [("is", is8, "Z"), ("dst", fs(dst5), "R"), ("as", fs(as8), "R")],
                  lambda **k: hist(k["dst"], sat, k["is"], k["as"]), cot=ones5)
    # Bin 4 gets no value. Our reduce_by_index applies the operator once per value and
    # never to the neutral element (docs/language.md), so bin 4 keeps dst[4] = 16 with
    # derivative 1. Futhark's expected 0 comes from combining every bin with the neutral
    # element, dst[4] (+) 0 = 15 (saturated: 15 - 16 < 0), for which 0 is not neutral.
    g = vjp_of(out, ones5, "dst", dst5)
    assert out[4].v == 16 and g[4] == 1
    same("reducebyindex5 dst (bins 0 to 3)", g[:4], [0, 1, 0, 1])
    same("reducebyindex5 as", vjp_of(out, ones5, "as", as8), [0, 1, 0, 1, 0, 1, 0, 1])

    is8b, as8b = [1, -3, 1, 5, 1, -3, 1, 5], [1, 2, 3, 4, 5, 6, 7, 8]
    cot = fs([0, 1])
    out, _ = case(P + "rbi_oob_lambda.adl", [("is", is8b, "Z"), ("as", fs(as8b), "R")],
                  lambda **k: hist([D(F(1, 2))] * 2, lambda x, y: x * y * 2, k["is"], k["as"]),
                  cot=cot, stats=True)
    same("reducebyindex6", vjp_of(out, cot, "as", as8b), [840, 0, 280, 0, 168, 0, 120, 0])


def rbi_minmax():
    e0 = onehot(5, 0)
    vs5 = [0, 1, 2, 3, 3]
    out, v = case(P + "rbi_max_ties.adl", [("is", [0] * 5, "Z"), ("vs", fs(vs5), "R")],
                  lambda **k: hist([D(0)] * 5, dmax, k["is"], k["vs"]), tan=True, cot=e0)
    assert out[0] is v["vs"][3]
    same("reducebyindexminmax0", vjp_of(out, e0, "vs", vs5), [0, 0, 0, 1, 0])

    dst5, vs5 = [5, 1, 2, 3, 4], [1, 2, 3, 4, 5]
    out, v = case(P + "rbi_max_dest_tie.adl",
                  [("dst", fs(dst5), "R"), ("is", [0] * 5, "Z"), ("vs", fs(vs5), "R")],
                  lambda **k: hist(k["dst"], dmax, k["is"], k["vs"]), cot=e0)
    assert out[0] is v["dst"][0]
    same("reducebyindexminmax1", vjp_of(out, e0, "dst", dst5), [1, 0, 0, 0, 0])

    e03 = onehot(3, 0)
    dst3, is3, vs3 = [5, 1, 2], [0, 1, 0], [10, 30, 2]
    out, _ = case(P + "rbi_max_scaled.adl",
                  [("dst", fs(dst3), "R"), ("is", is3, "Z"), ("vs", fs(vs3), "R"), ("c", F(3), "R")],
                  lambda **k: [r * k["c"] for r in hist(k["dst"], dmax, k["is"], k["vs"])], cot=e03)
    same("reducebyindexminmax3 vs", vjp_of(out, e03, "vs", vs3), [3, 0, 0])
    same("reducebyindexminmax3/4 c", vjp_of(out, e03, "c", 3), 10)
    same("reducebyindexminmax4 dst", vjp_of(out, e03, "dst", dst3), [0, 0, 0])

    dst3, vs3 = [4, 1, 2], [5, 1, 2]
    out, _ = case(P + "rbi_max_sum.adl",
                  [("dst", fs(dst3), "R"), ("is", [0] * 3, "Z"), ("vs", fs(vs3), "R")],
                  lambda **k: [r * fold(ADD, D(0), k["vs"])
                               for r in hist(k["dst"], dmax, k["is"], k["vs"])], cot=e03)
    same("reducebyindexminmax5", vjp_of(out, e03, "vs", vs3), [13, 5, 5])


def rbi_mul_add():
    ones8 = [F(1)] * 8
    params = [("is", IS18, "Z"), ("dst", fs(DST8), "R"), ("vs", fs(VS18), "R")]
    out, _ = case(P + "rbi_mul_zeros.adl", params,
                  lambda **k: hist(k["dst"], MUL, k["is"], k["vs"]), cot=ones8, stats=True)
    same("reducebyindexmul0 dst", vjp_of(out, ones8, "dst", DST8), [2, 60, 42, 0, 0, 0, 1, 1])
    same("reducebyindexmul0 vs", vjp_of(out, ones8, "vs", VS18),
         [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 24, 0, 40, 36, 0, 30, 0, 0])

    out, _ = case(P + "rbi_mul_c.adl", params + [("c", fs(C8), "R")],
                  lambda **k: [a * b for a, b in zip(hist(k["dst"], MUL, k["is"], k["vs"]), k["c"])],
                  cot=ones8, stats=True)
    same("reducebyindexmul1 dst", vjp_of(out, ones8, "dst", DST8), [2, 120, 126, 0, 0, 0, 7, 8])
    same("reducebyindexmul1 vs", vjp_of(out, ones8, "vs", VS18),
         [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 48, 0, 80, 144, 0, 60, 0, 0])
    same("reducebyindexmul1 c", vjp_of(out, ones8, "c", C8), [2, 120, 0, 0, 0, 0, 9, 0])

    e0 = onehot(5, 0)
    for name, op, dst5, vs5, want in [
            ("rbi_mul_dest_twice_one_zero.adl", MUL, [0, 1, 1, 1, 1], [1, 2, 3, 4, 5], [120, 0, 0, 0, 0]),
            ("rbi_mul_dest_twice_two_zeros.adl", MUL, [0, 1, 1, 1, 1], [1, 2, 0, 4, 5], [0] * 5),
            ("rbi_add_dest_twice.adl", ADD, [2, 1, 1, 1, 1], [1, 2, 3, 4, 10], [5, 0, 0, 0, 0])]:
        def f(dst, is_, vs, op=op):
            return [a + b for a, b in zip([dpow(d, 2) for d in dst], hist(dst, op, is_, vs))]
        out, _ = case(P + name, [("dst", fs(dst5), "R"), ("is", [0] * 5, "Z"), ("vs", fs(vs5), "R")],
                      lambda **k: f(k["dst"], k["is"], k["vs"]), cot=e0)
        same(name, vjp_of(out, e0, "dst", dst5), want)

    out, _ = case(P + "rbi_add_oob.adl", params,
                  lambda **k: hist(k["dst"], ADD, k["is"], k["vs"]), cot=ones8, stats=True)
    same("reducebyindexadd1 dst", vjp_of(out, ones8, "dst", DST8), [1] * 8)
    same("reducebyindexadd1 vs", vjp_of(out, ones8, "vs", VS18), [1] * 16 + [0, 0])


for part in [histograms, rbi_dest, rbi_ops, rbi_minmax, rbi_mul_add]:
    part()
finish()
