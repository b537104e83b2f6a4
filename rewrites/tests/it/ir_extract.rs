//! Extraction: the cost prefers build-free terms and normal-form indices, selection is
//! scope-aware (a class holding `i - i` and `0` never leaks `i` out of its binder), lets
//! are placed at the outermost legal scope, and failures are diagnostics.

use crate::ir_support;

use adora_core::ast::{ExprKind, Function};
use adora_core::ErrorKind;
use adora_rewrites::ir::analysis::IrGraph;
use adora_rewrites::ir::extract::{
    best_cost, extract_function, extract_function_with, extract_in_scope, extract_node,
    extract_recexpr, to_function, BuildFreeCost, Cost, CostModel,
};
use adora_rewrites::ir::lang::{IVarId, Ir};
use adora_rewrites::ir::translate::{translate, Translation};
use egg::{Id, RecExpr};

fn setup(src: &str) -> (Function, Translation) {
    let f = adora_core::load(src, "main").unwrap_or_else(|d| panic!("{src}: {d}"));
    let tr = translate(&f).unwrap();
    (f, tr)
}

fn add(eg: &mut IrGraph, s: &str) -> Id {
    let e: RecExpr<Ir> = s.parse().unwrap_or_else(|_| panic!("parse {s}"));
    eg.add_expr(&e)
}

fn same_values(f: &Function, g: &Function) {
    for v in 0..2 {
        ir_support::assert_same(f, g, &ir_support::inputs(f, v), "extraction");
    }
}

#[test]
fn costs_order_builds_first_then_normal_form_then_size() {
    let build = Cost {
        builds: 1,
        bad_index: 0,
        size: 1,
    };
    let bad = Cost {
        builds: 0,
        bad_index: 1,
        size: 1,
    };
    let big = Cost {
        builds: 0,
        bad_index: 0,
        size: 1_000,
    };
    assert!(big < bad && bad < build);
    let max = Cost {
        builds: u64::MAX,
        bad_index: u64::MAX,
        size: u64::MAX,
    };
    assert_eq!(max.plus(build), max, "sums saturate");
}

#[test]
fn prefers_a_larger_build_free_term() {
    let (f, mut tr) = setup("def main(f: R[4]) -> R[4] = build 4 (i => f[i] * 2.0)");
    assert_eq!(
        best_cost(&tr.egraph, tr.root, &BuildFreeCost)
            .unwrap()
            .builds,
        1
    );
    let bf = add(
        &mut tr.egraph,
        "(+ (* v0 (replicate n4 r2)) (* (replicate n4 r0) (+ v0 v0)))",
    );
    tr.egraph.union(tr.root, bf);
    tr.egraph.rebuild();
    assert_eq!(tr.egraph.analysis.conflict, None);
    let g = extract_function(&tr.egraph, tr.root, &f).unwrap();
    let text = adora_core::pretty::function(&g);
    assert!(
        !text.contains("build") && text.contains("replicate"),
        "{text}"
    );
    same_values(&f, &g);
    // Every member of the root class extracts as a term rooted at that member.
    let root = tr.egraph.find(tr.root);
    let nodes = tr.egraph[root].nodes.clone();
    assert!(nodes.len() >= 2);
    for n in &nodes {
        let e = extract_node(&tr.egraph, root, n).unwrap();
        let top = e.as_ref().last().unwrap();
        assert_eq!(std::mem::discriminant(top), std::mem::discriminant(n));
        let g = to_function(&e, &tr.egraph.analysis, &f).unwrap();
        same_values(&f, &g);
    }
}

#[test]
fn prefers_indexing_a_stuck_form() {
    // `x[1]` where x's class holds an addition (small) and a scatter (larger, but an
    // index of a scatter is in normal form).
    let (f, mut tr) = setup("def main(v: R[4]) -> R = (v + v)[1]");
    tr.egraph.analysis.add_ivar("i".into(), 4);
    let sum = add(&mut tr.egraph, "(+ v0 v0)");
    let sc = add(
        &mut tr.egraph,
        "(scatter [4] (* v0 (replicate n4 r2)) (binders i0) (ixs i0))",
    );
    tr.egraph.union(sum, sc);
    tr.egraph.rebuild();
    let e = extract_recexpr(&tr.egraph, tr.root).unwrap();
    assert!(e.to_string().starts_with("(index (scatter"), "{e}");
    let g = extract_function(&tr.egraph, tr.root, &f).unwrap();
    assert_eq!(
        adora_rewrites::bot::normal_form::check_normal_form(&g),
        Ok(())
    );
    same_values(&f, &g);
}

/// Literals are expensive: a greedy extractor would pick `i - i` for `0` everywhere.
struct LiteralsAreDear;

impl CostModel for LiteralsAreDear {
    fn weight(&self, eg: &IrGraph, node: &Ir) -> Cost {
        let size = if matches!(node, Ir::Lit(_)) { 100 } else { 1 };
        let base = BuildFreeCost.weight(eg, node);
        Cost { size, ..base }
    }
    fn bad_index(&self) -> Cost {
        BuildFreeCost.bad_index()
    }
}

