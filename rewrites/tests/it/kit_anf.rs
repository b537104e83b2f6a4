//! The lowering kit's typed ANF (`adora_rewrites::kit::anf`): the chain `normalize`
//! makes for a small program (names, types, order), its refusal of constructs with
//! bodies, `verify`'s check of stated types, and bot's refusal of an input that binds a
//! name twice (names are unique by construction, never repaired).

use adora_core::ast::{Expr, ExprKind, Pat};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_core::types::{Base, Type};
use adora_core::visit::NameSupply;
use adora_rewrites::kit::anf::{normalize, verify, wrap, TypedLet};

fn reject(e: &Expr) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, e.span, "not flat")
}

/// `name: type = value` per binding.
fn show(lets: &[TypedLet]) -> Vec<String> {
    lets.iter()
        .map(|l| {
            let p = match &l.pat {
                Pat::Var(x) => x.clone(),
                Pat::Tuple(xs) => format!("({})", xs.join(", ")),
            };
            format!("{p}: {} = {}", l.ty, adora_core::pretty::expr(&l.value))
        })
        .collect()
}

#[test]
fn normalize_binds_each_operation_once_with_the_checkers_type() {
    let f = adora_core::load(
        "def main(x: R[3], p: (R, Z)) -> R =\n  let y = x * x in\n  let (a, n) = p in\n  sum(y) + a * y[n]",
        "main",
    )
    .unwrap();
    let a = normalize(&f, NameSupply::new(), reject).unwrap();
    assert_eq!(
        show(&a.lets),
        [
            "mul_1: R[3] = x * x",
            "a: R = p.0",
            "n: Z = p.1",
            "sum_1: R = sum(mul_1)",
            "ix_1: R = mul_1[n]",
            "mul_2: R = a * ix_1",
            "add_1: R = sum_1 + mul_2",
        ]
    );
    assert_eq!(adora_core::pretty::expr(&a.result), "add_1");
    verify(&adora_core::check::param_env(&f), &a.lets).unwrap();
    let g = adora_core::ast::Function {
        body: wrap(&a.lets, a.result.clone()),
        ..f.clone()
    };
    adora_core::check::check_function(&g).unwrap();
}

#[test]
fn normalize_gives_constructs_with_bodies_the_callers_diagnostic() {
    let f = adora_core::load(
        "def main(x: R[3]) -> R = sum(build 3 (i => x[i] * 2.0))",
        "main",
    )
    .unwrap();
    let d = normalize(&f, NameSupply::new(), reject).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Unsupported);
    assert_eq!(d.message, "not flat");
}

#[test]
fn verify_refuses_a_stated_type_the_value_does_not_have() {
    let f = adora_core::load("def main(x: R[3]) -> R = sum(x)", "main").unwrap();
    let mut a = normalize(&f, NameSupply::new(), reject).unwrap();
    verify(&adora_core::check::param_env(&f), &a.lets).unwrap();
    a.lets[0].ty = Type::Array(Base::R, vec![3]);
    let d = verify(&adora_core::check::param_env(&f), &a.lets).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Internal);
    assert!(d.message.contains("states R[3]"), "{}", d.message);
}

#[test]
fn bot_refuses_an_input_that_binds_a_name_twice() {
    let f = adora_core::load(
        "def main(x: R[3]) -> R =\n  let y = build 3 (i => x[i] * 2.0) in\n  sum(y) + sum(y)",
        "main",
    )
    .unwrap();
    adora_rewrites::bot::prepare(&f).unwrap();
    // The same program with its `let` renamed to the build's binder `i`.
    let rename = |e: &Expr| -> Expr {
        let ExprKind::Let(Pat::Var(y), v, b) = &e.kind else {
            panic!("a let")
        };
        let body = adora_rewrites::kit::subst::subst(
            b,
            &[(y.clone(), Expr::new(ExprKind::Var("i".into()), Span::DUMMY))],
        );
        Expr::new(
            ExprKind::Let(Pat::Var("i".into()), v.clone(), Box::new(body)),
            e.span,
        )
    };
    let g = adora_core::ast::Function {
        body: rename(&f.body),
        ..f.clone()
    };
    let d = adora_rewrites::bot::transform(&g, &adora_rewrites::bot::engine_config()).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Internal, "{d}");
    assert!(d.message.contains("`i` is bound twice"), "{}", d.message);
}
