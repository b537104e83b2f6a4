//! Automatic differentiation by reduction (Mak and Ong, §3.3: "to perform reverse-mode AD on
//! a term t at s with respect to x, we consider the term `pb(\x. t, omega_p) s`"; forward
//! mode is `J(\x. t, ṫ) s`; docs/engines/pullback-reduction.md, "AD by reduction").
//!
//! | function | term reduced | read back |
//! |---|---|---|
//! | [`grad`] | `pb(f, \y. \w. w) s` | the covector `\w. Σ c_k · w.path_k` as the row `(c_1, …, c_n)` |
//! | [`vjp`] | `pb(f, \y. \w. Σ ȳ_k · w.path_k) s` | the same |
//! | [`jvp`] | `J(f, ṡ) s` | the numbers of the value |
//!
//! `f` is A-normalised first; the primal value comes from a separate reduction of `f s`
//! (its counters are not part of the outcome). Inputs and outputs are first-order: nested
//! pairs of reals, read in left-to-right order.

use crate::anf;
use crate::reduce::values::{lincomb, numerals};
use crate::reduce::{Outcome, Reducer};
use crate::syntax::{Fresh, Term, TermKind, Ty};
use adora_core::diag::{Diagnostic, ErrorKind, Span};
use adora_semantics::Rat;
use num_traits::{One, Zero};

/// The answer of [`grad`], [`vjp`] or [`jvp`].
#[derive(Clone, Debug)]
pub struct AdResult {
    /// The primal value `f(s)`, flattened.
    pub value: Vec<Rat>,
    /// The gradient / VJP row (one entry per input real) or the JVP (one per output real).
    pub derivative: Vec<Rat>,
    /// The reduction of the derivative term.
    pub outcome: Outcome,
}

/// The gradient of `f : input -> R` at `point`, by reverse mode (`pb(f, omega) s`).
pub fn grad(f: &Term, input: &Ty, point: &[Rat], r: &Reducer) -> Result<AdResult, Diagnostic> {
    vjp(f, input, point, &[Rat::one()], r)
}

/// The vector–Jacobian product `ȳ · J f(s)` by reverse mode (`pb(f, omega_ȳ) s`).
pub fn vjp(
    f: &Term,
    input: &Ty,
    point: &[Rat],
    cotangent: &[Rat],
    r: &Reducer,
) -> Result<AdResult, Diagnostic> {
    let paths = leaf_paths(input)?;
    let s = point_term(input, point)?;
    let mut fresh = Fresh::above(f);
    let fa = anf::normalize(f, &mut fresh);
    let (value, _) = primal(&fa, &s, r)?;
    if cotangent.len() != value.len() {
        return Err(input_err(format!(
            "the cotangent has {} entries but the function returns {} reals",
            cotangent.len(),
            value.len()
        )));
    }
    let omega = cotangent_form(cotangent, &mut fresh);
    let outcome = r.run(&Term::app(Term::pb(fa, omega), s))?;
    let derivative = read_covector(&outcome.value, &paths)?;
    Ok(AdResult {
        value,
        derivative,
        outcome,
    })
}

/// The Jacobian–vector product `J f(s) · ṡ` by forward mode (`J(f, ṡ) s`).
pub fn jvp(
    f: &Term,
    input: &Ty,
    point: &[Rat],
    tangent: &[Rat],
    r: &Reducer,
) -> Result<AdResult, Diagnostic> {
    let s = point_term(input, point)?;
    let ds = point_term(input, tangent)?;
    let mut fresh = Fresh::above(f);
    let fa = anf::normalize(f, &mut fresh);
    let (value, shape) = primal(&fa, &s, r)?;
    let outcome = r.run(&Term::app(Term::jac(fa, ds), s))?;
    let mut derivative = Vec::new();
    if !read_like(&outcome.value, &shape, &mut derivative) {
        return Err(not_first_order(&outcome.value));
    }
    Ok(AdResult {
        value,
        derivative,
        outcome,
    })
}

/// The primal value of `f s`, flattened, and as a term.
fn primal(f: &Term, s: &Term, r: &Reducer) -> Result<(Vec<Rat>, Term), Diagnostic> {
    let v = r.run(&Term::app(f.clone(), s.clone()))?.value;
    // `zero` (the empty sum) is the zero of its type: read it at the result type.
    let v = match crate::types::infer(f, &[]) {
        Ok(Ty::Fun(_, out)) => with_zeros(&v, &out),
        _ => v,
    };
    let mut out = Vec::new();
    if !numerals(&v, &mut out) {
        return Err(not_first_order(&v));
    }
    Ok((out, v))
}

/// `v` with each `zero` at a first-order type `t` replaced by the numeral tree of `t`.
fn with_zeros(v: &Term, t: &Ty) -> Term {
    match (&v.kind, t) {
        (TermKind::Zero, _) => zero_of(t).unwrap_or_else(|| v.clone()),
        (TermKind::Pair(a, b), Ty::Pair(ta, tb)) => {
            Term::pair(with_zeros(a, ta), with_zeros(b, tb))
        }
        _ => v.clone(),
    }
}

