//! The `ops` rule of each construct (docs/cost-models.md, docs/cost-models.md).
use crate::common;
use common::{costs, costs_f64, costs_on, ints, invariants, reals};

fn ops(src: &str) -> u64 {
    let c = costs(src);
    invariants(&c);
    c.ops
}

#[test]
fn real_arithmetic_costs_one_per_element() {
    assert_eq!(ops("def main(x: R[4], y: R[4]) -> R[4] = x + y"), 4);
    assert_eq!(ops("def main(x: R[4], y: R[4]) -> R[4] = x - y"), 4);
    assert_eq!(ops("def main(x: R[2,3], y: R[2,3]) -> R[2,3] = x * y"), 6);
    assert_eq!(ops("def main(x: R[4], y: R[4]) -> R[4] = x / y"), 4);
    assert_eq!(ops("def main(x: R[4]) -> R[4] = -x"), 4);
    assert_eq!(ops("def main(x: R[4]) -> R[4] = abs(x)"), 4);
    assert_eq!(ops("def main(x: R[4]) -> R[4] = pow(x, 3)"), 4);
    assert_eq!(ops("def main(x: R[4]) -> R[4] = pow(x, -2)"), 4);
    assert_eq!(ops("def main(x: R, y: R) -> R = x * y + x / y - x"), 4);
}

#[test]
fn black_box_functions_cost_one_per_element() {
    let c = costs_f64(
        "def main(x: R[5]) -> R[5] = exp(x) + log(x) + sin(x) + cos(x) + tanh(x) + sqrt(x)",
    );
    // six functions and five additions per element
    assert_eq!(c.ops, 5 * 11);
    invariants(&c);
}

#[test]
fn exact_mode_rejects_non_rational_operations() {
    let f = common::load("def main(x: R[2]) -> R[2] = exp(x)");
    let xs = adora_costmodel::default_inputs(&f);
    let e = adora_costmodel::measure(&f, &xs, &Default::default()).unwrap_err();
    assert_eq!(e.kind, adora_core::ErrorKind::NonRational);
}

#[test]
fn integer_arithmetic_comparisons_booleans_selection_are_free() {
    assert_eq!(
        ops("def main(i: Z[4], j: Z[4]) -> Z[4] = i * j + i / j - i % j - -i"),
        0
    );
    assert_eq!(ops("def main(i: Z[4]) -> Z[4] = abs(i)"), 0);
    assert_eq!(
        ops("def main(x: R[4], y: R[4]) -> B[4] = x < y && !(x == y) || x >= y"),
        0
    );
    assert_eq!(
        ops("def main(x: R[4], y: R[4]) -> R[4] = select(x < y, x, y)"),
        0
    );
    assert_eq!(
        ops("def main(x: R[4], y: R[4]) -> R[4] = min(x, y) + max(x, y)"),
        4
    );
    assert_eq!(ops("def main(x: R[4]) -> R[4] = real(floor(x))"), 0);
    assert_eq!(ops("def main(i: Z[4]) -> Z = sum(i)"), 0);
    assert_eq!(ops("def main(i: Z[4]) -> Z = reduce(+, 0, i)"), 0);
    // index arithmetic inside a build is free; only the real sum counts
    assert_eq!(
        ops("def main(x: R[8]) -> R = sum(build 4 (i => x[2 * i + 1]))"),
        3
    );
}

#[test]
fn data_movement_and_let_are_free() {
    assert_eq!(
        ops("def main(x: R[2,3]) -> R[3,2] = transpose([1, 0], x)"),
        0
    );
    assert_eq!(ops("def main(x: R[2,3]) -> R[6] = reshape([6], x)"), 0);
    assert_eq!(ops("def main(x: R[3]) -> R[4,3] = replicate(4, x)"), 0);
    assert_eq!(ops("def main(x: R[3], y: R[2]) -> R[5] = append(x, y)"), 0);
    assert_eq!(
        ops("def main(x: R[3], y: R[3]) -> R[2,3] = stack([x, y])"),
        0
    );
    assert_eq!(ops("def main(x: R[3]) -> Z[3] = iota(3)"), 0);
    assert_eq!(ops("def main(x: R[3,2]) -> R[2] = x[1]"), 0);
    assert_eq!(
        ops("def main(x: R[5]) -> R[5] = gather([5], x, i => [4 - i])"),
        0
    );
    assert_eq!(ops("def main(x: R[2]) -> R[2,2] = [x, [1.5, 2]]"), 0);
    assert_eq!(
        ops("def main(x: R[3]) -> (R[3], R) = let p = (x, x[0]) in (p.0, p.1)"),
        0
    );
    assert_eq!(
        ops("def main(x: R[3], y: R[3]) -> R[3] = scatter_into(x, iota(3), y)"),
        0
    );
}

