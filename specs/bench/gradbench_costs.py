"""Work costs of the GradBench workloads (specs/programs/workloads/) and of their
gradient programs, engine by engine, beside GradBench's published time ratios
(docs/benchmarks.md, "GradBench workloads").

For each workload at a realistic size it runs `adora cost FILE --size ... --format json`
for the primal and `adora cost FILE --engine E` for every engine that derives gradient
programs, and prints a Markdown table: the primal's `work`, each engine's gradient `work`
and the ratio gradient / primal, or why there is no number (the engine declines the
program, the engine is not registered, the cost model cannot evaluate the program).

    python3 specs/bench/gradbench_costs.py [--adora 'cargo run --release -q --']

`--adora` is the command that runs the command line (default as shown); on a shared
machine wrap the whole script in the build lock. Deterministic: `adora cost` uses its
deterministic default inputs (docs/cost-models.md)."""
import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# workload, sizes (our choice, of the order of GradBench's / ADBench's smallest inputs),
# GradBench's published time ratios gradient / objective
# and the numeric mode the counts are taken in (k-means is rational; GMM and LSTM need
# `exp`, `log` and `tanh`, so they are counted under f64 evaluation).
WORKLOADS = [
    ("kmeans", {"n": 1000, "d": 8, "k": 10}, "none published in the issue", "exact"),
    ("gmm", {"n": 1000, "d": 10, "k": 5, "t": 55}, "JAX 3.0, PyTorch 3.3, Futhark 4.3", "f64"),
    ("lstm", {"l": 2, "h": 14, "c": 1024}, "PyTorch 2.7, Futhark 3.4", "f64"),
]
ENGINES = ["dual", "linear", "soac"]


def run(adora, args):
    cmd = shlex.split(adora) + args
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode == 0:
        return json.loads(r.stdout), None
    lines = [l for l in r.stderr.splitlines() if "error" in l] or r.stderr.splitlines() or ["?"]
    return None, lines[0].strip()


def reason(err, engine=None):
    if engine and ("invalid value" in err or "unknown engine" in err):
        return f"engine {engine} not yet merged"
    if "unsupported" in err:
        return "declines (" + err.split("error[unsupported]: ", 1)[-1] + ")"
    if "non-rational" in err:
        return "no count: the cost models evaluate exactly, and " + \
            err.split("error[non-rational]: ", 1)[-1].split(";")[0]
    return "error: " + err


def main():
    adora = "cargo run --release -q --"
    if "--adora" in sys.argv:
        adora = sys.argv[sys.argv.index("--adora") + 1]
    print("| workload | sizes | primal work | " + " | ".join(f"{e}: gradient work (ratio)" for e in ENGINES)
          + " | GradBench time ratios |")
    print("|---" * (4 + len(ENGINES)) + "|")
    for name, sizes, published, numeric in WORKLOADS:
        base = [f"specs/programs/workloads/{name}.adl", "--format", "json", "--numeric", numeric,
                "--max-steps", "4000000000", "--max-memory", "12000000000"]
        for k, v in sizes.items():
            base += ["--size", f"{k}={v}"]
        primal, err = run(adora, ["cost"] + base)
        cells = []
        pw = primal["primal"]["work"] if primal else None
        for e in ENGINES:
            out, eerr = run(adora, ["cost"] + base + ["--engine", e])
            if out:
                cells.append(f"{out['gradient']['work']} ({out['ratio']['work']:.2f})")
            else:
                cells.append(reason(eerr, e))
        size_text = ", ".join(f"{k}={v}" for k, v in sizes.items()) + f" ({numeric})"
        print(f"| {name} | {size_text} | {pw if pw is not None else reason(err)} | "
              + " | ".join(cells) + f" | {published} |")


if __name__ == "__main__":
    main()
