//! The lowering kit's substitution (`adora_rewrites::kit::subst`): capture avoidance,
//! shadowing, simultaneity, and binders claimed from a supply. Random programs are
//! covered by the `kit/*` properties of `adora-proptests`.

use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Name, Op, Pat};
use adora_core::diag::Span;
use adora_core::visit::{all_binders, free_vars, NameSupply};
use adora_rewrites::kit::subst::{subst, subst_claiming};
use std::collections::BTreeSet;

fn ex(k: ExprKind) -> Expr {
    Expr::new(k, Span::DUMMY)
}
fn var(n: &str) -> Expr {
    ex(ExprKind::Var(n.into()))
}
fn int(k: i64) -> Expr {
    ex(ExprKind::Lit(adora_core::ast::Lit::Int(k.into())))
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}
fn let_(x: &str, v: Expr, b: Expr) -> Expr {
    ex(ExprKind::Let(Pat::Var(x.into()), Box::new(v), Box::new(b)))
}
fn set(xs: &[&str]) -> BTreeSet<String> {
    xs.iter().map(|s| s.to_string()).collect()
}
fn one(x: &str, r: Expr) -> Vec<(Name, Expr)> {
    vec![(x.into(), r)]
}
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
fn substitution_avoids_capture() {
    // (let y = x + 1 in x * y)[x := y]  ==  let y_1 = y + 1 in y * y_1
    let e = let_(
        "y",
        bin(BinOp::Add, var("x"), int(1)),
        bin(BinOp::Mul, var("x"), var("y")),
    );
    let s = subst(&e, &one("x", var("y")));
    let want = let_(
        "y_1",
        bin(BinOp::Add, var("y"), int(1)),
        bin(BinOp::Mul, var("y"), var("y_1")),
    );
    assert_eq!(s, want);
    // A binder of the substituted name shadows it.
    let e = let_("x", int(2), var("x"));
    assert_eq!(subst(&e, &one("x", int(9))), e);
    // Lambda parameters are binders too.
    let r = subst(&reduce_with_lambda(), &one("c", var("a")));
    assert_eq!(free_vars(&r), set(&["a", "ne", "xs"]));
    let ne = subst(&reduce_with_lambda(), &one("ne", int(0)));
    assert_eq!(free_vars(&ne), set(&["c", "xs"]));
}

#[test]
fn substitution_is_simultaneous() {
    // (x - y)[x := y, y := x] swaps; one substitution after the other would not.
    let e = bin(BinOp::Sub, var("x"), var("y"));
    let s = subst(&e, &[("x".into(), var("y")), ("y".into(), var("x"))]);
    assert_eq!(s, bin(BinOp::Sub, var("y"), var("x")));
}

#[test]
fn claiming_substitution_names_every_binder_from_the_supply() {
    // Two copies of one index map `i => [i + k]` with k := n, placed in one program.
    let map = ex(ExprKind::Gather(
        vec![2],
        Box::new(var("xs")),
        vec!["i".into()],
        vec![let_("j", bin(BinOp::Add, var("i"), var("k")), var("j"))],
    ));
    let mut supply = NameSupply::new();
    supply.reserve("xs");
    supply.reserve("n");
    let a = subst_claiming(&map, &one("k", var("n")), &mut supply);
    let b = subst_claiming(&map, &one("k", var("n")), &mut supply);
    let pair = ex(ExprKind::Tuple(vec![a.clone(), b.clone()]));
    let binders: Vec<String> = all_binders(&pair)
        .into_iter()
        .map(|(n, _)| n.clone())
        .collect();
    assert_eq!(binders, vec!["i", "j", "i_1", "j_1"]);
    assert_eq!(free_vars(&pair), set(&["n", "xs"]));
    assert_eq!(
        adora_core::pretty::expr(&b),
        "gather([2], xs, i_1 => [let j_1 = i_1 + n in\n  j_1])"
    );
    // A binder named like a free variable of a replacement is renamed, never captures.
    let e = let_("n", int(1), bin(BinOp::Add, var("k"), var("n")));
    let s = subst_claiming(&e, &one("k", var("n")), &mut supply);
    assert_eq!(
        s,
        let_("n_1", int(1), bin(BinOp::Add, var("n"), var("n_1")))
    );
}
