//! Per-rule soundness of the bot rules (the egg paper (Willsey et al., POPL 2021)): for every rule, random
//! well-shaped instances of its left side (sizes 1..4, random small rationals, index
//! parameters sometimes out of bounds, binder bodies with and without the bound index)
//! are translated, ONLY that rule runs (2 iterations, simple scheduler), the rule must have
//! applied, and for every e-node of the root class the best term rooted at that node must
//! evaluate exactly to the original program's value (`f64`, compared as printed, for
//! programs with non-rational operations).

use crate::bot_support;

use adora_rewrites::bot::{rules, RULES};
use adora_rewrites::ir::analysis::IrAnalysis;
use adora_rewrites::ir::extract::{extract_member, to_function};
use adora_rewrites::ir::lang::Ir;
use adora_rewrites::ir::runner::{run_egraph, run_phase, Phase};
use adora_rewrites::ir::translate::translate;
use bot_support::instances::{ir_instances, templates, Dims};
use bot_support::{load, outcome, random_inputs};
use egg::{RecExpr, Rewrite};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Random instances per template.
const SEEDS: u64 = 6;

fn only(rule: &str) -> Vec<Rewrite<Ir, IrAnalysis>> {
    let rs: Vec<_> = rules()
        .into_iter()
        .filter(|r| r.name.as_str() == rule)
        .collect();
    assert_eq!(rs.len(), 1, "rule {rule} exists exactly once");
    rs
}

fn phase(rule: &str) -> Phase {
    Phase::new(rule).with_iter_limit(2).with_simple_scheduler()
}

/// Checks one instance; returns how many root members were evaluated.
fn check(rule: &str, src: &str, seed: u64) -> usize {
    let f = load(src);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let inputs = random_inputs(&f, &mut rng);
    let want = outcome(&f, &inputs);
    let mut tr = translate(&f).unwrap_or_else(|d| panic!("{rule}: translation fails: {d}\n{src}"));
    let rep = run_phase(&mut tr, &only(rule), &phase(rule))
        .unwrap_or_else(|d| panic!("{rule}: the phase fails: {d}\n{src}"));
    assert!(
        rep.applied.get(rule).copied().unwrap_or(0) > 0,
        "{rule} did not apply to\n{src}"
    );
    let eg = &tr.egraph;
    let nodes = eg[tr.root].nodes.clone();
    for node in &nodes {
        // An open root member (one that mentions an index variable bound only around
        // other uses of the class, `ir::extract::member`) is checked under every
        // valuation of its free variables.
        let m = extract_member(eg, tr.root, node)
            .unwrap_or_else(|d| panic!("{rule}: extracting {node} fails: {d}\n{src}"));
        for inst in m.instances(64) {
            let e = &inst.expr;
            let g = to_function(e, &eg.analysis, &f).unwrap_or_else(|d| {
                panic!(
                    "{rule}: {e} is not a valid program: {d} {:?}\n{src}",
                    d.notes
                )
            });
            let got = outcome(&g, &inputs);
            assert_eq!(
                got,
                want,
                "{rule} changed the value on inputs {:?} at {:?}\n{src}\nrewritten:\n{}",
                inputs
                    .iter()
                    .map(adora_semantics::io::to_literal)
                    .collect::<Vec<_>>(),
                inst.valuation,
                adora_core::pretty::function(&g)
            );
        }
    }
    nodes.len()
}

#[test]
fn every_rule_has_instances_or_an_ir_instance() {
    let mut have: BTreeSet<String> = templates().into_iter().map(|(n, _)| n).collect();
    have.extend(ir_instances().into_iter().map(|(n, _, _)| n.to_string()));
    let missing: Vec<&str> = RULES
        .iter()
        .map(|r| r.name)
        .filter(|n| !have.contains(*n))
        .collect();
    assert!(missing.is_empty(), "rules without instances: {missing:?}");
}

#[test]
fn every_rule_preserves_exact_semantics_on_random_instances() {
    let mut members = 0;
    for (rule, ts) in templates() {
        for (t, template) in ts.iter().enumerate() {
            for s in 0..SEEDS {
                let seed = s * 1000 + t as u64;
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
                let src = Dims::random(&mut rng).fill(template);
                members += check(&rule, &src, seed);
            }
        }
    }
    println!("{members} root members checked");
    assert!(members > 500, "only {members} members checked");
}

#[test]
fn ir_level_instances_preserve_exact_semantics() {
    for (rule, prog, term) in ir_instances() {
        let f = load(prog);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let inputs = random_inputs(&f, &mut rng);
        let mut tr = translate(&f).expect("translation");
        let expr: RecExpr<Ir> = term.parse().expect("an IR term");
        let root = tr.egraph.add_expr(&expr);
        tr.egraph.rebuild();
        let g0 = to_function(&expr, &tr.egraph.analysis, &f).expect("the instance is a program");
        let want = outcome(&g0, &inputs);
        let (eg, root, rep) = run_egraph(tr.egraph, root, &only(rule), &phase(rule));
        let rep = rep.expect("the phase runs");
        assert!(
            rep.applied.get(rule).copied().unwrap_or(0) > 0,
            "{rule} did not apply to {term}"
        );
        for node in eg[root].nodes.clone() {
            let m = extract_member(&eg, root, &node).expect("extraction");
            for inst in m.instances(64) {
                let e = &inst.expr;
                let g = to_function(e, &eg.analysis, &f).expect("a program");
                assert_eq!(outcome(&g, &inputs), want, "{rule} on {term}: {e}");
            }
        }
    }
}

#[test]
fn the_document_tabulates_exactly_the_rules() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules/bot.md"))
        .expect("docs/rules/bot.md");
    let rows: BTreeSet<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `bot/"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let table: BTreeSet<&str> = RULES.iter().map(|r| &r.name["bot/".len()..]).collect();
    assert_eq!(rows, table, "docs/rules/bot.md and RULES differ");
    for r in RULES {
        assert!(
            !r.figure.is_empty() && !r.lhs.is_empty() && !r.rhs.is_empty(),
            "{}",
            r.name
        );
    }
}

#[test]
fn rule_names_are_unique_and_match_the_table() {
    let names: Vec<String> = rules().iter().map(|r| r.name.to_string()).collect();
    let set: BTreeSet<&String> = names.iter().collect();
    assert_eq!(set.len(), names.len(), "duplicate rule names");
    let table: Vec<String> = RULES.iter().map(|r| r.name.to_string()).collect();
    let mut a = names.clone();
    let mut b = table.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "rules() and RULES differ");
}
