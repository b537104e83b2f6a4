//! The dual reductions 5 and 6, the zero reductions 9′ and covector normalisation (Mak and
//! Ong, §3.3–§3.4: 5 "reduces the dual along a linear map", 6 is "the contra-variant
//! property of dual maps", 9′ "all reduce to 0"; the forms are reconstructed,
//! docs/engines/pullback-reduction.md, "Duals").
//!
//! | # | left side | right side | side condition | status |
//! |---|---|---|---|---|
//! | 5 | `dual(\w. s, \y. t)` | `\w. t{y := s}` in covector normal form | `t` in covector normal form | paper (role), reconstructed form |
//! | 5 | `dual(s, t) v` | `t (s v)` | applying a functional | our decision |
//! | 6 | `dual(\w. s, dual(\w'. s', t))` | `dual(\w. s'{w' := s}, t)` | `t` not an abstraction | paper (role), reconstructed form |
//! | 9′ | `J(s, 0)`, `J(0, s)`, `dual(s, 0)`, `pb(s, 0)` | `0` | | paper ("all reduce to 0"), which redexes: reconstructed |
//! | covec | `dual(\w. s, \y. t)` | `dual(\w. s, \y. t')`, `t'` the covector normal form of `t` | `t` not in normal form | our decision (docs/engines/pullback-reduction.md, "Covector normal form") |
//!
//! The covector normal form of rule 5's result is computed in the same step (projections of
//! pairs, products of numerals and sums of paths are simplified syntactically), so a reverse
//! step over an environment of any size is one step; only a body that still holds a
//! redex after that (a higher-order functional applied to a tangent function) is reduced
//! further under the binder, with its steps counted.

use super::subst::subst;
use super::values::{is_value, normalize_linear};
use super::{Machine, Rule};
use crate::syntax::{Term, TermKind};
use adora_core::diag::Diagnostic;

/// Contracts a redex of rules 5, 6, 9′ or covector normalisation.
pub(crate) fn contract(m: &mut Machine, rule: Rule, t: Term) -> Result<Option<Term>, Diagnostic> {
    Ok(match (rule, t.kind) {
        (Rule::R9p, _) => Some(Term::zero()),
        (Rule::R5, TermKind::App(d, v)) => match d.kind {
            TermKind::Dual(s, f) => Some(Term::app(*f, Term::app(*s, *v))),
            _ => None,
        },
        (Rule::R5, TermKind::Dual(s, f)) => match (s.kind, f.kind) {
            (TermKind::Lam(w, ty, body), TermKind::Lam(y, _, t)) => {
                let composed = subst(&t, &y, &body, &mut m.fresh);
                let out = normal_body(m, composed)?;
                Some(Term::new(TermKind::Lam(w, ty, Box::new(out))))
            }
            _ => None,
        },
        (Rule::R6, TermKind::Dual(s, inner)) => match (s.kind, inner.kind) {
            (TermKind::Lam(w, ty, body), TermKind::Dual(s2, t2)) => match s2.kind {
                TermKind::Lam(w2, _, body2) => {
                    let composed = subst(&body2, &w2, &body, &mut m.fresh);
                    Some(Term::dual(
                        Term::new(TermKind::Lam(w, ty, Box::new(composed))),
                        *t2,
                    ))
                }
                _ => None,
            },
            _ => None,
        },
        (Rule::Covec, TermKind::Dual(s, f)) => match f.kind {
            TermKind::Lam(y, ty, body) => {
                let out = normal_body(m, *body)?;
                Some(Term::dual(*s, Term::new(TermKind::Lam(y, ty, Box::new(out)))))
            }
            _ => None,
        },
        _ => None,
    })
}

/// The covector normal form of a functional's body: simplified syntactically, reduced
/// under the binder when a redex is left, simplified again.
pub(crate) fn normal_body(m: &mut Machine, body: Term) -> Result<Term, Diagnostic> {
    let b = normalize_linear(body);
    if is_value(&b) {
        return Ok(b);
    }
    let reduced = m.premise(b)?;
    Ok(normalize_linear(reduced))
}
