//! Benchmarks of the `dual` engines on a convolution loss (seed 000 §7: differentiate
//! once, evaluate many times):
//!
//! * `reference`: the reference derivative (forward mode by dual numbers);
//! * `runtime`: bot output → dual-arrays forward pass → runtime reverse pass;
//! * `symbolic`: the gradient program, built once outside the timing, evaluated;
//! * `differentiate`: building the gradient program (bot excluded);
//! * `dual-scalar`: the naive scalar algorithm (one Delta per scalar).
//!
//! All in `f64`, at sizes 10, 100, 1000, 10000 (sample sizes shrink with the size). The
//! Delta node counts of `dual` and `dual-scalar` are printed first.

use adora_core::ast::Function;
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::{eval_gradient_program, fragment, runtime_vjp_normal, scalar};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::{Tensor, Value};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;

const SIZES: [usize; 4] = [10, 100, 1000, 10000];

/// The convolution loss with builds (what the user writes).
fn source(n: usize) -> String {
    format!(
        "def main(x: R[{}], w: R[3]) -> R =\n  let y = build {n} (i => sum(build 3 (k => x[i + k] * w[k]))) in\n  sum(y * y)\n",
        n + 2
    )
}

/// The same loss in bot's normal form, written by hand (used if bot fails).
fn normal_form(n: usize) -> String {
    format!(
        "def main(x: R[{}], w: R[3]) -> R =\n  let y = sum_outer(transpose([1, 0], gather([{n}, 3], x, (i, k) => [i + k]) * replicate({n}, w))) in\n  sum(y * y)\n",
        n + 2
    )
}

fn load(src: &str) -> Function {
    adora_core::load(src, "main").expect("the benchmark program loads")
}

fn inputs(n: usize) -> Vec<Value<f64>> {
    let x: Vec<f64> = (0..n + 2)
        .map(|k| ((k * 7) % 11) as f64 / 4.0 - 1.0)
        .collect();
    vec![
        Value::Real(Tensor::vector(x)),
        Value::Real(Tensor::vector(vec![0.5, -1.0, 2.0])),
    ]
}

fn bench(c: &mut Criterion) {
    let opts = EvalOptions {
        max_steps: u64::MAX,
        ..EvalOptions::default()
    };
    let one = Value::real(1.0);
    let mut group = c.benchmark_group("dual/conv");
    for n in SIZES {
        let f = load(&source(n));
        let g = fragment::prepare(&f).unwrap_or_else(|_| load(&normal_form(n)));
        let xs = inputs(n);
        let gp = gradient_program(&g).expect("gradient program");
        let (_, st) = runtime_vjp_normal(&g, &xs, &one, &opts).expect("runtime");
        let sc = scalar::delta_nodes(&f, &xs, &opts).expect("dual-scalar");
        println!(
            "n = {n}: Delta nodes: dual {} (one-hots {}, shares {}), dual-scalar {sc}; gradient program {} nodes",
            st.delta_nodes,
            st.one_hots,
            st.shares,
            adora_core::visit::node_count(&gp.function.body)
        );
        let (samples, time) = if n >= 1000 { (10, 3) } else { (20, 2) };
        group.sample_size(samples);
        group.measurement_time(Duration::from_secs(time));
        group.bench_with_input(BenchmarkId::new("reference", n), &n, |b, _| {
            b.iter(|| reference::gradient(&f, &xs, &opts).expect("reference"))
        });
        group.bench_with_input(BenchmarkId::new("runtime", n), &n, |b, _| {
            b.iter(|| runtime_vjp_normal(&g, &xs, &one, &opts).expect("runtime"))
        });
        group.bench_with_input(BenchmarkId::new("symbolic", n), &n, |b, _| {
            b.iter(|| eval_gradient_program(&gp, &xs, &one, &opts).expect("symbolic"))
        });
        group.bench_with_input(BenchmarkId::new("differentiate", n), &n, |b, _| {
            b.iter(|| gradient_program(&g).expect("gradient program"))
        });
        if n <= 1000 {
            group.bench_with_input(BenchmarkId::new("dual-scalar", n), &n, |b, _| {
                b.iter(|| scalar::gradient(&f, &xs, &opts).expect("dual-scalar"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
