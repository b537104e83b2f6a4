//! The evaluator and the reference derivative at certified enclosures (`--numeric ball`,
//! docs/oracle.md, "Certified enclosures"): results contain the exact values, undecidable
//! comparisons are errors at their position, never guessed branches.

use adora_core::diag::ErrorKind;
use adora_semantics::eval::{eval, EvalOptions};
use adora_semantics::reference;
use adora_semantics::scalar::interval::PrecisionScope;
use adora_semantics::scalar::{Interval, Scalar};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use num_bigint::BigInt;

fn q(p: i64, d: i64) -> Rat {
    Rat::new(BigInt::from(p), BigInt::from(d))
}

fn x(p: i64, d: i64) -> Value<Interval> {
    Value::real(Interval::from_rational(&q(p, d)))
}

fn real(v: &Value<Interval>) -> Interval {
    v.real_scalars()[0].clone()
}

#[test]
fn identities_contain_the_exact_answer() {
    let src = "def main(x: R) -> R = exp(log(x)) - x + sin(x) * sin(x) + cos(x) * cos(x)";
    let f = adora_core::load(src, "main").unwrap();
    for p in [64, 128, 512] {
        let _s = PrecisionScope::new(p);
        let (v, _) = eval(&f, &[x(7, 3)], &EvalOptions::default()).unwrap();
        let y = real(&v);
        assert!(y.contains(&q(1, 1)), "{y:?} at {p} bits");
        assert!(y.width() < Rat::new(BigInt::from(1), BigInt::from(1) << (p - 8)));
    }
}

#[test]
fn exact_programs_give_points_or_enclosures_of_the_exact_value() {
    let src = "def main(x: R) -> R = (x * x - 1/3) / (x + 1/7)";
    let f = adora_core::load(src, "main").unwrap();
    let exact = {
        let (v, _) = eval(&f, &[Value::real(q(5, 11))], &EvalOptions::default()).unwrap();
        v.real_scalars()[0].clone()
    };
    let (v, _) = eval(&f, &[x(5, 11)], &EvalOptions::default()).unwrap();
    assert!(real(&v).contains(&exact));
}

#[test]
fn an_undecidable_branch_is_an_error_at_the_comparison() {
    // sin(x)^2 + cos(x)^2 is 1 exactly, but its enclosure is not the point 1.
    let src = "def main(x: R) -> R =\n  if sin(x) * sin(x) + cos(x) * cos(x) < 1.0 then 0.0 else x";
    let f = adora_core::load(src, "main").unwrap();
    let d = eval(&f, &[x(1, 2)], &EvalOptions::default()).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Runtime);
    assert!(d.message.contains("undecidable"), "{}", d.message);
    let at = &src[d.span.start..d.span.end];
    assert!(at.starts_with("sin(x)") && at.ends_with("1.0"), "{at}");
    // A decided branch runs.
    let src = "def main(x: R) -> R = if exp(x) < 2.0 then x else 0.0";
    let f = adora_core::load(src, "main").unwrap();
    assert!(eval(&f, &[x(1, 2)], &EvalOptions::default()).is_ok());
    assert!(Interval::take_undecided().is_none());
}

#[test]
fn log_outside_its_domain_is_a_runtime_error() {
    let f = adora_core::load("def main(x: R) -> R = log(x - 1.0)", "main").unwrap();
    let d = eval(&f, &[x(1, 2)], &EvalOptions::default()).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Runtime);
    assert!(d.message.contains("no real value"), "{}", d.message);
}

#[test]
fn reference_gradient_encloses_the_derivative() {
    // d/dx tanh(x) = 1 - tanh(x)^2; at x = 0 it is 1, at x = 1/2 inside [0.7864, 0.7865].
    let f = adora_core::load("def main(x: R) -> R = tanh(x) * exp(0.0 * x)", "main").unwrap();
    let g = reference::gradient(&f, &[x(0, 1)], &EvalOptions::default()).unwrap();
    let dx = real(g.grads[0].as_ref().unwrap());
    assert!(dx.contains(&q(1, 1)), "{dx:?}");
    let g = reference::gradient(&f, &[x(1, 2)], &EvalOptions::default()).unwrap();
    let dx = real(g.grads[0].as_ref().unwrap());
    assert!(
        q(7864, 10000) < dx.lo() && dx.hi() < q(7865, 10000),
        "{dx:?}"
    );
}

#[test]
fn abs_at_a_straddling_argument_has_an_undecidable_derivative() {
    let f = adora_core::load("def main(x: R) -> R = abs(sin(x) - sin(x))", "main").unwrap();
    // The value is fine: |x| is continuous.
    assert!(eval(&f, &[x(1, 3)], &EvalOptions::default()).is_ok());
    let d = reference::gradient(&f, &[x(1, 3)], &EvalOptions::default()).unwrap_err();
    assert_eq!(d.kind, ErrorKind::Runtime);
}
