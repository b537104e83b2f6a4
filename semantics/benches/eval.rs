//! Benchmarks of the exact and f64 evaluators and of the reference gradient on programs of
//! growing size: a dot-product loss, a convolution loss and a chain of `let`s; and, in
//! `eval-bulk`, that reads of array elements and rows and the bulk forms take time linear in
//! the size (no per-use array copies; the tests check the same programs' step counts).
//! Short measurement times keep `cargo bench -p adora-semantics` to a couple of minutes.

use adora_core::Function;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference::gradient;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use num_bigint::BigInt;
use std::time::Duration;

fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{}", d.render("bench.adl", src)))
}

/// `n` small non-integer rationals.
fn rationals(n: usize, seed: i64) -> Vec<Rat> {
    (0..n as i64)
        .map(|k| Rat::new(BigInt::from((k * seed) % 11 - 5), BigInt::from(7)))
        .collect()
}

/// A real vector of `n` small non-integer rationals.
fn vector(n: usize, seed: i64) -> Value<Rat> {
    Value::real_vector(rationals(n, seed))
}

/// `(name, size, program, exact inputs)` for every benchmarked program.
fn programs() -> Vec<(&'static str, usize, Function, Vec<Value<Rat>>)> {
    let mut out = Vec::new();
    for n in [10, 100, 1000] {
        let dot = load(&format!(
            "def main(x: R[{n}], w: R[{n}]) -> R = sum(x * w) * sum(x * w)"
        ));
        out.push(("dot", n, dot, vec![vector(n, 3), vector(n, 5)]));
        let conv = load(&format!(
            "def main(x: R[{n}], w: R[3]) -> R =\n  let y = build {m} (i => sum(build 3 (k => x[i + k] * w[k]))) in\n  sum(y * y)",
            m = n - 2
        ));
        out.push(("conv", n, conv, vec![vector(n, 3), vector(3, 5)]));
        let mut chain = String::from("def main(x: R) -> R =\n");
        for k in 0..n {
            let prev = if k == 0 {
                "x".to_string()
            } else {
                format!("v{}", k - 1)
            };
            chain.push_str(&format!("  let v{k} = {prev} * 0.5 + x in\n"));
        }
        chain.push_str(&format!("  v{}", n - 1));
        out.push((
            "let-chain",
            n,
            load(&chain),
            vec![Value::real(Rat::new(BigInt::from(1), BigInt::from(3)))],
        ));
    }
    out
}

/// `(name, size, program, exact inputs)` for the bulk benchmarks: a `build` of element
/// reads, a `build` of row sums of an `[n, n]` matrix, and a build, gather and reduce.
fn bulk_programs() -> Vec<(&'static str, usize, Function, Vec<Value<Rat>>)> {
    let mut out = Vec::new();
    for n in [10_000, 20_000, 30_000] {
        let read = load(&format!(
            "def main(x: R[{n}]) -> R[{n}] = build {n} (i => x[i])"
        ));
        out.push(("index", n, read, vec![vector(n, 3)]));
        let bulk = load(&format!(
            "def main(x: R[{n}]) -> R = let y = build {n} (i => x[i] * x[{n} - 1 - i]) in reduce(+, 0, gather([{n}], y, i => [i])) + sum(y)"
        ));
        out.push(("build-gather-reduce", n, bulk, vec![vector(n, 3)]));
    }
    for m in [100, 200, 300] {
        let rows = load(&format!(
            "def main(x: R[{m}, {m}]) -> R[{m}] = build {m} (i => sum(x[i]))"
        ));
        let x = Value::reals(vec![m, m], rationals(m * m, 5)).expect("m * m scalars");
        out.push(("row-sums", m, rows, vec![x]));
    }
    out
}

fn bench(c: &mut Criterion) {
    let opts = EvalOptions::default();
    let progs = adora_core::with_stack(programs);
    let mut bulk = c.benchmark_group("eval-bulk");
    bulk.measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for (name, n, f, xs) in &bulk_programs() {
        bulk.bench_with_input(BenchmarkId::new(*name, n), xs, |b, xs| {
            b.iter(|| eval(f, xs, &opts).unwrap())
        });
    }
    bulk.finish();
    let mut exact = c.benchmark_group("eval-exact");
    exact
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for (name, n, f, xs) in &progs {
        exact.bench_with_input(BenchmarkId::new(*name, n), xs, |b, xs| {
            b.iter(|| eval(f, xs, &opts).unwrap())
        });
    }
    exact.finish();
    let mut float = c.benchmark_group("eval-f64");
    float
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for (name, n, f, xs) in &progs {
        let xs: Vec<Value<f64>> = xs.iter().map(Value::to_f64).collect();
        float.bench_with_input(BenchmarkId::new(*name, n), &xs, |b, xs| {
            b.iter(|| eval(f, xs, &opts).unwrap())
        });
    }
    float.finish();
    let mut grad = c.benchmark_group("gradient-exact");
    grad.measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for (name, n, f, xs) in &progs {
        grad.bench_with_input(BenchmarkId::new(*name, n), xs, |b, xs| {
            b.iter(|| gradient(f, xs, &opts).unwrap())
        });
    }
    grad.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
