//! Sparse environments: the tape of rule 8 and of the forward chain rule keeps only the
//! parts of the environment that the rest of the let series still uses (Mak and Ong,
//! §3.3.1, the contravariance step `(g ∘ f)^* = f^* g^*`; the sparse form is our decision,
//! docs/engines/pullback-reduction.md, "Sparse environments").
//!
//! | live paths of `x` in `L` | tape `K` | next binder | `L'` |
//! |---|---|---|---|
//! | none | — (the first map is `\x. E`) | `y` | `L` |
//! | `x` itself | `x` | fresh `z` | `L{x := z.0, y := z.1}` |
//! | maximal paths `x.p1 … x.pm` | `(x.p1, (…, x.pm))` | fresh `z` | `L{x.pi := z.0.qi, y := z.1}` |
//!
//! Kept paths `x.p.0` and `x.p.1` are merged into `x.p` (a pair whose halves are both live
//! is kept whole), so when everything is live the tape is `(x, E)` as in the dense form.
//!
//! `qi` is the position of `x.pi` in `K`. Both forms are sound: `L` depends on `x` only
//! through the kept paths, so `\x. let y = E in L` is `(\z. L') ∘ (\x. (K, E))` (or
//! `(\y. L) ∘ (\x. E)`). The tape therefore grows with the live variables, not with the
//! number of lets before it, and a variable that is no longer used is not carried.

use super::subst::subst_many;
use super::values::as_path;
use crate::syntax::{Fresh, Term, TermKind, Var};

/// One split of `let y = E in L` under the binder `x`.
pub(crate) struct Split {
    /// The tape `K` of the kept paths of `x` (`None`: nothing of `x` is live in `L`).
    pub keep: Option<Term>,
    /// The binder of the rest: `y` when nothing is kept, else a fresh `z`.
    pub binder: Var,
    /// The rest `L'` over the binder.
    pub body: Term,
}

/// Splits `L` (the rest after `let y = …`) on the live paths of `x`.
pub(crate) fn split(x: &Var, y: Var, rest: Term, fresh: &mut Fresh) -> Split {
    let mut paths = Vec::new();
    live_paths(x, &rest, &mut paths);
    paths.sort();
    paths.dedup();
    // Keep only maximal prefixes: a kept path covers every path it is a prefix of.
    let mut kept: Vec<Vec<bool>> = Vec::new();
    for p in paths {
        if !kept.iter().any(|k| p.starts_with(k)) {
            kept.push(p);
        }
    }
    collapse(&mut kept);
    if kept.is_empty() {
        return Split {
            keep: None,
            binder: y,
            body: rest,
        };
    }
    let z = fresh.var("z");
    let zt = Term::var(&z);
    let m = kept.len();
    let position = |i: usize| -> Vec<bool> {
        let mut q = vec![true; i];
        if i + 1 < m {
            q.push(false);
        }
        q
    };
    let keep = tuple(
        kept.iter()
            .map(|p| p.iter().fold(Term::var(x), |t, &b| Term::proj(t, b)))
            .collect(),
    );
    let leaves: Vec<(Vec<bool>, Term)> = kept
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let leaf = position(i)
                .iter()
                .fold(Term::proj(zt.clone(), false), |t, &b| Term::proj(t, b));
            (p.clone(), leaf)
        })
        .collect();
    let image = trie(&leaves, &mut Vec::new());
    let body = subst_many(
        &rest,
        &[(x.clone(), image), (y, Term::proj(zt, true))],
        fresh,
    );
    Split {
        keep: Some(keep),
        binder: z,
        body,
    }
}

/// Both halves of a pair kept means the pair is kept: `x.p.0` and `x.p.1` become `x.p`
/// (repeatedly), so a fully live environment is carried as it is.
fn collapse(kept: &mut Vec<Vec<bool>>) {
    loop {
        let pair = kept.iter().find_map(|p| {
            let (last, parent) = p.split_last()?;
            let mut other = parent.to_vec();
            other.push(!last);
            kept.contains(&other).then(|| parent.to_vec())
        });
        let Some(parent) = pair else {
            break;
        };
        kept.retain(|p| !p.starts_with(&parent));
        kept.push(parent);
        kept.sort();
    }
}

/// `(t1, (t2, …))`, a single term as itself.
fn tuple(mut ts: Vec<Term>) -> Term {
    let last = ts.pop().expect("at least one kept path");
    ts.into_iter().rev().fold(last, |acc, t| Term::pair(t, acc))
}

/// The term that `x` stands for: a pair skeleton whose kept paths lead to their leaves
/// (unused branches are `zero`; substitution projects along paths, so they are never
/// reached).
fn trie(leaves: &[(Vec<bool>, Term)], prefix: &mut Vec<bool>) -> Term {
    if let Some((_, leaf)) = leaves.iter().find(|(p, _)| p == prefix) {
        return leaf.clone();
    }
    let mut side = |b: bool| {
        prefix.push(b);
        let t = if leaves.iter().any(|(p, _)| p.starts_with(prefix)) {
            trie(leaves, prefix)
        } else {
            Term::zero()
        };
        prefix.pop();
        t
    };
    let (a, b) = (side(false), side(true));
    Term::pair(a, b)
}

/// The projection paths through which `x` occurs free in `t` (maximal projection chains).
fn live_paths(x: &Var, t: &Term, out: &mut Vec<Vec<bool>>) {
    match &t.kind {
        TermKind::Var(v) => {
            if v == x {
                out.push(Vec::new());
            }
        }
        TermKind::Proj(..) => {
            // Walk to the base of the projection chain; build the path only for `x`.
            let mut base = t;
            while let TermKind::Proj(s, _) = &base.kind {
                base = s;
            }
            match &base.kind {
                TermKind::Var(v) if v == x => {
                    out.extend(as_path(t).map(|(_, p)| p));
                }
                TermKind::Var(_) => {}
                _ => live_paths(x, base, out),
            }
        }
        TermKind::Num(_) | TermKind::Fn(_) | TermKind::Zero => {}
        TermKind::Lam(y, _, b) => {
            if y != x {
                live_paths(x, b, out);
            }
        }
        TermKind::Let(y, s, b) => {
            live_paths(x, s, out);
            if y != x {
                live_paths(x, b, out);
            }
        }
        TermKind::App(a, b)
        | TermKind::Pair(a, b)
        | TermKind::Jac(a, b)
        | TermKind::Dual(a, b)
        | TermKind::Pb(a, b) => {
            live_paths(x, a, out);
            live_paths(x, b, out);
        }
        TermKind::Sum(ts) => ts.iter().for_each(|s| live_paths(x, s, out)),
    }
}
