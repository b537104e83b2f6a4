"""Measures the derivative conventions of JAX and PyTorch at ties, kinks and poles
(docs/conventions.md). Run from the project's environment:

    scripts/python-env.sh jax torch && .venv/bin/python specs/conventions/measure.py

Every line is one rule of docs/conventions.md: the rule's name, then what JAX and
PyTorch give (float64, CPU). The Adora column of the page is the reference's answer
(`adora grad`), not measured here.
"""
import jax
import jax.numpy as jnp
import numpy as np
import torch

jax.config.update("jax_enable_x64", True)


def tg(f, *xs):
    xs = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    f(*xs).backward()
    return [x.grad.tolist() for x in xs]


def jg(f, *xs):
    gs = jax.grad(f, argnums=tuple(range(len(xs))))(*[jnp.array(x, dtype=jnp.float64) for x in xs])
    return [np.asarray(g).tolist() for g in gs]


def row(name, j, t):
    print(f"{name:<28} jax {j!s:<32} pytorch {t!s}")


w = [1.0, 2.0, 3.0, 4.0]
tw = lambda: torch.tensor(w, dtype=torch.float64)
print(f"versions: jax {jax.__version__}, torch {torch.__version__}")
row("max(a,b) at a=b", jg(jnp.maximum, 2.0, 2.0), tg(torch.maximum, 2.0, 2.0))
row("min(a,b) at a=b", jg(jnp.minimum, 2.0, 2.0), tg(torch.minimum, 2.0, 2.0))
x = [1.0, 3.0, 3.0, 2.0]
row("reduce max, ties", jg(jnp.max, x), tg(torch.amax, x))
row("reduce min, ties", jg(jnp.min, [3.0, 1.0, 1.0, 2.0]), tg(torch.amin, [3.0, 1.0, 1.0, 2.0]))
row("torch.max(x, dim), ties", "-", tg(lambda v: torch.max(v, 0)[0], x))
row("cummax [1,3,3,2] w=1..4",
    jg(lambda v: (jax.lax.cummax(v) * jnp.array(w)).sum(), x),
    tg(lambda v: (torch.cummax(v, 0)[0] * tw()).sum(), x))
row("cummin [3,1,1,2] w=1..4",
    jg(lambda v: (jax.lax.cummin(v) * jnp.array(w)).sum(), [3.0, 1.0, 1.0, 2.0]),
    tg(lambda v: (torch.cummin(v, 0)[0] * tw()).sum(), [3.0, 1.0, 1.0, 2.0]))


def jh(d, v):
    return d.at[jnp.array([0, 0, 1])].max(v).sum()


def th(d, v):
    return torch.scatter_reduce(d, 0, torch.tensor([0, 0, 1]), v, reduce="amax", include_self=True).sum()


row("histogram max, dest tie", jg(jh, [2.0, 0.0], [2.0, 1.0, 5.0]), tg(th, [2.0, 0.0], [2.0, 1.0, 5.0]))
row("abs'(0)", jg(jnp.abs, 0.0), tg(torch.abs, 0.0))
row("relu'(0)", jg(jax.nn.relu, 0.0), tg(torch.relu, 0.0))
row("sqrt'(0)", jg(jnp.sqrt, 0.0), tg(torch.sqrt, 0.0))
row("1/0 (primal)", float(jnp.array(1.0) / 0.0), float(torch.tensor(1.0, dtype=torch.float64) / 0.0))
row("clip at the bound 1", jg(lambda v: jnp.clip(v, 0.0, 1.0), 1.0), tg(lambda v: torch.clamp(v, 0.0, 1.0), 1.0))
row("d/dx x**0. at 0", jg(lambda v: v ** 0.0, 0.0), tg(lambda v: v ** 0.0, 0.0))
row("d/dx x**0 (int) at 0", jg(lambda v: v ** 0, 0.0), tg(lambda v: v ** 0, 0.0))
