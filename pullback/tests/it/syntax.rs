//! Free variables, α-equivalence, canonical sums and printing of terms.

use adora_pullback::syntax::{FnSym, Fresh, Term, Ty, Var};

#[test]
fn free_vars_respect_let_and_lambda_scopes() {
    let x = Var::new("x", 1);
    let y = Var::new("y", 2);
    let z = Var::new("z", 0);
    // let y = x in \x. mul (x, (y, z))   -- the second x is bound
    let inner = Term::lam(
        &x,
        Term::app(
            Term::sym(FnSym::Mul),
            Term::pair(Term::var(&x), Term::pair(Term::var(&y), Term::var(&z))),
        ),
    );
    let t = Term::let_(&y, Term::var(&x), inner);
    let fv: Vec<_> = t.free_vars().into_iter().collect();
    assert_eq!(fv, vec![x, z]);
}

#[test]
fn alpha_equivalence_ignores_binder_ids_but_not_structure() {
    let a = Var::new("a", 1);
    let b = Var::new("b", 7);
    let f = Var::new("f", 0);
    let t1 = Term::lam(&a, Term::app(Term::var(&f), Term::var(&a)));
    let t2 = Term::lam(&b, Term::app(Term::var(&f), Term::var(&b)));
    let t3 = Term::lam(&b, Term::app(Term::var(&f), Term::var(&f)));
    assert!(t1.alpha_eq(&t2));
    assert!(!t1.alpha_eq(&t3));
}

#[test]
fn sums_are_flat_and_drop_zeros() {
    let x = Var::new("x", 0);
    let s = Term::sum([
        Term::var(&x),
        Term::zero(),
        Term::sum([Term::int(1), Term::int(2)]),
    ]);
    assert_eq!(s.to_string(), "x + 1 + 2");
    assert_eq!(Term::sum([Term::zero(), Term::int(3)]).to_string(), "3");
    assert_eq!(Term::sum([]).to_string(), "zero");
}

#[test]
fn printing_parenthesises_by_precedence() {
    let mut fresh = Fresh::starting_at(1);
    let x = fresh.var("x");
    let f = Var::new("f", 0);
    let lam = Term::lam(&x, Term::var(&x));
    let t = Term::app(
        lam.clone(),
        Term::app(Term::var(&f), Term::proj(Term::var(&f), true)),
    );
    assert_eq!(t.to_string(), "(\\x. x) (f f.1)");
    let omega = Term::omega(&mut fresh);
    assert_eq!(
        Term::app(Term::pb(lam, omega), Term::int(-3)).to_string(),
        "pb(\\x. x, \\y. \\w. w) -3"
    );
    let ty = Ty::fun(
        Ty::Dual(Box::new(Ty::reals(2))),
        Ty::fun(Ty::Real, Ty::Real),
    );
    assert_eq!(ty.to_string(), "dual (R, R) -> R -> R");
    assert_eq!(FnSym::Pow(-2).name(), "pow<-2>");
    assert_eq!(FnSym::from_name("sel_le").map(FnSym::arity), Some(4));
}

#[test]
fn shadowed_names_print_with_their_ids() {
    let x1 = Var::new("x", 1);
    let x2 = Var::new("x", 2);
    let t = Term::lam(&x1, Term::lam(&x2, Term::var(&x1)));
    assert_eq!(t.to_string(), "\\x'1. \\x'2. x'1");
}
