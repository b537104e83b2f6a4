//! Steps per element produced and the memory budget (issue 19; docs/language.md,
//! "Resource limits"): engines whose runtimes work on bulk arrays (bot's normal form, the
//! evaluated derivative programs) are charged one step and its bytes per scalar of every
//! array they produce, like the evaluator, so a large `build` stops at the step limit or
//! the memory budget in every engine, by every route, for every question.

use adora_core::diag::ErrorKind;
use adora_rewrites::engine::harness::{ask_by, routes, Query};
use adora_rewrites::engine::registry;
use adora_semantics::eval::EvalOptions;
use adora_semantics::value::Value;
use adora_semantics::Rat;

fn r(n: i64) -> Value<Rat> {
    Value::real(Rat::from_integer(n.into()))
}

const CUBE: &str =
    "def main(x: R) -> R = sum(build [16, 16, 16] ((i, j, k) => x * real(i + j - k)))";

/// An answer reduced to its error's kind and message.
type Outcome = Result<(), (ErrorKind, String)>;

/// Every engine, route and question on `CUBE` under `opts`: the error messages (or `ok`).
fn outcomes(opts: &EvalOptions) -> Vec<(String, Outcome)> {
    let f = adora_core::load(CUBE, "main").unwrap();
    let queries = [Query::Grad, Query::Jvp(vec![Some(r(1))]), Query::Vjp(r(1))];
    let mut out = Vec::new();
    // Engine `pullback` answers exact scalar programs only (f64 declined, arrays outside
    // its fragment, no evaluation budgets); its own tests are pullback/tests and
    // tests/it/pullback_cli.rs.
    for e in registry().into_iter().filter(|e| e.name() != "pullback") {
        for q in &queries {
            for route in routes(e.as_ref(), q.question()) {
                let what = format!("{} {:?} {:?}", e.name(), q.question(), route);
                let got = ask_by(e.as_ref(), route, &f, &[r(3)], q, opts)
                    .map(|_| ())
                    .map_err(|d| (d.kind, d.message));
                out.push((what, got));
            }
        }
    }
    out
}

#[test]
fn a_build_of_4096_elements_stops_at_4000_steps_everywhere() {
    // 16^3 = 4096 scalars: more than 4000 steps in every engine, whatever its number of
    // nodes (bot turns the build into a handful of bulk operations)
    let opts = EvalOptions {
        max_steps: 4000,
        ..EvalOptions::default()
    };
    for (what, got) in outcomes(&opts) {
        assert_eq!(
            got,
            Err((
                ErrorKind::Resource,
                "evaluation step limit (4000) exceeded".to_string()
            )),
            "{what}"
        );
    }
    // and with the default limits every engine answers
    for (what, got) in outcomes(&EvalOptions::default()) {
        assert_eq!(got, Ok(()), "{what}");
    }
}

#[test]
fn a_build_of_4096_elements_exceeds_a_memory_budget_of_4096_bytes_everywhere() {
    let opts = EvalOptions {
        max_memory: 4096,
        ..EvalOptions::default()
    };
    for (what, got) in outcomes(&opts) {
        let want = "memory budget (4096 bytes of arrays) exceeded; use --max-memory N";
        assert_eq!(got, Err((ErrorKind::Resource, want.to_string())), "{what}");
    }
}
