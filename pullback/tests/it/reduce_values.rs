//! Values, the unique decomposition, and the complexity counters (linear growth in exact
//! counts, no wall-clock assertions).

use adora_pullback::ad;
use adora_pullback::anf;
use adora_pullback::parse;
use adora_pullback::reduce::{decompose, is_value, Reducer};
use adora_pullback::syntax::{FnSym, Fresh, Term, Ty, Var};
use adora_semantics::Rat;

#[test]
fn values_and_redexes() {
    for v in [
        "3",
        "x",
        "\\x. mul (x, x)",
        "(1, 2)",
        "add (x, 1)",
        "J(y, u) 2",
        "dual(\\u. u, o)",
    ] {
        let t = parse::term(v).unwrap();
        assert!(is_value(&t), "{v}");
        assert!(decompose(&t).is_none(), "{v}");
    }
    for r in [
        "(\\x. x) 1",
        "(1, 2).0",
        "mul (2, 3)",
        "pb(\\x. let y = mul (x, x) in y, o)",
    ] {
        let t = parse::term(r).unwrap();
        assert!(!is_value(&t), "{r}");
        assert!(decompose(&t).is_some(), "{r}");
    }
}

/// `\x. let x1 = mul (x, x) in … in xk`.
fn swell(k: usize) -> Term {
    let mut fresh = Fresh::starting_at(1);
    let x = fresh.var("x");
    let vars: Vec<Var> = (1..=k).map(|i| fresh.var(&format!("x{i}"))).collect();
    let mut body = Term::var(&vars[k - 1]);
    for i in (0..k).rev() {
        let prev = if i == 0 { &x } else { &vars[i - 1] };
        let e = Term::app(
            Term::sym(FnSym::Mul),
            Term::pair(Term::var(prev), Term::var(prev)),
        );
        body = Term::let_(&vars[i], e, body);
    }
    Term::lam(&x, body)
}

/// `\x. let x1 = add (x, 1) in … in xk`.
fn chain(k: usize) -> Term {
    let mut fresh = Fresh::starting_at(1);
    let x = fresh.var("x");
    let mut prev = x.clone();
    let mut binds = Vec::new();
    for i in 1..=k {
        let v = fresh.var(&format!("x{i}"));
        binds.push((
            v.clone(),
            Term::app(
                Term::sym(FnSym::Add),
                Term::pair(Term::var(&prev), Term::int(1)),
            ),
        ));
        prev = v;
    }
    binds
        .into_iter()
        .rev()
        .fold(Term::var(&prev), |b, (v, e)| Term::let_(&v, e, b))
        .pipe(|b| Term::lam(&x, b))
}

trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
impl Pipe for Term {}

fn q(n: i64) -> Rat {
    Rat::from_integer(n.into())
}

#[test]
fn swell_family_counts_grow_linearly() {
    let mut steps = Vec::new();
    for k in 1..=16 {
        let r = ad::grad(&swell(k), &Ty::Real, &[q(1)], &Reducer::new()).unwrap();
        let s = &r.outcome.stats;
        assert_eq!(s.delta_f.get("mul"), Some(&(k as u64)));
        assert_eq!(s.delta_j.get("mul"), Some(&(k as u64)));
        assert_eq!(s.by_rule.get("P"), Some(&(k as u64)));
        assert_eq!(s.by_rule.get("5"), Some(&(k as u64)));
        assert_eq!(r.derivative, vec![q(1 << k)]);
        steps.push(s.steps);
    }
    // Exactly linear: 6 steps per let (8 or 7, P, 15, the primal and the Jacobian δ, 5)
    // and the 1-form applied to the value.
    for (k, s) in (1..).zip(&steps) {
        assert_eq!(*s, 6 * k + 1, "steps {steps:?}");
    }
}

#[test]
fn let_chain_counts_grow_linearly() {
    let mut steps = Vec::new();
    for k in 1..=16 {
        let r = ad::grad(&chain(k), &Ty::Real, &[q(0)], &Reducer::new()).unwrap();
        assert_eq!(r.value, vec![q(k as i64)]);
        assert_eq!(r.derivative, vec![q(1)]);
        assert_eq!(r.outcome.stats.delta_f.get("add"), Some(&(k as u64)));
        steps.push(r.outcome.stats.steps);
    }
    let d: Vec<u64> = steps.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(d[1..].iter().all(|&x| x == d[1]), "steps {steps:?}");
}

#[test]
fn a_2000_let_chain_reduces() {
    let r = ad::grad(&chain(2000), &Ty::Real, &[q(5)], &Reducer::new()).unwrap();
    assert_eq!(r.value, vec![q(2005)]);
    assert_eq!(r.derivative, vec![q(1)]);
}

#[test]
fn a_50000_let_chain_evaluates_without_overflowing_the_stack() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let f = chain(50_000);
            let t = Term::app(f, Term::int(0));
            let out = Reducer::new().run(&t).unwrap();
            assert!(out.value.alpha_eq(&Term::int(50_000)));
        })
        .unwrap()
        .join()
        .unwrap();
}

/// The largest term of the reduction of a let chain grows linearly with the number of lets
/// (exactly affinely: no path or tape grows with the position in the series). The rule 8
/// instances in `reduce_rules` check that the tape keeps only the live paths.
#[test]
fn largest_term_grows_linearly_on_let_chains() {
    let largest = |k: usize| {
        let f = anf::normalize(&chain(k), &mut Fresh::starting_at(10_000));
        let t = Term::app(
            Term::pb(f, Term::omega(&mut Fresh::starting_at(20_000))),
            Term::int(0),
        );
        let out = Reducer::new().trace(true).run(&t).unwrap();
        out.trace.iter().map(|s| s.term.size()).max().unwrap()
    };
    let (a, b, c) = (largest(16), largest(32), largest(64));
    assert_eq!(c - b, 2 * (b - a), "sizes {a}, {b}, {c} grow linearly");
}
