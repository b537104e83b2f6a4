//! Regression: in f64 mode the reference derivative forms every product of the chain rule
//! in IEEE (docs/language.md, "Semantic conventions"), so singularities give the `inf` and
//! `NaN` a dense JVP gives; exact mode keeps dropping zero tangent entries.
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::{gradient, jvp, vjp};
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// Value and derivative of a one-input program `def main(x: R) -> R = body` at `x`.
fn grad_f64(body: &str, x: f64) -> (f64, f64) {
    let f = adora_core::load(&format!("def main(x: R) -> R = {body}"), "main").unwrap();
    let g = gradient(&f, &[Value::real(x)], &EvalOptions::default()).unwrap();
    let value = *g.value.as_real().unwrap();
    let d = *g.grads[0].as_ref().unwrap().as_real().unwrap();
    (value, d)
}

#[test]
fn negative_power_at_zero_has_the_textbook_derivative() {
    // d pow(y, -2) = -2 · pow(y, -3) · dy = -2 · inf at y = 0 (was 0: zero entries dropped).
    assert_eq!(
        grad_f64("pow(x, -2)", 0.0),
        (f64::INFINITY, f64::NEG_INFINITY)
    );
    assert_eq!(
        grad_f64("pow(x, -2) + 1.0", 0.0),
        (f64::INFINITY, f64::NEG_INFINITY)
    );
    // Away from zero the rule is the ordinary one: -2 / 2^3.
    assert_eq!(grad_f64("pow(x, -2)", 2.0), (0.25, -0.25));
    assert_eq!(grad_f64("pow(x, 3)", -2.0), (-8.0, 12.0));
    // pow(x, -1) at 0: -1 · pow(0, -2) = -inf.
    assert_eq!(
        grad_f64("pow(x, -1)", 0.0),
        (f64::INFINITY, f64::NEG_INFINITY)
    );
}

#[test]
fn a_zero_factor_times_an_infinite_tangent_is_nan() {
    // (x / 0) * 0: tangent (1 / 0) * 0 = inf * 0 = NaN (was 0: the scale by 0 was skipped).
    let (v, d) = grad_f64("x / 0.0 * 0.0", 1.0);
    assert!(v.is_nan());
    assert!(d.is_nan());
    // x * sqrt(x) at 0: sqrt(0) · 1 + 0 · inf = NaN.
    let (v, d) = grad_f64("x * sqrt(x)", 0.0);
    assert_eq!(v, 0.0);
    assert!(d.is_nan());
    // abs'(0) = 0 is formed as 0 · sqrt'(0) = 0 · inf = NaN, as the engines' `sign(u) · du`.
    let (v, d) = grad_f64("abs(sqrt(x))", 0.0);
    assert_eq!(v, 0.0);
    assert!(d.is_nan());
}

#[test]
fn jvp_and_vjp_form_the_products_too() {
    let f = adora_core::load("def main(x: R) -> R = pow(x, -2)", "main").unwrap();
    let opts = EvalOptions::default();
    let (v, t) = jvp(&f, &[Value::real(0.0)], &[Some(Value::real(1.0))], &opts).unwrap();
    assert_eq!(v, Value::real(f64::INFINITY));
    assert_eq!(t, Value::real(f64::NEG_INFINITY));
    // A zero input tangent is seeded, so -inf · 0 = NaN as in a dense JVP.
    let (_, t) = jvp(&f, &[Value::real(0.0)], &[Some(Value::real(0.0))], &opts).unwrap();
    assert!(t.as_real().unwrap().is_nan());
    // A zero output cotangent is multiplied as well: 0 · -inf = NaN.
    let g = vjp(&f, &[Value::real(0.0)], &Value::real(0.0), &opts).unwrap();
    assert!(g.grads[0].as_ref().unwrap().as_real().unwrap().is_nan());
    // An input the result does not depend on gets an exact 0, never a product.
    let f = adora_core::load("def main(x: R, y: R) -> R = x * sqrt(y)", "main").unwrap();
    let g = gradient(&f, &[Value::real(2.0), Value::real(0.0)], &opts).unwrap();
    assert_eq!(g.grads[0], Some(Value::real(0.0)));
    assert_eq!(g.grads[1], Some(Value::real(f64::INFINITY)));
}

#[test]
fn exact_mode_is_unchanged() {
    let f = adora_core::load("def main(x: R) -> R = pow(x, -2) + x / 0.0 * 0.0", "main").unwrap();
    let zero = Rat::from_integer(0.into());
    let g = gradient(&f, &[Value::real(zero.clone())], &EvalOptions::default()).unwrap();
    assert_eq!(g.value, Value::real(zero.clone()));
    assert_eq!(g.grads[0], Some(Value::real(zero)));
}
