//! Materialised lets (docs/rules/bot.md, "Materialised lets"; issue 19): a `let` outside
//! every binder whose value is used more than once, or under a binder, stays a `let`
//! through bot, so a chain of lets whose builds each read the previous array three times
//! is transformed in time linear in the chain (checked deterministically by the e-graph's
//! size, never by the clock) and its `ops` do not grow; single uses are still inlined.

use crate::bot_scaling::bot_programs;
use crate::bot_support::{exact, header_inputs, load};
use adora_core::ast::{ExprKind, Function};
use adora_core::visit::{node_count, subexprs};
use adora_rewrites::bot::projection::check_normal_form;
use adora_rewrites::bot::{engine_config, prepare, transform, BotConfig};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;

fn lets(f: &Function) -> usize {
    subexprs(&f.body)
        .iter()
        .filter(|e| matches!(e.kind, ExprKind::Let(..)))
        .count()
}

fn ops(f: &Function, inputs: &[Value<adora_semantics::Rat>]) -> u64 {
    adora_costmodel::measure(f, inputs, &EvalOptions::default())
        .unwrap_or_else(|d| panic!("{d}"))
        .ops
}

/// Zeros for `x: R[8]`: `ops` counts the same operations on any input of this branch-free
/// family, and zeros keep exact evaluation of the squaring chain small.
fn zeros(f: &Function) -> Vec<Value<adora_semantics::Rat>> {
    header_inputs("-- input: x = [0, 0, 0, 0, 0, 0, 0, 0]", f).expect("inputs")
}

#[test]
fn shared_chains_keep_their_lets_and_do_not_grow_in_ops() {
    for n in [20, 50] {
        let f = load(&bot_programs::shared_chain(n));
        let out = transform(&f, &engine_config()).unwrap_or_else(|d| panic!("n = {n}: {d}"));
        let g = &out.function;
        check_normal_form(g).unwrap_or_else(|v| panic!("n = {n}: {v}"));
        assert!(
            lets(g) >= n,
            "n = {n}: the lets were not kept\n{}",
            adora_core::pretty::function(g)
        );
        let xs = zeros(&f);
        let (before, after) = (ops(&f, &xs), ops(g, &xs));
        assert!(after <= before, "n = {n}: ops {before} became {after}");
        // Linear work: every segment is one small e-graph (at most 4 e-nodes per expression node
        // in all, where inlining grew the e-graph exponentially in n).
        let nodes = node_count(&f.body);
        assert!(
            out.egraph_nodes <= 4 * nodes,
            "n = {n}: {} e-nodes for {nodes} expression nodes",
            out.egraph_nodes
        );
        assert_eq!(
            out.phases.len(),
            n + 1,
            "n = {n}: one segment per shared let and the core"
        );
    }
}

#[test]
fn a_shared_chain_keeps_its_value() {
    let f = load(&bot_programs::shared_chain(4));
    let g = prepare(&f).expect("bot");
    let xs = header_inputs("-- input: x = [1/2, -1, 1/3, 2, 0, -1/4, 1, 3/2]", &f).expect("inputs");
    assert_eq!(
        exact(&g, &xs).expect("bot's output"),
        exact(&f, &xs).expect("input")
    );
}

#[test]
fn a_small_shared_chain_stays_a_small_egraph() {
    // Ten lets (156 expression nodes): inlined, the e-graph grew to 3,375 e-nodes.
    let f = load(&bot_programs::shared_chain(10));
    let out = transform(&f, &BotConfig::default()).expect("bot");
    let nodes = node_count(&f.body);
    assert!(
        out.egraph_nodes <= 4 * nodes,
        "{} e-nodes for {nodes} nodes",
        out.egraph_nodes
    );
}

/// Bot of `src` and whether it equals the original on the inputs of `header`.
fn bot_same(src: &str, header: &str) -> Function {
    let f = load(src);
    let g = prepare(&f).unwrap_or_else(|d| panic!("{d}\n{src}"));
    let xs = header_inputs(header, &f).expect("inputs");
    assert_eq!(
        exact(&g, &xs).expect("bot's output"),
        exact(&f, &xs).expect("input"),
        "{}",
        adora_core::pretty::function(&g)
    );
    g
}

#[test]
fn single_uses_outside_binders_are_still_inlined() {
    let g = bot_same(
        "def main(x: R[4], y: R[4]) -> R =
           let a = x * y in let s = sum(x) in a[2] + s * sum(build 2 (i => y[i]))",
        "-- input: x = [1, 2, 3, 4]\n-- input: y = [1/2, -1, 2, 3]",
    );
    let text = adora_core::pretty::function(&g);
    assert_eq!(lets(&g), 0, "{text}");
    assert!(text.contains("x[2] * y[2]"), "{text}");
}

#[test]
fn a_single_use_under_a_binder_is_kept() {
    // `a` is read once per index of the build: materialised, the build reads it by a
    // gather (seed 000 Fig. 11) instead of recomputing `x * y` at every index.
    let g = bot_same(
        "def main(x: R[4], y: R[4]) -> R[6] = let a = x * y in build 6 (i => a[i % 4])",
        "-- input: x = [1, 2, 3, 4]\n-- input: y = [1/2, -1, 2, 3]",
    );
    let text = adora_core::pretty::function(&g);
    assert!(text.contains("let a = x * y in"), "{text}");
    assert!(text.contains("gather([6], a,"), "{text}");
}

#[test]
fn nested_lets_outside_binders_are_floated_and_kept() {
    // Inlined `def`s leave lets nested in expressions; tuple lets are kept too, and a let
    // inside a build body (its value depends on the index) is inlined as before.
    let g = bot_same(
        "def f(u: R[3]) -> R[3] = let v = u * u in v + v
         def main(x: R[3], y: R[3]) -> R =
           let (p, q) = (x * y, x + y) in
           sum(f(p)) + sum(build 3 (i => let w = p[i] * q[i] in w * w + q[2 - i]))",
        "-- input: x = [1, 2, 3]\n-- input: y = [1/2, -1, 2]",
    );
    let text = adora_core::pretty::function(&g);
    assert!(text.contains("let (p, q) = (x * y, x + y) in"), "{text}");
    assert!(text.contains("let v = p * p in"), "{text}");
}

#[test]
fn dead_and_alias_lets_are_not_kept() {
    let g = bot_same(
        "def main(x: R[3]) -> R[3] =
           let z = x in let d = x * x in let c = 2.0 in build 3 (i => z[i] * c + z[2 - i])",
        "-- input: x = [1, 2, 3]",
    );
    assert_eq!(lets(&g), 0, "{}", adora_core::pretty::function(&g));
}
