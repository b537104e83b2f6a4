//! `--numeric ball` against f64 and exact mode (docs/benchmarks.md, "Certified
//! enclosures"): evaluation and the reference gradient of the programs of `eval.rs`
//! (dot-product loss, convolution loss, `let` chain) at sizes 10 and 100, and of a
//! log-sum-exp (f64 and ball only: exact mode rejects `exp`), in exact, f64, and ball at
//! 128 and 512 bits. Run briefly: `--warm-up-time 1 --measurement-time 2`.

use adora_core::Function;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::gradient;
use adora_semantics::scalar::interval::PrecisionScope;
use adora_semantics::scalar::Interval;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use num_bigint::BigInt;
use std::time::Duration;

fn load(src: &str) -> Function {
    adora_core::load(src, "main").unwrap_or_else(|d| panic!("{}", d.render("bench.adl", src)))
}

fn vector(n: usize, seed: i64) -> Value<Rat> {
    Value::real_vector(
        (0..n as i64)
            .map(|k| Rat::new(BigInt::from((k * seed) % 11 - 5), BigInt::from(7)))
            .collect(),
    )
}

/// `(name, size, program, exact inputs, rational)`.
type Bench = (&'static str, usize, Function, Vec<Value<Rat>>, bool);

fn programs() -> Vec<Bench> {
    let mut out = Vec::new();
    for n in [10, 100] {
        let dot = load(&format!(
            "def main(x: R[{n}], w: R[{n}]) -> R = sum(x * w) * sum(x * w)"
        ));
        out.push(("dot", n, dot, vec![vector(n, 3), vector(n, 5)], true));
        let conv = load(&format!(
            "def main(x: R[{n}], w: R[3]) -> R =\n  let y = build {m} (i => sum(build 3 (k => x[i + k] * w[k]))) in\n  sum(y * y)",
            m = n - 2
        ));
        out.push(("conv", n, conv, vec![vector(n, 3), vector(3, 5)], true));
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
        let third = Value::real(Rat::new(BigInt::from(1), BigInt::from(3)));
        out.push(("let-chain", n, load(&chain), vec![third], true));
        let lse = load(&format!(
            "def main(x: R[{n}]) -> R =\n  let m = reduce(max, x[0], x) in\n  m + log(reduce(+, 0, map(t => exp(t - m), x)))"
        ));
        // Distinct inputs, so `max` is decided.
        let xs = Value::real_vector(
            (0..n as i64)
                .map(|k| Rat::new(BigInt::from(k * 7 % 101), BigInt::from(13)))
                .collect(),
        );
        out.push(("logsumexp", n, lse, vec![xs], false));
    }
    out
}

fn bench(c: &mut Criterion) {
    let opts = EvalOptions::default();
    let progs = adora_core::with_stack(programs);
    let mut g = c.benchmark_group("ball");
    g.measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for (name, n, f, xs, rational) in &progs {
        if *rational {
            g.bench_with_input(BenchmarkId::new(format!("{name}/exact"), n), xs, |b, xs| {
                b.iter(|| gradient(f, xs, &opts).unwrap())
            });
        }
        let fs: Vec<Value<f64>> = xs.iter().map(Value::to_f64).collect();
        g.bench_with_input(BenchmarkId::new(format!("{name}/f64"), n), &fs, |b, xs| {
            b.iter(|| gradient(f, xs, &opts).unwrap())
        });
        for bits in [128, 512] {
            let _p = PrecisionScope::new(bits);
            let bs: Vec<Value<Interval>> = xs
                .iter()
                .map(|v| v.map_reals(&mut |r: &Rat| Interval::of_rational(r, bits)))
                .collect();
            g.bench_with_input(
                BenchmarkId::new(format!("{name}/ball{bits}"), n),
                &bs,
                |b, xs| b.iter(|| gradient(f, xs, &opts).unwrap()),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
