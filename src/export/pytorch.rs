//! The PyTorch runtime of an exported program (docs/oracle.md, "Export"): float64 tensors,
//! eager autograd, out-of-bounds reads (0) and writes (dropped) by explicit bounds checks,
//! total division (`x / 0 = 0`) by the double `where`, so that its derivative is 0 too, as
//! in the reference.

/// The Python prelude: imports and the runtime functions the emitted program calls.
pub const PRELUDE: &str = r#"import itertools
import torch

TARGET = "pytorch"
TARGET_VERSION = torch.__version__
_DT = {"R": torch.float64, "Z": torch.int64, "B": torch.bool}


def _real(s):
    try:
        x = float(Fraction(s))
    except ValueError:
        x = float(s)
    return torch.tensor(x, dtype=torch.float64)


def _int(n):
    return torch.tensor(n, dtype=torch.int64)


def _bool(b):
    return torch.tensor(b, dtype=torch.bool)


def _input(b, shape, vals):
    if b == "R":
        return torch.tensor([float(v) for v in vals], dtype=torch.float64).reshape(shape)
    if b == "Z":
        return torch.tensor([int(v) for v in vals], dtype=torch.int64).reshape(shape)
    return torch.tensor([v == "true" for v in vals], dtype=torch.bool).reshape(shape)


def _isreal(a):
    return a.dtype.is_floating_point


def _zeros(b, shape):
    return torch.zeros(shape, dtype=_DT[b])


def _truth(c):
    return bool(c)


_neg = lambda a: -a
_not = torch.logical_not
_add = lambda a, b: a + b
_sub = lambda a, b: a - b
_mul = lambda a, b: a * b
_eq = lambda a, b: a == b
_ne = lambda a, b: a != b
_lt = lambda a, b: a < b
_le = lambda a, b: a <= b
_gt = lambda a, b: a > b
_ge = lambda a, b: a >= b
_and = torch.logical_and
_or = torch.logical_or
_exp, _log, _sin, _cos, _tanh, _sqrt = torch.exp, torch.log, torch.sin, torch.cos, torch.tanh, torch.sqrt
_abs = torch.abs
_min = torch.minimum
_max = torch.maximum


def _div(a, b):
    z = b == 0
    if _isreal(a):
        if not TOTAL_DIVISION:
            return a / b
        return torch.where(z, torch.zeros_like(a), a / torch.where(z, torch.ones_like(b), b))
    return torch.where(z, torch.zeros_like(a), torch.div(a, torch.where(z, torch.ones_like(b), b), rounding_mode="floor"))


def _mod(a, b):
    z = b == 0
    return torch.where(z, a, torch.remainder(a, torch.where(z, torch.ones_like(b), b)))


def _floor(a):
    return torch.floor(a.detach()).to(torch.int64)


def _to_real(a):
    return a.to(torch.float64)


def _pow(a, k):
    if k >= 0:
        return a ** k
    return _div(torch.ones_like(a), a ** (-k))


def _select(c, a, b):
    return torch.where(c, a, b)


def _sum(a):
    return torch.sum(a)


def _sum_outer(a):
    return torch.sum(a, dim=0)


def _replicate(n, a):
    return a.unsqueeze(0).expand((n,) + tuple(a.shape))


def _transpose(perm, a):
    return a.permute(perm)


def _reshape(shape, a):
    return a.reshape(shape)


def _iota(n):
    return torch.arange(n, dtype=torch.int64)


def _append(a, b):
    return torch.cat([a, b], dim=0)


def _stack(xs):
    return torch.stack(xs)


def _inside(x, idx):
    return all(0 <= i < n for i, n in zip(idx, x.shape))


def _index(x, idx):
    idx = tuple(int(i) for i in idx)
    if not idx:
        return x
    if not _inside(x, idx):
        return torch.zeros(tuple(x.shape[len(idx):]), dtype=x.dtype)
    return x[idx]


