//! Benchmarks of the CPU executor (docs/benchmarks.md, "Backend") on the five programs of
//! `specs/bench/programs/` at realistic sizes — a dot product (n = 10^6), a 1-D
//! convolution loss (n = 10^5, kernel 16), a matrix product (256 × 256), an MLP loss
//! (784-256-10, batch 64) and the GMM objective (d = 10, K = 5, n = 1000) — each primal
//! and the gradient program of engine `linear` (the engine whose gradient programs of all
//! five the plan accepts: `soac`'s GMM gradient exceeds the kernel size limit,
//! docs/backend.md "What the plan refuses"). Inputs are generated from a fixed seed.
//! Only the executor's steps are timed (`Machine::execute`, the result left in its
//! buffers): one prepared `Machine` per case and kernels — `lanes`, and `compiled` where a
//! C compiler is found — its plan, slots, inputs and compiled kernels made once
//! (docs/backend.md, "Timing", "Compiled kernels").

use adora_core::ast::Function;
use adora_core::types::Type;
use adora_gpu::plan::{plan, Plan};
use adora_rewrites::engine::{self, Question, Seed};
use adora_semantics::value::Value;
use criterion::{criterion_group, criterion_main, Criterion};
use std::collections::BTreeMap;

/// The gradient engine the benchmarks run.
const ENGINE: &str = "linear";

/// The programs and their sizes.
fn programs() -> Vec<(&'static str, Vec<(&'static str, usize)>)> {
    vec![
        ("dot", vec![("n", 1_000_000)]),
        ("conv", vec![("n", 100_000), ("k", 16)]),
        ("matmul", vec![("m", 256), ("l", 256), ("p", 256)]),
        ("mlp", vec![("nb", 64)]),
        ("gmm", vec![("k", 5), ("d", 10), ("t", 55), ("n", 1000)]),
    ]
}

fn load(name: &str, sizes: &[(&str, usize)]) -> Function {
    let path = adora_specs::specs_dir().join(format!("bench/programs/{name}.adl"));
    let src = std::fs::read_to_string(&path).expect("bench program");
    let sizes: BTreeMap<String, usize> = sizes.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let p = adora_core::parser::parse_program_sized(&src, "main", &sizes)
        .and_then(|p| adora_core::check::check_program(&p).map(|_| p))
        .and_then(|p| adora_core::check::elaborate(&p, "main"))
        .unwrap_or_else(|d| panic!("{}", d.render(&path.display().to_string(), &src)));
    p
}

/// A deterministic generator (a 64-bit LCG), uniform in [-1/2, 1/2).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    }
}

fn inputs(f: &Function) -> Vec<Value<f64>> {
    let mut g = Lcg(2026);
    f.params
        .iter()
        .map(|p| match &p.ty {
            Type::Array(_, shape) => {
                let n: usize = shape.iter().product();
                Value::reals(shape.clone(), (0..n).map(|_| g.next()).collect()).expect("shape")
            }
            t => panic!("bench inputs are real arrays, not {t}"),
        })
        .collect()
}

/// `(label, plan, arguments)`: the primal, then the engine's gradient program.
fn cases() -> Vec<(String, Plan, Vec<Value<f64>>)> {
    let e = engine::find(ENGINE).expect("engine");
    let mut out = Vec::new();
    for (name, sizes) in programs() {
        let f = load(name, &sizes);
        let xs = inputs(&f);
        out.push((
            format!("{name}/primal"),
            plan(&f).expect("plan"),
            xs.clone(),
        ));
        let dp = e.program(&f, Question::Grad).expect("gradient program");
        let args = dp
            .arguments(&f, &xs, Seed::Cotangent(&Value::real(1.0)))
            .expect("arguments");
        let p = plan(&dp.function).expect("plan of the gradient");
        out.push((format!("{name}/grad-{ENGINE}"), p, args));
    }
    out
}

fn executor(c: &mut Criterion) {
    let mut g = c.benchmark_group("executor");
    g.sample_size(10);
    let cc = adora_gpu::cpu::native::compiler();
    if cc.is_none() {
        println!("skipped: no C compiler (the compiled kernels' benchmarks)");
    }
    for (label, p, args) in cases() {
        let mut m = adora_gpu::cpu::Machine::new(&p);
        m.load(&args).expect("loads");
        g.bench_function(format!("{label}/lanes"), |b| {
            b.iter(|| m.execute().expect("runs"))
        });
        if let Some(cc) = cc {
            let n = adora_gpu::cpu::native::Native::compile(&p, cc).expect("compiles");
            let mut m = adora_gpu::cpu::Machine::with_native(&p, n).expect("its plan");
            m.load(&args).expect("loads");
            g.bench_function(format!("{label}/compiled"), |b| {
                b.iter(|| m.execute().expect("runs"))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, executor);
criterion_main!(benches);
