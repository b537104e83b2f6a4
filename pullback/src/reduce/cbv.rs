//! The standard call-by-value reductions 1–4 (Mak and Ong, §3.4: "the standard call-by-value
//! redex"; the forms are reconstructed, docs/engines/pullback-reduction.md, "Rules 1–4").
//!
//! | # | left side | right side | side condition | status |
//! |---|---|---|---|---|
//! | 1 | `(\x. s) v`, `let x = v in s` | `s{x := v}` | `v` a value | paper (β_v) |
//! | 2 | `(v0, v1).i` | `v_i` | | paper |
//! | 3 | `f r` | `f̄(r)` | `r` numeric | paper (δ) |
//! | 3 | `J(f, w) r` | `Lin_f(r)(w)` | `r` numeric | reconstructed (the Jacobian δ) |
//! | 4 | `(v1 + … + vn) Q`, `0 Q` | `v1 Q + … + vn Q`, `0` | | reconstructed (linearity of the function position) |
//! | 4 | `J(v1 + … + vn, w) Q` | `J(v1, w) Q + … + J(vn, w) Q` | | our decision (the derivative is linear in the function) |
//! | 4 | `(v1 + … + vn).i`, `0.i` | `v1.i + … + vn.i`, `0` | | reconstructed |
//! | 4 | `r1 + r2 + P`, `(a, b) + (c, d) + P` | `(r1+r2) + P`, `(a+c, b+d) + P` | numerals, pairs | reconstructed (numeric sums) |

use super::prims::{jacobian_row, jacobian_row_symbolic, primal, PrimError};
use super::subst::subst;
use super::values::{numeric_arg, project, scale};
use super::{Machine, Rule};
use crate::syntax::{FnSym, Term, TermKind};
use adora_core::diag::{Diagnostic, ErrorKind};
use adora_semantics::Rat;
use num_traits::Zero;

/// Contracts a redex of rules 1–4 (`None` when `t` is not one).
pub(crate) fn contract(m: &mut Machine, rule: Rule, t: Term) -> Result<Option<Term>, Diagnostic> {
    let span = t.span;
    Ok(match (rule, t.kind) {
        (Rule::R1, TermKind::App(f, v)) => match f.kind {
            TermKind::Lam(x, _, body) => Some(subst(&body, &x, &v, &mut m.fresh)),
            _ => None,
        },
        (Rule::R1, TermKind::Let(x, v, body)) => Some(subst(&body, &x, &v, &mut m.fresh)),
        (Rule::R2, TermKind::Proj(s, i)) => match s.kind {
            TermKind::Pair(a, b) => Some(if i { *b } else { *a }),
            _ => None,
        },
        (Rule::R3, TermKind::App(f, r)) => delta(m, *f, &r).map_err(|e| match e {
            PrimError::NonRational(g) => Diagnostic::new(
                ErrorKind::NonRational,
                span,
                format!(
                    "`{}` is not a rational function: exact evaluation cannot compute it",
                    g.name()
                ),
            ),
        })?,
        (Rule::R4, TermKind::App(f, q)) => match f.kind {
            TermKind::Zero => Some(Term::zero()),
            TermKind::Sum(vs) => Some(Term::sum(
                vs.into_iter().map(|v| Term::app(v, (*q).clone())),
            )),
            // `J(v1 + … + vn, w) q ⟶ Σ J(vi, w) q`: the derivative is linear in the function.
            TermKind::Jac(s, w) => match s.kind {
                TermKind::Sum(vs) => {
                    Some(Term::sum(vs.into_iter().map(|v| {
                        Term::app(Term::jac(v, (*w).clone()), (*q).clone())
                    })))
                }
                _ => None,
            },
            _ => None,
        },
        (Rule::R4, TermKind::Proj(s, i)) => match s.kind {
            TermKind::Zero => Some(Term::zero()),
            TermKind::Sum(vs) => Some(Term::sum(vs.into_iter().map(|v| Term::proj(v, i)))),
            _ => None,
        },
        (Rule::R4, TermKind::Sum(ts)) => Some(add_values(ts)),
        _ => None,
    })
}

