"""The golden programs of specs/programs/ball/ re-implemented in Python over `decimal`
(80 digits) with forward-mode dual numbers, independently of Adora: each entry gives the
value and the gradient with respect to each input, flattened row-major."""
from decimal import Decimal as D
import reference as R


class Dual:
    """A value with a tangent vector (a dict input-index -> Decimal)."""

    def __init__(self, v, t=None):
        self.v = D(v)
        self.t = t or {}

    @staticmethod
    def lift(x):
        return x if isinstance(x, Dual) else Dual(x)

    def _comb(self, o, a, b):
        t = {}
        for k, x in self.t.items():
            t[k] = t.get(k, D(0)) + a * x
        for k, x in o.t.items():
            t[k] = t.get(k, D(0)) + b * x
        return t

    def __add__(self, o):
        o = Dual.lift(o)
        return Dual(self.v + o.v, self._comb(o, D(1), D(1)))

    __radd__ = __add__

    def __sub__(self, o):
        o = Dual.lift(o)
        return Dual(self.v - o.v, self._comb(o, D(1), D(-1)))

    def __rsub__(self, o):
        return Dual.lift(o) - self

    def __mul__(self, o):
        o = Dual.lift(o)
        return Dual(self.v * o.v, self._comb(o, o.v, self.v))

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = Dual.lift(o)
        q = self.v / o.v
        return Dual(q, self._comb(o, 1 / o.v, -q / o.v))

    def __rtruediv__(self, o):
        return Dual.lift(o) / self

    def __neg__(self):
        return Dual(-self.v, {k: -x for k, x in self.t.items()})

    def unary(self, v, d):
        return Dual(v, {k: d * x for k, x in self.t.items()})


def exp(x):
    e = R.exp(x.v)
    return x.unary(e, e)


def log(x):
    return x.unary(R.ln(x.v), 1 / x.v)


def tanh(x):
    t = R.tanh(x.v)
    return x.unary(t, 1 - t * t)


def sin(x):
    return x.unary(R.sin(x.v), R.cos(x.v))


def cos(x):
    return x.unary(R.cos(x.v), -R.sin(x.v))


def sqrt(x):
    s = R.sqrt(x.v)
    return x.unary(s, 1 / (2 * s))


def dmax(a, b):
    return a if a.v >= b.v else b


def total(xs):
    s = Dual(0)
    for x in xs:
        s = s + x
    return s


def seed(*arrays):
    """Dual inputs with one tangent direction per scalar, and their count."""
    n = 0
    out = []

    def go(a):
        nonlocal n
        if isinstance(a, list):
            return [go(x) for x in a]
        d = Dual(R.q(a), {n: D(1)})
        n += 1
        return d

    for a in arrays:
        out.append(go(a))
    SHAPES[:] = arrays
    return out, n


SHAPES = []


def result(y, n):
    """The value, then the gradient reshaped like the inputs (as in `seed`)."""
    flat = [y.t.get(k, D(0)) for k in range(n)]
    it = iter(flat)

    def like(a):
        return [like(x) for x in a] if isinstance(a, list) else next(it)

    return y.v, [like(a) for a in SHAPES]


def _unused(y, n):
    return [y.v] + [y.t.get(k, D(0)) for k in range(n)]


def lse(xs):
    m = xs[0]
    for x in xs:
        m = dmax(m, x)
    return m + log(total([exp(x - m) for x in xs]))


def softmax_xent():
    (x, y), n = seed(["1/2", "-3/4", "2", "1/8"], ["0", "0", "1", "0"])
    l = lse(x)
    return result(-total([yi * (xi - l) for xi, yi in zip(x, y)]), n)


def logsumexp():
    (x,), n = seed(["1", "-2", "1/3", "5/2"])
    return result(lse(x), n)


def layer(act):
    (w, b, x), n = seed([["1/2", "-1/4", "3/4"], ["-1", "1/8", "1/2"]], ["1/4", "-1/2"],
                        ["1", "2", "-1/2"])
    hs = [act(total([wij * xj for wij, xj in zip(wi, x)]) + bi) for wi, bi in zip(w, b)]
    return result(total(hs), n)


