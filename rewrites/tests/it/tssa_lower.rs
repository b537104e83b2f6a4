//! Engine `tssa`'s lowering (docs/engines/tssa-lowering.md): the construct table on small
//! programs, exact terms, and the rejected constructs.

use adora_core::diag::ErrorKind;
use adora_core::tl::{BlackBox, CmpOp, DataRef, Pred, Term, Ty};
use adora_rewrites::tssa::lower::{lower, lower_with_rows, mk};

fn load(src: &str) -> adora_core::Function {
    adora_core::load(src, "main").expect("the test program loads")
}

fn var(x: &str) -> Term {
    Term::Var(x.into())
}

#[test]
fn sum_of_a_product_is_one_fused_sum() {
    let f = load("def main(x: R[3]) -> R = sum(x * x)");
    let l = lower(&f).unwrap();
    assert_eq!(
        l.inputs,
        vec![("x".to_string(), Ty::Arr(3, Box::new(Ty::Num)))]
    );
    let Term::Sum(i, 3, body) = &l.term else {
        panic!("not a sum: {:?}", l.term)
    };
    let xi = mk::access(var("x"), &[mk::ivar(i)]);
    assert_eq!(**body, mk::mul(xi.clone(), xi));
}

#[test]
fn subtraction_and_division_are_the_papers_desugarings() {
    let f = load("def main(a: R, b: R) -> R = a - b / a");
    let l = lower(&f).unwrap();
    let quotient = mk::mul(var("b"), mk::call(BlackBox::Recip, var("a")));
    assert_eq!(l.term, mk::add(var("a"), mk::mul(mk::num(-1), quotient)));
}

#[test]
fn min_reads_let_bound_operands_in_a_data_predicate() {
    let f = load("def main(a: R, b: R) -> R = min(a * b, b)");
    let (l, rows) = lower_with_rows(&f).unwrap();
    assert!(rows.contains(&"min-max"), "{rows:?}");
    let Term::Let(c, prod, body) = &l.term else {
        panic!("the compared product is not let-bound: {:?}", l.term)
    };
    assert_eq!(**prod, mk::mul(var("a"), var("b")));
    let p = Pred::Data(
        CmpOp::Le,
        DataRef::Read(c.clone(), vec![]),
        DataRef::Read("b".into(), vec![]),
    );
    let expected = mk::add(
        mk::bracket(p.clone(), var(c)),
        mk::bracket(mk::not(p), var("b")),
    );
    assert_eq!(**body, expected);
}

#[test]
fn tuples_are_right_nested_pairs() {
    let f = load("def main(x: (R, R, R)) -> (R, R) = (x.2, x.0)");
    let l = lower(&f).unwrap();
    let pair = |a, b| Ty::Pair(Box::new(a), Box::new(b));
    assert_eq!(l.inputs[0].1, pair(Ty::Num, pair(Ty::Num, Ty::Num)));
    let x2 = mk::proj(1, mk::proj(1, var("x")));
    let x0 = mk::proj(0, var("x"));
    assert_eq!(l.term, Term::Pair(Box::new(x2), Box::new(x0)));
}

#[test]
fn out_of_bounds_capable_indices_are_guarded() {
    let f = load("def main(x: R[3], k: Z) -> R = x[k] + x[1]");
    let (l, rows) = lower_with_rows(&f).unwrap();
    assert!(rows.contains(&"index-opaque"), "{rows:?}");
    let Term::Add(a, b) = &l.term else {
        panic!("{:?}", l.term)
    };
    assert!(matches!(**a, Term::Bracket(..)), "{a:?}");
    assert_eq!(**b, mk::access(var("x"), &[mk::iconst(1)]));
    assert_eq!(l.inputs[1].1, Ty::Int);
}

#[test]
fn every_table_row_of_the_bulk_fragment_lowers() {
    let src = "def main(x: R[2, 3], v: R[3], c: B[3], is: Z[2]) -> R[3] =
        let t = transpose([1, 0], x) in
        let r = reshape([3, 2], x) in
        let g = gather([2], v, i => [is[i]]) in
        let s = scatter([3], g, i => [is[i]]) in
        let a = append([1.0], v) in
        let st = stack([v, v]) in
        let m = max(v, replicate(3, 0.5)) in
        let e = select(c, v, v * v) in
        let o = sum_outer(t) in
        build 3 (j => sum(r[j]) + s[j] + a[j + 1] + st[1, j] + m[j] + e[j] + o[0] + real(j) + [1.0, 2.0, 3.0][j])";
    let f = load(src);
    let (_, rows) = lower_with_rows(&f).unwrap();
    for row in [
        "transpose",
        "reshape",
        "gather",
        "scatter",
        "append",
        "array",
        "min-max",
        "select",
        "sum-outer",
        "sum",
        "build",
        "real",
        "replicate",
        "relation",
        "int-data",
    ] {
        assert!(rows.contains(&row), "row {row} did not fire: {rows:?}");
    }
}

#[test]
fn constructs_outside_the_fragment_are_unsupported_at_their_span() {
    for (src, what) in [
        ("def main(x: R) -> R = if x > 0 then x else 0", "`if`"),
        ("def main(x: R[3]) -> R = reduce(*, 1, x)", "`reduce`"),
        ("def main(x: R[3]) -> R[3] = scan(+, 0, x)", "`scan`"),
        (
            "def main(x: R) -> R = loop (a = x) for i < 3 do a * x",
            "`loop`",
        ),
        ("def main(x: R) -> Z = floor(x)", "result type"),
    ] {
        let f = load(src);
        let e = lower(&f).expect_err(src);
        assert_eq!(e.kind, ErrorKind::Unsupported, "{src}: {e:?}");
        assert!(e.message.contains(what), "{src}: {}", e.message);
    }
}
