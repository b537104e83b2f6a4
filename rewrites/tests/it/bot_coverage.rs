//! Every bot rule fires somewhere (dead-rule detection, the egg paper (Willsey et al., POPL 2021)): the whole rule
//! set runs on every `specs/programs/**` program in the fragment and on every instance of
//! the per-rule corpus (`bot_support/instances.rs`), and the union of the applications
//! must name every rule of the table.

use crate::bot_support;

use adora_rewrites::bot::{rules, transform, BotConfig, RULES};
use adora_rewrites::ir::lang::Ir;
use adora_rewrites::ir::runner::{run_egraph, Phase};
use adora_rewrites::ir::translate::translate;
use bot_support::instances::{ir_instances, templates, Dims};
use bot_support::{load, programs};
use egg::RecExpr;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

fn record(into: &mut BTreeMap<String, usize>, from: &BTreeMap<String, usize>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_insert(0) += v;
    }
}

#[test]
fn every_rule_fires_somewhere_in_the_corpus() {
    let mut fired: BTreeMap<String, usize> = BTreeMap::new();
    let cfg = BotConfig::default();
    for (_, src) in programs() {
        if let Ok(out) = transform(&load(&src), &cfg) {
            record(&mut fired, &out.applied);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for (rule, ts) in templates() {
        for t in ts {
            let src = Dims::random(&mut rng).fill(&t);
            let out = transform(&load(&src), &cfg)
                .unwrap_or_else(|d| panic!("bot fails on an instance of {rule}: {d}\n{src}"));
            record(&mut fired, &out.applied);
        }
    }
    for (_, prog, term) in ir_instances() {
        let f = load(prog);
        let mut tr = translate(&f).expect("translation");
        let expr: RecExpr<Ir> = term.parse().expect("an IR term");
        let root = tr.egraph.add_expr(&expr);
        tr.egraph.rebuild();
        let phase = Phase::new("bot")
            .with_iter_limit(20)
            .with_simple_scheduler();
        let (_, _, rep) = run_egraph(tr.egraph, root, &rules(), &phase);
        record(&mut fired, &rep.expect("the phase runs").applied);
    }
    let dead: Vec<&str> = RULES
        .iter()
        .map(|r| r.name)
        .filter(|n| fired.get(*n).copied().unwrap_or(0) == 0)
        .collect();
    assert!(dead.is_empty(), "rules that never fire: {dead:?}");
}