#[test]
fn sums_cost_n_minus_1() {
    assert_eq!(ops("def main(x: R[7]) -> R = sum(x)"), 6);
    assert_eq!(ops("def main(x: R[3,4]) -> R = sum(x)"), 11);
    assert_eq!(ops("def main(x: R) -> R = sum(x)"), 0);
    assert_eq!(ops("def main(x: R[4,3]) -> R[3] = sum_outer(x)"), 9);
    assert_eq!(ops("def main(x: R[4,3,2]) -> R[3,2] = sum_outer(x)"), 18);
    assert_eq!(ops("def main(x: R[1,3]) -> R[3] = sum_outer(x)"), 0);
}

#[test]
fn reduce_and_scan_with_plus_or_times_cost_n_minus_1_per_lane() {
    assert_eq!(ops("def main(x: R[5]) -> R = reduce(+, 0, x)"), 4);
    assert_eq!(ops("def main(x: R[5]) -> R = reduce(*, 1, x)"), 4);
    assert_eq!(
        ops("def main(x: R[4,3]) -> R[3] = reduce(*, replicate(3, 1), x)"),
        9
    );
    assert_eq!(ops("def main(x: R[5]) -> R[5] = scan(+, 0, x)"), 4);
    assert_eq!(
        ops("def main(x: R[4,2]) -> R[4,2] = scan(+, replicate(2, 0), x)"),
        6
    );
    assert_eq!(ops("def main(x: R[5]) -> R = reduce(min, 1000, x)"), 0);
    assert_eq!(ops("def main(x: R[5]) -> R[5] = scan(max, 0, x)"), 0);
}

#[test]
fn reduce_with_a_lambda_costs_its_applications() {
    // Each application of the operator costs 2 (a product and a sum); the evaluator folds
    // every element into the neutral element, so the operator runs once per element.
    let apps = ops("def main(x: R[6]) -> R = reduce((a, b) => a + b, 0, x)");
    let c = ops("def main(x: R[6]) -> R = reduce((a, b) => a + b * b, 0, x)");
    assert_eq!(c, 2 * apps);
    assert_eq!(apps, 6);
}

#[test]
fn scatter_counts_one_addition_per_colliding_write() {
    // i % 3 over 7 elements: writes 0 1 2 0 1 2 0 — 4 land on written elements.
    assert_eq!(
        ops("def main(x: R[7]) -> R[3] = scatter([3], x, i => [i % 3])"),
        4
    );
    // no collisions: a permutation
    assert_eq!(
        ops("def main(x: R[5]) -> R[5] = scatter([5], x, i => [4 - i])"),
        0
    );
    // i / 2 over 5 elements: 0 0 1 1 2 — index 2 is out of bounds (dropped), 2 collisions
    assert_eq!(
        ops("def main(x: R[5]) -> R[2] = scatter([2], x, i => [i / 2])"),
        2
    );
    // slices of 2 scalars: 6 writes, 4 collisions of 2 scalars each
    assert_eq!(
        ops("def main(x: R[6,2]) -> R[2,2] = scatter([2, 2], x, i => [i % 2])"),
        8
    );
    // integer scatters are index arithmetic
    assert_eq!(
        ops("def main(x: Z[7]) -> Z[3] = scatter([3], x, i => [i % 3])"),
        0
    );
}

