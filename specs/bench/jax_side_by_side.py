#!/usr/bin/env python3
"""Side by side: Adora's CPU executor, its interpretive f64 evaluator and JAX `jit` on the
five benchmark programs of specs/bench/programs/, primal and gradient (docs/benchmarks.md,
"Backend").

Not part of `cargo test`. Run it with the project's virtual environment (JAX installed by
`scripts/python-env.sh jax`) and a release build of `adora`:

    .venv/bin/python specs/bench/jax_side_by_side.py --adora target/release/adora

For each program it generates the inputs from a fixed seed, writes them as JSON (every
double printed so that it reads back exactly), runs `adora run --repeat` with the CPU
executor's compiled kernels (`--kernels compiled`: a C compiler is needed), with its lanes
(`--kernels lanes`) and with `--backend interp`, runs a hand-written JAX version of the same function
(the module `adora export --to jax` writes evaluates `build`s and `reduce`s as Python
loops over the extents, which `jit` would unroll into millions of operations), checks that
Adora's and JAX's values and gradients agree (f64, |a - j| <= 1e-9 max(1, |j|), the rule
of `adora difftest`) and only then times JAX: warm-up calls, then N calls each ended by
`block_until_ready`. It prints one table row per program and question.
"""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
ENGINE = "linear"
TOL = 1e-9


def uniform(rng, shape, lo=-0.5, hi=0.5):
    """A nested list of the given shape, uniform in [lo, hi)."""
    if not shape:
        return rng.uniform(lo, hi)
    if len(shape) == 1:
        return [rng.uniform(lo, hi) for _ in range(shape[0])]
    return [uniform(rng, shape[1:], lo, hi) for _ in range(shape[0])]


