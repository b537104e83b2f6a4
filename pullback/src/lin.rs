//! Linear positions `lin(s)` (Mak and Ong, A Differential-form Pullback Programming
//! Language for Higher-order Reverse-mode AD, §3.1; the clauses are reconstructed:
//! docs/engines/pullback.md, "Linear positions"). `x ∈ lin(s)` means that `x` occurs in
//! `s` only in linear positions: the function of an application is in a linear position,
//! its argument is not, so `(s1 + s2) t = s1 t + s2 t` but `s (t1 + t2) ≠ s t1 + s t2`.
//!
//! ```text
//! lin(x) = {x}                 lin(r) = lin(f) = ∅         lin(\y.s) = lin(s) \ {y}
//! lin(s P) = lin(s) \ fv(P)    lin(s.i) = lin(s)           lin((s, t)) = lin(s) ∩ lin(t)
//! lin(s + P) = lin(s) ∩ lin(P) lin(0) = every variable
//! lin(J(s, t)) = lin(dual(s, t)) = (lin(s) \ fv(t)) ∪ (lin(t) \ fv(s))
//! lin(pb(s, t)) = lin(t) \ fv(s)
//! lin(let y = s in t) = lin((\y. t) s)
//! ```

use crate::syntax::{Term, TermKind, Var};
use std::collections::BTreeSet;

/// A set of variables: finite, or every variable but a finite set (`lin(0)` is every
/// variable, and removing binders from it keeps it co-finite).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinSet {
    /// Exactly these variables.
    Vars(BTreeSet<Var>),
    /// Every variable except these.
    All {
        /// The variables not in the set.
        except: BTreeSet<Var>,
    },
}

impl LinSet {
    /// The empty set.
    pub fn empty() -> LinSet {
        LinSet::Vars(BTreeSet::new())
    }
    /// Every variable (`lin(0)`).
    pub fn all() -> LinSet {
        LinSet::All {
            except: BTreeSet::new(),
        }
    }
    /// Whether `x` is in the set.
    pub fn contains(&self, x: &Var) -> bool {
        match self {
            LinSet::Vars(s) => s.contains(x),
            LinSet::All { except } => !except.contains(x),
        }
    }
    /// `self \ other`.
    pub fn minus(self, other: &BTreeSet<Var>) -> LinSet {
        match self {
            LinSet::Vars(s) => LinSet::Vars(s.difference(other).cloned().collect()),
            LinSet::All { mut except } => {
                except.extend(other.iter().cloned());
                LinSet::All { except }
            }
        }
    }
    /// `self ∩ other`.
    pub fn intersect(self, other: LinSet) -> LinSet {
        match (self, other) {
            (LinSet::Vars(a), LinSet::Vars(b)) => {
                LinSet::Vars(a.intersection(&b).cloned().collect())
            }
            (LinSet::Vars(a), LinSet::All { except })
            | (LinSet::All { except }, LinSet::Vars(a)) => {
                LinSet::Vars(a.difference(&except).cloned().collect())
            }
            (LinSet::All { except: a }, LinSet::All { except: b }) => LinSet::All {
                except: a.union(&b).cloned().collect(),
            },
        }
    }
    /// `self ∪ other`.
    pub fn union(self, other: LinSet) -> LinSet {
        match (self, other) {
            (LinSet::Vars(a), LinSet::Vars(b)) => LinSet::Vars(a.union(&b).cloned().collect()),
            (LinSet::Vars(a), LinSet::All { except })
            | (LinSet::All { except }, LinSet::Vars(a)) => LinSet::All {
                except: except.difference(&a).cloned().collect(),
            },
            (LinSet::All { except: a }, LinSet::All { except: b }) => LinSet::All {
                except: a.intersection(&b).cloned().collect(),
            },
        }
    }
}

/// `lin(t)`: the variables in linear positions of `t` (module doc).
pub fn lin(t: &Term) -> LinSet {
    match &t.kind {
        TermKind::Var(x) => LinSet::Vars(BTreeSet::from([x.clone()])),
        TermKind::Num(_) | TermKind::Fn(_) => LinSet::empty(),
        TermKind::Zero => LinSet::all(),
        TermKind::Lam(y, _, s) => lin(s).minus(&BTreeSet::from([y.clone()])),
        TermKind::App(s, p) => lin(s).minus(&p.free_vars()),
        TermKind::Let(y, s, body) => lin(body)
            .minus(&BTreeSet::from([y.clone()]))
            .minus(&s.free_vars()),
        TermKind::Proj(s, _) => lin(s),
        TermKind::Pair(s, u) => lin(s).intersect(lin(u)),
        TermKind::Sum(items) => items.iter().map(lin).fold(LinSet::all(), LinSet::intersect),
        TermKind::Jac(s, u) | TermKind::Dual(s, u) => lin(s)
            .minus(&u.free_vars())
            .union(lin(u).minus(&s.free_vars())),
        TermKind::Pb(s, u) => lin(u).minus(&s.free_vars()),
    }
}
