//! Scalar constructs of the evaluator on hand-built elaborated ASTs: literals, arithmetic,
//! division conventions, integer overflow, comparisons, let/tuples/if/select, primitives.
use crate::common;
use adora_core::ast::*;
use adora_core::diag::ErrorKind;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;

fn err(f: &Function, inputs: &[Value<Rat>], opts: &EvalOptions) -> adora_core::Diagnostic {
    eval(f, inputs, opts).expect_err("expected an error")
}

#[test]
fn exact_real_arithmetic() {
    // (1/3 + 1/6) * 3 - 1/2 = 1
    let e = sub(mul(add(rl(1, 3), rl(1, 6)), rn(3)), rl(1, 2));
    assert_eq!(run_expr(e, tr()), sr(ri(1)));
    assert_eq!(run_expr(div(rn(1), rn(3)), tr()), sr(rat(1, 3)));
    assert_eq!(run_expr(neg(rl(2, 7)), tr()), sr(rat(-2, 7)));
}

#[test]
fn real_division_by_zero_is_total_and_counted() {
    let f = func(&[("x", tr())], tr(), div(var("x"), rn(0)));
    let (v, st) = run_stats(&f, &[sr(ri(5))]);
    assert_eq!(v, sr(ri(0)));
    assert_eq!(st.div_by_zero, 1);
    let strict = EvalOptions {
        strict: true,
        ..EvalOptions::default()
    };
    let f = func(
        &[("x", tr())],
        tr(),
        at(ExprKind::Binary(BinOp::Div, b(var("x")), b(rn(0))), 7),
    );
    let d = err(&f, &[sr(ri(5))], &strict);
    assert_eq!(d.kind, ErrorKind::Runtime);
    assert_eq!(d.message, "division by zero");
    assert_eq!(d.span.start, 7);
    // f64 is IEEE (5 / 0 = +inf), and the event is counted all the same.
    let (v, st) = eval(&f, &[Value::real(5.0f64)], &EvalOptions::default()).unwrap();
    assert_eq!(v, Value::real(f64::INFINITY));
    assert_eq!(st.div_by_zero, 1);
}

#[test]
fn integer_floor_division_and_remainder() {
    let cases = [
        (7, 2, 3, 1),
        (-7, 2, -4, 1),
        (7, -2, -4, -1),
        (-7, -2, 3, -1),
        (6, 3, 2, 0),
        (0, 5, 0, 0),
    ];
    for (x, y, q, r) in cases {
        assert_eq!(
            run_expr(bin(BinOp::Div, zn(x), zn(y)), tz()),
            Value::int(q),
            "{x} / {y}"
        );
        assert_eq!(
            run_expr(bin(BinOp::Mod, zn(x), zn(y)), tz()),
            Value::int(r),
            "{x} % {y}"
        );
    }
    // x / 0 = 0, x % 0 = x, both counted.
    let f = func(
        &[],
        tz(),
        add(
            bin(BinOp::Div, zn(7), zn(0)),
            bin(BinOp::Mod, zn(-7), zn(0)),
        ),
    );
    let (v, st) = run_stats(&f, &[]);
    assert_eq!(v, Value::int(-7));
    assert_eq!(st.div_by_zero, 2);
    assert_eq!(
        run_expr(bin(BinOp::Mod, zn(i64::MIN), zn(-1)), tz()),
        Value::int(0)
    );
}

#[test]
fn integer_overflow_is_a_runtime_error() {
    let opts = EvalOptions::default();
    for e in [
        add(zn(i64::MAX), zn(1)),
        mul(zn(i64::MAX / 2 + 1), zn(2)),
        sub(zn(i64::MIN), zn(1)),
        neg(zn(i64::MIN)),
        bin(BinOp::Div, zn(i64::MIN), zn(-1)),
        prim(Prim::Abs, vec![zn(i64::MIN)]),
        prim(Prim::Pow(64), vec![zn(2)]),
    ] {
        let d = err(&func(&[], tz(), e), &[], &opts);
        assert_eq!(
            (d.kind, d.message.as_str()),
            (ErrorKind::Runtime, "integer overflow")
        );
    }
    let e = prim(Prim::Floor, vec![rn(1).clone()]);
    assert_eq!(run_expr(e, tz()), Value::int(1));
    let huge = ex(ExprKind::Lit(Lit::Real(Rat::from_integer(
        num_bigint::BigInt::from(1u8) << 70,
    ))));
    let d = err(&func(&[], tz(), prim(Prim::Floor, vec![huge])), &[], &opts);
    assert_eq!(d.kind, ErrorKind::Runtime);
}

