//! Scaling of `adora cost` (`adora_costmodel::measure` on `default_inputs`) with the size of
//! the input array: `sum(x)` and `sum(x * x)` at n = 10^3, 10^4, 10^5. The default inputs
//! share one small power-of-two denominator, so exact sums stay small and the time grows
//! linearly in n (docs/cost-models.md, "Default inputs"; docs/benchmarks.md).
//! Run with `cargo bench -p adora-costmodel --bench cost_scaling`.

use adora_costmodel::{default_inputs, measure};
use adora_semantics::eval::EvalOptions;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let opts = EvalOptions::default();
    let mut group = c.benchmark_group("cost-scaling");
    group
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300));
    for n in [1_000usize, 10_000, 100_000] {
        for (name, body) in [("sum", "sum(x)"), ("sum-squares", "sum(x * x)")] {
            let src = format!("def main(x: R[{n}]) -> R = {body}");
            let f = adora_core::load(&src, "main")
                .unwrap_or_else(|d| panic!("{}", d.render("bench.adl", &src)));
            let xs = default_inputs(&f);
            group.bench_with_input(BenchmarkId::new(name, n), &xs, |b, xs| {
                b.iter(|| measure(&f, xs, &opts).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
