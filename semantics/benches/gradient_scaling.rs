//! Scaling of the exact reference gradient (`adora_semantics::reference::gradient`) with the
//! number of inputs: a dot product `sum(x * y)`, a 1-D convolution loss, a `scatter` and a
//! `reduce_by_index` into 4 buckets of rows scaled by a shared weight, at n = 10^3, 10^4,
//! 10^5. The sums merge all tangent maps at once (`Scalar::sum_left` of dual numbers), and
//! `scatter` / `reduce_by_index` sum each slot in one such fold, so the time grows
//! linearly; adding one dual number at a time grew as n². Rational arithmetic runs on
//! machine words where the values allow (docs/benchmarks.md). Run with
//! `cargo bench -p adora-semantics --bench gradient_scaling`.

use adora_core::Function;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::gradient;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use num_bigint::BigInt;
use std::time::Duration;

fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{}", d.render("bench.adl", src)))
}

/// A real vector of `n` small non-integer rationals.
fn vector(n: usize, seed: i64) -> Value<Rat> {
    Value::real_vector(
        (0..n as i64)
            .map(|k| Rat::new(BigInt::from((k * seed) % 11 - 5), BigInt::from(7)))
            .collect(),
    )
}

fn bench(c: &mut Criterion) {
    let opts = EvalOptions::default();
    let mut group = c.benchmark_group("reference-gradient-scaling");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for n in [1_000usize, 10_000, 100_000] {
        let dot = load(&format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(x * y)"));
        let xs = vec![vector(n, 3), vector(n, 5)];
        group.bench_with_input(BenchmarkId::new("dot", n), &xs, |b, xs| {
            b.iter(|| gradient(&dot, xs, &opts).unwrap())
        });
        let conv = load(&format!(
            "def main(x: R[{n}], w: R[3]) -> R =\n  let y = build {n} (i => sum(build 3 (k => x[i + k] * w[k]))) in\n  sum(y * y)"
        ));
        let xs = vec![vector(n, 3), vector(3, 5)];
        group.bench_with_input(BenchmarkId::new("conv", n), &xs, |b, xs| {
            b.iter(|| gradient(&conv, xs, &opts).unwrap())
        });
        let scatter = load(&format!(
            "def main(x: R[{n}], w: R) -> R =\n  let s = scatter([4], x * w, i => [i % 4]) in\n  sum(s * s)"
        ));
        let xs = vec![
            vector(n, 3),
            Value::real(Rat::new(BigInt::from(3), BigInt::from(2))),
        ];
        group.bench_with_input(BenchmarkId::new("scatter", n), &xs, |b, xs| {
            b.iter(|| gradient(&scatter, xs, &opts).unwrap())
        });
        let rbi = load(&format!(
            "def main(x: R[{n}], w: R) -> R =\n  let h = reduce_by_index(replicate(4, 0.0), +, 0, iota({n}) % 4, x * w) in\n  sum(h * h)"
        ));
        group.bench_with_input(BenchmarkId::new("reduce_by_index", n), &xs, |b, xs| {
            b.iter(|| gradient(&rbi, xs, &opts).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
