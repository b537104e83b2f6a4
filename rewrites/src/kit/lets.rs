//! Shared DAG → `let`s: binds every shared node of a term once, by a `let` at the
//! outermost legal scope (docs/architecture.md, "Lowering kit"; seed 000 *Dual-Numbers
//! Reverse AD for Functional Array Languages* §7.4, Fig. 20, converting global sharing to
//! `let`s; horde-ad's `unshareAstTensor` with `unshareAstScoped`).
//!
//! The input is a core term whose shared nodes are [`reference`]s into a table
//! (`reference(n)` stands for `table[n].term`, which may itself contain references to
//! smaller ids). The output is the same term with every referenced shared node bound once,
//! by `let table[n].name = …`, and every reference replaced by that variable:
//!
//! * a bottom-up traversal collects, for each sub-term, the ids it needs (transitively:
//!   a shared term's own references come along); each shared term is converted once;
//! * under a binder (`build`, each index map of `gather` / `scatter`, `let`, lambdas,
//!   `loop`), the collected bindings that mention a variable it binds — directly, or
//!   through another such binding (the transitive closure of horde-ad's `closeOccurs`) —
//!   are bound right inside the binder; the others float out. So a node is bound in the
//!   scope of the innermost binder it depends on (the outermost scope where all its free
//!   variables are bound), never inside a `build` or loop body it does not depend on;
//! * at the root, the remaining bindings are bound outermost. Every group of bindings is
//!   emitted in **ascending id** order, which puts each binding in scope of its uses
//!   because a shared term only mentions smaller ids.
//!
//! Preconditions: binder names are unique (elaborated programs, and the terms the
//! engines build from them), so the variables of a shared term denote the same binding at
//! every use; the `let` names of the table are fresh. Users: bot's extraction
//! (`crate::ir::extract`) and engine `dual`'s unsharing (`crate::dual::symbolic::wrapper`).

use adora_core::ast::{Expr, ExprKind, Name, Pat};
use adora_core::diag::Span;
use adora_core::visit::{free_vars, rebuild, NameSupply, Rebuild};
use std::collections::{BTreeMap, BTreeSet};

/// The prefix of reference variables: `#` cannot start a source identifier, so a reference
/// never clashes with a program variable.
pub const REF_PREFIX: &str = "#share";

/// The reference to shared node `n`.
pub fn reference(n: u64) -> Expr {
    Expr::new(ExprKind::Var(format!("{REF_PREFIX}{n}")), Span::DUMMY)
}

/// The id of a reference (see [`reference`]).
pub fn reference_id(e: &Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Var(n) => n.strip_prefix(REF_PREFIX)?.parse().ok(),
        _ => None,
    }
}

/// A shared node: the name of its `let` and its term.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    /// The variable of its `let`.
    pub name: Name,
    /// Its term (it may contain references to smaller ids).
    pub term: Expr,
}

/// Names the shared terms of `table` `base_1`, `base_2`, … from `supply`, in ascending
/// id order.
pub fn named(
    table: BTreeMap<u64, Expr>,
    supply: &mut NameSupply,
    base: &str,
) -> BTreeMap<u64, Shared> {
    table
        .into_iter()
        .map(|(n, term)| {
            let name = supply.fresh(base);
            (n, Shared { name, term })
        })
        .collect()
}

struct Converted {
    body: Expr,
    free: BTreeSet<Name>,
    closure: BTreeSet<u64>,
}

struct Lets<'a> {
    table: &'a BTreeMap<u64, Shared>,
    done: BTreeMap<u64, Converted>,
    /// The ids collected by the node being rebuilt (a stack: one set per open node).
    pending: Vec<BTreeSet<u64>>,
}

/// Replaces the references of `root` by their `let`-bound variables, binding each shared
/// node of `table` that `root` needs once, at the outermost legal scope (see the module
/// documentation). A reference to an id missing from the table is left as it is.
pub fn bind_shared(root: &Expr, table: &BTreeMap<u64, Shared>) -> Expr {
    let mut l = Lets {
        table,
        done: BTreeMap::new(),
        pending: Vec::new(),
    };
    let (e, ids) = l.go(root);
    l.wrap(e, &ids)
}

impl Lets<'_> {
    /// Converts shared node `n` (once) and returns the ids it needs, itself included.
    fn need(&mut self, n: u64) -> BTreeSet<u64> {
        if let Some(c) = self.done.get(&n) {
            return c.closure.clone();
        }
        let Some(shared) = self.table.get(&n) else {
            return BTreeSet::new();
        };
        let (body, mut closure) = self.go(&shared.term);
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
        if let Some(n) = reference_id(e) {
            if let Some(s) = self.table.get(&n) {
                let ids = self.need(n);
                return (Expr::new(ExprKind::Var(s.name.clone()), e.span), ids);
            }
            return (e.clone(), BTreeSet::new());
        }
        self.pending.push(BTreeSet::new());
        let out = rebuild(e, self);
        let ids = self.pending.pop().unwrap_or_default();
        (out, ids)
    }

    /// `let`s for `ids` (ascending) around `e`.
    fn wrap(&self, e: Expr, ids: &BTreeSet<u64>) -> Expr {
        ids.iter()
            .rev()
            .fold(e, |acc, n| match (self.done.get(n), self.table.get(n)) {
                (Some(c), Some(s)) => Expr::new(
                    ExprKind::Let(
                        Pat::Var(s.name.clone()),
                        Box::new(c.body.clone()),
                        Box::new(acc),
                    ),
                    Span::DUMMY,
                ),
                _ => acc,
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

impl Rebuild for Lets<'_> {
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
