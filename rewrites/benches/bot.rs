//! Criterion benchmark of the bulk-operation transform on programs of growing size: deep
//! `build` nests, long `let` chains, wide sums and chains of shared lets
//! (`bot_programs.rs`). Besides the timings it prints, per program, its size in expression
//! nodes, the e-graphs' final size (e-nodes, e-classes, summed over the segments of
//! materialised lets), the iterations (the most of any segment) and the output's size —
//! the table of docs/rules/bot.md.
//!
//! Run: `cargo bench -p adora-rewrites --bench bot` (add `-- --quick` for a short run).

use adora_rewrites::bot::{transform, BotConfig};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

mod bot_programs;

/// A family of programs: its name, the program of a size, the sizes.
type Family = (&'static str, fn(usize) -> String, Vec<usize>);

/// The families and their sizes.
fn families() -> Vec<Family> {
    vec![
        (
            "build-nest",
            bot_programs::build_nest,
            vec![2, 4, 8, 12, 16, 20],
        ),
        (
            "let-chain",
            bot_programs::let_chain,
            vec![4, 16, 32, 64, 100],
        ),
        ("wide-sum", bot_programs::wide_sum, vec![4, 16, 32, 64, 100]),
        (
            "shared-chain",
            bot_programs::shared_chain,
            vec![10, 20, 50, 100],
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let cfg = BotConfig::default();
    println!("family      size  nodes   e-nodes  e-classes  iterations  output-nodes");
    for (name, make, sizes) in families() {
        let mut group = c.benchmark_group(format!("bot/{name}"));
        group.sample_size(10);
        for n in sizes {
            let f = adora_core::load(&make(n), "main").expect("a benchmark program loads");
            let nodes = adora_core::visit::node_count(&f.body);
            let out = transform(&f, &cfg).expect("bot succeeds on the benchmark programs");
            println!(
                "{name:<11} {n:>4} {nodes:>6} {:>9} {:>10} {:>11} {:>13}",
                out.egraph_nodes,
                out.egraph_classes,
                out.phases.iter().map(|p| p.iterations).max().unwrap_or(0),
                adora_core::visit::node_count(&out.function.body)
            );
            group.bench_with_input(BenchmarkId::from_parameter(nodes), &f, |b, f| {
                b.iter(|| transform(f, &cfg).expect("bot"))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
