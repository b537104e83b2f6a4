//! The `visit` helpers: children, free variables, sizes, substitution, renaming.

use super::support::*;
use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Op, Pat};
use adora_core::visit::{
    all_binders, base_name, children, children_mut, depth, free_vars, node_count, rename_unique,
    NameSupply,
};
use std::collections::BTreeSet;

fn set(xs: &[&str]) -> BTreeSet<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// `reduce((a, b) => a + b + c, ne, xs)`.
fn reduce_with_lambda() -> Expr {
    let body = bin(BinOp::Add, bin(BinOp::Add, var("a"), var("b")), var("c"));
    let op = Op::Lambda(Lambda {
        params: vec!["a".into(), "b".into()],
        body: Box::new(body),
    });
    ex(ExprKind::Reduce(
        op,
        Box::new(var("ne")),
        Box::new(var("xs")),
    ))
}

#[test]
fn children_include_lambda_bodies_and_index_maps() {
    let r = reduce_with_lambda();
    assert_eq!(children(&r).len(), 3);
    let g = ex(ExprKind::Gather(
        vec![2],
        Box::new(var("x")),
        vec!["i".into()],
        vec![var("i"), var("k")],
    ));
    assert_eq!(children(&g), vec![&var("x"), &var("i"), &var("k")]);
    assert_eq!(free_vars(&g), set(&["x", "k"]));
    let mut g2 = g.clone();
    for c in children_mut(&mut g2) {
        if c.kind == ExprKind::Var("k".into()) {
            *c = int(0);
        }
    }
    assert_eq!(free_vars(&g2), set(&["x"]));
    assert_eq!(free_vars(&r), set(&["c", "ne", "xs"]));
    let lp = ex(ExprKind::Loop {
        acc: Pat::Tuple(vec!["s".into(), "t".into()]),
        init: Box::new(var("s")),
        var: "i".into(),
        count: 3,
        body: Box::new(bin(BinOp::Add, var("t"), var("i"))),
    });
    assert_eq!(free_vars(&lp), set(&["s"]));
    let names: Vec<&String> = all_binders(&lp).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["s", "t", "i"]);
}

#[test]
fn sizes() {
    let e = let_("a", int(1), bin(BinOp::Add, var("a"), var("a")));
    assert_eq!(node_count(&e), 5);
    assert_eq!(depth(&e), 3);
    assert_eq!(depth(&var("x")), 1);
    assert_eq!(node_count(&reduce_with_lambda()), 8);
}

#[test]
fn unique_renaming() {
    let e = let_(
        "a",
        var("p"),
        let_(
            "a",
            var("a"),
            let_("p", var("a"), bin(BinOp::Add, var("a"), var("p"))),
        ),
    );
    let r = rename_unique(&["p".into()], &e);
    let want = let_(
        "a",
        var("p"),
        let_(
            "a_1",
            var("a"),
            let_("p_1", var("a_1"), bin(BinOp::Add, var("a_1"), var("p_1"))),
        ),
    );
    assert_eq!(r, want);
    // Free variables are never captured.
    let e = let_("q", int(1), bin(BinOp::Add, var("q"), var("q_1")));
    let r = rename_unique(&[], &let_("q", int(0), e));
    let names: Vec<&String> = all_binders(&r).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["q", "q_2"]);
    assert_eq!(free_vars(&r), set(&["q_1"]));
}

#[test]
fn name_supply() {
    assert_eq!(base_name("x_12"), "x");
    assert_eq!(base_name("x_"), "x_");
    assert_eq!(base_name("_3"), "_3");
    assert_eq!(base_name("x1"), "x1");
    let mut s = NameSupply::new();
    assert_eq!(s.claim("x"), "x");
    assert!(s.reserve("x_2"));
    assert_eq!(s.claim("x"), "x_1");
    assert_eq!(s.claim("x_1"), "x_3");
    assert_eq!(s.fresh("y"), "y_1");
}
