//! Values (paper §3.4; docs/engines/pullback-reduction.md, "Values"), numerals, and the
//! covector normal form (our decision, docs/engines/pullback-reduction.md, "Covector normal
//! form").
//!
//! | value | form | source |
//! |---|---|---|
//! | constants | `r`, `f`, `x`, `zero` | paper §3.4 |
//! | abstractions | `\x. s` (no reduction under λ, except the linear map of a `dual`) | paper §3.4 |
//! | pairs, sums | `(v, v)`; `v + … + v` with no two numerals and no two pairs | paper §3.4; sums: reconstructed |
//! | neutral terms | `f v` with `v` not numeric, `x v`, `x.i`, `dual(v, t)` with `t` stuck | reconstructed |
//! | value 1 | a Jacobian application with a free variable in function position, `J(y, u) v` | paper §3.4 |
//! | value 2 | a Jacobian application with another non-abstraction value in function position (a pair, a sum, `J(y, …)` with `y` free, …; a symbol, a pullback and the Jacobian of a symbol, abstraction or pullback reduce by 3 and 17) | paper §3.4 |
//!
//! A term is a value when its evaluated subterms are values and no rule applies at its root
//! ([`super::context::root_rule`]): the value set is exactly the complement of the redexes,
//! which is Lemma 3.6's "either a value or `E[r]`".
//!
//! **Covector normal form.** A linear functional on a first-order type is kept as
//! `\w. Σ_k c_k · w.path_k`: distinct projection paths in a fixed order, each with a non-zero
//! numeral coefficient, written `w.path` for coefficient 1 and `mul (c, w.path)` otherwise;
//! `\w. 0` for the zero functional. [`normalize_linear`] puts a linear body into that form
//! (and pairs of linear bodies component-wise); it is what makes each reverse step of the
//! reduction a vector–Jacobian product on a sparse vector, not a growing λ-term.

