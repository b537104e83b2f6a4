//! Capture-avoiding substitution of index variables on the e-graph (`e[i := j]`), for the
//! β-like rules (`index (build n i e) j → e[i := j]`, index of a gather, gather fusion).
//!
//! Substitution works on a *representative*: in every class that mentions a substituted
//! variable (the free-variable analysis says so) it picks one node — the cheapest by
//! tree size with `build` made expensive, so a build-free representative wins when the
//! class has one — and re-adds a copy of it with substituted children. Classes that do not
//! mention a substituted variable are shared unchanged (their value does not depend on
//! it), so the copy is only as large as the part of the term that depends on the
//! variables. This is "extraction-based substitution" (the egg paper (Willsey et al., POPL 2021)): sound
//! for the chosen representative and therefore for the class.
//!
//! A node that binds a substituted variable, or binds a variable free in a replacement
//! (capture), is never chosen; when a class has no other choice the substitution fails
//! and the rule declines.

use super::util::{binders, ivar, ivars};
use crate::ir::analysis::IrGraph;
use crate::ir::lang::{IVarId, Ir};
use egg::{Id, Language};
use std::collections::{BTreeMap, BTreeSet};

/// Most classes a substitution may copy before it gives up (the rule then declines).
pub(crate) const MAX_REGION: usize = 20_000;

/// Most passes of the cost fixpoint (costs found by then are still consistent: a chosen
/// node's children are always strictly cheaper than it).
const MAX_PASSES: usize = 64;

/// Cost of choosing a `build` node as a representative (other nodes cost 1).
const BUILD_COST: u64 = 1_000;

/// The index variables a node binds (`None` if its binder classes are malformed).
fn bound_by(eg: &IrGraph, n: &Ir) -> Option<Vec<IVarId>> {
    match n {
        Ir::Build([_, i, _]) => Some(vec![ivar(eg, *i)?]),
        Ir::Gather([_, _, b, _]) | Ir::Scatter([_, _, b, _]) => ivars(eg, &binders(eg, *b)?),
        _ => Some(Vec::new()),
    }
}

/// Substitutes `map` (index variable ↦ replacement class) in each of `roots`; returns the
/// classes of the substituted copies in order, or `None` when the substitution would
/// capture a variable or the region is too large.
pub(crate) fn substitute(eg: &mut IrGraph, roots: &[Id], map: &[(IVarId, Id)]) -> Option<Vec<Id>> {
    let keys: BTreeSet<IVarId> = map.iter().map(|(v, _)| *v).collect();
    let repl: BTreeMap<IVarId, Id> = map.iter().map(|(v, r)| (*v, eg.find(*r))).collect();
    let repl_free: BTreeSet<IVarId> = repl
        .values()
        .flat_map(|&r| eg[r].data.free.iter().copied())
        .collect();
    let touches = |eg: &IrGraph, c: Id| eg[c].data.free.iter().any(|v| keys.contains(v));
    let root_ids: Vec<Id> = roots.iter().map(|&r| eg.find(r)).collect();

    // 1. The region: classes reachable from the roots that mention a key.
    let mut order: Vec<Id> = Vec::new();
    let mut seen: BTreeSet<Id> = BTreeSet::new();
    let mut stack: Vec<Id> = root_ids
        .iter()
        .copied()
        .filter(|&r| touches(eg, r))
        .collect();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) {
            continue;
        }
        if seen.len() > MAX_REGION {
            return None;
        }
        order.push(c);
        for n in &eg[c].nodes {
            for &ch in n.children() {
                let ch = eg.find(ch);
                if !seen.contains(&ch) && touches(eg, ch) {
                    stack.push(ch);
                }
            }
        }
    }

    // 2. Costs by fixpoint (children are mostly discovered after parents, so passes go
    //    in reverse discovery order).
    let mut cost: BTreeMap<Id, (u64, usize)> = BTreeMap::new();
    let eligible: BTreeMap<Id, Vec<bool>> = order
        .iter()
        .map(|&c| {
            let ok = eg[c]
                .nodes
                .iter()
                .map(|n| match bound_by(eg, n) {
                    Some(bv) => bv
                        .iter()
                        .all(|v| !keys.contains(v) && !repl_free.contains(v)),
                    None => false,
                })
                .collect();
            (c, ok)
        })
        .collect();
    for _pass in 0..MAX_PASSES {
        let mut changed = false;
        for &c in order.iter().rev() {
            for (k, n) in eg[c].nodes.iter().enumerate() {
                if !eligible[&c][k] {
                    continue;
                }
                let here = match n {
                    Ir::IVar(v) if keys.contains(v) => Some(1),
                    _ => {
                        let w = if matches!(n, Ir::Build(_)) {
                            BUILD_COST
                        } else {
                            1
                        };
                        n.children().iter().try_fold(w, |acc: u64, &ch| {
                            let ch = eg.find(ch);
                            if seen.contains(&ch) {
                                cost.get(&ch).map(|&(x, _)| acc.saturating_add(x))
                            } else {
                                Some(acc.saturating_add(1))
                            }
                        })
                    }
                };
                if let Some(x) = here {
                    let better = match cost.get(&c) {
                        None => true,
                        Some(&(old, _)) => x < old,
                    };
                    if better {
                        cost.insert(c, (x, k));
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }

    // 3. Copy the chosen representatives, cheapest first (children before parents). The
    //    chosen nodes are canonicalised before anything is added, so that a union made
    //    while adding (an analysis `modify`) cannot change which children are copied.
    let mut chosen: BTreeMap<Id, Ir> = BTreeMap::new();
    let mut stack: Vec<Id> = root_ids
        .iter()
        .copied()
        .filter(|r| seen.contains(r))
        .collect();
    while let Some(c) = stack.pop() {
        if chosen.contains_key(&c) {
            continue;
        }
        let &(_, k) = cost.get(&c)?;
        let n = eg[c].nodes[k].clone().map_children(|ch| eg.find(ch));
        let leaf = matches!(&n, Ir::IVar(v) if keys.contains(v));
        if !leaf {
            stack.extend(n.children().iter().copied().filter(|ch| seen.contains(ch)));
        }
        chosen.insert(c, n);
    }
    let mut needed: Vec<(u64, Id)> = chosen.keys().map(|c| (cost[c].0, *c)).collect();
    needed.sort_unstable();
    let mut built: BTreeMap<Id, Id> = BTreeMap::new();
    for (_, c) in needed {
        let new = match &chosen[&c] {
            Ir::IVar(v) if keys.contains(v) => repl[v],
            n => {
                let mut missing = false;
                let m = n.clone().map_children(|ch| {
                    if seen.contains(&ch) {
                        built.get(&ch).copied().unwrap_or_else(|| {
                            missing = true;
                            ch
                        })
                    } else {
                        ch
                    }
                });
                if missing {
                    return None;
                }
                eg.add(m)
            }
        };
        built.insert(c, new);
    }
    root_ids
        .iter()
        .map(|r| {
            if seen.contains(r) {
                built.get(r).copied()
            } else {
                Some(*r)
            }
        })
        .collect()
}