#[test]
fn comparisons_and_booleans() {
    let cmp = |op, a, c| run_expr(bin(op, rl(a, 2), rl(c, 2)), tb());
    assert_eq!(cmp(BinOp::Lt, 1, 2), Value::bool(true));
    assert_eq!(cmp(BinOp::Lt, 2, 2), Value::bool(false));
    assert_eq!(cmp(BinOp::Le, 2, 2), Value::bool(true));
    assert_eq!(cmp(BinOp::Gt, 3, 2), Value::bool(true));
    assert_eq!(cmp(BinOp::Ge, 1, 2), Value::bool(false));
    assert_eq!(cmp(BinOp::Eq, 2, 2), Value::bool(true));
    assert_eq!(cmp(BinOp::Ne, 2, 2), Value::bool(false));
    assert_eq!(
        run_expr(bin(BinOp::Lt, zn(-3), zn(2)), tb()),
        Value::bool(true)
    );
    assert_eq!(
        run_expr(bin(BinOp::And, bl(true), bl(false)), tb()),
        Value::bool(false)
    );
    assert_eq!(
        run_expr(bin(BinOp::Or, bl(true), bl(false)), tb()),
        Value::bool(true)
    );
    assert_eq!(
        run_expr(bin(BinOp::Eq, bl(false), bl(false)), tb()),
        Value::bool(true)
    );
    assert_eq!(
        run_expr(ex(ExprKind::Unary(UnOp::Not, b(bl(false)))), tb()),
        Value::bool(true)
    );
    // elementwise on arrays
    let f = func(
        &[("x", tra(&[3])), ("y", tra(&[3]))],
        ta(adora_core::Base::B, &[3]),
        bin(BinOp::Le, var("x"), var("y")),
    );
    let v = run(&f, &[vr(&[1, 2, 3]), vr(&[2, 2, 2])]);
    assert_eq!(v, Value::bools(vec![3], vec![true, true, false]).unwrap());
}

#[test]
fn let_tuples_projection_and_if() {
    // let (a, c) = (1, 2/3) in let t = (c, a) in t.0 + t.1 * 10
    let e = let_tuple(
        &["a", "c"],
        tuple(vec![rn(1), rl(2, 3)]),
        let_(
            "t",
            tuple(vec![var("c"), var("a")]),
            add(
                ex(ExprKind::Proj(b(var("t")), 0)),
                mul(ex(ExprKind::Proj(b(var("t")), 1)), rn(10)),
            ),
        ),
    );
    assert_eq!(run_expr(e, tr()), sr(rat(32, 3)));
    // if is lazy: the untaken branch would divide by zero under strict
    let strict = EvalOptions {
        strict: true,
        ..EvalOptions::default()
    };
    let e = ex(ExprKind::If(b(bl(true)), b(rn(1)), b(div(rn(1), rn(0)))));
    let (v, st) = eval(&func(&[], tr(), e), &[], &strict).unwrap();
    assert_eq!((v, st.div_by_zero), (sr(ri(1)), 0));
    // tuple results and tuple inputs
    let f = func(
        &[("p", adora_core::Type::Tuple(vec![tr(), tz()]))],
        adora_core::Type::Tuple(vec![tz(), tr()]),
        let_tuple(&["a", "n"], var("p"), tuple(vec![var("n"), var("a")])),
    );
    let v = run(&f, &[Value::Tuple(vec![sr(rat(1, 2)), Value::int(4)])]);
    assert_eq!(v, Value::Tuple(vec![Value::int(4), sr(rat(1, 2))]));
}

#[test]
fn select_is_strict_and_elementwise_or_whole() {
    let strict = EvalOptions {
        strict: true,
        ..EvalOptions::default()
    };
    let e = prim(Prim::Select, vec![bl(true), rn(1), div(rn(1), rn(0))]);
    assert_eq!(
        err(&func(&[], tr(), e.clone()), &[], &strict).kind,
        ErrorKind::Runtime
    );
    let (v, st) = run_stats(&func(&[], tr(), e), &[]);
    assert_eq!((v, st.div_by_zero), (sr(ri(1)), 1));
    // elementwise
    let c = arr(vec![bl(true), bl(false), bl(true)]);
    let e = prim(
        Prim::Select,
        vec![
            c,
            arr(vec![rn(1), rn(2), rn(3)]),
            arr(vec![rn(4), rn(5), rn(6)]),
        ],
    );
    assert_eq!(run_expr(e, tra(&[3])), vr(&[1, 5, 3]));
    // whole-array with a scalar condition
    let e = prim(
        Prim::Select,
        vec![bl(false), arr(vec![rn(1), rn(2)]), arr(vec![rn(4), rn(5)])],
    );
    assert_eq!(run_expr(e, tra(&[2])), vr(&[4, 5]));
}

