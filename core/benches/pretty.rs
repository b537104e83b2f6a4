//! Printing long exact literals (issue 19): `pretty::real` of `3 / 10^n` for growing
//! `n`. Its factors 5 used to be divided out one at a time (quadratic in `n`: seconds at
//! 65,535 places); they are divided out by repeated squares now.
use adora_core::pretty::real;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Pow;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pretty/real");
    group.sample_size(10);
    for n in [4096u32, 16384, 65535] {
        let r = BigRational::new(BigInt::from(3u8), Pow::pow(BigInt::from(10u8), n));
        group.bench_with_input(BenchmarkId::from_parameter(n), &r, |b, r| {
            b.iter(|| real(r))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
