//! The rules of the array forms, loops and resource limits: accepted and rejected
//! programs with the right error kind and position.

use super::support::*;
use adora_core::ErrorKind::{self, Name, Resource, Shape, Type as TypeErr, Unsupported};
use adora_core::Type;

#[test]
fn indexing() {
    assert_eq!(
        ret_type("def main(x: R[2,3], i: Z) -> R[3] = x[i]"),
        r(&[3])
    );
    assert_eq!(
        ret_type("def main(x: R[2,3], i: Z) -> R = x[i, i + 1]"),
        r(&[])
    );
    fails_at(
        "def main(x: R[2,3]) -> R = x[0, 1, 2]",
        Shape,
        "x[",
        "3 indices",
    );
    fails_at(
        "def main(x: R[2,3], i: Z[2]) -> R[3] = x[i]",
        Shape,
        "i]",
        "Z scalar",
    );
    fails_at(
        "def main(x: R[2,3], i: R) -> R[3] = x[i]",
        TypeErr,
        "i]",
        "must be Z",
    );
}

#[test]
fn build_gather_scatter() {
    assert_eq!(
        ret_type("def main(x: R[3]) -> R[2,3] = build 2 (i => x)"),
        r(&[2, 3])
    );
    assert_eq!(
        ret_type("def main(x: R[3]) -> Z[2,3] = build [2, 3] ((i, j) => i * j)"),
        z(&[2, 3])
    );
    fails_at(
        "def main(x: R[3]) -> R[2] = build 2 (i => (x, x))",
        TypeErr,
        "(x, x)",
        "body of `build`",
    );
    fails_at(
        "def main(x: R[3]) -> R[2] = build 2 (i => x[i + 0.5])",
        TypeErr,
        "i + 0.5",
        "R",
    );
    let g = "def main(x: R[5,4]) -> R[2,3,4] = gather([2, 3], x, (i, j) => [i + j])";
    assert_eq!(ret_type(g), r(&[2, 3, 4]));
    let g = "def main(x: R[5,4]) -> R[2,3] = gather([2, 3], x, (i, j) => [i + j, j])";
    assert_eq!(ret_type(g), r(&[2, 3]));
    fails_at(
        "def main(x: R[5]) -> R[2] = gather([2], x, i => [i, i])",
        Shape,
        "gather",
        "2 components",
    );
    fails_at(
        "def main(x: R[5]) -> R[2] = gather([2], x, (i, j) => [i])",
        Shape,
        "gather",
        "binds 2",
    );
    let s = "def main(x: R[5,2]) -> R[7,2] = scatter([7, 2], x, i => [i % 7])";
    assert_eq!(ret_type(s), r(&[7, 2]));
    let s = "def main(x: R[5,2]) -> R[7,2] = scatter([7, 2], x, (i, j) => [i % 7, j])";
    assert_eq!(ret_type(s), r(&[7, 2]));
    fails_at(
        "def main(x: R[5,2]) -> R[7,3] = scatter([7, 3], x, i => [i])",
        Shape,
        "scatter",
        "must be 1 indexed",
    );
    fails_at(
        "def main(x: R[5]) -> R[7] = scatter([7], x, (i, j) => [i])",
        Shape,
        "scatter",
        "binds 2",
    );
    fails_at(
        "def main(x: B[5]) -> B[7] = scatter([7], x, i => [i])",
        TypeErr,
        "x,",
        "R or Z",
    );
}

#[test]
fn map_rule() {
    let ok = "def main(x: R[4,3], y: Z[4]) -> R[4,3] = map((a, b) => a * real(b), x, y)";
    assert_eq!(ret_type(ok), r(&[4, 3]));
    fails_at(
        "def main(x: R[4]) -> R[4] = map(a => (a, a), x)",
        Unsupported,
        "(a, a)",
        "tuple result",
    );
    fails_at(
        "def main(x: R[4], y: R[3]) -> R[4] = map((a, b) => a + b, x, y)",
        Shape,
        "y)",
        "equal outer size",
    );
    fails_at(
        "def main(x: R[4]) -> R[4] = map((a, b) => a, x)",
        TypeErr,
        "map",
        "2 parameter",
    );
    fails_at(
        "def main(x: R) -> R[1] = map(a => a, x)",
        Shape,
        "x)",
        "rank at least 1",
    );
}

