//! Upper free sets: for each e-class reachable from a root, every index variable that
//! some representative can mention. Selection restricts a use site's scope to the class's
//! upper set, so states that differ only in irrelevant variables coincide.

use crate::ir::analysis::IrGraph;
use crate::ir::lang::{IVarId, Ir};
use crate::ir::typing;
use egg::{Id, Language};
use std::collections::HashMap;

/// A sorted set of index variables.
pub(super) type Scope = Vec<IVarId>;

pub(super) fn union_into(a: &mut Scope, b: &[IVarId]) {
    if b.iter().all(|v| a.binary_search(v).is_ok()) {
        return;
    }
    a.extend_from_slice(b);
    a.sort_unstable();
    a.dedup();
}

pub(super) fn minus(a: &[IVarId], b: &[IVarId]) -> Scope {
    a.iter().copied().filter(|v| !b.contains(v)).collect()
}

pub(super) fn intersect(a: &[IVarId], b: &[IVarId]) -> Scope {
    a.iter()
        .copied()
        .filter(|v| b.binary_search(v).is_ok())
        .collect()
}

/// Which children of `node` are static (resolved from leaves) rather than expressions.
pub(super) fn is_static_child(node: &Ir, k: usize) -> bool {
    match node {
        Ir::Proj(_) | Ir::Replicate(_) | Ir::Transpose(_) | Ir::Reshape(_) | Ir::Iota(_) => k == 0,
        Ir::Pow(_) => k == 1,
        Ir::Build(_) => k <= 1,
        Ir::Gather(_) | Ir::Scatter(_) => k == 0 || k == 2,
        _ => false,
    }
}

/// The variables `node` binds over child `k` (empty for children outside its binders).
pub(super) fn bound_over(eg: &IrGraph, node: &Ir, k: usize) -> Scope {
    let mut vs = match node {
        Ir::Build([_, i, _]) if k == 2 => typing::ivar_leaf(eg, *i).into_iter().collect(),
        Ir::Gather([_, _, bs, _]) | Ir::Scatter([_, _, bs, _]) if k == 3 => {
            typing::binder_list(eg, *bs).unwrap_or_default()
        }
        _ => Vec::new(),
    };
    vs.sort_unstable();
    vs
}

/// The classes reachable from `root`, children before parents where the graph is
/// acyclic (so the upper-set fixpoint converges in few sweeps).
fn reachable(eg: &IrGraph, root: Id) -> Vec<Id> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![(eg.find(root), false)];
    while let Some((id, expanded)) = stack.pop() {
        if expanded {
            out.push(id);
            continue;
        }
        if !seen.insert(id) {
            continue;
        }
        stack.push((id, true));
        for node in &eg[id].nodes {
            for c in node.children() {
                let c = eg.find(*c);
                if !seen.contains(&c) {
                    stack.push((c, false));
                }
            }
        }
    }
    out
}

/// The upper free sets of the classes reachable from `root`: for each class, every
/// index variable some member can mention (a least fixpoint; binders remove their
/// variables, static and binder positions contribute nothing).
pub(super) fn upper_sets(eg: &IrGraph, root: Id) -> HashMap<Id, Scope> {
    let ids = reachable(eg, root);
    let mut upper: HashMap<Id, Scope> = ids.iter().map(|id| (*id, Vec::new())).collect();
    loop {
        let mut changed = false;
        for id in &ids {
            let mut acc = upper[id].clone();
            let before = acc.len();
            for node in &eg[*id].nodes {
                if let Ir::IVar(v) = node {
                    union_into(&mut acc, &[*v]);
                    continue;
                }
                if matches!(node, Ir::Binders(_)) {
                    continue;
                }
                for (k, c) in node.children().iter().enumerate() {
                    if is_static_child(node, k) {
                        continue;
                    }
                    let up = &upper[&eg.find(*c)];
                    let bound = bound_over(eg, node, k);
                    union_into(&mut acc, &minus(up, &bound));
                }
            }
            if acc.len() != before {
                upper.insert(*id, acc);
                changed = true;
            }
        }
        if !changed {
            return upper;
        }
    }
}
