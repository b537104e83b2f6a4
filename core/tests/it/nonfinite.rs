//! The non-finite real literals `inf` and `nan` (docs/language.md, "Non-finite literals"): reserved
//! words that parse to `Lit::NonFinite`, type as `R`, print back as themselves, and are
//! not usable as names.
use adora_core::ast::{ExprKind, Lit, NonFinite, UnOp};
use adora_core::diag::ErrorKind;
use adora_core::parser::{parse_expr, parse_literal};
use adora_core::types::Type;

#[test]
fn inf_and_nan_are_literals() {
    let e = parse_expr("inf").unwrap();
    assert_eq!(e.kind, ExprKind::Lit(Lit::NonFinite(NonFinite::Inf)));
    let e = parse_expr("nan").unwrap();
    assert_eq!(e.kind, ExprKind::Lit(Lit::NonFinite(NonFinite::NaN)));
    // `-inf` is the negation of `inf` (value literals included).
    let e = parse_literal("[-inf]").unwrap();
    let ExprKind::Array(es) = &e.kind else {
        panic!("{e:?}")
    };
    let ExprKind::Unary(UnOp::Neg, a) = &es[0].kind else {
        panic!("{:?}", es[0])
    };
    assert_eq!(a.kind, ExprKind::Lit(Lit::NonFinite(NonFinite::Inf)));
    assert_eq!((a.span.start, a.span.end), (2, 5));
}

#[test]
fn they_are_reals_and_print_back_as_themselves() {
    let src = "def main(x: R[2]) -> R = reduce(max, -inf, x) + min(x[0], inf) * nan";
    let f = adora_core::load(src, "main").unwrap();
    assert_eq!(f.ret, Type::real());
    let printed = adora_core::pretty::function(&f);
    assert!(
        printed.contains("inf") && printed.contains("nan"),
        "{printed}"
    );
    let again = adora_core::load(&printed, "main").unwrap();
    assert_eq!(again, f);
    // Mixed with integers they are reals like any real literal.
    let e = adora_core::load("def main(k: Z) -> R = k + inf", "main").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Type, "{}", e.message);
}

#[test]
fn they_are_reserved_words() {
    for src in [
        "def main(inf: R) -> R = inf",
        "def main(x: R) -> R = let nan = x in nan",
        "def inf(x: R) -> R = x",
    ] {
        let e = adora_core::load(src, "main").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax, "{src}: {}", e.message);
    }
    assert!(adora_core::lexer::is_reserved("inf"));
    assert!(adora_core::lexer::is_reserved("nan"));
    assert!(!adora_core::lexer::is_valid_name("inf"));
}

#[test]
fn linear_a_reads_them_as_atoms() {
    let src = "def main_jvp(x: R ; dx: R) -> (R ; R) =\n  let mul_1 = x * inf in\n  let d_1 = nan * dx in\n  (mul_1 ; d_1)\n";
    let p = adora_core::linear::parse::parse_program(src).unwrap_or_else(|d| panic!("{d}"));
    let printed = format!("{p:?}");
    assert!(
        printed.contains("NonFinite(Inf)") && printed.contains("NonFinite(NaN)"),
        "{printed}"
    );
}
