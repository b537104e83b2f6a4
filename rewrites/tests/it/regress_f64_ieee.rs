//! Regression: engine `dual-scalar` in f64 mode gives the reference's IEEE derivatives at
//! singularities (docs/language.md, "Semantic conventions": every product of the chain
//! rule is formed, `pow` uses `k · x^(k-1)`).
use adora_rewrites::engine::{find, harness};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;

/// Value and derivative by `engine` (f64 mode) of `def main(x: R) -> R = body` at `x`.
fn grad(engine: &str, body: &str, x: f64) -> (f64, f64) {
    let f = adora_core::load(&format!("def main(x: R) -> R = {body}"), "main").unwrap();
    let e = find(engine).unwrap();
    let g = harness::gradient(e.as_ref(), &f, &[Value::real(x)], &EvalOptions::default()).unwrap();
    let value = *g.value.as_real().unwrap();
    let d = *g.grads[0].as_ref().unwrap().as_real().unwrap();
    (value, d)
}

#[test]
fn dual_scalar_gives_the_ieee_derivatives() {
    for engine in ["dual-scalar", "reference"] {
        assert_eq!(
            grad(engine, "pow(x, -2)", 0.0),
            (f64::INFINITY, f64::NEG_INFINITY),
            "{engine}"
        );
        assert_eq!(
            grad(engine, "pow(x, -2) + 1.0", 0.0),
            (f64::INFINITY, f64::NEG_INFINITY),
            "{engine}"
        );
        let (v, d) = grad(engine, "x / 0.0 * 0.0", 1.0);
        assert!(v.is_nan() && d.is_nan(), "{engine}: {v} {d}");
        // dual-scalar gave 0 here: its Scale by the zero primal was dropped.
        let (v, d) = grad(engine, "x * sqrt(x)", 0.0);
        assert!(v == 0.0 && d.is_nan(), "{engine}: {v} {d}");
        let (v, d) = grad(engine, "abs(sqrt(x))", 0.0);
        assert!(v == 0.0 && d.is_nan(), "{engine}: {v} {d}");
        assert_eq!(grad(engine, "pow(x, -2)", 2.0), (0.25, -0.25), "{engine}");
    }
}

#[test]
fn dual_scalar_jvp_keeps_structural_zeros() {
    // y has no tangent: x * sqrt(y) at y = 0 has tangent sqrt(0) · 1 = 0, never x · inf · 0.
    let f = adora_core::load("def main(x: R, y: R) -> R = x * sqrt(y)", "main").unwrap();
    let e = find("dual-scalar").unwrap();
    let (_, t) = harness::jvp(
        e.as_ref(),
        &f,
        &[Value::real(2.0), Value::real(0.0)],
        &[Some(Value::real(1.0)), None],
        &EvalOptions::default(),
    )
    .unwrap();
    assert_eq!(t, Value::real(0.0));
}