use super::context::root_rule;
use crate::syntax::{FnSym, Term, TermKind, Var};
use adora_semantics::Rat;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Whether `t` is a value of the call-by-value strategy (a normal form: no rule applies
/// anywhere in an evaluation context).
pub fn is_value(t: &Term) -> bool {
    // Forms that are redexes whatever their subterms are (rules 1, 2, 4, 5, P fire on them
    // unconditionally once the subterms are values): no need to inspect the subterms.
    match &t.kind {
        TermKind::App(f, _)
            if matches!(
                f.kind,
                TermKind::Lam(..)
                    | TermKind::Pb(..)
                    | TermKind::Dual(..)
                    | TermKind::Sum(_)
                    | TermKind::Zero
            ) =>
        {
            return false
        }
        TermKind::Proj(s, _)
            if matches!(
                s.kind,
                TermKind::Pair(..) | TermKind::Sum(_) | TermKind::Zero
            ) =>
        {
            return false
        }
        _ => {}
    }
    let children = match &t.kind {
        TermKind::Var(_) | TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => return true,
        TermKind::Lam(..) => return true,
        TermKind::Let(..) => return false,
        TermKind::App(a, b) | TermKind::Pair(a, b) | TermKind::Jac(a, b) | TermKind::Pb(a, b) => {
            is_value(a) && is_value(b)
        }
        TermKind::Dual(a, b) => {
            is_value(a)
                && is_value(b)
                && match &a.kind {
                    TermKind::Lam(_, _, body) => is_value(body),
                    _ => true,
                }
        }
        TermKind::Proj(s, _) => is_value(s),
        TermKind::Sum(ts) => ts.iter().all(is_value),
    };
    children && root_rule(t).is_none()
}

/// Whether the value `t` is a zero of its type: `zero`, the numeral `0`, a pair of zeros,
/// a sum of zeros, or an abstraction whose body is a zero (the zero function). Rule 9′
/// reads such a tangent or functional as `0`: `J(s, ·)`, `dual(s, ·)` and `pb(s, ·)` are
/// linear in it (docs/engines/pullback-reduction.md, rule 9′).
pub fn is_zero_value(t: &Term) -> bool {
    match &t.kind {
        TermKind::Zero => true,
        TermKind::Num(r) => r.is_zero(),
        TermKind::Pair(a, b) => is_zero_value(a) && is_zero_value(b),
        TermKind::Sum(ts) => ts.iter().all(is_zero_value),
        TermKind::Lam(_, _, body) => is_zero_value(body),
        _ => false,
    }
}

/// The numbers of a closed numeric value: a numeral, or nested pairs of numerals (in order).
pub(crate) fn numerals(t: &Term, out: &mut Vec<Rat>) -> bool {
    match &t.kind {
        TermKind::Num(r) => {
            out.push(r.clone());
            true
        }
        TermKind::Pair(a, b) => numerals(a, out) && numerals(b, out),
        _ => false,
    }
}

/// The numbers of `t` when it is a numeric argument of `f` (`f.arity()` reals as
/// right-nested pairs); `zero` in a real position, or for the rest of the tuple, is the
/// numeral 0 (the zero of `R` and of `Rⁿ`).
pub(crate) fn numeric_arg(f: FnSym, t: &Term) -> Option<Vec<Rat>> {
    let real = |t: &Term| match &t.kind {
        TermKind::Num(r) => Some(r.clone()),
        TermKind::Zero => Some(Rat::zero()),
        _ => None,
    };
    let n = f.arity();
    let mut out = Vec::with_capacity(n);
    let mut cur = t;
    for i in 0..n {
        if i + 1 == n {
            out.push(real(cur)?);
        } else {
            match &cur.kind {
                TermKind::Pair(a, b) => {
                    out.push(real(a)?);
                    cur = b;
                }
                TermKind::Zero => {
                    out.resize(n, Rat::zero());
                    return Some(out);
                }
                _ => return None,
            }
        }
    }
    Some(out)
}

/// `t.i`, simplified: projections of pairs, sums, zeros and numeral multiples are pushed
/// inside (each is an instance of rules 2 and 4, performed as part of one step).
pub(crate) fn project(t: Term, second: bool) -> Term {
    match t.kind {
        TermKind::Pair(a, b) => {
            if second {
                *b
            } else {
                *a
            }
        }
        TermKind::Zero => Term::zero(),
        TermKind::Sum(ts) => Term::sum(ts.into_iter().map(|s| project(s, second))),
        TermKind::App(f, arg) if is_scaling(&f, &arg) => {
            let TermKind::Pair(c, x) = arg.kind else {
                unreachable!("checked by is_scaling")
            };
            scale(project(*x, second), &num_of(&c))
        }
        kind => Term::proj(Term::new(kind), second),
    }
}

/// `mul (c, x)` with a numeral `c`.
fn is_scaling(f: &Term, arg: &Term) -> bool {
    matches!(f.kind, TermKind::Fn(FnSym::Mul))
        && matches!(&arg.kind, TermKind::Pair(c, _) if matches!(c.kind, TermKind::Num(_)))
}

fn num_of(t: &Term) -> Rat {
    match &t.kind {
        TermKind::Num(r) => r.clone(),
        _ => unreachable!("a numeral"),
    }
}

/// `c · t` for a numeral `c`, pushed into pairs and sums.
pub(crate) fn scale(t: Term, c: &Rat) -> Term {
    if c.is_zero() {
        return Term::zero();
    }
    if c.is_one() {
        return t;
    }
    match t.kind {
        TermKind::Pair(a, b) => Term::pair(scale(*a, c), scale(*b, c)),
        TermKind::Zero => Term::zero(),
        TermKind::Num(r) => Term::num(r * c),
        TermKind::Sum(ts) => Term::sum(ts.into_iter().map(|s| scale(s, c))),
        TermKind::App(f, arg) if is_scaling(&f, &arg) => {
            let TermKind::Pair(d, x) = arg.kind else {
                unreachable!("checked by is_scaling")
            };
            scale(*x, &(num_of(&d) * c))
        }
        kind => Term::app(
            Term::sym(FnSym::Mul),
            Term::pair(Term::num(c.clone()), Term::new(kind)),
        ),
    }
}

/// A projection path `x.p1.p2…` (outermost projection last in `path`).
pub(crate) fn as_path(t: &Term) -> Option<(&Var, Vec<bool>)> {
    match &t.kind {
        TermKind::Var(x) => Some((x, Vec::new())),
        TermKind::Proj(s, i) => {
            let (x, mut p) = as_path(s)?;
            p.push(*i);
            Some((x, p))
        }
        _ => None,
    }
}

/// The term `x.path`.
pub(crate) fn path_term(x: &Var, path: &[bool]) -> Term {
    path.iter().fold(Term::var(x), |t, &i| Term::proj(t, i))
}

/// A linear combination of projection paths with numeral coefficients.
pub(crate) type LinComb = BTreeMap<(Var, Vec<bool>), Rat>;

/// `t` as a linear combination of paths, when it is one (sums, numeral multiples, paths,
/// zeros).
pub(crate) fn lincomb(t: &Term) -> Option<LinComb> {
    let mut out = LinComb::new();
    add_lin(t, &Rat::one(), &mut out)?;
    out.retain(|_, c| !c.is_zero());
    Some(out)
}

fn add_lin(t: &Term, c: &Rat, out: &mut LinComb) -> Option<()> {
    if let Some((x, p)) = as_path(t) {
        *out.entry((x.clone(), p)).or_insert_with(Rat::zero) += c;
        return Some(());
    }
    match &t.kind {
        TermKind::Zero => Some(()),
        TermKind::Num(r) if r.is_zero() => Some(()),
        TermKind::Sum(ts) => ts.iter().try_for_each(|s| add_lin(s, c, out)),
        TermKind::App(f, arg) if is_scaling(f, arg) => {
            let TermKind::Pair(d, x) = &arg.kind else {
                return None;
            };
            add_lin(x, &(num_of(d) * c), out)
        }
        _ => None,
    }
}

/// The canonical term of a linear combination (`0` when empty).
pub(crate) fn lincomb_term(l: &LinComb) -> Term {
    if l.is_empty() {
        return Term::int(0);
    }
    Term::sum(l.iter().map(|((x, p), c)| scale(path_term(x, p), c)))
}

/// The covector normal form of a linear body: projections of pairs and numeral products
/// simplified, then every component that is a linear combination of paths collected into
/// canonical form; pairs component-wise; anything else is kept as it is.
pub(crate) fn normalize_linear(t: Term) -> Term {
    let t = simplify(t);
    canon(t)
}

fn canon(t: Term) -> Term {
    match t.kind {
        TermKind::Pair(a, b) => Term::pair(canon(*a), canon(*b)),
        kind => {
            let t = Term::new(kind);
            match lincomb(&t) {
                Some(l) => lincomb_term(&l),
                None => t,
            }
        }
    }
}

/// Bottom-up simplification of projections and numeral multiples.
fn simplify(t: Term) -> Term {
    let span = t.span;
    match t.kind {
        TermKind::Proj(s, i) => project(simplify(*s), i),
        TermKind::Pair(a, b) => Term::pair(simplify(*a), simplify(*b)),
        TermKind::Sum(ts) => {
            let parts: Vec<Term> = ts.into_iter().map(simplify).collect();
            add_pairs(parts)
        }
        TermKind::App(f, arg) if matches!(f.kind, TermKind::Fn(FnSym::Mul)) => {
            let arg = simplify(*arg);
            if let TermKind::Pair(c, x) = &arg.kind {
                // `zero` is the numeral 0 of `R` (as in rule 3): a product with it is 0.
                if matches!(c.kind, TermKind::Zero) || matches!(x.kind, TermKind::Zero) {
                    return Term::zero();
                }
                if let TermKind::Num(r) = &c.kind {
                    return scale((**x).clone(), r);
                }
                if let TermKind::Num(r) = &x.kind {
                    return scale((**c).clone(), r);
                }
            }
            Term::app(*f, arg)
        }
        kind => Term { kind, span },
    }
}

/// A sum whose summands are all pairs becomes a pair of sums (rule 4's `(a, b) + (c, d)`).
fn add_pairs(parts: Vec<Term>) -> Term {
    let t = Term::sum(parts);
    match t.kind {
        TermKind::Sum(ts) if ts.iter().all(|s| matches!(s.kind, TermKind::Pair(..))) => {
            let (mut l, mut r) = (Vec::new(), Vec::new());
            for s in ts {
                let TermKind::Pair(a, b) = s.kind else {
                    unreachable!("all pairs")
                };
                l.push(*a);
                r.push(*b);
            }
            Term::pair(add_pairs(l), add_pairs(r))
        }
        kind => Term::new(kind),
    }
}
