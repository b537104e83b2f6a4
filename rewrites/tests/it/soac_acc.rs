//! Accumulators of engine `soac`'s reverse mode (seed 004 *AD for an Array Language with
//! Nested Parallelism* §5.4 and §6.1; `adora_rewrites::soac::reverse::map_acc`,
//! `acc_if`, `acc_reduce`): free arrays read by indexing inside bodies nested in a
//! `map` (`map`s, `if`s, multi-index and row accesses, out-of-bounds reads) get VJPs
//! exactly equal to the reference's, with and without the accumulator-to-`reduce`
//! rule, and adjoint work that does not grow with the array.

use crate::soac_reverse::{agrees_with, load, SoacReverse};
use adora_rewrites::engine::{Engine, Question};
use adora_rewrites::soac::reverse::Rules;
use adora_semantics::eval::EvalOptions;

const PROGRAMS: &[(&str, &[&str])] = &[
    (
        "def main(xs: R[5], ys: R[3]) -> R =
           reduce(+, 0, map(y => reduce(+, 0, build 3 (j => xs[j + 1] * y)), ys))",
        &["[1, 2, -3, 1/2, 4]", "[2, -1, 3]"],
    ),
    (
        "def main(m: R[4, 4], ys: R[3]) -> R =
           reduce(+, 0, map(y => reduce(+, 0, build 4 (j =>
             if j < 2 then m[j, 1] * y else m[1, j] * m[j + 1, 0] + y)), ys))",
        &[
            "[[1, 2, 3, 4], [-1, 1/2, 2, 0], [3, 1, -2, 5], [2, 2, 1, -1]]",
            "[2, -1, 3]",
        ],
    ),
    (
        "def main(m: R[3, 2], ys: R[2], w: R[2]) -> R[2] =
           map(y => reduce(+, 0, map(k => sum(m[k] * w) * y + m[k, 0] * w[1], iota(3))) + w[0], ys)",
        &["[[1, 2], [-3, 1/2], [0, 5]]", "[3, -2]", "[1/3, 2]"],
    ),
    (
        "def main(a: R[4], q: R[3, 6], x: R[2, 3]) -> R =
           reduce(+, 0, map(xi =>
             let v = build 3 (c =>
               let qx = build 3 (i =>
                 q[c, i] * xi[i] + reduce(+, 0, build 3 (j =>
                   if j < i then q[c, 3 + j + i] * (xi[j] - a[c]) else 0.0))) in
               a[c] + a[0] * reduce(+, 0, qx * qx)) in
             reduce(max, v[0], v), x))",
        &[
            "[1, -1/2, 2, 3]",
            "[[1, 2, 0, -1, 1/2, 3], [2, -1, 1, 0, 1, 1], [-2, 1/3, 1, 2, -1, 0]]",
            "[[1, -2, 1/2], [0, 3, -1]]",
        ],
    ),
    (
        "def main(xs: R[6], ys: R[3]) -> R[3] =
           map(y => if y > 0.0 then reduce(+, 0, build 2 (j => xs[j * 7] + xs[2] * y)) else xs[5] * y, ys)",
        &["[1, 2, -3, 1/2, 4, 7]", "[2, -1, 3]"],
    ),
];

#[test]
fn nested_accumulators_agree_with_the_reference_with_and_without_acc_to_reduce() {
    adora_core::with_stack(|| {
        for rules in [
            Rules::default(),
            Rules {
                acc_to_reduce: false,
                ..Rules::default()
            },
        ] {
            let e = SoacReverse(rules);
            for (src, lits) in PROGRAMS {
                agrees_with(&e, src, lits);
            }
        }
    })
}

/// `work` of the VJP program of a map of 8 elements each reading 3 elements of a free
/// array of `size` elements inside a nested `map`, on the default inputs.
fn vjp_work(size: usize, rules: Rules) -> u64 {
    let src = format!(
        "def main(xs: R[{size}], ys: R[8]) -> R =
           reduce(+, 0, map(y => reduce(+, 0, build 3 (j => xs[j + 1] * y)), ys))"
    );
    let f = load(&src);
    let dp = SoacReverse(rules).program(&f, Question::Vjp).unwrap();
    let inputs = adora_costmodel::default_inputs(&dp.function);
    adora_costmodel::measure(&dp.function, &inputs, &EvalOptions::default())
        .unwrap()
        .work
}

#[test]
fn adjoint_work_of_nested_reads_does_not_grow_with_the_array() {
    adora_core::with_stack(|| {
        let (small, large) = (
            vjp_work(16, Rules::default()),
            vjp_work(1024, Rules::default()),
        );
        // The array's adjoint is made once (zeros, the result): a few scalars per element
        // of the array, not one per element per iteration (8 iterations of the map).
        let grown = large - small;
        assert!(
            grown <= 4 * (1024 - 16),
            "work grew by {grown} from 16 to 1024 elements ({small} -> {large})"
        );
    })
}
