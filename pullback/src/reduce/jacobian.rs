//! Jacobians of elementary terms without premises: reductions 9–15, 20a, 20b, 20′, 20p and the
//! forward chain rule (Mak and Ong, §3.3.2; the numbers and roles are the paper's, the
//! forms reconstructed: docs/engines/pullback-reduction.md, "Jacobians").
//!
//! `Jat(\x. E, v)`, "the Jacobian of `\x. E` at `v`", is the linear map `\u. J(\x. E, u) v`;
//! every rule below rewrites the application `J(\x. E, t) v` (`t` a direction, `v` a point,
//! both values) to the Jacobian applied to `t`. `tan(a)` is the tangent of an atom:
//! `a{x := t}` for a path of `x`, `0` for an atom without `x`, component-wise on tuples.
//!
//! | # | left side | right side | side condition | status |
//! |---|---|---|---|---|
//! | 9 | `J(\x. E, t) v` | `0` | `x ∉ fv(E)` | paper |
//! | 9z | `J(\x. E, t) v` | `0` | `x` occurs in `E` only in projection paths `x.p`, and `t.p` is a zero value for each (e.g. `J(\z. pb(z.0.1, z.1), ((u, zero), zero)) v`) | our decision (sparse tangents: the Jacobian is linear in the tangent of the paths `E` reads) |
//! | 10 | `J(\x. a, t) v` | `a{x := t}` | `a` a projection path of `x` | paper (role), instance reconstructed |
//! | 11 | `J(\x. a1 + … + an, t) v` | `(a1 + … + an){x := t}` | `x ∈ lin(E)` | reconstructed instance of 10–14 |
//! | 12 | `J(\x. J(a, b), t) v` | `J(a, b){x := t}` | `x ∈ lin(E)` | reconstructed instance |
//! | 12b | `J(\x. J(a, b), t) v` | `J(tan(a), b{x := v}) + J(a{x := v}, tan(b))` | `x` in both (not linear); `J` is bilinear | our decision (like 16c) |
//! | 13 | `J(\x. pb(a, b), t) v` | `pb(a, b){x := t}` | `x ∈ lin(E)` (so `x ∉ fv(a)`) | reconstructed instance |
//! | 14 | `J(\x. \y. L, t) v` | `(\y. L){x := t}` | `x ∈ lin(E)` | reconstructed instance |
//! | 15 | `J(\x. f a, t) v` | `J(f, tan(a)) (a{x := v})`, then rule 3 | `x ∈ fv(a)` | paper |
//! | 20a | `J(\x. (a, b), t) v` | `(J(\x. a, t) v, J(\x. b, t) v)` | `x` in both components | paper (pairs), split reconstructed |
//! | 20b | `J(\x. (a, b), t) v` | `(J(\x. a, t) v, 0)` or `(0, J(\x. b, t) v)` | `x` in one component | paper (pairs), split reconstructed |
//! | 20p | `J(\x. a.i, t) v` | `(J(\x. a, t) v).i` | `a.i` not a path of `x` (e.g. `(x.0, x.1).1`); projections are linear | our decision (completeness) |
//! | 20′ | `J(\x. a1 + … + an, t) v` | `Σ_{x ∈ fv(ai)} J(\x. ai, t) v` | not linear in `x` (e.g. `x + 1`) | our decision (completeness) |
//! | chain | `J(\x. let y = E in L, t) v` | `J(\z. L', (K{x := t}, J(\x. E, t) v)) (K{x := v}, E{x := v})`, or `J(\y. L, J(\x. E, t) v) (E{x := v})` when nothing of `x` is live in `L` | `K`, `L'` the sparse tape of rule 8 (`tape`) | our decision: the direct forward chain rule the paper's premises compute |
//!
//! The `x ∈ lin(E)` test is the paper's linear positions (§3.1): the function of an
//! application is linear, its argument is not; `J`, `dual` are linear in each argument,
//! `pb` in its 1-form.

use super::premise;
use super::subst::subst;
use super::tape;
use super::values::{as_path, is_zero_value, project};
use super::{Machine, Rule};
use crate::anf;
use crate::syntax::{Term, TermKind, Var};
use adora_core::diag::Diagnostic;

