//! Every member of an e-class as a term, including the *open* members: those that
//! mention an index variable bound only around other uses of the class.
//!
//! **Why open members exist.** An e-class is shared by all its use sites, and a rule's
//! result is unioned into the class of its left side wherever that class is used. Take
//! `build 3 (i => build 3 (j => y)[i])[0]` with `y` independent of `i` and `j`
//! (`bot/index-build`, docs/rules/bot.md): the inner β-step makes the member
//! `(index (build 3 j y) i)` a member of `y`'s class (it is used under the binder of `i`,
//! and `y` does not mention `i`, so substitution shares `y`), and the outer β-step then
//! unions the root with `y`'s class. The root class now holds a node that mentions `i`,
//! although `i` is bound nowhere around the root. Constant folding does the same
//! globally: `build 4 (j => 0.0)[i]` under a binder of `i` becomes a member of the one
//! `0.0` class, which the whole program shares. Neither union is unsound, and neither
//! rule can avoid it (a rule sees a class, never the contexts it is used in; declining
//! every β-step whose result class is shared would stop the transform).
//!
//! **What such a member means.** The analysis contract (`ir::analysis`) gives every member
//! of a class the class's value for every valuation of its free index variables within
//! their extents (they are only ever evaluated under their binders); a member with a free
//! variable of extent 0 is never evaluated at all. Scope-aware selection therefore never
//! picks an open member where its variables are unbound (module `select`), and the best
//! term of a class is always closed: the translated program is one (the e-graph only
//! grows). But no *closed* term is rooted at an open member, so [`super::extract_node`]
//! rightly fails on it.
//!
//! **How to check one.** [`extract_member`] extracts the best term rooted at the member in
//! the smallest scope that admits one, and [`Member::instances`] closes it by substituting
//! integer literals for its free index variables, one closed term per valuation within
//! the extents (all of them, or a bounded deterministic sample). A rule is sound for the
//! member exactly when every instance has the class's value.

use super::scope::{bound_over, free_ivars, is_binding_position};
use super::upper::upper_sets;
use super::{internal, select, BuildFreeCost};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::{Const, IVarId, Ir};
use adora_core::diag::Result;
use egg::{Id, Language, RecExpr};
use num_bigint::BigInt;
use std::collections::HashMap;

/// One member of a class as a term.
#[derive(Clone, Debug)]
pub struct Member {
    /// The best term rooted at the member's node (in the smallest scope that admits one).
    pub expr: RecExpr<Ir>,
    /// The index variables `expr` mentions free, sorted, with their extents (empty: the
    /// term is closed).
    pub open: Vec<(IVarId, usize)>,
}

/// A closed instance of a [`Member`]: its term with literals for its free index variables.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The value given to each free index variable (empty for a closed member).
    pub valuation: Vec<(IVarId, i64)>,
    /// The closed term.
    pub expr: RecExpr<Ir>,
}

/// The member of class `class` whose top node is `node` (one of `egraph[class].nodes`):
/// its best term under [`BuildFreeCost`], closed when one exists, otherwise open in the
/// fewest index variables the analysis allows (the free set the node's children force;
/// failing that, every variable a member of the class can mention). An error says that
/// no term at all is rooted at `node` (an internal error).
pub fn extract_member(egraph: &IrGraph, class: Id, node: &Ir) -> Result<Member> {
    let lower = crate::ir::typing::node_free(egraph, node);
    let class = egraph.find(class);
    let upper = upper_sets(egraph, class).remove(&class).unwrap_or_default();
    let mut tried: Vec<Vec<IVarId>> = Vec::new();
    let mut last = None;
    for scope in [Vec::new(), lower, upper] {
        if tried.contains(&scope) {
            continue;
        }
        match select(egraph, class, &scope, Some(node), &BuildFreeCost) {
            Ok(expr) => return Ok(member(expr, &egraph.analysis)),
            Err(d) => last = Some(d),
        }
        tried.push(scope);
    }
    Err(last.unwrap_or_else(|| internal("no term is rooted at the requested node")))
}

fn member(expr: RecExpr<Ir>, analysis: &IrAnalysis) -> Member {
    let free = free_ivars(&expr).pop().unwrap_or_default();
    let open = free
        .into_iter()
        .map(|v| {
            let extent = analysis.ivars.get(v.0 as usize).map_or(0, |i| i.extent);
            (v, extent)
        })
        .collect();
    Member { expr, open }
}

impl Member {
    /// The closed instances of the member: one per valuation of its free index variables
    /// within their extents when there are at most `max` valuations (all of them);
    /// otherwise the valuations where each variable is `0` or its extent minus one, the
    /// first `max` in lexicographic order. A closed member has one instance (itself); a
    /// member with a free variable of extent 0 has none (it is never evaluated).
    pub fn instances(&self, max: usize) -> Vec<Instance> {
        valuations(&self.open, max)
            .into_iter()
            .map(|valuation| {
                let expr = if valuation.is_empty() {
                    self.expr.clone()
                } else {
                    adora_core::with_stack(|| instantiate(&self.expr, &valuation))
                };
                Instance { valuation, expr }
            })
            .collect()
    }
}

