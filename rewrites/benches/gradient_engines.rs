//! Scaling of exact gradients by engine: the reference (forward mode by dual numbers) and
//! engine `dual` (bot, dual arrays, its gradient program evaluated), each asked through
//! the harness as `adora grad --engine E` asks it, on a dot product `sum(x * y)`, a 1-D
//! convolution loss and a `scatter` into 4 slots of rows scaled by a shared weight, at
//! n = 10^3, 10^4, 10^5 (docs/benchmarks.md, "Scaling of the exact reference gradient").
//! Every answer is checked against the reference once, outside the timing. Run with
//! `cargo bench -p adora-rewrites --bench gradient_engines`.

use adora_core::Function;
use adora_rewrites::engine::{find, harness};
use adora_semantics::eval::EvalOptions;
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

/// The programs at size `n` with their inputs.
fn programs(n: usize) -> Vec<(&'static str, Function, Vec<Value<Rat>>)> {
    let w = Value::real(Rat::new(BigInt::from(3), BigInt::from(2)));
    vec![
        (
            "dot",
            load(&format!("def main(x: R[{n}], y: R[{n}]) -> R = sum(x * y)")),
            vec![vector(n, 3), vector(n, 5)],
        ),
        (
            "conv",
            load(&format!(
                "def main(x: R[{n}], w: R[3]) -> R =\n  let y = build {n} (i => sum(build 3 (k => x[i + k] * w[k]))) in\n  sum(y * y)"
            )),
            vec![vector(n, 3), vector(3, 5)],
        ),
        (
            "scatter",
            load(&format!(
                "def main(x: R[{n}], w: R) -> R =\n  let s = scatter([4], x * w, i => [i % 4]) in\n  sum(s * s)"
            )),
            vec![vector(n, 3), w],
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let opts = EvalOptions::default();
    let mut group = c.benchmark_group("gradient-engines");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    let reference = find("reference").expect("the reference is registered");
    let dual = find("dual").expect("engine dual is registered");
    for n in [1_000usize, 10_000, 100_000] {
        for (name, f, xs) in programs(n) {
            let want = harness::gradient(&*reference, &f, &xs, &opts).expect("reference");
            let got = harness::gradient(&*dual, &f, &xs, &opts).expect("dual");
            assert_eq!(
                got, want,
                "{name} at n = {n}: dual differs from the reference"
            );
            for e in [&reference, &dual] {
                let id = BenchmarkId::new(format!("{name}/{}", e.name()), n);
                group.bench_with_input(id, &xs, |b, xs| {
                    b.iter(|| harness::gradient(&**e, &f, xs, &opts).unwrap())
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