#[test]
fn min_max_ties_and_values() {
    assert_eq!(
        run_expr(prim(Prim::Max, vec![rn(1), rn(2)]), tr()),
        sr(ri(2))
    );
    assert_eq!(
        run_expr(prim(Prim::Min, vec![rn(1), rn(2)]), tr()),
        sr(ri(1))
    );
    assert_eq!(
        run_expr(prim(Prim::Max, vec![zn(-1), zn(-2)]), tz()),
        Value::int(-1)
    );
    // ties: the tie rule is only observable through derivatives (see the dual tests)
    assert_eq!(
        run_expr(prim(Prim::Min, vec![rn(3), rn(3)]), tr()),
        sr(ri(3))
    );
}

#[test]
fn pow_floor_real_abs() {
    let p = |k: i64, x: Expr| run_expr(prim(Prim::Pow(k), vec![x]), tr());
    assert_eq!(p(3, rl(1, 2)), sr(rat(1, 8)));
    assert_eq!(p(0, rn(0)), sr(ri(1)));
    assert_eq!(p(-2, rn(3)), sr(rat(1, 9)));
    assert_eq!(p(1, rl(-5, 7)), sr(rat(-5, 7)));
    let (v, st) = run_stats(&func(&[], tr(), prim(Prim::Pow(-1), vec![rn(0)])), &[]);
    assert_eq!((v, st.div_by_zero), (sr(ri(0)), 1));
    assert_eq!(
        run_expr(prim(Prim::Pow(3), vec![zn(-2)]), tz()),
        Value::int(-8)
    );
    assert_eq!(
        run_expr(prim(Prim::Floor, vec![rl(-1, 2)]), tz()),
        Value::int(-1)
    );
    assert_eq!(
        run_expr(prim(Prim::Floor, vec![rl(7, 2)]), tz()),
        Value::int(3)
    );
    assert_eq!(
        run_expr(prim(Prim::Floor, vec![rn(-3)]), tz()),
        Value::int(-3)
    );
    assert_eq!(run_expr(prim(Prim::Real, vec![zn(-3)]), tr()), sr(ri(-3)));
    assert_eq!(
        run_expr(prim(Prim::Abs, vec![rl(-3, 4)]), tr()),
        sr(rat(3, 4))
    );
    assert_eq!(run_expr(prim(Prim::Abs, vec![zn(-3)]), tz()), Value::int(3));
}

#[test]
fn transcendentals_are_rejected_exactly_and_evaluated_in_f64() {
    let names = [
        (Prim::Exp, "exp", 1f64.exp()),
        (Prim::Log, "log", 0.0),
        (Prim::Sin, "sin", 1f64.sin()),
        (Prim::Cos, "cos", 1f64.cos()),
        (Prim::Tanh, "tanh", 1f64.tanh()),
        (Prim::Sqrt, "sqrt", 1.0),
    ];
    for (p, name, want) in names {
        let f = func(
            &[("x", tr())],
            tr(),
            at(ExprKind::Prim(p, vec![var("x")]), 11),
        );
        let d = eval(&f, &[sr(ri(1))], &EvalOptions::default()).unwrap_err();
        assert_eq!(d.kind, ErrorKind::NonRational);
        assert_eq!(
            d.message,
            format!("`{name}` is not a rational operation; use --numeric f64")
        );
        assert_eq!(d.span.start, 11);
        let (v, _) = eval(&f, &[Value::real(1.0f64)], &EvalOptions::default()).unwrap();
        assert_eq!(v, Value::real(want), "{name}");
    }
}

#[test]
fn ill_typed_programs_give_errors_not_panics() {
    let opts = EvalOptions::default();
    let cases = vec![
        (add(rn(1), zn(1)), tr()),
        (add(arr(vec![rn(1), rn(2)]), rn(1)), tra(&[2])),
        (var("nope"), tr()),
        (ex(ExprKind::Proj(b(rn(1)), 0)), tr()),
        (ex(ExprKind::If(b(rn(1)), b(rn(1)), b(rn(2)))), tr()),
        (index(rn(1), vec![zn(0)]), tr()),
        (ex(ExprKind::Call("f".into(), vec![])), tr()),
        (
            prim(
                Prim::Transpose(vec![0, 0]),
                vec![arr(vec![arr(vec![rn(1)])])],
            ),
            tra(&[1, 1]),
        ),
        (
            prim(Prim::Reshape(vec![3]), vec![arr(vec![rn(1), rn(2)])]),
            tra(&[3]),
        ),
        (rn(1), tz()),
    ];
    for (e, t) in cases {
        assert!(eval::<Rat>(&func(&[], t, e), &[], &opts).is_err());
    }
}