def _build(shape, f, b, full):
    if 0 in shape:
        return _zeros(b, full)
    vals = [f(*[_int(i) for i in ix]) for ix in itertools.product(*[range(n) for n in shape])]
    return torch.stack(vals).reshape(full)


def _scatter(x, k, f, b, full):
    res = _zeros(b, full)
    for ix in itertools.product(*[range(n) for n in x.shape[:k]]):
        tgt = tuple(int(t) for t in f(*[_int(i) for i in ix]))
        if not _inside(res, tgt):
            continue
        # The new value is computed before the copy is written, so that no tensor
        # autograd saved is modified in place.
        v = res[tgt] + x[ix]
        res = res.clone()
        res[tgt] = v
    return res


def _map(f, xs, b, full):
    if full[0] == 0:
        return _zeros(b, full)
    return torch.stack([f(*[x[i] for x in xs]) for i in range(full[0])])


def _op(op):
    if isinstance(op, str):
        return {"add": _add, "mul": _mul, "min": _min, "max": _max}[op]
    return op


def _reduce(op, ne, xs):
    if isinstance(op, str) and op in ("min", "max"):
        # What a PyTorch user writes: amax/amin over the neutral element and the elements.
        every = torch.cat([ne.unsqueeze(0), xs], dim=0)
        return torch.amax(every, dim=0) if op == "max" else torch.amin(every, dim=0)
    f, acc = _op(op), ne
    for i in range(xs.shape[0]):
        acc = f(acc, xs[i])
    return acc


def _scan(op, ne, xs):
    if xs.shape[0] == 0:
        return xs
    f, acc, out = _op(op), ne, []
    for i in range(xs.shape[0]):
        acc = f(acc, xs[i])
        out.append(acc)
    return torch.stack(out)


def _reduce_by_index(dest, op, is_, vs):
    f = _op(op)
    for j in range(is_.shape[0]):
        k = int(is_[j])
        if 0 <= k < dest.shape[0]:
            v = f(dest[k], vs[j])
            dest = dest.clone()
            dest[k] = v
    return dest


def _scatter_into(dest, is_, vs):
    for j in range(is_.shape[0]):
        k = int(is_[j])
        if 0 <= k < dest.shape[0]:
            dest = dest.clone()
            dest[k] = vs[j]
    return dest


def _tolist(v):
    if isinstance(v, tuple):
        return [_tolist(x) for x in v]
    return v.detach().tolist()


def _value_and_grad(f, args, ks):
    for k in ks:
        args[k] = args[k].clone().requires_grad_(True)
    value = f(*args)
    if not ks or isinstance(value, tuple) or value.dim() != 0 or not _isreal(value):
        return value, None
    if not value.requires_grad:
        return value, {k: torch.zeros_like(args[k]) for k in ks}
    gs = torch.autograd.grad(value, [args[k] for k in ks], allow_unused=True)
    return value, {k: (torch.zeros_like(args[k]) if g is None else g) for k, g in zip(ks, gs)}


def _jvp(f, args, ks, ts):
    def g(*reals):
        a = list(args)
        for k, r in zip(ks, reals):
            a[k] = r
        return f(*a)
    primals = tuple(args[k].detach().clone() for k in ks)
    _, t = torch.autograd.functional.jvp(g, primals, tuple(ts))
    return t


def _vjp(f, args, ks, ct):
    a = [x.detach().clone() if torch.is_tensor(x) else x for x in args]
    for k in ks:
        a[k] = a[k].requires_grad_(True)
    value = f(*a)
    if not value.requires_grad:
        return {k: torch.zeros_like(a[k]) for k in ks}
    gs = torch.autograd.grad(value, [a[k] for k in ks], grad_outputs=ct, allow_unused=True)
    return {k: (torch.zeros_like(a[k]) if g is None else g) for k, g in zip(ks, gs)}
"#;
