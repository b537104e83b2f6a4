//! Capture-avoiding simultaneous substitution `s{x1 := v1, …}` (paper §3.1: "capture-free
//! substitution", extended to sums summand by summand). A projection path `x.p` whose `x`
//! is substituted by a pair is projected during the substitution (rule 2 performed as part
//! of the step that substitutes), so only the selected component is copied.
//!
//! Binders whose variable is free in one of the substituted terms are renamed with ids from
//! [`Fresh`], so no free variable is ever captured. Duplicating a value that contains
//! binders (β with a variable used twice) leaves two copies with the same binder ids; this
//! needs no renaming: substitution stops at a binder equal to the substituted variable
//! (shadowing) and renames any binder that would capture, so its result depends only on the
//! binding structure, never on ids being globally unique. `Fresh` hands out ids above every
//! id in the reduced term, so a renamed binder never meets an id already in use.

use super::values::{as_path, project};
use crate::syntax::{Fresh, Term, TermKind, Var};
use std::collections::{BTreeSet, HashMap};

/// A pending substitution (the lazy substitution of a let spine) with the free variables
/// of its terms.
#[derive(Default, Clone, Debug)]
pub struct Env {
    /// The bindings.
    pub map: HashMap<Var, Term>,
    /// The free variables of the bound terms.
    pub fv: BTreeSet<Var>,
}

impl Env {
    /// Adds `x := v`.
    pub fn bind(&mut self, x: Var, v: Term) {
        self.fv.extend(v.free_vars());
        self.map.insert(x, v);
    }
    /// `t` with the substitution applied.
    pub fn apply(&mut self, t: &Term, fresh: &mut Fresh) -> Term {
        if self.map.is_empty() {
            return t.clone();
        }
        go(t, self, fresh)
    }
}

/// `t{x := v}`.
pub fn subst(t: &Term, x: &Var, v: &Term, fresh: &mut Fresh) -> Term {
    let mut env = Env::default();
    env.bind(x.clone(), v.clone());
    env.apply(t, fresh)
}

/// `t{x1 := v1, …, xn := vn}` (simultaneous).
pub fn subst_many(t: &Term, s: &[(Var, Term)], fresh: &mut Fresh) -> Term {
    let mut env = Env::default();
    for (x, v) in s {
        env.bind(x.clone(), v.clone());
    }
    env.apply(t, fresh)
}

fn go(t: &Term, env: &mut Env, fresh: &mut Fresh) -> Term {
    if let TermKind::Proj(..) = &t.kind {
        if let Some((y, path)) = as_path(t) {
            return match env.map.get(y) {
                Some(v) => project_path(v, &path),
                None => t.clone(),
            };
        }
    }
    let kind = match &t.kind {
        TermKind::Var(y) => {
            return match env.map.get(y) {
                Some(v) => v.clone(),
                None => t.clone(),
            }
        }
        TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => return t.clone(),
        TermKind::Lam(y, ty, b) => {
            let (y2, b2) = binder(y, b, env, fresh);
            TermKind::Lam(y2, ty.clone(), Box::new(b2))
        }
        TermKind::Let(y, s, b) => {
            let s2 = go(s, env, fresh);
            let (y2, b2) = binder(y, b, env, fresh);
            TermKind::Let(y2, Box::new(s2), Box::new(b2))
        }
        TermKind::App(a, b) => {
            let (a, b) = two(a, b, env, fresh);
            TermKind::App(a, b)
        }
        TermKind::Pair(a, b) => {
            let (a, b) = two(a, b, env, fresh);
            TermKind::Pair(a, b)
        }
        TermKind::Jac(a, b) => {
            let (a, b) = two(a, b, env, fresh);
            TermKind::Jac(a, b)
        }
        TermKind::Dual(a, b) => {
            let (a, b) = two(a, b, env, fresh);
            TermKind::Dual(a, b)
        }
        TermKind::Pb(a, b) => {
            let (a, b) = two(a, b, env, fresh);
            TermKind::Pb(a, b)
        }
        TermKind::Proj(s, i) => TermKind::Proj(Box::new(go(s, env, fresh)), *i),
        TermKind::Sum(ts) => {
            return Term::sum(ts.iter().map(|s| go(s, env, fresh))).at(t.span);
        }
    };
    Term { kind, span: t.span }
}

/// Substitutes under the binder `y` of `body`: a binding of `y` itself is shadowed, and `y`
/// is renamed when it would capture a free variable of a substituted term.
fn binder(y: &Var, body: &Term, env: &mut Env, fresh: &mut Fresh) -> (Var, Term) {
    let shadowed = env.map.remove(y);
    let out = if env.map.is_empty() {
        (y.clone(), body.clone())
    } else if env.fv.contains(y) {
        let y2 = fresh.var(&y.name);
        env.map.insert(y.clone(), Term::var(&y2));
        let b = go(body, env, fresh);
        env.map.remove(y);
        (y2, b)
    } else {
        (y.clone(), go(body, env, fresh))
    };
    if let Some(v) = shadowed {
        env.map.insert(y.clone(), v);
    }
    out
}

fn two(a: &Term, b: &Term, env: &mut Env, fresh: &mut Fresh) -> (Box<Term>, Box<Term>) {
    (Box::new(go(a, env, fresh)), Box::new(go(b, env, fresh)))
}

/// `v.path` with projections of pairs taken during the substitution (instances of rule 2):
/// only the selected component of `v` is copied, not the whole environment tuple.
fn project_path(v: &Term, path: &[bool]) -> Term {
    let mut cur = v;
    let mut i = 0;
    while i < path.len() {
        match &cur.kind {
            TermKind::Pair(a, b) => {
                cur = if path[i] { b } else { a };
                i += 1;
            }
            _ => break,
        }
    }
    path[i..]
        .iter()
        .fold(cur.clone(), |t, &second| project(t, second))
}
