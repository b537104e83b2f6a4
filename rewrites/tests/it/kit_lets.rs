//! The lowering kit's DAG → `let`s pass (`adora_rewrites::kit::lets`): ascending ids,
//! scoping under the binders a shared node depends on, and meaning preserved. Random
//! programs are covered by the `kit/*` properties of `adora-proptests`.

use adora_core::ast::{BinOp, Expr, ExprKind, Function, Param};
use adora_core::diag::Span;
use adora_core::types::Type;
use adora_core::visit::NameSupply;
use adora_rewrites::kit::lets::{bind_shared, named, reference};
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use std::collections::BTreeMap;

fn parse(src: &str) -> Expr {
    adora_core::parser::parse_expr(src).expect("parses")
}

fn mul(a: Expr, b: Expr) -> Expr {
    Expr::new(
        ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b)),
        Span::DUMMY,
    )
}

#[test]
fn shared_nodes_bind_in_ascending_order_and_scope_under_binders() {
    // table: 1 = x + x; 2 = #1 * real(i) (mentions the build's binder); 3 = #1 * x
    let mut table = BTreeMap::new();
    table.insert(1, parse("x + x"));
    table.insert(2, mul(reference(1), parse("real(i)")));
    table.insert(3, mul(reference(1), parse("x")));
    let body = Expr::new(
        ExprKind::Binary(BinOp::Add, Box::new(reference(2)), Box::new(reference(3))),
        Span::DUMMY,
    );
    let root = Expr::new(
        ExprKind::Build(vec![3], vec!["i".into()], Box::new(body)),
        Span::DUMMY,
    );
    let mut names = NameSupply::new();
    for n in ["x", "i"] {
        names.reserve(n);
    }
    let out = bind_shared(&root, &named(table, &mut names, "ct"));
    let text = adora_core::pretty::expr(&out);
    assert_eq!(
        text,
        "let ct_1 = x + x in\nlet ct_3 = ct_1 * x in\nbuild 3 (i =>\n  let ct_2 = ct_1 * real(i) in\n  ct_2 + ct_3)",
        "{text}"
    );
    // and it means what the shared term means
    let f = Function {
        name: "main".into(),
        params: vec![Param {
            name: "x".into(),
            ty: Type::real(),
            span: Span::DUMMY,
        }],
        ret: Type::Array(adora_core::types::Base::R, vec![3]),
        body: out,
    };
    adora_core::check::check_function(&f).expect("checks");
    let (v, _) = eval(
        &f,
        &[Value::real(Rat::from_integer(2.into()))],
        &EvalOptions::default(),
    )
    .expect("evaluates");
    assert_eq!(adora_semantics::io::to_literal(&v), "[8, 12, 16]");
}

#[test]
fn a_node_depending_on_an_inner_binder_through_another_node_stays_inside_it() {
    // 1 = real(j) (inner binder j); 2 = #1 + x (no binder directly, but through #1);
    // 3 = x * x (no binder: bound outermost, outside both builds)
    let mut table = BTreeMap::new();
    table.insert(1, parse("real(j)"));
    table.insert(
        2,
        Expr::new(
            ExprKind::Binary(BinOp::Add, Box::new(reference(1)), Box::new(parse("x"))),
            Span::DUMMY,
        ),
    );
    table.insert(3, parse("x * x"));
    let inner = Expr::new(
        ExprKind::Build(
            vec![2],
            vec!["j".into()],
            Box::new(mul(reference(2), reference(3))),
        ),
        Span::DUMMY,
    );
    let root = Expr::new(
        ExprKind::Build(vec![2], vec!["i".into()], Box::new(inner)),
        Span::DUMMY,
    );
    let mut names = NameSupply::new();
    for n in ["x", "i", "j"] {
        names.reserve(n);
    }
    let out = bind_shared(&root, &named(table, &mut names, "t"));
    assert_eq!(
        adora_core::pretty::expr(&out),
        "let t_3 = x * x in\nbuild 2 (i =>\n  build 2 (j =>\n    let t_1 = real(j) in\n    let t_2 = t_1 + x in\n    t_2 * t_3))"
    );
}

#[test]
fn a_reference_missing_from_the_table_is_left_alone() {
    let root = mul(reference(7), parse("x"));
    let out = bind_shared(&root, &BTreeMap::new());
    assert_eq!(out, root);
}
