//! Pullbacks along let series: reductions 7 and 8, the pullback at a value P, and the
//! A-context (Mak and Ong, §3.2 and §3.3.1; the forms are reconstructed,
//! docs/engines/pullback-reduction.md, "Let series").
//!
//! | # | left side | right side | side condition | status |
//! |---|---|---|---|---|
//! | 7 | `pb(\x. let y = E in y, ω)` | `pb(\x. E, ω)` | | paper ("base case"), reconstructed form |
//! | 8 | `pb(\x. let y = E in L, ω)` | `pb(\x. (K, E), pb(\z. L', ω))`, or `pb(\x. E, pb(\y. L, ω))` when nothing of `x` is live in `L` | `L ≢ y`, `z` fresh; `K` the live paths of `x` (sparse environment, `tape`) | paper (contravariance of pullbacks), reconstructed form; the sparse tape is our decision |
//! | 8 | `pb(\x. let y = E in L, ω)` | `pb(\x. (K, E), ω)` | `L'` the identity on the tape (`(z.0, z.1)`): `pb(\z. z, ω) = ω` | our decision (drops identity pullbacks from the chain; issue 14) |
//! | P | `pb(\x. E, ω) v` | `dual(\u. J(\x. E, u) v, ω (E{x := v}))` | `E` not a let, `u` fresh | paper ("the following pullback reduction"), reconstructed form |
//! | P | `pb(s, ω) v` | `dual(\u. J(s, u) v, ω (s v))` | `s` not an abstraction | our decision |
//! | A3 | `pb(\x. s, ω)`, `J(\x. s, t) v` | the same with `s` A-normalised | `s` neither a let nor elementary | paper (A-context), reconstructed |
//!
//! The tuple `(K, E)` of rule 8 is the tape: it carries the intermediates that later
//! elementary terms still use (only those: the environment is sparse). Under call by value the argument `ω (E{x := v})` of P's dual
//! is reduced before the dual collapses, which is the forward phase; the pending
//! `dual(Jat, [])` frames collapse by rule 5 in reverse order, which is the reverse phase
//! (§3.3.1, Example 3.5).

use super::subst::subst;
use super::tape;
use super::values::as_path;
use super::{Machine, Rule};
use crate::anf;
use crate::syntax::{Term, TermKind, Var};
use adora_core::diag::Diagnostic;

/// Contracts a redex of rules 7, 8, P or A3.
pub(crate) fn contract(m: &mut Machine, rule: Rule, t: Term) -> Result<Option<Term>, Diagnostic> {
    Ok(match (rule, t.kind) {
        (Rule::R7, TermKind::Pb(s, omega)) => match s.kind {
            TermKind::Lam(x, ty, body) => match body.kind {
                TermKind::Let(_, e, _) => {
                    Some(Term::pb(Term::new(TermKind::Lam(x, ty, e)), *omega))
                }
                _ => None,
            },
            _ => None,
        },
        (Rule::R8, TermKind::Pb(s, omega)) => match s.kind {
            TermKind::Lam(x, ty, body) => match body.kind {
                TermKind::Let(y, e, rest) => {
                    let sp = tape::split(&x, y, *rest, &mut m.fresh);
                    let image = match sp.keep {
                        Some(k) => Term::pair(k, *e),
                        None => *e,
                    };
                    let first = Term::new(TermKind::Lam(x, ty, Box::new(image)));
                    // The rest is the identity on the tape, `pb(\z. (z.0, z.1), ω)`: its
                    // pullback is `ω` itself (8 with an identity rest; our decision).
                    if is_identity(&sp.body, &sp.binder) {
                        return Ok(Some(Term::pb(first, *omega)));
                    }
                    Some(Term::pb(
                        first,
                        Term::pb(Term::lam(&sp.binder, sp.body), *omega),
                    ))
                }
                _ => None,
            },
            _ => None,
        },
        (Rule::P, TermKind::App(p, v)) => match p.kind {
            TermKind::Pb(s, omega) => {
                let u = m.fresh.var("u");
                let image = match &s.kind {
                    TermKind::Lam(x, _, e) => subst(e, x, &v, &mut m.fresh),
                    _ => Term::app((*s).clone(), (*v).clone()),
                };
                let jat = Term::lam(&u, Term::app(Term::jac(*s, Term::var(&u)), *v));
                Some(Term::dual(jat, Term::app(*omega, image)))
            }
            _ => None,
        },
        (Rule::A3, TermKind::Pb(s, omega)) => match s.kind {
            TermKind::Lam(x, ty, body) => {
                let b = anf::normalize(&body, &mut m.fresh);
                Some(Term::pb(
                    Term::new(TermKind::Lam(x, ty, Box::new(b))),
                    *omega,
                ))
            }
            _ => None,
        },
        (Rule::A3, TermKind::App(j, v)) => match j.kind {
            TermKind::Jac(s, d) => match s.kind {
                TermKind::Lam(x, ty, body) => {
                    let b = anf::normalize(&body, &mut m.fresh);
                    let lam = Term::new(TermKind::Lam(x, ty, Box::new(b)));
                    Some(Term::app(Term::jac(lam, *d), *v))
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}

/// Whether `t` is the identity on `z` up to η for pairs: `z`, or `(a, b)` with `a`, `b` the
/// identities on `z.0`, `z.1`.
fn is_identity(t: &Term, z: &Var) -> bool {
    fn go(t: &Term, z: &Var, path: &mut Vec<bool>) -> bool {
        if let Some((y, p)) = as_path(t) {
            return y == z && p == *path;
        }
        match &t.kind {
            TermKind::Pair(a, b) => {
                path.push(false);
                let left = go(a, z, path);
                path.pop();
                path.push(true);
                let right = left && go(b, z, path);
                path.pop();
                right
            }
            _ => false,
        }
    }
    go(t, z, &mut Vec::new())
}