/// The rule for `J(\x. body, t) v` (`t`, `v` values), if any.
pub(crate) fn rule(x: &Var, body: &Term, t: &Term, v: &Term) -> Option<Rule> {
    let _ = v;
    use TermKind as K;
    let free = body.has_free(x);
    if free && zero_on_live_paths(x, body, t) {
        return Some(Rule::R9z);
    }
    if matches!(body.kind, K::Let(..)) {
        return Some(Rule::Chain);
    }
    if !free {
        return Some(Rule::R9);
    }
    if !anf::is_elementary(body) {
        return Some(Rule::A3);
    }
    let has = |s: &Term| s.has_free(x);
    match &body.kind {
        K::Var(_) => tan_ok(x, body).then_some(Rule::R10),
        K::Proj(..) => Some(if tan_ok(x, body) {
            Rule::R10
        } else {
            Rule::R20p
        }),
        K::Pair(a, b) => Some(if has(a) && has(b) {
            Rule::R20a
        } else {
            Rule::R20b
        }),
        K::Sum(_) => Some(if linear_in(x, body) {
            Rule::R11
        } else {
            Rule::R20s
        }),
        K::App(f, a) if matches!(f.kind, K::Fn(_)) => tan_ok(x, a).then_some(Rule::R15),
        K::App(a, b) => {
            if !has(b) {
                tan_ok(x, a).then_some(Rule::R19a)
            } else if !tan_ok(x, b) {
                None
            } else if has(a) {
                tan_ok(x, a).then_some(Rule::R19b)
            } else {
                Some(Rule::R19c)
            }
        }
        K::Jac(a, b) => {
            if linear_in(x, body) {
                Some(Rule::R12)
            } else {
                (tan_ok(x, a) && tan_ok(x, b)).then_some(Rule::R12b)
            }
        }
        K::Pb(a, _) => {
            if has(a) {
                Some(Rule::R17)
            } else {
                linear_in(x, body).then_some(Rule::R13)
            }
        }
        K::Dual(s, b) => {
            if !has(s) {
                tan_ok(x, b).then_some(Rule::R16a)
            } else if !matches!(s.kind, K::Lam(..)) && !tan_ok(x, s) {
                None
            } else if !has(b) {
                Some(Rule::R16b)
            } else {
                tan_ok(x, b).then_some(Rule::R16c)
            }
        }
        K::Lam(..) => Some(if linear_in(x, body) {
            Rule::R14
        } else {
            Rule::R18
        }),
        _ => None,
    }
}

/// Contracts a Jacobian redex of rules 9–15, 20a, 20b, 20′ or the chain rule.
pub(crate) fn contract(m: &mut Machine, rule: Rule, t: Term) -> Result<Option<Term>, Diagnostic> {
    let Some((x, body, dir, point)) = split(t) else {
        return Ok(None);
    };
    let jat = |s: Term, dir: &Term, point: &Term| {
        Term::app(Term::jac(Term::lam(&x, s), dir.clone()), point.clone())
    };
    Ok(match rule {
        Rule::R9 | Rule::R9z => Some(Term::zero()),
        Rule::R10 | Rule::R11 | Rule::R12 | Rule::R13 | Rule::R14 => {
            Some(subst(&body, &x, &dir, &mut m.fresh))
        }
        Rule::R15 => match body.kind {
            TermKind::App(f, a) => {
                let ta = tan(&x, &a, &dir).expect("checked by rule");
                let at = subst(&a, &x, &point, &mut m.fresh);
                Some(Term::app(Term::jac(*f, ta), at))
            }
            _ => None,
        },
        Rule::R20a | Rule::R20b => match body.kind {
            TermKind::Pair(a, b) => {
                let side = |s: Term| {
                    if s.has_free(&x) {
                        jat(s, &dir, &point)
                    } else {
                        Term::zero()
                    }
                };
                Some(Term::pair(side(*a), side(*b)))
            }
            _ => None,
        },
        Rule::R12b => match body.kind {
            TermKind::Jac(a, b) => {
                let ta = tan(&x, &a, &dir).expect("checked by rule");
                let tb = tan(&x, &b, &dir).expect("checked by rule");
                let av = subst(&a, &x, &point, &mut m.fresh);
                let bv = subst(&b, &x, &point, &mut m.fresh);
                Some(Term::sum([Term::jac(ta, bv), Term::jac(av, tb)]))
            }
            _ => None,
        },
        Rule::R20p => match body.kind {
            TermKind::Proj(s, i) => Some(Term::proj(jat(*s, &dir, &point), i)),
            _ => None,
        },
        Rule::R20s => match body.kind {
            TermKind::Sum(ts) => Some(Term::sum(
                ts.into_iter()
                    .filter(|s| s.has_free(&x))
                    .map(|s| jat(s, &dir, &point))
                    .collect::<Vec<_>>(),
            )),
            _ => None,
        },
        Rule::Chain => match body.kind {
            TermKind::Let(y, e, rest) => {
                let sp = tape::split(&x, y, *rest, &mut m.fresh);
                let image = subst(&e, &x, &point, &mut m.fresh);
                let de = jat(*e, &dir, &point);
                let (d, p) = match sp.keep {
                    Some(k) => (
                        Term::pair(subst(&k, &x, &dir, &mut m.fresh), de),
                        Term::pair(subst(&k, &x, &point, &mut m.fresh), image),
                    ),
                    None => (de, image),
                };
                Some(Term::app(Term::jac(Term::lam(&sp.binder, sp.body), d), p))
            }
            _ => None,
        },
        _ => premise::contract_jac(m, rule, x, *body, dir, point)?,
    })
}

