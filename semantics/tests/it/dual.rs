//! Dual numbers: the arithmetic of `Dual<F>` and the derivative of every primitive, compared
//! exactly with hand-derived values (transcendentals at `Dual<f64>` with a stated tolerance).
use crate::common;
use adora_core::diag::ErrorKind;
use adora_semantics::dual::Dual;
use adora_semantics::eval::EvalOptions;
use adora_semantics::reference::gradient;
use adora_semantics::scalar::{Scalar, Transcendental};
use adora_semantics::value::Value;
use adora_semantics::Rat;
use common::*;

fn d(v: Rat, t: &[(usize, Rat)]) -> Dual<Rat> {
    Dual::new(v, t.to_vec())
}

#[test]
fn dual_arithmetic_rules() {
    let x = d(ri(3), &[(0, ri(1)), (2, ri(2))]);
    let y = d(ri(5), &[(1, ri(1)), (2, ri(-1))]);
    assert_eq!(x.add(&y), d(ri(8), &[(0, ri(1)), (1, ri(1)), (2, ri(1))]));
    assert_eq!(x.sub(&y), d(ri(-2), &[(0, ri(1)), (1, ri(-1)), (2, ri(3))]));
    // (xy)' = x' y + x y'
    assert_eq!(x.mul(&y), d(ri(15), &[(0, ri(5)), (1, ri(3)), (2, ri(7))]));
    // (x/y)' = (x' y - x y') / y^2
    assert_eq!(
        x.checked_div(&y).unwrap(),
        d(
            rat(3, 5),
            &[(0, rat(1, 5)), (1, rat(-3, 25)), (2, rat(13, 25))]
        )
    );
    assert_eq!(x.neg(), d(ri(-3), &[(0, ri(-1)), (2, ri(-2))]));
    assert_eq!(x.checked_div(&d(ri(0), &[(0, ri(1))])), None);
    // cancellation removes the entry, so equal duals are ==
    let z = x.sub(&x);
    assert_eq!(z, Dual::constant(ri(0)));
    assert!(z.is_zero());
    assert_eq!(z.tangents(), &[]);
    // normalisation: sorted, duplicates added, zeros dropped
    let n = Dual::new(ri(1), vec![(3, ri(1)), (1, ri(2)), (3, ri(-1)), (2, ri(0))]);
    assert_eq!(n.tangents(), &[(1, ri(2))]);
    assert_eq!(n.tangent(1), ri(2));
    assert_eq!(n.tangent(7), ri(0));
}

#[test]
fn add_assign_merges_every_way() {
    let mut a = d(ri(1), &[(1, ri(1)), (4, ri(1))]);
    a.add_assign(&d(
        ri(1),
        &[(0, ri(1)), (1, ri(-1)), (3, ri(2)), (9, ri(5))],
    ));
    assert_eq!(
        a,
        d(ri(2), &[(0, ri(1)), (3, ri(2)), (4, ri(1)), (9, ri(5))])
    );
    let mut b = d(ri(0), &[(1, ri(1))]);
    b.add_assign(&d(ri(0), &[(2, ri(1))]));
    b.add_assign(&Dual::constant(ri(3)));
    assert_eq!(b, d(ri(3), &[(1, ri(1)), (2, ri(1))]));
    let mut c: Dual<Rat> = Dual::constant(ri(0));
    c.add_assign(&d(ri(0), &[(5, ri(1))]));
    assert_eq!(c, d(ri(0), &[(5, ri(1))]));
}

#[test]
fn abs_compare_floor_and_sizes() {
    let at = |v: i64| d(ri(v), &[(0, ri(1))]).abs();
    assert_eq!(at(-2), d(ri(2), &[(0, ri(-1))]));
    assert_eq!(at(0), Dual::constant(ri(0)));
    assert_eq!(at(3), d(ri(3), &[(0, ri(1))]));
    let (p, q) = (d(ri(1), &[(0, ri(100))]), d(ri(1), &[]));
    assert_eq!(p.compare(&q), Some(std::cmp::Ordering::Equal));
    assert_eq!(d(rat(-1, 2), &[(0, ri(1))]).floor_i64(), Some(-1));
    let big = Rat::from_integer(num_bigint::BigInt::from(1u8) << 100);
    assert!(d(ri(1), &[(0, ri(1))]).fits_bits(8));
    assert!(!d(ri(1), &[(0, big.clone())]).fits_bits(64));
    assert!(!d(big, &[]).fits_bits(64));
    assert_eq!(
        d(ri(1), &[])
            .transcendental(Transcendental::Exp)
            .unwrap_err()
            .message(),
        "`exp` is not a rational operation; use --numeric f64"
    );
}

