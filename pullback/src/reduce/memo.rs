//! Sharing of premises: a premise `s ⇓ K` (Mak and Ong, §3.4: "Reductions 16b, 16c, 17, 18,
//! 19b, 19c … have a proof tree") is reduced once per α-class of `s` and reused
//! (docs/engines/pullback-reduction.md, "Premises" and "Counters and complexity").
//!
//! | case | premise | result |
//! |---|---|---|
//! | first | `s ⇓ K` by the strategy (steps counted) | `K`, stored under the key of `s` |
//! | again | `s'` α-equal to `s` up to a bijective renaming `ρ` of free variables | `K ρ` (no steps) |
//!
//! The strategy is deterministic and never looks at names, so the reduction of `s'` would
//! end in a term α-equal to `K ρ`; sharing it only skips the repeated steps (rule 17 unfolds
//! the same inner pullback `J(a, u) w` at every use of its tangent map). The key numbers
//! bound variables by binder depth and free variables by first occurrence.

use super::subst::subst_many;
use crate::syntax::{Fresh, Term, TermKind, Var};
use std::collections::HashMap;
use std::fmt::Write;

/// The most premises kept; the store is emptied when it is full.
const CAPACITY: usize = 4096;

/// Reduced premises by key: the free variables of the stored premise in key order, and
/// its result.
#[derive(Default)]
pub(crate) struct Memo {
    store: HashMap<String, (Vec<Var>, Term)>,
}

impl Memo {
    /// The stored result for `s`, renamed to the free variables of `s`.
    pub(crate) fn get(&self, s: &Term, fresh: &mut Fresh) -> Option<Term> {
        let (key, fv) = key(s);
        let (stored_fv, k) = self.store.get(&key)?;
        let renaming: Vec<(Var, Term)> = stored_fv
            .iter()
            .zip(&fv)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (a.clone(), Term::var(b)))
            .collect();
        Some(subst_many(k, &renaming, fresh))
    }

    /// Stores `k` as the result of the premise `s`.
    pub(crate) fn put(&mut self, s: &Term, k: &Term) {
        if self.store.len() >= CAPACITY {
            self.store.clear();
        }
        let (key, fv) = key(s);
        self.store.insert(key, (fv, k.clone()));
    }
}

/// The key of `t` and its free variables in order of first occurrence.
fn key(t: &Term) -> (String, Vec<Var>) {
    let mut out = String::new();
    let mut fv = Vec::new();
    write_key(t, &mut Vec::new(), &mut fv, &mut out);
    (out, fv)
}

fn write_key(t: &Term, bound: &mut Vec<Var>, fv: &mut Vec<Var>, out: &mut String) {
    use TermKind as K;
    let pair = |tag: &str,
                a: &Term,
                b: &Term,
                bound: &mut Vec<Var>,
                fv: &mut Vec<Var>,
                out: &mut String| {
        out.push_str(tag);
        write_key(a, bound, fv, out);
        out.push(',');
        write_key(b, bound, fv, out);
        out.push(')');
    };
    match &t.kind {
        K::Var(x) => match bound.iter().rev().position(|y| y == x) {
            Some(i) => {
                let _ = write!(out, "b{i} ");
            }
            None => {
                let i = fv.iter().position(|y| y == x).unwrap_or_else(|| {
                    fv.push(x.clone());
                    fv.len() - 1
                });
                let _ = write!(out, "f{i} ");
            }
        },
        K::Num(r) => {
            let _ = write!(out, "n{r} ");
        }
        K::Fn(f) => {
            let _ = write!(out, "s{} ", f.name());
        }
        K::Zero => out.push_str("0 "),
        K::Lam(x, ty, b) => {
            let _ = write!(out, "(\\{ty:?}.");
            bound.push(x.clone());
            write_key(b, bound, fv, out);
            bound.pop();
            out.push(')');
        }
        K::Let(x, s, b) => {
            out.push_str("(let ");
            write_key(s, bound, fv, out);
            out.push_str(" in ");
            bound.push(x.clone());
            write_key(b, bound, fv, out);
            bound.pop();
            out.push(')');
        }
        K::App(a, b) => pair("(@", a, b, bound, fv, out),
        K::Pair(a, b) => pair("(,", a, b, bound, fv, out),
        K::Jac(a, b) => pair("(J", a, b, bound, fv, out),
        K::Dual(a, b) => pair("(D", a, b, bound, fv, out),
        K::Pb(a, b) => pair("(P", a, b, bound, fv, out),
        K::Proj(s, i) => {
            out.push_str(if *i { "(.1 " } else { "(.0 " });
            write_key(s, bound, fv, out);
            out.push(')');
        }
        K::Sum(ts) => {
            out.push_str("(+");
            for s in ts {
                write_key(s, bound, fv, out);
            }
            out.push(')');
        }
    }
}
