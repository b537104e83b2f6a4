//! The type checker: the rules of Fig. 2 (reconstructed), unification for unannotated
//! abstractions, `dual σ` convertible to `σ -> R`, and errors at the offending subterm.

use adora_core::diag::ErrorKind;
use adora_pullback::parse;
use adora_pullback::syntax::{Ty, Var};
use adora_pullback::types::infer;

fn ty_of(src: &str) -> String {
    let t = parse::term(src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    infer(&t, &[])
        .unwrap_or_else(|d| panic!("{src}: {}", d.render("t", src)))
        .to_string()
}

fn type_error(src: &str) -> (usize, usize, String) {
    let t = parse::term(src).unwrap();
    let d = infer(&t, &[]).expect_err(src);
    assert_eq!(d.kind, ErrorKind::Type, "{}", d.message);
    (d.span.start, d.span.end, d.message)
}

#[test]
fn the_running_example_and_its_pullback() {
    let f = r"\z. mul (add (z.0, 1), add (mul (2, z.0), mul (z.1, z.1)))";
    assert_eq!(ty_of(f), "(R, R) -> R");
    assert_eq!(ty_of(&format!("pb({f}, omega)")), "(R, R) -> dual (R, R)");
    assert_eq!(ty_of(&format!("pb({f}, omega) (1, 3)")), "dual (R, R)");
    // A dual is applied like a function to a tangent.
    assert_eq!(ty_of(&format!("pb({f}, omega) (1, 3) (1, 0)")), "R");
    assert_eq!(ty_of(&format!("J({f}, (1, 0)) (1, 3)")), "R");
}

#[test]
fn higher_order_terms_unify() {
    let church = r"let nil = \c. \n. n in
        let cons = \x. \l. \c. \n. c x (l c n) in
        let sum = \l. l (\x. \acc. add (x, acc)) 0 in
        \z. sum (cons z.0 (cons z.1 nil))";
    assert_eq!(ty_of(church), "(R, R) -> R");
    assert_eq!(ty_of(r"\f. \x. f (f x)"), "(R -> R) -> R -> R");
    assert_eq!(
        ty_of(r"\x. (pb(\y. mul (y, mul (y, y)), omega) x) 1"),
        "R -> R"
    );
    assert_eq!(ty_of(r"\x. x"), "R -> R");
    assert_eq!(ty_of(r"\x: (R, R). x"), "(R, R) -> (R, R)");
    assert_eq!(ty_of("zero + (1, 2)"), "(R, R)");
    assert_eq!(ty_of(r"dual(\w. w, \y. y)"), "dual R");
    assert_eq!(ty_of(r"dual(\w. (w, w), \y. add y) 3"), "R");
    assert_eq!(ty_of(r"\f: dual (R, R). f (1, 2)"), "dual (R, R) -> R");
    assert_eq!(ty_of("pow<3>"), "R -> R");
    assert_eq!(ty_of("sel_lt"), "(R, (R, (R, R))) -> R");
}

#[test]
fn free_variables_take_the_environment_or_unify() {
    let t = parse::term("mul (x, y)").unwrap();
    let x = Var::new("x", 0);
    assert_eq!(infer(&t, &[(x.clone(), Ty::Real)]).unwrap(), Ty::Real);
    let bad = infer(&t, &[(x, Ty::pair(Ty::Real, Ty::Real))]).expect_err("x is a pair");
    assert_eq!(bad.kind, ErrorKind::Type);
    assert_eq!((bad.span.start, bad.span.end), (4, 10));
}

#[test]
fn errors_point_at_the_offending_subterm() {
    let (s, e, m) = type_error(r"\x. add (x, 1) + add 1");
    assert_eq!((s, e), (21, 22), "{m}");
    assert!(m.contains("should have type (R, R)"), "{m}");
    let (s, e, m) = type_error("(1, 2) 3");
    assert_eq!((s, e), (0, 6), "{m}");
    assert!(m.contains("not a function"), "{m}");
    let (s, e, _) = type_error(r"\x. x x");
    assert_eq!((s, e), (6, 7));
    let (s, e, _) = type_error("(1 + (1, 2))");
    assert_eq!((s, e), (5, 11));
    let (s, e, _) = type_error(r"pb(\x. (x, x), omega)");
    assert_eq!((s, e), (15, 20), "omega is a 1-form on R only");
    let (s, e, _) = type_error(r"J(\x. mul (x, x), (1, 2))");
    assert_eq!((s, e), (18, 24));
    let (s, e, _) = type_error(r"dual(\w. w, 3)");
    assert_eq!((s, e), (12, 13));
    let (s, e, _) = type_error(r"\p: (R, R). p.0.1");
    assert_eq!((s, e), (12, 15));
}
