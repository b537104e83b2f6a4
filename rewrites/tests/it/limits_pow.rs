//! `pow` past the rational-size limit (issue 19): every engine, by every route it offers
//! for every question, reports `error[resource]` at the position of the `pow` — also the
//! routes that evaluate a derivative program, which carries no positions of its own
//! (`adora_rewrites::engine::harness`, `locate`). The size is checked before multiplying
//! (`adora_semantics::kernels::arith::pow_real`), so none of these runs multiplies.

use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::{ask_by, routes, Query};
use adora_rewrites::engine::registry;
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn r(n: i64) -> Value<Rat> {
    Value::real(Rat::from_integer(n.into()))
}

#[test]
fn every_engine_and_route_reports_the_pow_position() {
    for (src, x) in [
        ("def main(x: R) -> R = x * pow(x, -100000)", 3),
        ("def main(x: R) -> R = x * pow(x, 10000)", 100),
    ] {
        let f = adora_core::load(src, "main").unwrap();
        let want = src.find("pow").unwrap();
        let queries = [Query::Grad, Query::Jvp(vec![Some(r(1))]), Query::Vjp(r(1))];
        for e in registry() {
            for q in &queries {
                for route in routes(e.as_ref(), q.question()) {
                    let what = format!("{} {:?} {:?}", e.name(), q.question(), route);
                    let err = ask_by(e.as_ref(), route, &f, &[r(x)], q, &EvalOptions::default())
                        .unwrap_err();
                    assert_eq!(err.kind, ErrorKind::Resource, "{what}: {}", err.message);
                    assert_eq!(err.span.start, want, "{what}: {}", err.message);
                }
            }
        }
    }
}