def sigmoid_layer():
    return layer(lambda z: 1 / (1 + exp(-z)))


def tanh_layer():
    return layer(tanh)


def identities():
    (x,), n = seed("7/3")
    return result(exp(log(x)) - x + sin(x) * sin(x) + cos(x) * cos(x), n)


def gmm():
    # k = 2 components, d = 2, n = 2 points, t = 3 (specs/programs/workloads/gmm.adl).
    (alphas, means, icf, xs), n = seed(
        ["1/2", "-1/4"],
        [["1/2", "1"], ["-1", "1/4"]],
        [["1/4", "-1/2", "3/4"], ["-1/4", "1/2", "-1"]],
        [["1", "1/2"], ["-1/2", "2"]],
    )
    k, d = 2, 2
    sum_qs = [icf[c][0] + icf[c][1] for c in range(k)]
    per_point = []
    for xi in xs:
        v = []
        for c in range(k):
            qx = []
            for i in range(d):
                acc = Dual(0)
                for j in range(d):
                    if j < i:
                        acc = acc + icf[c][d + j * (2 * d - j - 1) // 2 + i - j - 1] * (
                            xi[j] - means[c][j])
                    else:
                        acc = acc + 0
                qx.append(exp(icf[c][i]) * (xi[i] - means[c][i]) + acc)
            v.append(alphas[c] + sum_qs[c] - D("0.5") * total([q * q for q in qx]))
        per_point.append(lse(v))
    lse_alphas = lse(alphas)
    frob = total([total([exp(q[j]) * exp(q[j]) for j in range(d)])
                  + total([q[j] * q[j] for j in range(d, 3)]) for q in icf])
    return result(total(per_point) - D(len(xs)) * lse_alphas + D("0.5") * frob, n)


def lstm():
    # l = 1 layer, h = 2, c = 3 characters (specs/programs/workloads/lstm.adl).
    (mp, ep, st, sq), n = seed(
        [[[["-1/2", "1/4"], ["5/8", "-3/8"], ["3/8", "-5/8"], ["1/8", "1/2"]],
          [["-1/8", "1/4"], ["-3/8", "0"], ["-5/8", "-1/4"], ["1/2", "-1/2"]]]],
        [["-3/8", "1/2"], ["-5/8", "-1/4"], ["1/2", "-1/8"]],
        [[["-1/4", "1/8"], ["-1/2", "-1/8"]]],
        [["-1/8", "1/4"], ["-3/8", "1/2"], ["-5/8", "-1/4"]],
    )
    h, c = 2, 3
    sig = lambda z: 1 / (1 + exp(-z))
    s = [[list(row) for row in layer] for layer in st]
    tot = Dual(0)
    for t in range(c - 1):
        xa = [sq[t][j] * ep[0][j] for j in range(h)]
        w, b = mp[0][0], mp[0][1]
        hid, cel = s[0][0], s[0][1]
        forget = [sig(xa[j] * w[0][j] + b[0][j]) for j in range(h)]
        ingate = [sig(hid[j] * w[1][j] + b[1][j]) for j in range(h)]
        outgate = [sig(xa[j] * w[2][j] + b[2][j]) for j in range(h)]
        change = [tanh(hid[j] * w[3][j] + b[3][j]) for j in range(h)]
        cel2 = [cel[j] * forget[j] + ingate[j] * change[j] for j in range(h)]
        hid2 = [outgate[j] * tanh(cel2[j]) for j in range(h)]
        s[0] = [hid2, cel2]
        ypred = [hid2[j] * ep[1][j] + ep[2][j] for j in range(h)]
        z = log(total([exp(y) for y in ypred]))
        tot = tot + total([sq[t + 1][j] * (ypred[j] - z) for j in range(h)])
    return result(-tot / D((c - 1) * h), n)


GOLDENS = [
    ("softmax_xent", softmax_xent),
    ("logsumexp", logsumexp),
    ("sigmoid_layer", sigmoid_layer),
    ("tanh_layer", tanh_layer),
    ("identities", identities),
    ("gmm", gmm),
    ("lstm", lstm),
]
