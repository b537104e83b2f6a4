//! Inputs the `dual` engines decline or reject: constructs outside the fragment (with
//! the construct's name and position), non-rational operations in exact mode, strict
//! division, bad inputs and cotangents; and `f64` gradients of the transcendental
//! functions (within a stated tolerance).

use crate::dual_support;

use adora_core::diag::ErrorKind;
use adora_rewrites::dual::symbolic::wrapper::gradient_program;
use adora_rewrites::dual::{eval_gradient_program, runtime_vjp_normal, Dual, DualScalar};
use adora_rewrites::engine::{Derivatives, Engine};
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;
use dual_support::{lit, load, random_inputs};

fn one() -> Value<Rat> {
    Value::real(Rat::from_integer(1.into()))
}

#[test]
fn seed_004_constructs_are_declined_with_their_position() {
    let src =
        "def main(x: R[3]) -> R =\n  let y = x * x in\n  reduce(+, 0.0, map(a => a * 2.0, y))";
    let f = load(src);
    let xs = random_inputs(&f, 0);
    let e =
        <Dual as Derivatives<Rat>>::gradient(&Dual, &f, &xs, &EvalOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.message.contains("`reduce`") && e.message.contains("seed-004"),
        "{}",
        e.message
    );
    assert_eq!(e.position(src), (3, 3));
    for (src, what) in [
        ("def main(x: R) -> R = if x > 0.0 then x else -x", "`if`"),
        (
            "def main(x: R) -> R = loop (a = x) for i < 3 do a * x",
            "`loop`",
        ),
    ] {
        let f = load(src);
        let e = <Dual as Derivatives<Rat>>::gradient(
            &Dual,
            &f,
            &random_inputs(&f, 0),
            &EvalOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "{src}");
        assert!(e.message.contains(what), "{}", e.message);
    }
    // dual-scalar runs the evaluator: it accepts the whole language
    let got = <DualScalar as Derivatives<Rat>>::gradient(
        &DualScalar,
        &f,
        &random_inputs(&f, 1),
        &EvalOptions::default(),
    );
    assert!(got.is_ok());
    assert_eq!(Dual.name(), "dual");
    assert_eq!(DualScalar.name(), "dual-scalar");
}

#[test]
fn the_transformation_itself_needs_a_build_free_program() {
    let src = "def main(x: R[3]) -> R = sum(build 3 (i => x[i] * x[i]))";
    let f = load(src);
    let e =
        runtime_vjp_normal(&f, &random_inputs(&f, 0), &one(), &EvalOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("`build`"), "{}", e.message);
    assert_eq!(e.position(src), (1, 30));
    let e = gradient_program(&f).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
}

#[test]
fn exact_mode_rejects_transcendentals_and_strict_mode_division() {
    let f = load("def main(x: R[2]) -> R = sum(exp(x))");
    let xs = random_inputs(&f, 0);
    let opts = EvalOptions::default();
    let e = runtime_vjp_normal(&f, &xs, &one(), &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NonRational);
    let e = <Dual as Derivatives<Rat>>::gradient(&Dual, &f, &xs, &opts).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NonRational);
    let f = load("def main(x: R, y: R) -> R = x / y");
    let xs = vec![lit(&f, 0, "1"), lit(&f, 1, "0")];
    let strict = EvalOptions {
        strict: true,
        ..EvalOptions::default()
    };
    assert_eq!(
        runtime_vjp_normal(&f, &xs, &one(), &strict)
            .unwrap_err()
            .kind,
        ErrorKind::Runtime
    );
    // non-strict: x / 0 = 0 with a zero derivative, as the reference
    let (g, _) = runtime_vjp_normal(&f, &xs, &one(), &opts).expect("total division");
    assert_eq!(g, reference::gradient(&f, &xs, &opts).expect("reference"));
}

#[test]
fn bad_inputs_and_cotangents_are_input_errors() {
    let f = load("def main(x: R[2]) -> R[2] = x * x");
    let opts = EvalOptions::default();
    let xs = vec![lit(&f, 0, "[1, 2]")];
    let bad = Value::real(Rat::from_integer(1.into()));
    assert_eq!(
        runtime_vjp_normal(&f, &xs, &bad, &opts).unwrap_err().kind,
        ErrorKind::Input
    );
    assert_eq!(
        <Dual as Derivatives<Rat>>::vjp(&Dual, &f, &xs, &bad, &opts)
            .unwrap_err()
            .kind,
        ErrorKind::Input
    );
    assert_eq!(
        <Dual as Derivatives<Rat>>::gradient(&Dual, &f, &xs, &opts)
            .unwrap_err()
            .kind,
        ErrorKind::Type
    );
    assert_eq!(
        <Dual as Derivatives<Rat>>::vjp(&Dual, &f, std::slice::from_ref(&bad), &xs[0], &opts)
            .unwrap_err()
            .kind,
        ErrorKind::Input
    );
    assert_eq!(
        <DualScalar as Derivatives<Rat>>::vjp(&DualScalar, &f, &xs, &bad, &opts)
            .unwrap_err()
            .kind,
        ErrorKind::Input
    );
}

#[test]
fn f64_transcendental_gradients_agree_with_the_reference() {
    // Tolerance: relative 1e-12 (the engines evaluate the same derivative formulas in
    // another order).
    let f = load(
        "def main(x: R[3]) -> R = sum(exp(x) * sin(x) + cos(x * x) - tanh(x) / (2.0 + log(x * x + 1.0)) + sqrt(x * x + 1.0))",
    );
    let xs = vec![Value::real_vector(vec![0.3, -1.2, 2.0])];
    let opts = EvalOptions::default();
    let want = reference::gradient(&f, &xs, &opts).expect("reference");
    let gp = gradient_program(&f).expect("gradient program");
    let sym = eval_gradient_program(&gp, &xs, &Value::real(1.0), &opts).expect("symbolic");
    let (rt, _) = runtime_vjp_normal(&f, &xs, &Value::real(1.0), &opts).expect("runtime");
    let sc = <DualScalar as Derivatives<f64>>::gradient(&DualScalar, &f, &xs, &opts)
        .expect("dual-scalar");
    for got in [&sym, &rt, &sc] {
        let (a, b) = (
            got.grads[0].as_ref().expect("grad"),
            want.grads[0].as_ref().expect("grad"),
        );
        for (p, q) in a.real_scalars().into_iter().zip(b.real_scalars()) {
            assert!((p - q).abs() <= 1e-12 * q.abs().max(1.0), "{p} vs {q}");
        }
    }
}
