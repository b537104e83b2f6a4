//! The symbolic pipeline: Fig. 18 end to end (through bot), `share` to `let` with
//! ascending ids and scoping under binders, scatter fusion, the wrapper's signature and
//! names, and the printed Delta.

use crate::dual_support;

use adora_core::ast::{Expr, ExprKind, Function, Param};
use adora_core::diag::Span;
use adora_core::types::Type;
use adora_core::visit::NameSupply;
use adora_rewrites::dual::symbolic::check::{check_form, instantiate};
use adora_rewrites::dual::symbolic::target::share_ref;
use adora_rewrites::dual::symbolic::unshare::unshare;
use adora_rewrites::dual::{self, eval_gradient_program, Dual};
use adora_rewrites::engine::Derivatives;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use dual_support::{agree, lit, load, random_inputs};
use std::collections::BTreeMap;

fn one() -> Value<Rat> {
    Value::real(Rat::from_integer(1.into()))
}

#[test]
fn fig18_end_to_end_through_bot() {
    // the paper's source term, with build; bot turns the indexings into gathers
    let f = load("def main(x: R[5]) -> R = sum_outer(build 5 (i => x[i] * x[4 - i]))");
    let x = lit(&f, 0, "[1, 2, 3, 4, 5]");
    let g = <Dual as Derivatives<Rat>>::gradient(
        &Dual,
        &f,
        std::slice::from_ref(&x),
        &EvalOptions::default(),
    )
    .expect("dual gradient");
    assert_eq!(g.value, Value::real(Rat::from_integer(35.into())));
    assert_eq!(g.grads[0], Some(lit(&f, 0, "[10, 8, 6, 4, 2]")));
    let text = dual::delta_text(&f).expect("delta text");
    assert!(text.contains("Gather(Input x"), "{text}");
    let gp = dual::gradient_program(&f).expect("gradient program");
    let grad = adora_core::pretty::function(&gp.function);
    assert!(grad.contains("scatter("), "{grad}");
    assert!(!grad.contains("build"), "{grad}");
}

fn parse(src: &str) -> Expr {
    adora_core::parser::parse_expr(src).expect("parses")
}

#[test]
fn share_to_let_binds_in_ascending_order_and_scopes_under_binders() {
    // table: 1 = x + x; 2 = #1 * real(i) (mentions the build's binder); 3 = #1 * x
    let mut table = BTreeMap::new();
    table.insert(1, parse("x + x"));
    let two = Expr::new(
        ExprKind::Binary(
            adora_core::ast::BinOp::Mul,
            Box::new(share_ref(1)),
            Box::new(parse("real(i)")),
        ),
        Span::DUMMY,
    );
    table.insert(2, two);
    table.insert(
        3,
        Expr::new(
            ExprKind::Binary(
                adora_core::ast::BinOp::Mul,
                Box::new(share_ref(1)),
                Box::new(parse("x")),
            ),
            Span::DUMMY,
        ),
    );
    let body = Expr::new(
        ExprKind::Binary(
            adora_core::ast::BinOp::Add,
            Box::new(share_ref(2)),
            Box::new(share_ref(3)),
        ),
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
    let out = unshare(&root, &table, &mut names, "ct");
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
fn scatters_of_both_signs_and_prefixes_fuse_exactly() {
    let src = "def main(x: R[4, 3]) -> R =
      x[0, 0] - x[1, 2] + sum(x[2]) - sum(gather([2], x, i => [i + 1, 2])) + x[3, 1] * x[0, 2] - sum(x[1]) * x[2, 2]";
    let f = load(src);
    for seed in 0..4 {
        agree(&f, &random_inputs(&f, seed), &one());
    }
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    let scatters = adora_core::visit::subexprs(&gp.function.body)
        .iter()
        .filter(|e| matches!(e.kind, ExprKind::Scatter(..)))
        .count();
    assert_eq!(
        scatters,
        1,
        "{}",
        adora_core::pretty::function(&gp.function)
    );
}

#[test]
fn the_wrapper_signature_names_and_shapes() {
    // a parameter called `dret` and a binder called `t_1`: no clash
    let f =
        load("def main(dret: R[2], t_1: R) -> R = let ct_1 = dret * dret in sum(ct_1) * t_1 / t_1");
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    assert_eq!(gp.dret, "dret_1");
    assert_eq!(
        gp.function.params.last().map(|p| p.name.as_str()),
        Some("dret_1")
    );
    assert_eq!(gp.real_params, vec![0, 1]);
    for seed in 0..3 {
        agree(&f, &random_inputs(&f, seed), &one());
    }
    // tuple parameter and tuple result
    let f = load(
        "def main(x: R[2], p: (R, Z)) -> (R, R[2]) = (p.0 * sum(x), x * replicate(2, real(p.1)))",
    );
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    assert_eq!(gp.function.ret.to_string(), "((R, R[2]), R[2], (R, Z))");
    assert_eq!(gp.function.params[2].ty, f.ret);
    // no real parameter: the value alone
    let f = load("def main(k: Z) -> R = real(k) * 2.0");
    let gp = dual::symbolic::wrapper::gradient_program(&f).expect("gradient program");
    assert!(gp.real_params.is_empty());
    assert_eq!(gp.function.ret, Type::real());
    let k = lit(&f, 0, "3");
    let got = eval_gradient_program(
        &gp,
        std::slice::from_ref(&k),
        &one(),
        &EvalOptions::default(),
    )
    .expect("evaluates");
    let want = reference::gradient(&f, &[k], &EvalOptions::default()).expect("reference");
    assert_eq!(got, want);
}

#[test]
fn the_separated_form_holds_and_instantiates() {
    for src in [
        "def main(x: R[5]) -> R = sum_outer(gather([5], x, i => [i]) * gather([5], x, j => [4 - j]))",
        "def main(x: R[3], y: R[3]) -> (R, R[3]) = let z = x / y in (sum(z * x), max(z, y))",
        "def main(p: (R, R[2]), k: Z) -> R = p.1[k] * p.0 + sum(select(p.1 > replicate(2, 0.0), p.1, -p.1))",
    ] {
        let f = load(src);
        let report = check_form(&f).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(report.delta_nodes > 0);
        let xs = random_inputs(&f, 5);
        let (value, deltas) = instantiate(&f, &xs, &EvalOptions::default()).expect("instantiates");
        let (want, _) = eval(&f, &xs, &EvalOptions::default()).expect("evaluates");
        assert_eq!(value, want, "{src}");
        assert!(!deltas.is_empty());
    }
}

#[test]
fn the_delta_printer_lists_shares_before_the_root() {
    let f = load("def main(x: R[3]) -> R = let y = x * x + x in sum(y * y)");
    let text = dual::delta_text(&f).expect("delta text");
    let share = text.find("#1 : R[3] =").expect("a share definition");
    let root = text.find("result : R =").expect("the root");
    assert!(share < root, "{text}");
    assert!(text.starts_with("-- primal ("), "{text}");
}