/// Rule 3 on `f r` or `J(f, w) r`.
fn delta(m: &mut Machine, f: Term, r: &Term) -> Result<Option<Term>, PrimError> {
    match f.kind {
        TermKind::Fn(g) => {
            let Some(args) = numeric_arg(g, r) else {
                return Ok(None);
            };
            let v = primal(g, &args)?;
            m.count_delta(g, false);
            Ok(Some(Term::num(v)))
        }
        TermKind::Jac(s, w) => {
            let TermKind::Fn(g) = s.kind else {
                return Ok(None);
            };
            let Some(args) = numeric_arg(g, r) else {
                // An open point (under a binder): the row as terms (rule 3, symbolic).
                let row = jacobian_row_symbolic(g, &components(g, r.clone()));
                m.count_delta(g, true);
                return Ok(Some(linear_map_terms(g, row, *w)));
            };
            let row = jacobian_row(g, &args)?;
            m.count_delta(g, true);
            Ok(Some(linear_map(g, &row, *w)))
        }
        _ => Ok(None),
    }
}

/// `Σ_i c_i · w_i` where `w_i` is the `i`-th real of the tangent `w` (right-nested pairs),
/// with projections of pairs and zero coefficients simplified.
pub(crate) fn linear_map(f: FnSym, row: &[Rat], w: Term) -> Term {
    let n = f.arity();
    let mut parts = Vec::new();
    let mut rest = w;
    for (i, c) in row.iter().enumerate() {
        let (wi, next) = if i + 1 == n {
            (rest, Term::zero())
        } else {
            (project(rest.clone(), false), project(rest, true))
        };
        if !c.is_zero() {
            parts.push(scale(wi, c));
        }
        rest = next;
    }
    Term::sum(parts)
}

/// The `f.arity()` reals of a point `p` (right-nested pairs), projections of pairs
/// simplified.
fn components(f: FnSym, p: Term) -> Vec<Term> {
    let n = f.arity();
    let mut out = Vec::with_capacity(n);
    let mut rest = p;
    for i in 0..n {
        if i + 1 == n {
            out.push(rest);
            break;
        }
        out.push(project(rest.clone(), false));
        rest = project(rest, true);
    }
    out
}

/// `Σ_i c_i · w_i` for a row of terms (numeral entries scale, others multiply).
fn linear_map_terms(f: FnSym, row: Vec<Term>, w: Term) -> Term {
    let parts = row
        .into_iter()
        .zip(components(f, w))
        .filter(|(_, wi)| !matches!(wi.kind, TermKind::Zero))
        .filter_map(|(c, wi)| match (&c.kind, &wi.kind) {
            (TermKind::Num(r), _) if r.is_zero() => None,
            (TermKind::Num(r), _) => Some(scale(wi, r)),
            (_, TermKind::Num(r)) => Some(scale(c, r)),
            _ => Some(Term::app(Term::sym(FnSym::Mul), Term::pair(c, wi))),
        })
        .collect::<Vec<_>>();
    Term::sum(parts)
}

/// Rule 4 on a sum of values: numerals added, pairs added component-wise.
fn add_values(ts: Vec<Term>) -> Term {
    let ts = match Term::sum(ts).kind {
        TermKind::Sum(flat) => flat,
        kind => vec![Term::new(kind)],
    };
    let mut num: Option<Rat> = None;
    let mut pairs: Option<(Vec<Term>, Vec<Term>)> = None;
    let mut others = Vec::new();
    for t in ts {
        match t.kind {
            TermKind::Num(r) => *num.get_or_insert_with(Rat::zero) += r,
            TermKind::Pair(a, b) => {
                let (l, r) = pairs.get_or_insert_with(Default::default);
                l.push(*a);
                r.push(*b);
            }
            kind => others.push(Term::new(kind)),
        }
    }
    if let Some(r) = num {
        others.insert(0, Term::num(r));
    }
    if let Some((l, r)) = pairs {
        others.insert(0, Term::pair(Term::sum(l), Term::sum(r)));
    }
    Term::sum(others)
}