/// `J(\x. body, t) v` into its parts.
pub(crate) fn split(t: Term) -> Option<(Var, Box<Term>, Term, Term)> {
    let TermKind::App(j, v) = t.kind else {
        return None;
    };
    let TermKind::Jac(s, d) = j.kind else {
        return None;
    };
    let TermKind::Lam(x, _, body) = s.kind else {
        return None;
    };
    Some((x, body, *d, *v))
}

/// Whether `x` occurs in `body` only in projection paths `x.p` (`p` possibly empty) along
/// which the direction `t` is a zero value (rule 9z): `E` reads only those paths, so its
/// Jacobian along `t` is its Jacobian along their tangents, which are `0`.
pub(crate) fn zero_on_live_paths(x: &Var, body: &Term, t: &Term) -> bool {
    use TermKind as K;
    if let Some((y, path)) = as_path(body) {
        return y != x || zero_along(t, &path);
    }
    match &body.kind {
        K::Var(_) | K::Num(_) | K::Fn(_) | K::Zero => true,
        K::Proj(s, _) => zero_on_live_paths(x, s, t),
        K::Lam(y, _, b) => y == x || zero_on_live_paths(x, b, t),
        K::Let(y, e, b) => zero_on_live_paths(x, e, t) && (y == x || zero_on_live_paths(x, b, t)),
        K::App(a, b) | K::Pair(a, b) | K::Jac(a, b) | K::Dual(a, b) | K::Pb(a, b) => {
            zero_on_live_paths(x, a, t) && zero_on_live_paths(x, b, t)
        }
        K::Sum(ts) => ts.iter().all(|s| zero_on_live_paths(x, s, t)),
    }
}

/// Whether the value `t` projected along `path` is a zero value (unknown, e.g. a variable's
/// component: no).
fn zero_along(t: &Term, path: &[bool]) -> bool {
    if is_zero_value(t) {
        return true;
    }
    match (&t.kind, path.split_first()) {
        (TermKind::Pair(a, b), Some((&i, rest))) => zero_along(if i { b } else { a }, rest),
        _ => false,
    }
}

fn tan_ok(x: &Var, a: &Term) -> bool {
    tan(x, a, &Term::zero()).is_some()
}

/// The tangent of an atom along `dir`: `a{x := dir}` on paths of `x`, `0` on atoms without
/// `x`, component-wise on tuples; `None` for an atom in which `x` is not linear.
pub(crate) fn tan(x: &Var, a: &Term, dir: &Term) -> Option<Term> {
    if !a.has_free(x) {
        return Some(Term::zero());
    }
    if let Some((y, path)) = as_path(a) {
        debug_assert!(y == x);
        return Some(path.iter().fold(dir.clone(), |t, &i| project(t, i)));
    }
    match &a.kind {
        TermKind::Pair(p, q) => Some(Term::pair(tan(x, p, dir)?, tan(x, q, dir)?)),
        _ => None,
    }
}

/// Whether `x ∈ lin(s)` (the paper's linear positions, §3.1; `lin(0)` holds every variable).
pub(crate) fn linear_in(x: &Var, s: &Term) -> bool {
    use TermKind as K;
    match &s.kind {
        K::Var(y) => y == x,
        K::Num(_) | K::Fn(_) => false,
        K::Zero => true,
        K::Lam(y, _, b) => y != x && linear_in(x, b),
        K::App(f, p) => linear_in(x, f) && !p.has_free(x),
        K::Let(y, e, b) => y != x && linear_in(x, b) && !e.has_free(x),
        K::Proj(t, _) => linear_in(x, t),
        K::Pair(a, b) => linear_in(x, a) && linear_in(x, b),
        K::Sum(ts) => ts.iter().all(|t| linear_in(x, t)),
        K::Jac(a, b) | K::Dual(a, b) => {
            (linear_in(x, a) && !b.has_free(x)) || (linear_in(x, b) && !a.has_free(x))
        }
        K::Pb(a, b) => linear_in(x, b) && !a.has_free(x),
    }
}
