//! Engine `soac`'s loop return sweep (seed 004 §4.2; `adora_rewrites::soac::reverse`
//! `control.rs`): a free array read by indexing in a `loop` body has its adjoint carried
//! through the reversed loop and updated in place (`rev/index`), so the adjoint work per
//! iteration is proportional to the elements read, not to the array — the LSTM objective's
//! `sq[t]` (docs/benchmarks.md, "GradBench workloads").

use crate::soac_reverse::{agrees_with, load, SoacReverse};
use adora_rewrites::engine::{Engine, Question};
use adora_rewrites::soac::reverse::Rules;
use adora_semantics::eval::EvalOptions;

/// A loop of `c` iterations, each reading row `t` (and `t + 1`, out of bounds at the
/// end) of a free `c × 4` array.
fn src(c: usize) -> String {
    format!(
        "def main(sq: R[{c}, 4], w: R[4]) -> R =
           loop (a = 0.0) for t < {c} do a * 0.5 + sum(sq[t] * w) + sq[t + 1, 0] * a"
    )
}

/// `work` of the VJP program on the default inputs.
fn vjp_work(c: usize) -> u64 {
    let f = load(&src(c));
    let dp = SoacReverse(Rules::default())
        .program(&f, Question::Vjp)
        .unwrap();
    let inputs = adora_costmodel::default_inputs(&dp.function);
    adora_costmodel::measure(&dp.function, &inputs, &EvalOptions::default())
        .unwrap()
        .work
}

#[test]
fn a_loop_over_rows_of_a_free_array_agrees_with_the_reference() {
    adora_core::with_stack(|| {
        agrees_with(
            &SoacReverse(Rules::default()),
            &src(3),
            &[
                "[[1, 2, 3, 4], [-1, 1/2, 2, 0], [3, 1, -2, 5]]",
                "[2, -1, 3, 1/4]",
            ],
        );
    })
}

#[test]
fn loop_adjoint_work_grows_linearly_with_the_trip_count() {
    adora_core::with_stack(|| {
        let (small, large) = (vjp_work(64), vjp_work(512));
        // Linear: 8 times the iterations, about 8 times the work. A whole-array adjoint per
        // iteration (c · 4 scalars made and added each time) would make it about 64 times.
        assert!(
            large <= 10 * small,
            "work {small} at c = 64, {large} at c = 512 (ratio {:.1})",
            large as f64 / small as f64
        );
    })
}