#[test]
fn reduce_by_index_counts_every_in_bounds_write() {
    let src = "def main(d: R[3], is: Z[5], vs: R[5]) -> R[3] = reduce_by_index(d, +, 0, is, vs)";
    let c = costs_on(
        src,
        &[
            reals(&[3], &[1, 2, 3]),
            ints(&[5], &[0, 0, 2, 7, -1]),
            reals(&[5], &[1, 1, 1, 1, 1]),
        ],
    );
    assert_eq!(c.ops, 3);
    invariants(&c);
    let src = "def main(d: R[3], is: Z[5], vs: R[5]) -> R[3] = reduce_by_index(d, *, 1, is, vs)";
    let c = costs_on(
        src,
        &[
            reals(&[3], &[1, 2, 3]),
            ints(&[5], &[1, 1, 1, 1, 1]),
            reals(&[5], &[1, 2, 3, 4, 5]),
        ],
    );
    assert_eq!(c.ops, 5);
    let src = "def main(d: R[2,3], is: Z[4], vs: R[4,3]) -> R[2,3] =
                 reduce_by_index(d, +, replicate(3, 0), is, vs)";
    let c = costs_on(
        src,
        &[
            reals(&[2, 3], &[0; 6]),
            ints(&[4], &[0, 1, 1, 5]),
            reals(&[4, 3], &[1; 12]),
        ],
    );
    assert_eq!(c.ops, 9);
    let src = "def main(d: R[3], is: Z[5], vs: R[5]) -> R[3] = reduce_by_index(d, max, 0, is, vs)";
    assert_eq!(ops(src), 0);
}

#[test]
fn if_costs_its_condition_and_the_branch_taken() {
    let src = "def main(x: R[4]) -> R = if x[0] + x[1] < x[2] then sum(x) else x[0] * x[1]";
    // condition: one addition; then-branch: 3; else-branch: 1
    assert_eq!(costs_on(src, &[reals(&[4], &[1, 1, 5, 0])]).ops, 1 + 3);
    assert_eq!(costs_on(src, &[reals(&[4], &[1, 1, 1, 0])]).ops, 1 + 1);
}

#[test]
fn loops_sum_their_iterations() {
    assert_eq!(
        ops("def main(x: R[4]) -> R[4] = loop (acc = x) for i < 3 do acc * x"),
        12
    );
    assert_eq!(
        ops("def main(x: R[4]) -> R[4] = loop (acc = x) for i < 0 do acc * x"),
        0
    );
    // nested: 2 × 3 iterations of 4 products
    assert_eq!(
        ops("def main(x: R[4]) -> R[4] =
               loop (a = x) for i < 2 do loop (b = a) for j < 3 do b * x"),
        24
    );
    assert_eq!(
        ops("def main(x: R) -> (R, R) = loop ((a, b) = (x, 0)) for i < 5 do (a * x, b + a)"),
        10
    );
}

#[test]
fn builds_and_maps_sum_their_iterations() {
    assert_eq!(
        ops("def main(x: R[5]) -> R[5] = map(a => a * a + a, x)"),
        10
    );
    assert_eq!(
        ops("def main(x: R[5]) -> R[5] = build 5 (i => x[i] * x[i] + x[i])"),
        10
    );
    assert_eq!(
        ops("def main(x: R[3], y: R[3]) -> R[3,3] = build [3, 3] ((i, j) => x[i] * y[j])"),
        9
    );
}

#[test]
fn let_sharing_versus_inlining() {
    // e = x * y + x costs 2n; `let z = e in z * z` costs ops(e) + n,
    // the inlined `e * e` costs 2 ops(e) + n.
    for n in [1u64, 4, 9] {
        let shared = ops(&format!(
            "def main(x: R[{n}], y: R[{n}]) -> R[{n}] = let z = x * y + x in z * z"
        ));
        let inlined = ops(&format!(
            "def main(x: R[{n}], y: R[{n}]) -> R[{n}] = (x * y + x) * (x * y + x)"
        ));
        let e = ops(&format!(
            "def main(x: R[{n}], y: R[{n}]) -> R[{n}] = x * y + x"
        ));
        assert_eq!(e, 2 * n);
        assert_eq!(shared, e + n);
        assert_eq!(inlined, 2 * e + n);
    }
}