#[test]
fn reduce_and_scan() {
    assert_eq!(
        ret_type("def main(x: R[4,3]) -> R[3] = reduce(+, 0, x)"),
        r(&[3])
    );
    assert_eq!(
        ret_type("def main(x: R[4,3]) -> R[4,3] = scan(*, 1, x)"),
        r(&[4, 3])
    );
    assert_eq!(
        ret_type("def main(x: Z[4]) -> Z = reduce(min, 100, x)"),
        z(&[])
    );
    let lam = "def main(x: R[4,3]) -> R[3] = reduce((a, b) => a * b + a, replicate(3, 1), x)";
    assert_eq!(ret_type(lam), r(&[3]));
    fails_at(
        "def main(x: B[4]) -> B = reduce(+, true, x)",
        TypeErr,
        "reduce",
        "needs R or Z",
    );
    fails_at(
        "def main(x: R[4,3]) -> R[3] = reduce(+, [0, 0], x)",
        Shape,
        "[0, 0]",
        "expected R[3]",
    );
    fails_at(
        "def main(x: R[4]) -> R = reduce(+, true, x)",
        TypeErr,
        "true",
        "expected R",
    );
    fails_at(
        "def main(x: R[4]) -> R = reduce((a, b) => a < b, 0, x)",
        TypeErr,
        "a < b",
        "expected R",
    );
    fails_at(
        "def main(x: R[4]) -> R = reduce((a, b, c) => a, 0, x)",
        TypeErr,
        "reduce",
        "2 parameters",
    );
    fails_at(
        "def main(x: R) -> R = scan(+, 0, x)",
        Shape,
        "x)",
        "rank at least 1",
    );
}

#[test]
fn histogram_forms() {
    let ok =
        "def main(d: R[5,2], is: Z[3], vs: R[3,2]) -> R[5,2] = reduce_by_index(d, +, 0, is, vs)";
    assert_eq!(ret_type(ok), r(&[5, 2]));
    let bad =
        "def main(d: R[5,2], is: Z[3], vs: R[4,2]) -> R[5,2] = reduce_by_index(d, +, 0, is, vs)";
    fails_at(bad, Shape, "vs)", "expected R[3,2]");
    let bad = "def main(d: R[5], is: R[3], vs: R[3]) -> R[5] = reduce_by_index(d, max, 0, is, vs)";
    fails_at(bad, TypeErr, "is, vs", "must be Z");
    let bad =
        "def main(d: R[5], is: Z[3,1], vs: R[3]) -> R[5] = reduce_by_index(d, max, 0, is, vs)";
    fails_at(bad, Shape, "is, vs", "rank 1");
    let ok = "def main(d: B[5], is: Z[3], vs: B[3]) -> B[5] = scatter_into(d, is, vs)";
    assert_eq!(ret_type(ok), Type::Array(adora_core::Base::B, vec![5]));
    let bad = "def main(d: R[5], is: Z[3], vs: Z[3]) -> R[5] = scatter_into(d, is, vs)";
    fails_at(bad, TypeErr, "vs)", "destination has type R[5]");
}

#[test]
fn loops() {
    assert_eq!(
        ret_type("def main(x: R) -> R = loop (a = x) for i < 3 do a * real(i)"),
        r(&[])
    );
    let tup = "def main(x: R) -> (R, Z) = loop ((a, k) = (x, 0)) for i < 3 do (a * 2, k + i)";
    assert_eq!(ret_type(tup), Type::Tuple(vec![r(&[]), z(&[])]));
    fails_at(
        "def main(x: R) -> R = loop (a = x) for i < 3 do i",
        TypeErr,
        "~i",
        "body of `loop` has type Z, expected R",
    );
    fails_at(
        "def main(x: R) -> R = loop (i = x) for i < 3 do i",
        Name,
        "loop",
        "bound twice",
    );
}

#[test]
fn resource_limits() {
    fails_at(
        "def main(x: R[100000, 100000]) -> R = 0",
        Resource,
        "x:",
        "elements",
    );
    fails_at(
        "def main(x: R[100000]) -> R = sum(replicate(100000, x))",
        Resource,
        "replicate",
        "elements",
    );
    fails_at(
        "def main() -> Z = sum(iota(99999999999))",
        Resource,
        "iota",
        "elements",
    );
}

fn kind_of(src: &str) -> ErrorKind {
    fail(src).kind
}

#[test]
fn errors_render_with_positions() {
    let src = "def main(x: R[3]) -> R[3] =\n  x + [1, 2]";
    assert_eq!(kind_of(src), Shape);
    let d = fail(src);
    assert_eq!(d.position(src), (2, 3));
    let text = d.render("t.adl", src);
    assert!(text.contains("t.adl:2:3: error[shape]"), "{text}");
    assert!(
        text.contains("R[3]") && text.contains("Z[2]") || text.contains("R[2]"),
        "{text}"
    );
}