/// The exact gradient of `main` of `src` at literal inputs, as literals (None → "-").
fn grad(src: &str, inputs: &[&str]) -> (String, Vec<String>) {
    let f = prog(src);
    let g = gradient(&f, &lits::<Rat>(&f, inputs), &EvalOptions::default()).expect("gradient");
    let show = |v: &Option<Value<Rat>>| {
        v.as_ref()
            .map_or("-".to_string(), adora_semantics::io::to_literal)
    };
    (
        adora_semantics::io::to_literal(&g.value),
        g.grads.iter().map(show).collect(),
    )
}

fn g2(src: &str, x: &str, y: &str) -> Vec<String> {
    grad(src, &[x, y]).1
}

#[test]
fn derivative_of_each_rational_primitive() {
    let two = "def main(x: R, y: R) -> R = ";
    let p = |body: &str| format!("{two}{body}");
    assert_eq!(g2(&p("x * y"), "3", "5"), ["5", "3"]);
    assert_eq!(g2(&p("x / y"), "3", "5"), ["1/5", "-3/25"]);
    assert_eq!(
        grad(&p("x / y"), &["3", "0"]),
        ("0".to_string(), vec!["0".to_string(), "0".to_string()])
    );
    assert_eq!(g2(&p("x - y"), "3", "5"), ["1", "-1"]);
    assert_eq!(g2(&p("-x + 0 * y"), "3", "5"), ["-1", "0"]);
    assert_eq!(g2(&p("pow(x, 3) + y"), "2", "0"), ["12", "1"]);
    assert_eq!(g2(&p("pow(x, -2) + y"), "2", "0"), ["-1/4", "1"]);
    assert_eq!(g2(&p("pow(x, 0) * y"), "2", "7"), ["0", "1"]);
    assert_eq!(g2(&p("pow(x, -1) + y"), "0", "7"), ["0", "1"]);
    assert_eq!(g2(&p("abs(x) + y"), "-2", "0"), ["-1", "1"]);
    assert_eq!(g2(&p("abs(x) + y"), "0", "0"), ["0", "1"]);
    assert_eq!(g2(&p("abs(x) + y"), "3", "0"), ["1", "1"]);
    // min/max: a wins ties; the derivative follows the selected operand
    assert_eq!(g2(&p("min(x, y)"), "2", "2"), ["1", "0"]);
    assert_eq!(g2(&p("min(x, y)"), "3", "2"), ["0", "1"]);
    assert_eq!(g2(&p("max(x, y)"), "2", "2"), ["1", "0"]);
    assert_eq!(g2(&p("max(x, y)"), "1", "2"), ["0", "1"]);
    assert_eq!(g2(&p("select(x > y, x, y * y)"), "1", "2"), ["0", "4"]);
    assert_eq!(g2(&p("if x > y then x * x else y"), "3", "2"), ["6", "0"]);
    assert_eq!(g2(&p("real(floor(x)) * y"), "5/2", "3"), ["0", "2"]);
}

