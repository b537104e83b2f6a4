//! Converting global sharing to `let`s (seed 000 §7.4, Fig. 20; horde-ad's
//! `unshareAstTensor` with `unshareAstScoped`, notes §2.3).
//!
//! The input is a core term whose shared sub-terms are references into a table (see
//! [`super::target`]: `share n c` is the reference `#share{n}` with `table[n] = c`).
//! The output is the same term with every referenced shared term bound once by a `let`
//! and every reference replaced by its variable:
//!
//! * a bottom-up traversal collects, for each sub-term, the ids it needs (transitively:
//!   a shared term's own references come along); each shared term is converted once;
//! * under a binder (`build`, the index maps of `gather`/`scatter`, `let`, lambdas,
//!   `loop`), the collected bindings that mention a bound variable — directly, or through
//!   another such binding (the transitive closure of horde-ad's `closeOccurs`) — are
//!   bound right inside the binder; the others float out;
//! * at the root, the remaining bindings are bound outermost; every group of bindings is
//!   emitted in **ascending id** order, which puts each binding in scope of its uses
//!   because a shared term only mentions smaller ids (§7.4).
//!
//! Precondition: binder names are unique (elaborated programs and the terms the reverse
//! pass builds from them), so the variables of a shared term denote the same binding at
//! every use.

use super::mk;
use super::target::share_id;
use adora_core::ast::{Expr, ExprKind, Name, Pat};
use adora_core::visit::{free_vars, rebuild, NameSupply, Rebuild};
use std::collections::{BTreeMap, BTreeSet};

struct Converted {
    body: Expr,
    free: BTreeSet<Name>,
    closure: BTreeSet<u64>,
}

struct Unshare<'a> {
    table: &'a BTreeMap<u64, Expr>,
    names: BTreeMap<u64, Name>,
    done: BTreeMap<u64, Converted>,
    /// The ids collected by the node being rebuilt (a stack: one set per open node).
    pending: Vec<BTreeSet<u64>>,
}

/// Replaces the share references of `root` by `let`-bound variables named from `supply`
/// (base name `base`), binding each shared term of `table` that `root` needs once, in
/// ascending id order, scoped under binders where its variables demand it.
pub fn unshare(
    root: &Expr,
    table: &BTreeMap<u64, Expr>,
    supply: &mut NameSupply,
    base: &str,
) -> Expr {
    let names = table.keys().map(|&n| (n, supply.fresh(base))).collect();
    let mut u = Unshare {
        table,
        names,
        done: BTreeMap::new(),
        pending: Vec::new(),
    };
    let (e, ids) = u.go(root);
    u.wrap(e, &ids)
}

impl Unshare<'_> {
    fn name(&self, n: u64) -> Name {
        self.names
            .get(&n)
            .cloned()
            .unwrap_or_else(|| format!("{}{n}", super::target::SHARE_PREFIX))
    }

    /// Converts shared term `n` (once) and returns the ids it needs, itself included.
    fn need(&mut self, n: u64) -> BTreeSet<u64> {
        if let Some(c) = self.done.get(&n) {
            return c.closure.clone();
        }
        let Some(term) = self.table.get(&n) else {
            return BTreeSet::new();
        };
        let (body, mut closure) = self.go(term);
        // Bindings local to binders inside `body` were placed there; the rest are needed
        // wherever `n` is bound.
        closure.insert(n);
        let free = free_vars(&body);
        self.done.insert(
            n,
            Converted {
                body,
                free,
                closure: closure.clone(),
            },
        );
        closure
    }

    /// Rebuilds `e` with references replaced; returns the ids it needs.
    fn go(&mut self, e: &Expr) -> (Expr, BTreeSet<u64>) {
        if let Some(n) = share_id(e) {
            let ids = self.need(n);
            return (mk(ExprKind::Var(self.name(n))), ids);
        }
        self.pending.push(BTreeSet::new());
        let out = rebuild(e, self);
        let ids = self.pending.pop().unwrap_or_default();
        (out, ids)
    }

    /// `let`s for `ids` (ascending) around `e`.
    fn wrap(&self, e: Expr, ids: &BTreeSet<u64>) -> Expr {
        ids.iter().rev().fold(e, |acc, n| match self.done.get(n) {
            Some(c) => mk(ExprKind::Let(
                Pat::Var(self.name(*n)),
                Box::new(c.body.clone()),
                Box::new(acc),
            )),
            None => acc,
        })
    }

    /// The ids of `ids` that must be bound under a binder of `bound`: those mentioning a
    /// bound variable, closed under "mentions a local binding".
    fn local(&self, ids: &BTreeSet<u64>, bound: &[Name]) -> BTreeSet<u64> {
        let mut local: BTreeSet<u64> = ids
            .iter()
            .copied()
            .filter(|n| {
                self.done
                    .get(n)
                    .is_some_and(|c| bound.iter().any(|b| c.free.contains(b)))
            })
            .collect();
        loop {
            let more: Vec<u64> = ids
                .iter()
                .copied()
                .filter(|n| !local.contains(n))
                .filter(|n| {
                    self.done
                        .get(n)
                        .is_some_and(|c| c.closure.iter().any(|m| *m != *n && local.contains(m)))
                })
                .collect();
            if more.is_empty() {
                return local;
            }
            local.extend(more);
        }
    }
}

impl Rebuild for Unshare<'_> {
    fn binder(&mut self, name: &Name) -> Name {
        name.clone()
    }
    fn child(&mut self, e: &Expr, bound: &[(Name, Name)]) -> Expr {
        let (c, mut ids) = self.go(e);
        let c = if bound.is_empty() {
            c
        } else {
            let names: Vec<Name> = bound.iter().map(|(_, n)| n.clone()).collect();
            let local = self.local(&ids, &names);
            ids.retain(|n| !local.contains(n));
            self.wrap(c, &local)
        };
        if let Some(top) = self.pending.last_mut() {
            top.extend(ids);
        }
        c
    }
}
