//! The non-finite literals `inf` and `nan` (docs/language.md, "Non-finite literals") in every engine:
//! in f64 mode each engine's value and derivative equal the IEEE answers of the reference;
//! in exact mode each engine rejects the literal by name and position (or declines the
//! program). And the harness's f64 agreement: an infinity agrees only with the same
//! infinity (regression: the relative tolerance, infinite itself against an infinite
//! expectation, let `-inf` and every finite value agree with `inf`).
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::{self, Mode, Query, Route};
use adora_rewrites::engine::{registry, Question};
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// `(engine/route, result)` of the gradient of `def main(x: R) -> R = body` at `x`, for
/// every registered engine and every route it offers.
fn answers<S: Mode>(body: &str, x: S) -> Vec<(String, adora_core::Result<harness::Answer<S>>)> {
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
                &[Value::real(x.clone())],
                &Query::Grad,
                &opts,
            );
            let name = match route {
                Route::Program => format!("{} (program)", e.name()),
                Route::Runtime => format!("{} (runtime)", e.name()),
            };
            out.push((name, a));
        }
    }
    assert!(out.len() >= 4, "{} routes", out.len());
    out
}

/// Every engine's value and derivative are exactly `value` and `d` (NaN equals NaN). An
/// engine whose language has only rational constants (`tssa`'s tensor language) may
/// refuse the literal instead, as unsupported and by name.
fn all_give(body: &str, x: f64, value: f64, d: f64) {
    let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
    let mut answered = 0;
    for (name, a) in answers(body, x) {
        let g = match a {
            Err(e)
                if e.kind == ErrorKind::Unsupported && e.message.contains("non-finite literal") =>
            {
                continue;
            }
            a => a.unwrap_or_else(|e| panic!("{body}: {name}: {e}")),
        }
        .into_gradient();
        answered += 1;
        let v = *g.value.as_real().unwrap();
        let dx = *g.grads[0].as_ref().unwrap().as_real().unwrap();
        assert!(
            same(v, value) && same(dx, d),
            "{body} at {x}: {name} gives ({v}, {dx}), expected ({value}, {d})"
        );
    }
    assert!(answered >= 4, "{body}: only {answered} engines answered");
}

#[test]
fn every_engine_evaluates_inf_and_nan_literals_in_f64() {
    let inf = f64::INFINITY;
    all_give("x * inf", 2.0, inf, inf);
    all_give("max(x, -inf)", 1.0, 1.0, 1.0);
    all_give("min(x, inf) * 2.0", 3.0, 6.0, 2.0);
    all_give("x + nan", 1.0, f64::NAN, 1.0);
    all_give("sum([x, -inf])", 1.0, -inf, 1.0);
}

#[test]
fn exact_mode_rejects_inf_in_every_engine() {
    for (name, a) in answers("2 * x + inf", Rat::from_integer(1.into())) {
        match a {
            Err(d) if d.kind == ErrorKind::Unsupported => {}
            Err(d) => {
                assert_eq!(d.kind, ErrorKind::NonRational, "{name}: {d}");
                assert!(
                    d.message
                        .contains("`inf` is not a rational number; run with --numeric f64"),
                    "{name}: {}",
                    d.message
                );
            }
            Ok(_) => panic!("{name}: an exact answer for a program with `inf`"),
        }
    }
}

#[test]
fn an_infinity_agrees_only_with_the_same_infinity() {
    let (inf, tol) = (f64::INFINITY, harness::F64_TOLERANCE);
    assert!(<f64 as Mode>::agrees(&inf, &inf, tol));
    assert!(<f64 as Mode>::agrees(&-inf, &-inf, tol));
    assert!(<f64 as Mode>::agrees(&f64::NAN, &f64::NAN, tol));
    assert!(<f64 as Mode>::agrees(&(1.0 + 1e-12), &1.0, tol));
    assert!(!<f64 as Mode>::agrees(&-inf, &inf, tol));
    assert!(!<f64 as Mode>::agrees(&3.0, &inf, tol));
    assert!(!<f64 as Mode>::agrees(&inf, &3.0, tol));
    assert!(!<f64 as Mode>::agrees(&f64::NAN, &inf, tol));
    assert!(!harness::values_agree(
        &Value::real(-inf),
        &Value::real(inf),
        tol
    ));
}