def shapes(name):
    """The parameters of each program with their shapes, in order."""
    d, k, n = 10, 5, 1000
    return {
        "dot": [("x", [10**6]), ("y", [10**6])],
        "conv": [("x", [10**5]), ("w", [16])],
        "matmul": [("a", [256, 256]), ("b", [256, 256])],
        "mlp": [("x", [64, 784]), ("w1", [784, 256]), ("b1", [256]),
                ("w2", [256, 10]), ("b2", [10]), ("y", [64, 10])],
        "gmm": [("alphas", [k]), ("means", [k, d]), ("icf", [k, d * (d + 1) // 2]),
                ("x", [n, d])],
    }[name]


def jax_functions(jnp):
    """Hand-written JAX of each program (the same function as the .adl file)."""
    import numpy as np

    def dot(x, y):
        return jnp.sum(x * y)

    def conv(x, w):
        y = jnp.correlate(x, w, mode="valid")
        return jnp.sum(y * y)

    def matmul(a, b):
        c = a @ b
        return jnp.sum(c * c)

    def mlp(x, w1, b1, w2, b2, y):
        h = jnp.tanh(x @ w1 + b1)
        o = h @ w2 + b2 - y
        return jnp.sum(o * o) / x.shape[0]

    d = 10
    # Lower-triangle entries of Q: icf[c, d + j (2d - j - 1) / 2 + i - j - 1] for j < i.
    idx = np.zeros((d, d), dtype=np.int64)
    mask = np.zeros((d, d), dtype=bool)
    for i in range(d):
        for j in range(i):
            idx[i, j] = d + j * (2 * d - j - 1) // 2 + i - j - 1
            mask[i, j] = True

    def gmm(alphas, means, icf, x):
        n = x.shape[0]
        sum_qs = jnp.sum(icf[:, :d], axis=1)
        lower = jnp.where(mask, icf[:, idx], 0.0)
        q = lower + jnp.eye(d) * jnp.exp(icf[:, :d])[:, None, :]
        diffs = x[:, None, :] - means[None, :, :]
        qx = jnp.einsum("kij,nkj->nki", q, diffs)
        v = alphas + sum_qs - 0.5 * jnp.sum(qx * qx, axis=2)
        mx = v[:, 0]  # the shift of gmm.adl (the first element, not the maximum)
        per_point = mx + jnp.log(jnp.sum(jnp.exp(v - mx[:, None]), axis=1))
        amx = alphas[0]
        lse = amx + jnp.log(jnp.sum(jnp.exp(alphas - amx)))
        frob = jnp.sum(jnp.exp(icf[:, :d]) ** 2) + jnp.sum(icf[:, d:] ** 2)
        return jnp.sum(per_point) - n * lse + 0.5 * frob

    return {"dot": dot, "conv": conv, "matmul": matmul, "mlp": mlp, "gmm": gmm}


TIME = re.compile(r"time per call \((\d+) calls, (\w+) backend\): min ([0-9.]+) ms, median ([0-9.]+) ms")
TRAFFIC = re.compile(r"traffic: (\d+) bytes per call, median call ([0-9.]+) GB/s = ([0-9.]+) of the copy bandwidth ([0-9.]+) GB/s")


def adora_run(adora, program, inputs_file, backend, grad, repeat, kernels=None):
    cmd = [adora, "run", program, "--inputs", inputs_file, "--backend", backend,
           "--format", "json", "--repeat", str(repeat)]
    if kernels:
        cmd += ["--kernels", kernels]
    if grad:
        cmd += ["--grad", "--engine", ENGINE]
    if backend == "interp":
        cmd += ["--max-steps", str(10**12), "--max-memory", str(1 << 36)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    lines = p.stdout.splitlines()
    answer = json.loads(next(l for l in lines if l.startswith("{")))
    t = TIME.search(p.stdout)
    tr = TRAFFIC.search(p.stdout)
    return {
        "answer": answer,
        "min": float(t.group(3)),
        "median": float(t.group(4)),
        "bytes": int(tr.group(1)) if tr else None,
        "achieved": float(tr.group(3)) if tr else None,
        "limit_gbs": float(tr.group(4)) if tr else None,
    }


def flatten(x):
    if isinstance(x, list):
        for e in x:
            yield from flatten(e)
    else:
        yield float(x)  # numbers, or "inf", "-inf", "nan" (docs/json.md)


def agree(ours, theirs, what):
    ours, theirs = list(flatten(ours)), list(flatten(theirs))
    if len(ours) != len(theirs):
        raise SystemExit(f"{what}: {len(ours)} values against JAX's {len(theirs)}")
    worst = 0.0
    for k, (a, j) in enumerate(zip(ours, theirs)):
        err = abs(a - j) / max(1.0, abs(j))
        worst = max(worst, err)
        if not err <= TOL:
            raise SystemExit(f"DISAGREE {what}[{k}]: adora {a!r}, jax {j!r}")
    return worst


def time_jax(f, args, repeat, warmup=3):
    for _ in range(warmup):
        jax_block(f(*args))
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        jax_block(f(*args))
        times.append(time.perf_counter() - t)
    times.sort()
    return times[0] * 1e3, times[len(times) // 2] * 1e3


def jax_block(out):
    import jax
    jax.tree_util.tree_map(lambda a: a.block_until_ready(), out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--adora", default="target/release/adora")
    ap.add_argument("--repeat", type=int, default=10, help="timed calls of Adora and JAX")
    ap.add_argument("--interp-repeat", type=int, default=2, help="timed interpreter calls")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", action="append", help="a program name (repeatable)")
    a = ap.parse_args()

    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    fns = jax_functions(jnp)
    names = a.only or ["dot", "conv", "matmul", "mlp", "gmm"]
    print(f"jax {jax.__version__}, devices {jax.devices()}, engine {ENGINE}, "
          f"{a.repeat} calls (interpreter {a.interp_repeat})", flush=True)
    head = ("| program | question | Adora CPU min / median ms | lanes median ms | "
            "interp median ms | JAX jit min / median ms | Adora/JAX (median) | traffic bytes | "
            "achieved/limit |")
    rows = [head, "|" + "---|" * 9]
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rng = random.Random(f"{a.seed}/{name}")
            params = shapes(name)
            values = {p: uniform(rng, s) for p, s in params}
            inputs_file = os.path.join(tmp, f"{name}.json")
            with open(inputs_file, "w") as fh:
                json.dump(values, fh)
            program = os.path.join(PROGRAMS, f"{name}.adl")
            args = [jnp.asarray(values[p], dtype=jnp.float64) for p, _ in params]
            f = fns[name]
            for grad in (False, True):
                question = f"grad ({ENGINE})" if grad else "primal"
                cpu = adora_run(a.adora, program, inputs_file, "cpu", grad, a.repeat,
                                "compiled")
                lanes = adora_run(a.adora, program, inputs_file, "cpu", grad, a.repeat, "lanes")
                interp = adora_run(a.adora, program, inputs_file, "interp", grad,
                                   a.interp_repeat)
                if grad:
                    jf = jax.jit(jax.value_and_grad(f, argnums=tuple(range(len(params)))))
                    val, grads = jf(*args)
                    worst = agree(cpu["answer"]["value"], float(val), f"{name} value")
                    ours = cpu["answer"]["gradient"]
                    for (p, _), g in zip(params, grads):
                        worst = max(worst, agree(ours[p], g.tolist(), f"{name} grad {p}"))
                    agree(interp["answer"]["value"], float(val), f"{name} interp value")
                    for (p, _), g in zip(params, grads):
                        agree(lanes["answer"]["gradient"][p], g.tolist(), f"{name} lanes grad {p}")
                else:
                    jf = jax.jit(f)
                    val = jf(*args)
                    worst = agree(cpu["answer"]["value"], float(val), f"{name} value")
                    agree(interp["answer"]["value"], float(val), f"{name} interp value")
                    agree(lanes["answer"]["value"], float(val), f"{name} lanes value")
                jmin, jmed = time_jax(jf, args, a.repeat)
                row = (f"| {name} | {question} | {cpu['min']:.3f} / {cpu['median']:.3f} | "
                       f"{lanes['median']:.3f} | {interp['median']:.3f} | {jmin:.3f} / {jmed:.3f} | "
                       f"{cpu['median'] / jmed:.2f} | {cpu['bytes']} | "
                       f"{cpu['achieved']:.3f} (of {cpu['limit_gbs']:.2f} GB/s) |")
                rows.append(row)
                print(row + f"  <- agree, worst relative error {worst:.1e}", flush=True)
    print()
    print("\n".join(rows))


if __name__ == "__main__":
    main()
