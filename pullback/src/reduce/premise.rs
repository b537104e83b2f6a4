//! Jacobians with premises and of higher-order elementary terms: reductions 16a–c, 17, 18,
//! 19a–c (Mak and Ong, §3.3.2 and §3.4: "Reductions 16b, 16c, 17, 18, 19b, 19c … have a
//! proof tree"; the numbers and roles are the paper's, the forms reconstructed:
//! docs/engines/pullback-reduction.md, "Premises").
//!
//! A premise `s ⇓ K` is a reduction of `s` to a value by the same strategy, with the same
//! counters and step limit, possibly under binders (free variables stay free: value 1 and
//! value 2 are the stuck forms).
//!
//! | # | left side | right side | side condition / premise | status |
//! |---|---|---|---|---|
//! | 16a | `J(\x. dual(s, b), t) v` | `dual(s, tan(b))` | `x ∉ fv(s)` | paper (role), reconstructed |
//! | 16b | `J(\x. dual(\w. L, b), t) v` | `dual(\w. K, b)` | `x ∉ fv(b)`; `J(\x. L, t) v ⇓ K` | paper (role), reconstructed |
//! | 16c | `J(\x. dual(\w. L, b), t) v` | `dual(\w. K, b{x := v}) + dual((\w. L){x := v}, tan(b))` | `x` in both; premise as 16b (bilinearity) | paper (role), reconstructed |
//! | 17 | `J(\x. pb(a, b), t) v` | `J(\x. \w. dual(\u. J(a, u) w, b (a w)), t) v` | `x ∈ fv(a)`; `u`, `w` fresh (unfold the pullback) | paper (role), reconstructed |
//! | 17 | `J(pb(a, b), t) v`, `J(J(a, d), t) v` | `J(\w. dual(\u. J(a, u) w, b (a w)), t) v`, `J(\w. K, t) v` with `J(a, d) w ⇓ K` | a pullback or Jacobian value in function position | our decision (same unfolding) |
//! | 18 | `J(\x. \y. L, t) v` | `\y. K` | `J(\x. L, t) v ⇓ K` (`y` free); D-curry | paper (role), reconstructed |
//! | 19a | `J(\x. a b, t) v` | `tan(a) b` | `x ∉ fv(b)` (the function position is linear) | paper |
//! | 19b | `J(\x. a b, t) v` | `tan(a) (b{x := v}) + J(a{x := v}, tan(b)) (b{x := v})` | `x` in both; D-eval | paper (role), reconstructed: the premise Jacobian is reduced by the strategy after the step instead of in a proof tree |
//! | 19c | `J(\x. a b, t) v` | `J(a, tan(b)) (b{x := v})` | `x ∉ fv(a)` | as 19b |
//!
//! When `a{x := v}` is a free variable the Jacobian application `J(y, …) …` is stuck (value
//! 1); when it is another non-abstraction value it is stuck too (value 2).

use super::jacobian::tan;
use super::subst::subst;
use super::{Machine, Rule};
use crate::syntax::{Term, TermKind, Var};
use adora_core::diag::Diagnostic;