#[test]
fn selection_never_lets_an_index_variable_escape() {
    let (f, mut tr) = setup(
        "def main(x: R[3]) -> R[3] = build 3 (i => x[i] + real(i - i)) + replicate(3, real(0))",
    );
    let diff = add(&mut tr.egraph, "(- i0 i0)");
    let zero = add(&mut tr.egraph, "z0");
    tr.egraph.union(diff, zero);
    tr.egraph.rebuild();
    assert_eq!(tr.egraph.analysis.conflict, None);
    let g = extract_function_with(&tr.egraph, tr.root, &f, &LiteralsAreDear).unwrap();
    let text = adora_core::pretty::function(&g);
    assert!(
        text.contains("i - i"),
        "inside the binder `i - i` is cheaper:\n{text}"
    );
    assert!(
        text.contains("replicate(3, 0.0)"),
        "outside it only the folded `0` is in scope:\n{text}"
    );
    same_values(&f, &g);
}

#[test]
fn shared_nodes_become_lets_at_the_outermost_legal_scope() {
    let (f, tr) = setup(
        "def main(x: R[3]) -> R[3] = \
         build 3 (i => (x[i] * x[i]) * (x[i] * x[i]) + sum(x * x) * sum(x * x))",
    );
    let g = extract_function(&tr.egraph, tr.root, &f).unwrap();
    let text = adora_core::pretty::function(&g);
    // The shared `sum(x * x)` floats out of the build; `x[i]` and `x[i] * x[i]` stay in.
    let ExprKind::Let(_, def, body) = &g.body.kind else {
        panic!("a let at the top expected:\n{text}")
    };
    assert!(
        matches!(&def.kind, ExprKind::Prim(p, _) if p.name() == "sum"),
        "{text}"
    );
    let ExprKind::Build(_, _, inner) = &body.kind else {
        panic!("the build under the let expected:\n{text}")
    };
    let ExprKind::Let(_, first, rest) = &inner.kind else {
        panic!("lets inside the build expected:\n{text}")
    };
    assert!(matches!(first.kind, ExprKind::Index(..)), "{text}");
    assert!(matches!(rest.kind, ExprKind::Let(..)), "{text}");
    same_values(&f, &g);
}

#[test]
fn sibling_builds_reusing_a_binder_are_not_shared_across() {
    let (f, tr) = setup(
        "def main() -> R[3] = build 3 (i => real(i) * real(i)) + build 3 (j => real(j) + real(j))",
    );
    // Rules may reuse one binder in sibling builds: both builds bind `i0` here.
    let e: RecExpr<Ir> = "(+ (build n3 i0 (* (real i0) (real i0))) \
                          (build n3 i0 (+ (real i0) (real i0))))"
        .parse()
        .unwrap();
    let g = to_function(&e, &tr.egraph.analysis, &f).unwrap();
    let text = adora_core::pretty::function(&g);
    assert_eq!(text.matches("let").count(), 2, "one let per build:\n{text}");
    same_values(&f, &g);
}

#[test]
fn failures_are_diagnostics() {
    let (f, tr) = setup("def main(x: R[3]) -> R = sum(x)");
    let wrong: RecExpr<Ir> = "v0".parse().unwrap();
    let d = to_function(&wrong, &tr.egraph.analysis, &f).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Internal);
    assert!(d.message.contains("does not re-check"), "{}", d.message);
    let escaping: RecExpr<Ir> = "(+ (sum v0) (real i0))".parse().unwrap();
    let d = to_function(&escaping, &tr.egraph.analysis, &f).unwrap_err();
    assert!(d.message.contains("outside their binders"), "{}", d.message);
}

#[test]
fn extraction_in_a_scope_for_substitution() {
    let (_, mut tr) =
        setup("def main(x: R[3]) -> R[3] = build 3 (i => x[i] * 2.0 + 0.0 * real(i))");
    let root = tr.egraph.find(tr.root);
    let body = tr.egraph[root]
        .nodes
        .iter()
        .find_map(|n| match n {
            Ir::Build([_, _, b]) => Some(*b),
            _ => None,
        })
        .unwrap();
    let i = IVarId(0);
    let e = extract_in_scope(&tr.egraph, body, &[i]).unwrap();
    assert_eq!(e.to_string(), "(+ (* (index v0 i0) r2) (* r0 (real i0)))");
    assert!(
        extract_in_scope(&tr.egraph, body, &[]).is_err(),
        "the body needs i0"
    );
    // During an apply phase the e-graph is not rebuilt: extraction still works.
    let other = add(&mut tr.egraph, "(* r2 (index v0 i0))");
    let prod = add(&mut tr.egraph, "(* (index v0 i0) r2)");
    tr.egraph.union(other, prod);
    assert!(!tr.egraph.clean);
    let e = extract_in_scope(&tr.egraph, body, &[i]).unwrap();
    assert!(e.to_string().contains("index v0 i0"), "{e}");
}
