//! The `mem` model: peak live scalars.
use crate::common;
use common::costs;

fn mem(src: &str) -> u64 {
    costs(src).mem
}

#[test]
fn inputs_are_live() {
    assert_eq!(mem("def main(x: R[10], y: Z[3]) -> R[10] = x"), 13);
}

#[test]
fn operands_live_until_their_parent_runs() {
    // inputs 20, the product 10, the sum 1 (while the product is still live)
    assert_eq!(mem("def main(x: R[10], y: R[10]) -> R = sum(x * y)"), 31);
    // binding the product changes nothing
    assert_eq!(
        mem("def main(x: R[10], y: R[10]) -> R = let z = x * y in sum(z)"),
        31
    );
    // the first sum (1 scalar) is live while the second product and sum run
    assert_eq!(
        mem("def main(x: R[10], y: R[10]) -> R = sum(x * y) + sum(x * y)"),
        32
    );
}

#[test]
fn sharing_uses_less_memory_than_recomputation() {
    // shared: inputs 10, z 5, z + z 5; inlined: inputs 10, two products 10, the sum 5
    assert_eq!(
        mem("def main(x: R[5], y: R[5]) -> R[5] = let z = x * y in z + z"),
        20
    );
    assert_eq!(
        mem("def main(x: R[5], y: R[5]) -> R[5] = (x * y) + (x * y)"),
        25
    );
}

#[test]
fn bulk_results_are_allocated_while_their_iterations_run() {
    // inputs 4, the result 4, one iteration's literal 2 and product
    assert_eq!(
        mem("def main(x: R[4]) -> R[4] = build 4 (i => x[i] * 2)"),
        10
    );
    // inputs 5, the result 5, one iteration's product
    assert_eq!(mem("def main(x: R[5]) -> R[5] = map(a => a * a, x)"), 11);
}

#[test]
fn loops_hold_the_accumulator_and_the_next_one() {
    assert_eq!(
        mem("def main(x: R[4]) -> R[4] = loop (acc = x) for i < 3 do acc * x"),
        12
    );
}
