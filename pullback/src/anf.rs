//! A-normalisation (Mak and Ong, §3.2: "We use the administrative reduction (A-reduction)
//! of Sabry & Felleisen to decompose a pullback term into a let series of elementary
//! terms"; the appendix with the rules is lost, the rules below are the standard ones,
//! reconstructed: docs/engines/pullback-reduction.md, "A-normal form").
//!
//! | # | rule | side condition | status |
//! |---|---|---|---|
//! | A1 | `let x = (let y = s in t) in u ⟶ let y = s in let x = t in u` | `y ∉ fv(u)` | reconstructed (standard) |
//! | A2 | `C[s] ⟶ let x = s in C[x]` | `s` not an atom, `C` an elementary frame (`f []`, `[] a`, `a []`, `([], a)`, `J([], a)`, …), `x` fresh | reconstructed (standard) |
//! | A3 | `\x. s ⟶ \x. anf(s)` | abstraction bodies become let series | reconstructed |
//! | A4 | `… in E ⟶ … in let x = E in x` | the final non-atomic body is named, `x` fresh | reconstructed |
//!
//! Grammar of the normal form:
//!
//! ```text
//! atoms       a ::= x | r | f | zero | a.i | (a, a) | \x. L
//! elementary  E ::= a | a a | J(a, a) | dual(a, a) | pb(a, a) | a + … + a
//! let series  L ::= let x = E in L | a
//! ```
//!
//! Our decision (docs/engines/pullback-reduction.md): [`normalize`] names every abstraction
//! that is not the whole term with a `let`, so that atoms in argument positions are
//! variables, constants, projection paths or tuples of them; the grammar still accepts
//! abstractions as atoms. A-normalisation relies on the parser's unique binder ids for A1's
//! side condition (a hoisted binder never meets a variable of the same id).

use crate::syntax::{Fresh, Term, TermKind, Var};

/// The A-normal form of `t`: an abstraction keeps its binder and gets a let-series body;
/// any other term becomes a let series.
pub fn normalize(t: &Term, fresh: &mut Fresh) -> Term {
    match &t.kind {
        TermKind::Lam(x, ty, body) => Term::new(TermKind::Lam(
            x.clone(),
            ty.clone(),
            Box::new(series(body, fresh)),
        ))
        .at(t.span),
        _ => series(t, fresh),
    }
}

/// Whether `t` is in A-normal form (an abstraction with a let-series body, or a let series).
pub fn is_anf(t: &Term) -> bool {
    match &t.kind {
        TermKind::Lam(_, _, body) => is_series(body),
        _ => is_series(t),
    }
}

/// Whether `t` is an elementary term whose atoms may be any values built from atoms and
/// abstractions (the reducer's test for the A-context: a pulled-back function whose body is
/// neither a let nor elementary is A-normalised first).
pub fn is_elementary(t: &Term) -> bool {
    elementary(t, false)
}

fn is_series(t: &Term) -> bool {
    let mut cur = t;
    while let TermKind::Let(_, e, rest) = &cur.kind {
        if !elementary(e, true) {
            return false;
        }
        cur = rest;
    }
    atom(cur, true)
}

fn atom(t: &Term, strict: bool) -> bool {
    match &t.kind {
        TermKind::Var(_) | TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => true,
        TermKind::Proj(s, _) => atom(s, strict),
        TermKind::Pair(a, b) => atom(a, strict) && atom(b, strict),
        TermKind::Lam(_, _, body) => !strict || is_series(body),
        _ => false,
    }
}

fn elementary(t: &Term, strict: bool) -> bool {
    match &t.kind {
        TermKind::App(a, b)
        | TermKind::Jac(a, b)
        | TermKind::Dual(a, b)
        | TermKind::Pb(a, b) => atom(a, strict) && atom(b, strict),
        TermKind::Sum(ts) => ts.iter().all(|s| atom(s, strict)),
        _ => atom(t, strict),
    }
}

/// The let series of `t`.
fn series(t: &Term, fresh: &mut Fresh) -> Term {
    let mut binds: Vec<(Var, Term)> = Vec::new();
    let e = elem(t, &mut binds, fresh);
    let last = if atom(&e, false) && !matches!(e.kind, TermKind::Lam(..)) {
        e
    } else {
        // A4: name the final elementary term.
        let x = fresh.var("r");
        binds.push((x.clone(), e));
        Term::var(&x)
    };
    binds
        .into_iter()
        .rev()
        .fold(last, |body, (x, e)| Term::let_(&x, e, body))
}

/// `t` as an elementary term, its non-atomic parts bound in `binds` (A1, A2).
fn elem(t: &Term, binds: &mut Vec<(Var, Term)>, fresh: &mut Fresh) -> Term {
    let mut cur = t;
    // A1: a let spine is flattened iteratively (deep chains do not recurse).
    while let TermKind::Let(x, s, body) = &cur.kind {
        let e = elem(s, binds, fresh);
        binds.push((x.clone(), e));
        cur = body;
    }
    let t = cur;
    let mut at = |s: &Term, binds: &mut Vec<(Var, Term)>| atomize(s, binds, fresh);
    match &t.kind {
        TermKind::App(a, b) => {
            let a = at(a, binds);
            Term::app(a, at(b, binds))
        }
        TermKind::Jac(a, b) => {
            let a = at(a, binds);
            Term::jac(a, at(b, binds))
        }
        TermKind::Dual(a, b) => {
            let a = at(a, binds);
            Term::dual(a, at(b, binds))
        }
        TermKind::Pb(a, b) => {
            let a = at(a, binds);
            Term::pb(a, at(b, binds))
        }
        TermKind::Sum(ts) => Term::sum(ts.iter().map(|s| at(s, binds)).collect::<Vec<_>>()),
        TermKind::Lam(x, ty, body) => Term::new(TermKind::Lam(
            x.clone(),
            ty.clone(),
            Box::new(series(body, fresh)),
        )),
        _ => at(t, binds),
    }
    .at(t.span)
}

/// `t` as an atom (A2: a non-atomic `t` is bound to a fresh variable).
fn atomize(t: &Term, binds: &mut Vec<(Var, Term)>, fresh: &mut Fresh) -> Term {
    match &t.kind {
        TermKind::Var(_) | TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => t.clone(),
        TermKind::Proj(s, i) => Term::proj(atomize(s, binds, fresh), *i).at(t.span),
        TermKind::Pair(a, b) => {
            let a = atomize(a, binds, fresh);
            Term::pair(a, atomize(b, binds, fresh)).at(t.span)
        }
        _ => {
            let e = elem(t, binds, fresh);
            if atom(&e, false) && !matches!(e.kind, TermKind::Lam(..)) {
                return e;
            }
            let x = fresh.var("t");
            binds.push((x.clone(), e));
            Term::var(&x)
        }
    }
}
