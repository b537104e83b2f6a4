//! The `work` and `span` models (seed 004's work–depth model).
use crate::common;
use common::{costs, costs_on, ints, invariants, reals};

fn ws(src: &str) -> (u64, u64) {
    let c = costs(src);
    invariants(&c);
    (c.work, c.span)
}

#[test]
fn map_span_is_its_body_span() {
    let body = ws("def main(a: R) -> R = a * a + a");
    assert_eq!(body, (2, 2));
    for n in [1u64, 6, 33] {
        let (w, s) = ws(&format!(
            "def main(x: R[{n}]) -> R[{n}] = map(a => a * a + a, x)"
        ));
        // a map adds no depth of its own
        assert_eq!(s, body.1, "n = {n}");
        assert_eq!(w, n * body.0);
    }
}

#[test]
fn build_takes_the_largest_iteration() {
    // per iteration: read x[i] (1), product (1)
    assert_eq!(
        ws("def main(x: R[8]) -> R[8] = build 8 (i => x[i] * 2)"),
        (16, 2)
    );
    // multi-dimensional builds are one parallel construct
    assert_eq!(
        ws("def main(x: R[3], y: R[4]) -> R[3,4] = build [3, 4] ((i, j) => x[i] * y[j])"),
        (36, 3)
    );
}

#[test]
fn reductions_are_trees_of_depth_log2_n() {
    assert_eq!(ws("def main(x: R) -> R = sum(x)"), (0, 0));
    assert_eq!(ws("def main(x: R[10]) -> R = sum(x)"), (9, 4));
    assert_eq!(ws("def main(x: R[16]) -> R = sum(x)"), (15, 4));
    assert_eq!(ws("def main(x: R[17]) -> R = sum(x)"), (16, 5));
    assert_eq!(ws("def main(x: R[8,3]) -> R[3] = sum_outer(x)"), (21, 3));
    assert_eq!(ws("def main(x: R[8]) -> R = reduce(+, 0, x)"), (7, 3));
    assert_eq!(ws("def main(x: R[8]) -> R[8] = scan(*, 1, x)"), (7, 3));
    // min and max are free in ops but are work
    let c = costs("def main(x: R[8]) -> R = reduce(min, 0, x)");
    assert_eq!((c.ops, c.work, c.span), (0, 7, 3));
}

#[test]
fn lambda_reductions_multiply_the_operator_span() {
    let (w1, s1) = ws("def main(x: R[8]) -> R = reduce((a, b) => a + b, 0, x)");
    let (w2, s2) = ws("def main(x: R[8]) -> R = reduce((a, b) => a + b * b, 0, x)");
    assert_eq!((s1, s2), (3, 6));
    // one application per element (the fold starts from the neutral element)
    assert_eq!((w1, w2), (8, 16));
    let (_, s3) = ws("def main(x: R[5]) -> R[5] = scan((a, b) => a * b, 1, x)");
    assert_eq!(s3, 3);
}

#[test]
fn loops_add_their_iterations() {
    assert_eq!(
        ws("def main(x: R[4]) -> R[4] = loop (acc = x) for i < 3 do acc * x"),
        (12, 3)
    );
    assert_eq!(
        ws("def main(x: R[4]) -> R = loop (acc = 0) for i < 4 do acc + sum(x)"),
        (16, 12)
    );
}

#[test]
fn gathers_and_scatters() {
    // 4 index computations (`3 - i`), 4 copies; depth: the subtraction, then the copy
    assert_eq!(
        ws("def main(x: R[4]) -> R[4] = gather([4], x, i => [3 - i])"),
        (8, 2)
    );
    // 7 remainders, 3 zeros, 7 writes; depth: remainder then the parallel writes
    let c = costs("def main(x: R[7]) -> R[3] = scatter([3], x, i => [i % 3])");
    assert_eq!((c.ops, c.work, c.span), (4, 17, 2));
    // in-place updates work on the written part only
    assert_eq!(
        ws("def main(x: R[3], y: R[3]) -> R[3] = scatter_into(x, iota(3), y)"),
        (6, 2)
    );
    let c = costs_on(
        "def main(d: R[3], is: Z[5], vs: R[5]) -> R[3] = reduce_by_index(d, +, 0, is, vs)",
        &[
            reals(&[3], &[1, 2, 3]),
            ints(&[5], &[0, 0, 2, 7, -1]),
            reals(&[5], &[1, 1, 1, 1, 1]),
        ],
    );
    assert_eq!((c.ops, c.work, c.span), (3, 3, 2));
    // slices: 2 in-bounds writes of 3 scalars; the same with a lambda operator
    for op in ["+", "(a, b) => a + b"] {
        let c = costs_on(
            &format!(
                "def main(d: R[2,3], is: Z[4], vs: R[4,3]) -> R[2,3] =
                   reduce_by_index(d, {op}, replicate(3, 0), is, vs)"
            ),
            &[
                reals(&[2, 3], &[0; 6]),
                ints(&[4], &[0, 9, 1, -1]),
                reals(&[4, 3], &[1; 12]),
            ],
        );
        // replicate: work 3, span 1; the histogram: 6 operations, depth ⌈log2(2 + 1)⌉ = 2
        assert_eq!((c.ops, c.work, c.span), (6, 9, 3), "{op}");
    }
}

#[test]
fn if_takes_its_condition_and_branch() {
    let src = "def main(x: R[4]) -> R = if x[0] < x[1] then sum(x) else x[0]";
    let then = costs_on(src, &[reals(&[4], &[1, 2, 3, 4])]);
    let other = costs_on(src, &[reals(&[4], &[2, 1, 3, 4])]);
    assert_eq!((then.work, then.span), (6, 5));
    assert_eq!((other.work, other.span), (4, 4));
}

#[test]
fn sequential_composition_adds() {
    let (w, s) = ws("def main(x: R[4], y: R[4]) -> R = let z = x * y in sum(z) + sum(x)");
    assert_eq!((w, s), (4 + 3 + 3 + 1, 1 + 2 + 2 + 1));
}

#[test]
fn data_movement_is_work_of_depth_one() {
    assert_eq!(
        ws("def main(x: R[2,3]) -> R[3,2] = transpose([1, 0], x)"),
        (6, 1)
    );
    assert_eq!(ws("def main(x: R[3]) -> R[4,3] = replicate(4, x)"), (12, 1));
    assert_eq!(
        ws("def main(x: R[3], y: R[2]) -> R[5] = append(x, y)"),
        (5, 1)
    );
}
