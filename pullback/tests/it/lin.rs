//! Linear positions `lin(s)` on the examples of the paper's §3.1 (reconstructed) and the
//! clauses for `zero`, sums, `J`, `dual` and `pb`.

use adora_pullback::lin::{lin, LinSet};
use adora_pullback::parse;
use adora_pullback::syntax::Var;

fn v(n: &str) -> Var {
    Var::new(n, 0)
}

fn lin_of(src: &str) -> LinSet {
    lin(&parse::term(src).unwrap())
}

fn vars(names: &[&str]) -> LinSet {
    LinSet::Vars(names.iter().map(|n| v(n)).collect())
}

#[test]
fn the_function_position_is_linear_and_the_argument_is_not() {
    assert_eq!(lin_of("x (y z)"), vars(&["x"]));
    assert_eq!(lin_of(r"\y. x y"), vars(&["x"]));
    assert_eq!(lin_of("x x"), vars(&[]));
    assert_eq!(lin_of("x.0 1"), vars(&["x"]));
}

#[test]
fn affine_terms_are_not_linear() {
    assert!(!lin_of("(x, 1)").contains(&v("x")));
    assert_eq!(lin_of("(x, y.1)"), vars(&[]));
    assert_eq!(lin_of("(x.0, x.1)"), vars(&["x"]));
    assert!(!lin_of("x + 1").contains(&v("x")));
    assert_eq!(lin_of("x + x.0 + x"), vars(&["x"]));
    assert_eq!(lin_of("add (x, x)"), vars(&[]));
    assert_eq!(lin_of("3"), vars(&[]));
}

#[test]
fn zero_is_linear_in_every_variable_but_binders_and_arguments_leave() {
    let z = lin_of("zero");
    assert!(z.contains(&v("x")) && z.contains(&v("anything")));
    let t = parse::term(r"\y. zero").unwrap();
    let adora_pullback::syntax::TermKind::Lam(y, _, _) = &t.kind else {
        panic!()
    };
    let l = lin(&t);
    assert!(!l.contains(y) && l.contains(&v("x")));
    let l = lin_of("zero x");
    assert!(!l.contains(&v("x")) && l.contains(&v("y")));
    assert_eq!(lin_of("(x, zero)"), vars(&["x"]));
    assert_eq!(lin_of("x + zero"), vars(&["x"]));
}

#[test]
fn jacobian_dual_and_pullback_clauses() {
    assert_eq!(lin_of("J(x, y)"), vars(&["x", "y"]));
    assert_eq!(lin_of("dual(x, y)"), vars(&["x", "y"]));
    assert_eq!(lin_of("J(x, x)"), vars(&[]));
    assert_eq!(lin_of("pb(x, y)"), vars(&["y"]));
    assert_eq!(lin_of("pb(x, x)"), vars(&[]));
    assert_eq!(lin_of("let a = y in x a"), vars(&["x"]));
    assert_eq!(lin_of("let a = x in a"), vars(&[]));
}