/// The numeral tree `0` of a first-order type (`None` for a function type).
fn zero_of(t: &Ty) -> Option<Term> {
    match t {
        Ty::Real => Some(Term::num(Rat::zero())),
        Ty::Pair(a, b) => Some(Term::pair(zero_of(a)?, zero_of(b)?)),
        _ => None,
    }
}

/// Reads the numbers of `t` following the shape of the value `like` (`zero` is all zeros).
fn read_like(t: &Term, like: &Term, out: &mut Vec<Rat>) -> bool {
    match (&t.kind, &like.kind) {
        (TermKind::Zero, _) => {
            let mut n = Vec::new();
            numerals(like, &mut n);
            out.extend(n.iter().map(|_| Rat::zero()));
            true
        }
        (TermKind::Num(r), TermKind::Num(_)) => {
            out.push(r.clone());
            true
        }
        (TermKind::Pair(a, b), TermKind::Pair(c, d)) => {
            read_like(a, c, out) && read_like(b, d, out)
        }
        _ => false,
    }
}

fn not_first_order(v: &Term) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        Span::DUMMY,
        format!("the reduction did not end in first-order numbers: {v}"),
    )
}

fn input_err(msg: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Input, Span::DUMMY, msg)
}

/// The projection paths of the reals of a first-order type, left to right.
fn leaf_paths(t: &Ty) -> Result<Vec<Vec<bool>>, Diagnostic> {
    fn go(t: &Ty, prefix: &mut Vec<bool>, out: &mut Vec<Vec<bool>>) -> bool {
        match t {
            Ty::Real => {
                out.push(prefix.clone());
                true
            }
            Ty::Pair(a, b) => {
                prefix.push(false);
                let ok = go(a, prefix, out);
                prefix.pop();
                prefix.push(true);
                let ok = ok && go(b, prefix, out);
                prefix.pop();
                ok
            }
            _ => false,
        }
    }
    let mut out = Vec::new();
    if !go(t, &mut Vec::new(), &mut out) {
        return Err(Diagnostic::new(
            ErrorKind::Unsupported,
            Span::DUMMY,
            format!(
                "AD by reduction needs a first-order input type (nested pairs of R), not {}",
                crate::print::ty(t)
            ),
        ));
    }
    Ok(out)
}

/// The point `(v1, (v2, …))` of a first-order type.
fn point_term(t: &Ty, point: &[Rat]) -> Result<Term, Diagnostic> {
    fn go(t: &Ty, it: &mut std::slice::Iter<Rat>) -> Option<Term> {
        match t {
            Ty::Real => it.next().map(|r| Term::num(r.clone())),
            Ty::Pair(a, b) => Some(Term::pair(go(a, it)?, go(b, it)?)),
            _ => None,
        }
    }
    let n = leaf_paths(t)?.len();
    if n != point.len() {
        return Err(input_err(format!(
            "the input type {} has {n} reals but {} values were given",
            crate::print::ty(t),
            point.len()
        )));
    }
    go(t, &mut point.iter()).ok_or_else(|| input_err("bad input point".to_string()))
}

/// `\y. \w. Σ_k ȳ_k · w.path_k` over right-nested pairs (`\y. \w. w` for one output 1).
fn cotangent_form(cot: &[Rat], fresh: &mut Fresh) -> Term {
    let y = fresh.var("y");
    let w = fresh.var("w");
    let n = cot.len();
    let mut parts = Vec::new();
    for (k, c) in cot.iter().enumerate() {
        let mut p: Vec<bool> = vec![true; k];
        if k + 1 < n {
            p.push(false);
        }
        let path = p.iter().fold(Term::var(&w), |t, &i| Term::proj(t, i));
        if !c.is_zero() {
            parts.push(if c.is_one() {
                path
            } else {
                Term::app(
                    Term::sym(crate::syntax::FnSym::Mul),
                    Term::pair(Term::num(c.clone()), path),
                )
            });
        }
    }
    let body = if parts.is_empty() {
        Term::int(0)
    } else {
        Term::sum(parts)
    };
    Term::lam(&y, Term::lam(&w, body))
}

/// The row of a covector normal form `\w. Σ c_k · w.path_k` at the given input paths.
fn read_covector(v: &Term, paths: &[Vec<bool>]) -> Result<Vec<Rat>, Diagnostic> {
    match &v.kind {
        TermKind::Zero => Ok(vec![Rat::zero(); paths.len()]),
        TermKind::Lam(w, _, body) => {
            let lc = lincomb(body).ok_or_else(|| not_covector(v))?;
            let mut row = vec![Rat::zero(); paths.len()];
            for ((x, p), c) in lc {
                if &x != w {
                    return Err(not_covector(v));
                }
                let i = paths
                    .iter()
                    .position(|q| q == &p)
                    .ok_or_else(|| not_covector(v))?;
                row[i] += c;
            }
            Ok(row)
        }
        _ => Err(not_covector(v)),
    }
}

fn not_covector(v: &Term) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        Span::DUMMY,
        format!("the reduction did not end in a covector normal form: {v}"),
    )
}