/// The valuations of `open` described at [`Member::instances`], lexicographic.
fn valuations(open: &[(IVarId, usize)], max: usize) -> Vec<Vec<(IVarId, i64)>> {
    let total = open
        .iter()
        .try_fold(1usize, |acc, &(_, n)| acc.checked_mul(n));
    let choices: Vec<Vec<i64>> = open
        .iter()
        .map(|&(_, n)| match total {
            Some(t) if t <= max => (0..n as i64).collect(),
            _ if n == 0 => Vec::new(),
            _ => {
                let mut c = vec![0, n as i64 - 1];
                c.dedup();
                c
            }
        })
        .collect();
    let mut out: Vec<Vec<(IVarId, i64)>> = vec![Vec::new()];
    for (k, vals) in choices.iter().enumerate() {
        let mut next = Vec::new();
        'outer: for prefix in &out {
            for &x in vals {
                if next.len() == max {
                    break 'outer;
                }
                let mut p = prefix.clone();
                p.push((open[k].0, x));
                next.push(p);
            }
        }
        out = next;
    }
    out
}

/// `e` with each free occurrence of a variable of `valuation` replaced by its value (an
/// integer literal); occurrences under a binder of the same variable stay.
fn instantiate(e: &RecExpr<Ir>, valuation: &[(IVarId, i64)]) -> RecExpr<Ir> {
    let mut st = Inst {
        e,
        val: valuation.iter().copied().collect(),
        out: RecExpr::default(),
        dedup: HashMap::new(),
        memo: HashMap::new(),
    };
    let root = Id::from(e.as_ref().len() - 1);
    let active: Vec<IVarId> = valuation.iter().map(|(v, _)| *v).collect();
    st.go(root, &active);
    st.out
}

struct Inst<'a> {
    e: &'a RecExpr<Ir>,
    val: HashMap<IVarId, i64>,
    out: RecExpr<Ir>,
    dedup: HashMap<Ir, Id>,
    memo: HashMap<(Id, Vec<IVarId>), Id>,
}

impl Inst<'_> {
    fn add(&mut self, n: Ir) -> Id {
        if let Some(&id) = self.dedup.get(&n) {
            return id;
        }
        let id = self.out.add(n.clone());
        self.dedup.insert(n, id);
        id
    }

    /// Copies node `id`, substituting the variables of `active` (those not shadowed by a
    /// binder on the path from the root).
    fn go(&mut self, id: Id, active: &[IVarId]) -> Id {
        if let Some(&done) = self.memo.get(&(id, active.to_vec())) {
            return done;
        }
        let node = self.e[id].clone();
        let new = match &node {
            Ir::IVar(v) if active.contains(v) => {
                let k = self.val[v];
                self.add(Ir::Lit(Const::Int(BigInt::from(k))))
            }
            _ => {
                let mut kids = Vec::new();
                for (k, &c) in node.children().iter().enumerate() {
                    let inner: Vec<IVarId> = if is_binding_position(&node, k) {
                        Vec::new()
                    } else {
                        let bound = bound_over(self.e, &node, k);
                        active
                            .iter()
                            .copied()
                            .filter(|v| !bound.contains(v))
                            .collect()
                    };
                    kids.push(self.go(c, &inner));
                }
                let mut it = kids.into_iter();
                let n = node.map_children(|_| it.next().expect("one id per child"));
                self.add(n)
            }
        };
        self.memo.insert((id, active.to_vec()), new);
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instantiate_respects_shadowing_binders() {
        // `i0` is free in the first operand and bound (shadowed) in the second.
        let e: RecExpr<Ir> = "(+ (index v0 i0) (sum (build n2 i0 (index v0 i0))))"
            .parse()
            .unwrap();
        let got = instantiate(&e, &[(IVarId(0), 1)]);
        assert_eq!(
            got.to_string(),
            "(+ (index v0 z1) (sum (build n2 i0 (index v0 i0))))"
        );
        assert_eq!(super::super::check_scoped(&got), Ok(()));
    }

    #[test]
    fn valuations_are_exhaustive_below_the_cap_and_corners_above() {
        let (a, b) = (IVarId(0), IVarId(1));
        let all = valuations(&[(a, 2), (b, 3)], 64);
        assert_eq!(all.len(), 6);
        assert_eq!(all[5], vec![(a, 1), (b, 2)]);
        let corners = valuations(&[(a, 10), (b, 10)], 64);
        assert_eq!(
            corners,
            vec![
                vec![(a, 0), (b, 0)],
                vec![(a, 0), (b, 9)],
                vec![(a, 9), (b, 0)],
                vec![(a, 9), (b, 9)]
            ]
        );
        assert!(valuations(&[(a, 0)], 64).is_empty());
        assert_eq!(valuations(&[], 64), vec![Vec::new()]);
    }
}
