//! Regression: at f64 singularities every engine gives the IEEE-faithful derivative of
//! docs/language.md ("Semantic conventions": every product of the chain rule is formed in
//! IEEE arithmetic, as the reference's dense forward mode does). The cases of the
//! reliability issue: `pow(x, -2) + 1` at 0 (`-inf`), `x / 0.0 * 0.0` (`NaN`), `x *
//! sqrt(x)` at 0 (`NaN`); and `abs` at a NaN argument, where the table's `sign` is 1 as
//! in the reference (engines `dual` and `linear` gave 0 there).
use adora_rewrites::engine::harness::{self, Query, Route};
use adora_rewrites::engine::{registry, Question};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;

/// `(engine/route, value, derivative)` of `def main(x: R) -> R = body` at `x` (f64
/// mode), for every registered engine and every route it offers.
fn grads(body: &str, x: f64) -> Vec<(String, f64, f64)> {
    let f = adora_core::load(&format!("def main(x: R) -> R = {body}"), "main").unwrap();
    let opts = EvalOptions::default();
    let mut out = Vec::new();
    // Engine `pullback` answers exact scalar programs only (f64 declined, arrays outside
    // its fragment, no evaluation budgets); its own tests are pullback/tests and
    // tests/it/pullback_cli.rs.
    for e in registry().into_iter().filter(|e| e.name() != "pullback") {
        for route in harness::routes(e.as_ref(), Question::Grad) {
            let a = harness::ask_by(
                e.as_ref(),
                route,
                &f,
                &[Value::real(x)],
                &Query::Grad,
                &opts,
            )
            .unwrap_or_else(|d| panic!("{} {route:?}: {d}", e.name()))
            .into_gradient();
            let value = *a.value.as_real().unwrap();
            let d = *a.grads[0].as_ref().unwrap().as_real().unwrap();
            let name = match route {
                Route::Program => format!("{} (program)", e.name()),
                Route::Runtime => format!("{} (runtime)", e.name()),
            };
            out.push((name, value, d));
        }
    }
    assert!(out.len() >= 4, "{out:?}");
    out
}

/// Every engine's value and derivative are `value`, `d` (NaN equals NaN here: these
/// are the IEEE answers themselves, bit patterns aside).
fn all_give(body: &str, x: f64, value: f64, d: f64) {
    let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
    for (name, v, g) in grads(body, x) {
        assert!(
            same(v, value) && same(g, d),
            "{body} at {x}: {name} gives ({v}, {g}), expected ({value}, {d})"
        );
    }
}

#[test]
fn pow_minus_two_plus_one_at_zero_is_minus_infinity() {
    all_give("pow(x, -2) + 1.0", 0.0, f64::INFINITY, f64::NEG_INFINITY);
}

#[test]
fn division_by_zero_times_zero_is_nan() {
    all_give("x / 0.0 * 0.0", 1.0, f64::NAN, f64::NAN);
    all_give("x / 0.0", 1.0, f64::INFINITY, f64::INFINITY);
}

#[test]
fn x_times_sqrt_x_at_zero_is_nan() {
    all_give("x * sqrt(x)", 0.0, 0.0, f64::NAN);
}

#[test]
fn abs_of_nan_follows_its_argument() {
    // log(-1) = NaN with derivative 1 / -1; sign(NaN) = 1, as in the reference.
    all_give("abs(log(x))", -1.0, f64::NAN, -1.0);
}
