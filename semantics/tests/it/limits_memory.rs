//! Steps per element produced and the memory budget (issue 19; docs/language.md,
//! "Resource limits"): a node that produces an array costs one step and
//! `array_bytes` per scalar, and a bulk allocation checks both limits before it
//! allocates — the reference's `jvp` of `replicate(16777216, x)` used to abort on
//! allocation under a 6 GiB address-space cap.
use crate::common::*;
use adora_core::diag::ErrorKind;
use adora_semantics::eval::{eval, eval_observed, EvalOptions, Event, Observer};
use adora_semantics::kernels::limits::array_bytes;
use adora_semantics::reference;
use adora_semantics::value::Value;
use adora_semantics::Rat;

/// Counts the nodes the evaluator finished.
#[derive(Default)]
struct Nodes(u64);

impl Observer for Nodes {
    fn event(&mut self, event: Event<'_>) {
        if let Event::Node { .. } = event {
            self.0 += 1;
        }
    }
}

fn replicate(n: usize) -> adora_core::Function {
    prog(&format!("def main(x: R) -> R = sum(replicate({n}, x))"))
}

#[test]
fn a_produced_array_costs_one_step_per_scalar() {
    let steps = |n: usize| {
        let (v, st) = eval(&replicate(n), &[sr(ri(2))], &EvalOptions::default()).unwrap();
        assert_eq!(v, sr(ri(2 * n as i64)));
        st.steps
    };
    assert_eq!(steps(2000) - steps(1000), 1000);
    // elementwise operators too: `x * y` of 1000 scalars costs 1000 more than of none
    let mul = |n: usize| {
        let f = prog(&format!(
            "def main(x: R) -> R = let y = replicate({n}, x) in sum(y * y)"
        ));
        eval(&f, &[sr(ri(1))], &EvalOptions::default())
            .unwrap()
            .1
            .steps
    };
    assert_eq!(mul(1000) - mul(0), 2000);
}

#[test]
fn replicate_checks_the_step_limit_before_allocating() {
    let opts = EvalOptions {
        max_steps: 50_000,
        ..EvalOptions::default()
    };
    let f = replicate(100_000);
    let mut seen = Nodes::default();
    let e = eval_observed(&f, &[sr(ri(1))], &opts, &mut seen).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            ErrorKind::Resource,
            "evaluation step limit (50000) exceeded"
        )
    );
    // at the `replicate`, and only its operand `x` was evaluated: nothing was allocated
    assert_eq!(e.span.start, "def main(x: R) -> R = sum(".len());
    assert_eq!(seen.0, 1);
    // the reference's forward mode: the 2^24 elements under the default limits
    let f = replicate(1 << 24);
    let e = reference::jvp(
        &f,
        &[sr(ri(1))],
        &[Some(sr(ri(1)))],
        &EvalOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Resource, "{}", e.message);
}

#[test]
fn the_memory_budget_is_exact_and_checked_before_allocating() {
    let f = replicate(1000);
    let need = array_bytes::<f64>(1000);
    assert_eq!(need, 8000);
    let with = |max_memory: u64| EvalOptions {
        max_memory,
        ..EvalOptions::default()
    };
    assert!(eval(&f, &[Value::real(1.0f64)], &with(need)).is_ok());
    let mut seen = Nodes::default();
    let e = eval_observed(&f, &[Value::real(1.0f64)], &with(need - 1), &mut seen).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            ErrorKind::Resource,
            "memory budget (7999 bytes of arrays) exceeded; use --max-memory N"
        )
    );
    assert_eq!(e.span.start, "def main(x: R) -> R = sum(".len());
    assert_eq!(seen.0, 1);
    // exact rationals count their own size
    let need = array_bytes::<Rat>(1000);
    assert!(eval(&f, &[sr(ri(1))], &with(need)).is_ok());
    assert!(eval(&f, &[sr(ri(1))], &with(need - 1)).is_err());
}
