//! The JAX runtime of an exported program (docs/oracle.md, "Export"): float64
//! (`jax_enable_x64`), eager evaluation (so the program's integer indices are concrete
//! Python integers under `jax.grad`), out-of-bounds reads by `mode='fill'` and dropped
//! writes by `mode='drop'`, with negative indices guarded first (JAX wraps them even under
//! those modes). Total division (`x / 0 = 0`) by the double `where`, so that its
//! derivative is 0 too, as in the reference.

/// The Python prelude: imports and the runtime functions the emitted program calls.
pub const PRELUDE: &str = r#"import itertools
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

TARGET = "jax"
TARGET_VERSION = jax.__version__
_DT = {"R": jnp.float64, "Z": jnp.int64, "B": jnp.bool_}


def _real(s):
    try:
        x = float(Fraction(s))
    except ValueError:
        x = float(s)
    return jnp.asarray(x, dtype=jnp.float64)


def _int(n):
    return jnp.asarray(n, dtype=jnp.int64)


def _bool(b):
    return jnp.asarray(b, dtype=jnp.bool_)


def _input(b, shape, vals):
    if b == "R":
        return jnp.asarray([float(v) for v in vals], dtype=jnp.float64).reshape(shape)
    if b == "Z":
        return jnp.asarray([int(v) for v in vals], dtype=jnp.int64).reshape(shape)
    return jnp.asarray([v == "true" for v in vals], dtype=jnp.bool_).reshape(shape)


def _isreal(a):
    return jnp.issubdtype(a.dtype, jnp.floating)


def _zeros(b, shape):
    return jnp.zeros(shape, dtype=_DT[b])


def _truth(c):
    return bool(c)


_neg = lambda a: -a
_not = jnp.logical_not
_add = lambda a, b: a + b
_sub = lambda a, b: a - b
_mul = lambda a, b: a * b
_eq = lambda a, b: a == b
_ne = lambda a, b: a != b
_lt = lambda a, b: a < b
_le = lambda a, b: a <= b
_gt = lambda a, b: a > b
_ge = lambda a, b: a >= b
_and = jnp.logical_and
_or = jnp.logical_or
_exp, _log, _sin, _cos, _tanh, _sqrt = jnp.exp, jnp.log, jnp.sin, jnp.cos, jnp.tanh, jnp.sqrt
_abs = jnp.abs
_min = jnp.minimum
_max = jnp.maximum


def _div(a, b):
    if _isreal(a):
        if not TOTAL_DIVISION:
            return a / b
        z = b == 0
        return jnp.where(z, 0.0, a / jnp.where(z, 1.0, b))
    z = b == 0
    return jnp.where(z, 0, jnp.floor_divide(a, jnp.where(z, 1, b)))


def _mod(a, b):
    z = b == 0
    return jnp.where(z, a, jnp.remainder(a, jnp.where(z, 1, b)))


def _floor(a):
    return jax.lax.stop_gradient(jnp.floor(a)).astype(jnp.int64)


def _to_real(a):
    return a.astype(jnp.float64)


def _pow(a, k):
    if k >= 0:
        return a ** k
    return _div(jnp.ones_like(a), a ** (-k))


def _select(c, a, b):
    return jnp.where(c, a, b)


def _sum(a):
    return jnp.sum(a)


def _sum_outer(a):
    return jnp.sum(a, axis=0)


def _replicate(n, a):
    return jnp.broadcast_to(a, (n,) + a.shape)


def _transpose(perm, a):
    return jnp.transpose(a, perm)


def _reshape(shape, a):
    return jnp.reshape(a, shape)


def _iota(n):
    return jnp.arange(n, dtype=jnp.int64)


def _append(a, b):
    return jnp.concatenate([a, b], axis=0)


def _stack(xs):
    return jnp.stack(xs)


def _index(x, idx):
    idx = tuple(int(i) for i in idx)
    if not idx:
        return x
    if any(i < 0 for i in idx):
        # JAX wraps negative indices even under mode='fill': ours read 0.
        return jnp.zeros(x.shape[len(idx):], x.dtype)
    fill = False if x.dtype == jnp.bool_ else 0
    return x.at[idx].get(mode="fill", fill_value=fill)


def _build(shape, f, b, full):
    if 0 in shape:
        return _zeros(b, full)
    vals = [f(*[_int(i) for i in ix]) for ix in itertools.product(*[range(n) for n in shape])]
    return jnp.reshape(jnp.stack(vals), full)


def _scatter(x, k, f, b, full):
    res = _zeros(b, full)
    for ix in itertools.product(*[range(n) for n in x.shape[:k]]):
        tgt = tuple(int(t) for t in f(*[_int(i) for i in ix]))
        if any(t < 0 for t in tgt):
            continue
        if not tgt:
            res = res + x[ix]
        else:
            res = res.at[tgt].add(x[ix], mode="drop")
    return res


def _map(f, xs, b, full):
    if full[0] == 0:
        return _zeros(b, full)
    return jnp.stack([f(*[x[i] for x in xs]) for i in range(full[0])])


def _op(op):
    if isinstance(op, str):
        return {"add": _add, "mul": _mul, "min": _min, "max": _max}[op]
    return op


def _reduce(op, ne, xs):
    if isinstance(op, str) and op in ("min", "max"):
        # What a JAX user writes: jnp.max/jnp.min over the neutral element and the elements.
        every = jnp.concatenate([ne[None], xs], axis=0)
        return jnp.max(every, axis=0) if op == "max" else jnp.min(every, axis=0)
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
    return jnp.stack(out)


def _reduce_by_index(dest, op, is_, vs):
    f = _op(op)
    for j in range(is_.shape[0]):
        k = int(is_[j])
        if k < 0:
            continue
        if k < dest.shape[0]:
            dest = dest.at[k].set(f(dest[k], vs[j]), mode="drop")
    return dest


def _scatter_into(dest, is_, vs):
    for j in range(is_.shape[0]):
        k = int(is_[j])
        if k < 0:
            continue
        dest = dest.at[k].set(vs[j], mode="drop")
    return dest


def _tolist(v):
    if isinstance(v, tuple):
        return [_tolist(x) for x in v]
    return np.asarray(v).tolist()


def _value_and_grad(f, args, ks):
    value = f(*args)
    if not ks or isinstance(value, tuple) or value.shape != () or not _isreal(value):
        return value, None
    g = jax.grad(f, argnums=tuple(ks))(*args)
    return value, dict(zip(ks, g))


def _on_reals(f, args, ks):
    def g(*reals):
        a = list(args)
        for k, r in zip(ks, reals):
            a[k] = r
        return f(*a)
    return g


def _jvp(f, args, ks, ts):
    _, t = jax.jvp(_on_reals(f, args, ks), tuple(args[k] for k in ks), tuple(ts))
    return t


def _vjp(f, args, ks, ct):
    _, pull = jax.vjp(_on_reals(f, args, ks), *[args[k] for k in ks])
    return dict(zip(ks, pull(ct)))
"#;