/// Contracts `J(\x. body, dir) point` by a rule of this module.
pub(crate) fn contract_jac(
    m: &mut Machine,
    rule: Rule,
    x: Var,
    body: Term,
    dir: Term,
    point: Term,
) -> Result<Option<Term>, Diagnostic> {
    let at = |s: &Term, m: &mut Machine| subst(s, &x, &point, &mut m.fresh);
    let jat = |s: Term, d: Term, p: Term| Term::app(Term::jac(s, d), p);
    Ok(match (rule, body.kind) {
        (Rule::R16a, TermKind::Dual(s, b)) => {
            Some(Term::dual(*s, tan(&x, &b, &dir).expect("checked by rule")))
        }
        (Rule::R16b | Rule::R16c, TermKind::Dual(s, b)) if !matches!(s.kind, TermKind::Lam(..)) => {
            // The linear map is an atom (a path of `x`, or a tuple of them): its tangent is
            // `tan(s)`, and `dual` is bilinear (docs/engines/pullback-reduction.md, 16b/16c).
            let ts = tan(&x, &s, &dir).expect("checked by rule");
            if rule == Rule::R16b {
                Some(Term::dual(ts, *b))
            } else {
                let first = Term::dual(ts, at(&b, m));
                let tb = tan(&x, &b, &dir).expect("checked by rule");
                Some(Term::sum([first, Term::dual(at(&s, m), tb)]))
            }
        }
        (Rule::R16b | Rule::R16c, TermKind::Dual(s, b)) => {
            let TermKind::Lam(w, ty, l) = s.kind else {
                return Ok(None);
            };
            let k = m.premise(jat(Term::lam(&x, (*l).clone()), dir.clone(), point.clone()))?;
            let first_b = if rule == Rule::R16b {
                (*b).clone()
            } else {
                at(&b, m)
            };
            let first = Term::dual(
                Term::new(TermKind::Lam(w.clone(), ty.clone(), Box::new(k))),
                first_b,
            );
            if rule == Rule::R16b {
                Some(first)
            } else {
                let map = at(&Term::new(TermKind::Lam(w, ty, l)), m);
                let tb = tan(&x, &b, &dir).expect("checked by rule");
                Some(Term::sum([first, Term::dual(map, tb)]))
            }
        }
        (Rule::R17, TermKind::Pb(a, b)) => {
            let unfolded = unfold_pb(m, *a, *b);
            Some(jat(Term::lam(&x, unfolded), dir, point))
        }
        (Rule::R18, TermKind::Lam(y, ty, l)) => {
            // The binder is renamed so that the premise's free `y` cannot meet a variable of
            // the direction or the point.
            let y2 = m.fresh.var(&y.name);
            let l2 = subst(&l, &y, &Term::var(&y2), &mut m.fresh);
            let k = m.premise(jat(Term::lam(&x, l2), dir, point))?;
            Some(Term::new(TermKind::Lam(y2, ty, Box::new(k))))
        }
        (Rule::R19a, TermKind::App(a, b)) => {
            Some(Term::app(tan(&x, &a, &dir).expect("checked by rule"), *b))
        }
        (Rule::R19b | Rule::R19c, TermKind::App(a, b)) => {
            let bv = at(&b, m);
            let tb = tan(&x, &b, &dir).expect("checked by rule");
            let av = at(&a, m);
            let second = jat(av, tb, bv.clone());
            if rule == Rule::R19b {
                let ta = tan(&x, &a, &dir).expect("checked by rule");
                Some(Term::sum([Term::app(ta, bv), second]))
            } else {
                Some(second)
            }
        }
        _ => None,
    })
}

/// `pb(a, b)` unfolded to `\w. dual(\u. J(a, u) w, b (a w))` (fresh `w`, `u`).
fn unfold_pb(m: &mut Machine, a: Term, b: Term) -> Term {
    let w = m.fresh.var("w");
    let u = m.fresh.var("u");
    let map = Term::lam(
        &u,
        Term::app(Term::jac(a.clone(), Term::var(&u)), Term::var(&w)),
    );
    let functional = Term::app(b, Term::app(a, Term::var(&w)));
    Term::lam(&w, Term::dual(map, functional))
}

/// Contracts a rule-17 redex with a pullback or Jacobian value in function position, or a
/// premise rule on `J(\x. E, t) v`.
pub(crate) fn contract(m: &mut Machine, rule: Rule, t: Term) -> Result<Option<Term>, Diagnostic> {
    if let TermKind::App(j, p) = &t.kind {
        if let TermKind::Jac(s, d) = &j.kind {
            match &s.kind {
                TermKind::Pb(a, b) if rule == Rule::R17 => {
                    let f = unfold_pb(m, (**a).clone(), (**b).clone());
                    return Ok(Some(Term::app(Term::jac(f, (**d).clone()), (**p).clone())));
                }
                TermKind::Jac(a, e) if rule == Rule::R17 => {
                    let w = m.fresh.var("w");
                    let k = m.premise(Term::app(
                        Term::jac((**a).clone(), (**e).clone()),
                        Term::var(&w),
                    ))?;
                    return Ok(Some(Term::app(
                        Term::jac(Term::lam(&w, k), (**d).clone()),
                        (**p).clone(),
                    )));
                }
                _ => {}
            }
        }
    }
    match super::jacobian::split(t) {
        Some((x, body, dir, point)) => contract_jac(m, rule, x, *body, dir, point),
        None => Ok(None),
    }
}
