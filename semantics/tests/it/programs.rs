//! Every construct and convention through source programs (parsed, checked and elaborated
//! by `adora_core::load`), compared exactly with hand-computed results.
use crate::common;
use common::*;

#[test]
fn design_examples() {
    assert_eq!(
        ev(
            "def main(x: R[3]) -> R = sum(x * build 3 (i => x[2 - i]))",
            &["[1, 2, 3]"]
        ),
        "10"
    );
    let conv = "def conv(x: R[10], w: R[3]) -> R[8] =
  build 8 (i => sum(build 3 (k => x[i + k] * w[k])))

def main(x: R[10], w: R[3]) -> R =
  let y = conv(x, w) in
  sum(y * y)";
    // y[i] = 6 i + 14 for x = 1..10, w = [1, 2, 3]
    let want: i64 = (0..8).map(|i| (6 * i + 14) * (6 * i + 14)).sum();
    assert_eq!(
        ev(conv, &["[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "[1, 2, 3]"]),
        want.to_string()
    );
}

#[test]
fn exact_decimals_and_broadcasting() {
    assert_eq!(ev("def main(x: R) -> R = x + 0.1 + 0.2", &["0"]), "3/10");
    assert_eq!(
        ev("def main(x: R[3]) -> R[3] = x * 2 + 1", &["[1, 1/2, -3]"]),
        "[3, 2, -5]"
    );
    assert_eq!(
        ev("def main(x: R[2]) -> R[2] = 1 / x", &["[3, 0]"]),
        "[1/3, 0]"
    );
    assert_eq!(ev("def main() -> R = -0.125 * 8", &[]), "-1");
}

#[test]
fn integer_division_conventions() {
    assert_eq!(
        ev(
            "def main(a: Z, b: Z) -> (Z, Z) = (a / b, a % b)",
            &["-7", "2"]
        ),
        "(-4, 1)"
    );
    assert_eq!(
        ev(
            "def main(a: Z, b: Z) -> (Z, Z) = (a / b, a % b)",
            &["7", "-2"]
        ),
        "(-4, -1)"
    );
    let (v, st) = ev_stats(
        "def main(a: Z, b: Z) -> (Z, Z) = (a / b, a % b)",
        &["7", "0"],
    );
    assert_eq!((v.as_str(), st.div_by_zero), ("(0, 7)", 2));
}

#[test]
fn control_and_tuples() {
    let src = "def main(x: R, n: Z) -> (R, Z) =
  let (a, b) = (x * x, n + 1) in
  if a > 1 then (a, b) else (0 - a, b * 2)";
    assert_eq!(ev(src, &["3", "1"]), "(9, 2)");
    assert_eq!(ev(src, &["1/2", "1"]), "(-1/4, 4)");
    assert_eq!(
        ev(
            "def main(p: (R, R[2])) -> R = p.0 * sum(p.1)",
            &["(2, [3, 4])"]
        ),
        "14"
    );
    assert_eq!(
        ev(
            "def main(x: R[3]) -> R[3] = select(x > 0, x, 0 - x)",
            &["[-1, 2, -3]"]
        ),
        "[1, 2, 3]"
    );
    assert_eq!(
        ev(
            "def main(c: B, x: R[2]) -> R[2] = select(c, x, x * 0)",
            &["false", "[1, 2]"]
        ),
        "[0, 0]"
    );
    assert_eq!(
        ev(
            "def main(a: B, b: B) -> B = !(a && b) || a == b",
            &["true", "true"]
        ),
        "true"
    );
}

#[test]
fn primitives() {
    assert_eq!(
        ev("def main(x: R[3]) -> R[3] = abs(x)", &["[-1/2, 0, 2]"]),
        "[1/2, 0, 2]"
    );
    assert_eq!(
        ev("def main(x: R[3]) -> Z[3] = floor(x)", &["[-1/2, 0, 5/2]"]),
        "[-1, 0, 2]"
    );
    assert_eq!(
        ev("def main(n: Z[2]) -> R[2] = real(n) / 2", &["[3, -1]"]),
        "[3/2, -1/2]"
    );
    assert_eq!(
        ev(
            "def main(x: R, y: R) -> (R, R) = (min(x, y), max(x, y))",
            &["2", "-1"]
        ),
        "(-1, 2)"
    );
    assert_eq!(
        ev(
            "def main(x: R) -> (R, R, R) = (pow(x, 3), pow(x, 0), pow(x, -2))",
            &["1/2"]
        ),
        "(1/8, 1, 4)"
    );
    assert_eq!(
        ev(
            "def main(x: R[2,3]) -> R = sum(x)",
            &["[[1, 2, 3], [4, 5, 6]]"]
        ),
        "21"
    );
    assert_eq!(
        ev(
            "def main(x: R[2,3]) -> R[3] = sum_outer(x)",
            &["[[1, 2, 3], [4, 5, 6]]"]
        ),
        "[5, 7, 9]"
    );
    assert_eq!(
        ev("def main(x: R[2]) -> R[2,2] = replicate(2, x)", &["[1, 2]"]),
        "[[1, 2], [1, 2]]"
    );
    assert_eq!(
        ev(
            "def main(x: R[2,3]) -> R[3,2] = transpose([1, 0], x)",
            &["[[1, 2, 3], [4, 5, 6]]"]
        ),
        "[[1, 4], [2, 5], [3, 6]]"
    );
    assert_eq!(
        ev(
            "def main(x: R[2,3]) -> R[3,2] = reshape([3, 2], x)",
            &["[[1, 2, 3], [4, 5, 6]]"]
        ),
        "[[1, 2], [3, 4], [5, 6]]"
    );
    assert_eq!(ev("def main() -> Z[4] = iota(4)", &[]), "[0, 1, 2, 3]");
    assert_eq!(
        ev(
            "def main(a: R[1], b: R[2]) -> R[3] = append(a, b)",
            &["[1]", "[2, 3]"]
        ),
        "[1, 2, 3]"
    );
    assert_eq!(
        ev(
            "def main(a: R[2], b: R[2]) -> R[2,2] = stack([a, b])",
            &["[1, 2]", "[3, 4]"]
        ),
        "[[1, 2], [3, 4]]"
    );
    assert_eq!(
        ev(
            "def main(a: R, b: R) -> R[2,2] = [[a, b], [b, a]]",
            &["1", "2"]
        ),
        "[[1, 2], [2, 1]]"
    );
}

#[test]
fn index_forms_and_out_of_bounds() {
    let (v, st) = ev_stats(
        "def main(x: R[2,3]) -> R[3] = x[2]",
        &["[[1, 2, 3], [4, 5, 6]]"],
    );
    assert_eq!((v.as_str(), st.oob_reads), ("[0, 0, 0]", 1));
    assert_eq!(
        ev(
            "def main(x: R[2,3], i: Z) -> R = x[i, i + 1]",
            &["[[1, 2, 3], [4, 5, 6]]", "1"]
        ),
        "6"
    );
    let src = "def main(x: R[5,2]) -> R[2,3] = gather([2, 3], x, (i, j) => [2 * (i + j), i])";
    let (v, st) = ev_stats(src, &["[[10, 11], [20, 21], [30, 31], [40, 41], [50, 51]]"]);
    assert_eq!(
        (v.as_str(), st.oob_reads),
        ("[[10, 30, 50], [31, 51, 0]]", 1)
    );
    let src = "def main(x: R[9,2]) -> R[7,2] = scatter([7, 2], x, (i, j) => [i % 7, j])";
    let x = "[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [8, 8], [9, 9]]";
    assert_eq!(
        ev(src, &[x]),
        "[[9, 9], [11, 11], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]]"
    );
    assert_eq!(
        ev(
            "def main() -> Z[2,3] = build [2, 3] ((i, j) => 10 * i + j)",
            &[]
        ),
        "[[0, 1, 2], [10, 11, 12]]"
    );
}

#[test]
fn soac_forms() {
    assert_eq!(
        ev(
            "def main(x: R[3], y: R[3]) -> R[3] = map((a, b) => a * b + 1, x, y)",
            &["[1, 2, 3]", "[4, 5, 6]"]
        ),
        "[5, 11, 19]"
    );
    assert_eq!(
        ev(
            "def main(x: R[4]) -> R = reduce(+, 0, x)",
            &["[1, 2, 3, 4]"]
        ),
        "10"
    );
    assert_eq!(
        ev(
            "def main(x: R[3,4]) -> R[4] = reduce(*, replicate(4, 1), x)",
            &["[[1, 2, 3, 4], [1, 2, 3, 4], [2, 2, 2, 2]]"]
        ),
        "[2, 8, 18, 32]"
    );
    assert_eq!(
        ev(
            "def main(x: R[4]) -> R = reduce(min, 100, x)",
            &["[3, 1, 2, 5]"]
        ),
        "1"
    );
    assert_eq!(
        ev(
            "def main(x: R[3]) -> R = reduce((a, b) => 2 * a + b, 1, x)",
            &["[5, 6, 7]"]
        ),
        "47"
    );
    assert_eq!(
        ev(
            "def main(x: R[4]) -> R[4] = scan(+, 0, x)",
            &["[1, 2, 3, 4]"]
        ),
        "[1, 3, 6, 10]"
    );
    assert_eq!(
        ev(
            "def main(x: R[4]) -> R[4] = scan(max, 2, x)",
            &["[1, 3, 2, 5]"]
        ),
        "[2, 3, 3, 5]"
    );
    let src = "def main(d: R[3], is: Z[5], vs: R[5]) -> R[3] = reduce_by_index(d, +, 0, is, vs)";
    let (v, st) = ev_stats(
        src,
        &["[1, 1, 1]", "[0, 2, 0, 7, -1]", "[10, 20, 30, 40, 50]"],
    );
    assert_eq!((v.as_str(), st.oob_writes), ("[41, 1, 21]", 2));
    let src = "def main(d: R[3], is: Z[4], vs: R[4]) -> R[3] = scatter_into(d, is, vs)";
    let (v, st) = ev_stats(src, &["[0, 0, 0]", "[2, 0, 2, 3]", "[1, 2, 3, 4]"]);
    assert_eq!(
        (v.as_str(), st.colliding_writes, st.oob_writes),
        ("[2, 0, 3]", 1, 1)
    );
    assert_eq!(
        ev(
            "def main(x: R) -> R = loop (a = x) for i < 4 do a * 2 + real(i)",
            &["1"]
        ),
        "27"
    );
    let src = "def main(n: Z) -> (Z, Z) = loop ((a, b) = (0, 1)) for i < 10 do (b, a + b)";
    assert_eq!(ev(src, &["0"]), "(55, 89)");
}

#[test]
fn empty_arrays_use_static_types() {
    // (the literal syntax has no `[]`, so the empty input is built directly)
    let empty = || vec![vr(&[])];
    let f = prog("def main(x: R[0]) -> R[0,2] = build 0 (i => [x[i], 1])");
    assert_eq!(
        run(&f, &empty()),
        adora_semantics::value::Value::reals(vec![0, 2], vec![]).unwrap()
    );
    let f = prog("def main(x: R[0]) -> R[0,2] = map(a => [a * 2, 1], x)");
    assert_eq!(run(&f, &empty()).ty(), tra(&[0, 2]));
    assert_eq!(
        run(&prog("def main(x: R[0]) -> R = reduce(+, 3, x)"), &empty()),
        sr(ri(3))
    );
    assert_eq!(
        run(&prog("def main(x: R[0]) -> R = sum(x)"), &empty()),
        sr(ri(0))
    );
    assert_eq!(
        run(&prog("def main(x: R[0]) -> R[0] = scan(*, 3, x)"), &empty()),
        vr(&[])
    );
}
