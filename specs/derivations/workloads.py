"""Hand translations of specs/programs/workloads/*.adl, the GradBench workloads (k-means,
GMM, LSTM) at small sizes, written from GradBench's / ADBench's reference definitions of
the objectives and our semantics (docs/language.md), never from Adora.  k-means is
rational and derived exactly; GMM and LSTM need exp, log and tanh and are derived in
floating point (their headers say `numeric: f64 tol=1e-9`).  Second routes: k-means'
gradient against its closed form; GMM's packing of the inverse Cholesky factor against
GradBench's column-by-column loop, and GMM's and LSTM's gradients against central finite
differences."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adl import F, D, dexp, dlog, dmax, dmin, dtanh, finish, flat, unflat, shape  # noqa: E402
from futhark_common import ADD, case, fold, jac, same  # noqa: E402

P = "programs/workloads/"
TOL = "f64 tol=1e-9"


def fsum(xs):
    return fold(ADD, D(0.0), xs)


def kmeans():
    pts0 = [[F(1), F(1)], [F(3), F(2)], [F(0), F(1)], [F(5), F(3)], [F(2), F(0)]]
    cen0 = [[F(0), F(0)], [F(2), F(2)], [F(5), F(1)]]

    def cost(points, centres):
        tot = D(0)
        for p in points:
            ds = [fold(ADD, D(0), [(a - b) * (a - b) for a, b in zip(p, c)]) for c in centres]
            tot = tot + fold(dmin, ds[0], ds)
        return tot
    out, _ = case(P + "kmeans.adl", [("points", pts0, "R"), ("centres", cen0, "R")], cost,
                  grad=True, tan=True)
    # hand: a(i) = the first nearest centre; d/dc_j = sum_{a(i) = j} 2 (c_j - p_i),
    # d/dp_i = 2 (p_i - c_a(i))
    def d2(p, c):
        return sum((a - b) ** 2 for a, b in zip(p, c))
    assign = [min(range(3), key=lambda j: (d2(p, cen0[j]), j)) for p in pts0]
    assert assign[0] == 0 and d2(pts0[0], cen0[0]) == d2(pts0[0], cen0[1])  # the tie
    gc = [[sum(2 * (cen0[j][q] - p[q]) for p, a in zip(pts0, assign) if a == j) for q in range(2)]
          for j in range(3)]
    gp = [[2 * (p[q] - cen0[a][q]) for q in range(2)] for p, a in zip(pts0, assign)]
    same("kmeans grad centres", jac(out, "centres", cen0)[0], sum(gc, []))
    same("kmeans grad points", jac(out, "points", pts0)[0], sum(gp, []))


def gmm_objective(alphas, means, icf, x):
    k, d = len(means), len(means[0])
    sum_qs = [fsum(q[:d]) for q in icf]
    per = []
    for xi in x:
        v = []
        for c in range(k):
            qx = []
            for i in range(d):
                low = fsum([icf[c][d + j * (2 * d - j - 1) // 2 + i - j - 1] * (xi[j] - means[c][j])
                            if j < i else D(0.0) for j in range(d)])
                qx.append(dexp(icf[c][i]) * (xi[i] - means[c][i]) + low)
            v.append(alphas[c] + sum_qs[c] - 0.5 * fsum([q * q for q in qx]))
        mx = fold(dmax, v[0], v)
        per.append(mx + dlog(fsum([dexp(a - mx) for a in v])))
    amx = fold(dmax, alphas[0], alphas)
    lse = amx + dlog(fsum([dexp(a - amx) for a in alphas]))
    frob = fsum([fsum([dexp(a) * dexp(a) for a in q[:d]]) + fsum([a * a for a in q[d:]]) for q in icf])
    return fsum(per) - len(x) * lse + 0.5 * frob


def gradbench_q(icf_c, d):
    """GradBench's construction of Q: exp of the first d entries on the diagonal, the rest
    filled into the strictly lower triangle column by column."""
    q = [[0.0] * d for _ in range(d)]
    for i in range(d):
        q[i][i] = __import__("math").exp(icf_c[i])
    k = d
    for j in range(d):
        for i in range(j + 1, d):
            q[i][j] = icf_c[k]
            k += 1
    return q


def finite_diff(f, inputs, name, h=1e-6):
    """Central differences of the scalar f with respect to every scalar of inputs[name]."""
    base = inputs[name]
    xs = flat(base)
    out = []
    for k in range(len(xs)):
        def at(delta):
            ys = list(xs)
            ys[k] = ys[k] + delta
            args = dict(inputs)
            args[name] = unflat(ys, shape(base))
            return f(**{n: _const(v) for n, v in args.items()}).v
        out.append((at(h) - at(-h)) / (2 * h))
    return out


def _const(v):
    if isinstance(v, list):
        return [_const(x) for x in v]
    return D(float(v))


def gmm():
    ins = {"alphas": [0.5, -0.25, 1.0],
           "means": [[0.5, 1.0], [-1.0, 0.25], [1.5, -0.5]],
           "icf": [[0.25, -0.5, 0.75], [-0.25, 0.5, -1.0], [0.125, 0.0, 0.5]],
           "x": [[1.0, 0.5], [-0.5, 2.0], [0.25, -1.0], [2.0, 1.5]]}
    out, _ = case(P + "gmm.adl", [(n, v, "R") for n, v in ins.items()], gmm_objective,
                  grad=True, numeric=TOL)
    # the packed index of the program equals GradBench's loop
    for c in range(3):
        q = gradbench_q(ins["icf"][c], 2)
        assert q[1][0] == ins["icf"][c][2 + 0 * (2 * 2 - 0 - 1) // 2 + 1 - 0 - 1]
    for n in ins:
        fd = finite_diff(gmm_objective, ins, n)
        same(f"gmm grad {n} vs finite differences", jac(out, n, ins[n])[0], fd, tol=F(1, 10 ** 6))


def sigmoid(z):
    return 1.0 / (1.0 + dexp(-z))


def lstm_objective(mp, ep, st, sq):
    l, h, c = len(mp), len(ep[0]), len(sq)
    s = [[list(r) for r in layer] for layer in st]
    tot = D(0.0)
    for t in range(c - 1):
        xa = [a * b for a, b in zip(sq[t], ep[0])]
        for i in range(l):
            w, b = mp[i][0], mp[i][1]
            hid, cel = s[i][0], s[i][1]
            forget = [sigmoid(a * ww + bb) for a, ww, bb in zip(xa, w[0], b[0])]
            ingate = [sigmoid(a * ww + bb) for a, ww, bb in zip(hid, w[1], b[1])]
            outgate = [sigmoid(a * ww + bb) for a, ww, bb in zip(xa, w[2], b[2])]
            change = [dtanh(a * ww + bb) for a, ww, bb in zip(hid, w[3], b[3])]
            cel2 = [cc * f + g * ch for cc, f, g, ch in zip(cel, forget, ingate, change)]
            hid2 = [o * dtanh(cc) for o, cc in zip(outgate, cel2)]
            s[i] = [hid2, cel2]
            xa = hid2
        ypred = [a * b + e for a, b, e in zip(xa, ep[1], ep[2])]
        lse = dlog(fsum([dexp(y) for y in ypred]))
        tot = tot + fsum([g * (y - lse) for g, y in zip(sq[t + 1], ypred)])
    return -tot / ((c - 1) * h)


def lstm():
    def grid(sh, k0):
        n = 1
        for s in sh:
            n *= s
        vals = [((k0 + 3 * k) % 11 - 5) / 8 for k in range(n)]
        return unflat(vals, sh)
    ins = {"mp": grid([2, 2, 4, 3], 1), "ep": grid([3, 3], 2), "st": grid([2, 2, 3], 3),
           "sq": grid([3, 3], 4)}
    out, _ = case(P + "lstm.adl", [(n, v, "R") for n, v in ins.items()], lstm_objective,
                  grad=True, numeric=TOL)
    for n in ins:
        fd = finite_diff(lstm_objective, ins, n)
        same(f"lstm grad {n} vs finite differences", jac(out, n, ins[n])[0], fd, tol=F(1, 10 ** 6))


for part in [kmeans, gmm, lstm]:
    part()
finish()