#[test]
fn derivative_of_array_primitives() {
    let one = |src: &str, x: &str| grad(src, &[x]).1[0].clone();
    assert_eq!(
        one("def main(x: R[3]) -> R = sum(x * x)", "[1, 2, 3]"),
        "[2, 4, 6]"
    );
    assert_eq!(
        one("def main(x: R[3]) -> R = reduce(*, 1, x)", "[2, 3, 4]"),
        "[12, 8, 6]"
    );
    assert_eq!(
        one("def main(x: R[3]) -> R = reduce(max, 0, x)", "[1, 3, 3]"),
        "[0, 1, 0]"
    );
    assert_eq!(
        one("def main(x: R[3]) -> R = reduce(min, 1, x)", "[1, 3, 1]"),
        "[1, 0, 0]"
    );
    assert_eq!(
        one("def main(x: R[3]) -> R = reduce(min, 0, x)", "[1, 3, 1]"),
        "[0, 0, 0]"
    );
    assert_eq!(
        one("def main(x: R[3]) -> R = sum(scan(+, 0, x))", "[5, 6, 7]"),
        "[3, 2, 1]"
    );
    assert_eq!(
        one(
            "def main(x: R[2,2]) -> R = sum(transpose([1, 0], x) * [[1, 2], [3, 4]])",
            "[[0, 0], [0, 0]]"
        ),
        "[[1, 3], [2, 4]]"
    );
    let src = "def main(x: R[4]) -> R = sum(gather([3], x, i => [i + 2]) * [1, 10, 100])";
    assert_eq!(one(src, "[1, 1, 1, 1]"), "[0, 0, 1, 10]");
    let src = "def main(x: R[3]) -> R = sum(scatter([2], x, i => [i % 2]) * [1, 10])";
    assert_eq!(one(src, "[1, 1, 1]"), "[1, 10, 1]");
    let src = "def main(d: R[2], v: R[3]) -> R = sum(reduce_by_index(d, *, 1, [0, 0, 3], v))";
    assert_eq!(
        grad(src, &["[2, 5]", "[3, 4, 9]"]).1,
        ["[12, 1]", "[8, 6, 0]"]
    );
    let src = "def main(d: R[2], v: R[3]) -> R = sum(scatter_into(d, [1, 1, 7], v))";
    assert_eq!(
        grad(src, &["[2, 5]", "[3, 4, 9]"]).1,
        ["[1, 0]", "[0, 1, 0]"]
    );
    let src = "def main(x: R) -> R = loop (a = x) for i < 3 do a * a";
    assert_eq!(
        grad(src, &["2"]),
        ("256".to_string(), vec!["1024".to_string()])
    );
}

#[test]
fn integer_and_boolean_inputs_are_constants() {
    let src = "def main(x: R, n: Z, b: B) -> R = select(b, x * real(n), x)";
    assert_eq!(grad(src, &["2", "3", "true"]).1, ["3", "-", "-"]);
}

#[test]
fn transcendental_derivatives_in_f64() {
    // tolerance: 1e-12 relative (each is one libm call and one multiplication)
    let cases: &[(&str, f64, f64)] = &[
        ("exp(x)", 0.5, 0.5f64.exp()),
        ("log(x)", 2.0, 0.5),
        ("sin(x)", 0.5, 0.5f64.cos()),
        ("cos(x)", 0.5, -0.5f64.sin()),
        ("tanh(x)", 0.5, 1.0 - 0.5f64.tanh().powi(2)),
        ("sqrt(x)", 4.0, 0.25),
        (
            "sqrt(x * x + 1) * exp(0 - x)",
            1.0,
            (1.0 / 2f64.sqrt() - 2f64.sqrt()) * (-1f64).exp(),
        ),
    ];
    for (body, x, want) in cases {
        let f = prog(&format!("def main(x: R) -> R = {body}"));
        let g = gradient(&f, &[Value::real(*x)], &EvalOptions::default()).unwrap();
        let got = *g.grads[0].as_ref().unwrap().as_real().unwrap();
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{body}: {got} vs {want}"
        );
    }
    // f64 is IEEE: sqrt'(0) = 1 / (2 sqrt 0) = +inf, log'(0) = 1 / 0 = +inf,
    // and the value of x / 0 is IEEE too (counted as a division by zero).
    for body in ["sqrt(x)", "log(x)"] {
        let f = prog(&format!("def main(x: R) -> R = {body}"));
        let g = gradient(&f, &[Value::real(0.0f64)], &EvalOptions::default()).unwrap();
        assert_eq!(g.grads[0], Some(Value::real(f64::INFINITY)), "{body}");
    }
    let f = prog("def main(x: R) -> R = 1 / x");
    let (v, stats) =
        adora_semantics::eval::eval(&f, &[Value::real(0.0f64)], &EvalOptions::default()).unwrap();
    assert_eq!(v, Value::real(f64::INFINITY));
    assert_eq!(stats.div_by_zero, 1);
    let f = prog("def main(x: R) -> R = x / x");
    let (v, _) =
        adora_semantics::eval::eval(&f, &[Value::real(0.0f64)], &EvalOptions::default()).unwrap();
    assert!(v.as_real().is_some_and(|r| r.is_nan()));
    // exact mode rejects them at the node
    let src = "def main(x: R) -> R = x + exp(x)";
    let f = prog(src);
    let e = gradient(&f, &[sr(ri(1))], &EvalOptions::default()).unwrap_err();
    assert_eq!(
        (e.kind, &src[e.span.start..e.span.end]),
        (ErrorKind::NonRational, "exp(x)")
    );
}
