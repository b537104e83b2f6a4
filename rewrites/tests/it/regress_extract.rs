//! Regression: `adora check --filter bot/rule-sound --seed 21 --cases 1000` (and seed
//! 1795493671) failed with "no well-scoped term exists for the requested class or node"
//! after `bot/index-build`. These are the shrunk programs.
//!
//! Mechanism (`rewrites/src/ir/extract/member.rs`): in `build 2 (i => build 2 (j =>
//! x)[i])[0]`, the inner β-step unions `build 2 (j => x)[i]` (used under the binder of
//! `i`) with the class of `x`; the outer β-step unions the root with that class. The
//! root class then holds the member `(index (build n2 j x) i)`, which mentions `i` although
//! nothing binds `i` around the root. The member is sound (it equals `x` for every `i` in
//! `0..2`), best extraction never picks it there, but no *closed* term is rooted at it, so
//! evaluating "every root member" as a closed term was impossible. Extraction now gives
//! such a member as an open term with its free index variables ([`extract_member`]) and
//! closes it under each valuation within the extents ([`Member::instances`]).

use adora_rewrites::bot::rules;
use adora_rewrites::ir::extract::{extract_member, extract_node, to_function, Member};
use adora_rewrites::ir::runner::{run_phase, Phase};
use adora_rewrites::ir::translate::translate;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::io::{to_literal, value_from_expr};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// Runs `rule` alone (two iterations, simple scheduler, as `bot/rule-sound` does) on
/// `main` of `src` and returns the original's value, every root member with its closed
/// instances' values, and how many root members have no closed term.
fn members_after(src: &str, rule: &str) -> (String, Vec<(Member, Vec<String>)>, usize) {
    let f = adora_core::load(src, "main").unwrap_or_else(|d| panic!("{d}\n{src}"));
    let x = adora_core::parser::parse_expr("[1/2, -3]").unwrap();
    let inputs: Vec<Value<Rat>> = vec![value_from_expr(&x, &f.params[0].ty).unwrap()];
    let value = |g: &adora_core::ast::Function| {
        let (v, _) = eval(g, &inputs, &EvalOptions::default()).unwrap();
        to_literal(&v)
    };
    let want = value(&f);
    let mut tr = translate(&f).unwrap();
    let rs: Vec<_> = rules()
        .into_iter()
        .filter(|r| r.name.as_str() == rule)
        .collect();
    let phase = Phase::new(rule).with_iter_limit(2).with_simple_scheduler();
    let rep = run_phase(&mut tr, &rs, &phase).unwrap();
    assert!(
        rep.applied.get(rule).copied().unwrap_or(0) > 0,
        "{rule} applies"
    );
    let eg = &tr.egraph;
    let mut out = Vec::new();
    let mut open = 0;
    for node in eg[tr.root].nodes.clone() {
        if extract_node(eg, tr.root, &node).is_err() {
            open += 1;
        }
        let m = extract_member(eg, tr.root, &node)
            .unwrap_or_else(|d| panic!("member {node:?} of the root: {d}"));
        let vals = m
            .instances(64)
            .iter()
            .map(|inst| value(&to_function(&inst.expr, &eg.analysis, &f).unwrap()))
            .collect();
        out.push((m, vals));
    }
    (want, out, open)
}

/// Every root member, open ones under every valuation, has the original's value; and the
/// program still has the open member that made the property fail.
fn check(src: &str) {
    let (want, members, open) = members_after(src, "bot/index-build");
    assert!(
        open > 0,
        "the shrunk program no longer puts an open member in the root class"
    );
    let mut evaluated_open = 0;
    for (m, vals) in &members {
        if !m.open.is_empty() {
            assert_eq!(
                vals.len(),
                m.open.iter().map(|(_, n)| n).product::<usize>(),
                "every valuation of {} is checked",
                m.expr
            );
            evaluated_open += vals.len();
        }
        for got in vals {
            assert_eq!(got, &want, "member {} of the root", m.expr);
        }
    }
    assert!(evaluated_open > 0, "an open member was evaluated");
}

/// Seed 21, shrunk: a class used under the binder of `i` is unioned into the root.
#[test]
fn open_member_from_nested_beta_steps_is_checked_under_every_valuation() {
    check("def main(x: R[2]) -> R[2] = build 2 (i => build 2 (j => x)[i])[0]");
}

/// Seed 1795493671, shrunk: the open member joins the one `0.0` class, which the root
/// shares.
#[test]
fn open_member_in_a_shared_constant_class_is_checked_under_every_valuation() {
    check("def main(x: R[2]) -> R = build 2 (i => build 4 (j => 0.0)[i])[0]");
}

/// Closed members keep their closed terms: one instance, no free variables.
#[test]
fn closed_members_have_one_instance() {
    let (_, members, _) = members_after(
        "def main(x: R[2]) -> R[2] = build 2 (i => build 2 (j => x)[i])[0]",
        "bot/index-build",
    );
    let closed: Vec<_> = members.iter().filter(|(m, _)| m.open.is_empty()).collect();
    assert!(!closed.is_empty());
    assert!(closed.iter().all(|(_, vals)| vals.len() == 1));
}
