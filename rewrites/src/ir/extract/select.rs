//! Scope-aware selection of one term per e-class (the first half of extraction).
//!
//! A *state* is an e-class together with the index variables in scope at the use site,
//! restricted to the variables that can occur in the class at all (its *upper* free set:
//! the union over every member, computed by a fixpoint). A node is admissible in a state
//! when every `IVar` it uses is in scope; a binder (`build`, `gather`, `scatter`) puts its
//! variables in scope for its body / index components only (the source of a gather or
//! scatter is outside). So an extracted term never mentions an index variable outside its
//! binder, even when a class holds `i - i` and `0` with different free sets.
//!
//! Each state keeps three best costs, all minima over its admissible nodes of the node's
//! weight plus its children's costs (a Bellman–Ford style fixpoint over the states reachable
//! from the root, which terminates because costs only decrease and every node weighs at
//! least one):
//!
//! - `any`: the best term;
//! - `stuck`: the best term whose top is a variable, a constant, an `append` or a
//!   `scatter` (an index of such a term is in normal form, Theorem 5.1), or a projection
//!   of a stuck tuple (`v.k` of a tuple variable `v`);
//! - `constant`: the best literal or array literal of literals.
//!
//! An `index` node's array child costs `min(stuck, any + bad_index)`, so the extractor
//! prefers representations whose indexed arrays are stuck forms. Ties keep the earlier node
//! in the class's node order (egg keeps class nodes sorted), so selection is deterministic.

use super::{Cost, CostModel};
use crate::ir::analysis::IrGraph;
use crate::ir::lang::{Const, IVarId, Ir};
use crate::ir::typing;
use egg::{Id, Language, RecExpr};
use std::collections::HashMap;

use super::upper::{bound_over, intersect, is_static_child, union_into, upper_sets, Scope};

/// The three cost kinds of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Any = 0,
    Stuck = 1,
    Const = 2,
}

/// A child of a planned node.
#[derive(Clone, Debug)]
enum Kid {
    /// An expression child: a state.
    State(usize),
    /// A static child, resolved to these leaves (in RecExpr order, the last is the child).
    Static(Vec<Ir>),
}

#[derive(Clone, Debug)]
struct Plan {
    node: Ir,
    kids: Vec<Kid>,
}

struct State {
    plans: Vec<Plan>,
    best: [Option<(Cost, usize)>; 3],
}

/// The selection over one e-graph: states discovered from a root, and their costs.
pub(super) struct Selector<'a, C: CostModel> {
    eg: &'a IrGraph,
    cost: &'a C,
    upper: HashMap<Id, Scope>,
    states: Vec<State>,
    index: HashMap<(Id, Scope), usize>,
}

impl<'a, C: CostModel> Selector<'a, C> {
    /// A selector over the part of `eg` reachable from `root` (computes the upper free
    /// sets of those classes).
    pub fn new(eg: &'a IrGraph, cost: &'a C, root: Id) -> Self {
        let mut s = Selector {
            eg,
            cost,
            upper: HashMap::new(),
            states: Vec::new(),
            index: HashMap::new(),
        };
        s.upper = upper_sets(eg, root);
        s
    }

    /// The state of class `id` under `scope` (discovering it and, transitively, every
    /// state its nodes need).
    pub fn state(&mut self, id: Id, scope: &[IVarId]) -> usize {
        let eg = self.eg;
        let id = eg.find(id);
        let scope = intersect(scope, self.upper.get(&id).map_or(&[][..], |u| u));
        if let Some(&s) = self.index.get(&(id, scope.clone())) {
            return s;
        }
        let s0 = self.register((id, scope.clone()));
        let mut work = vec![(id, scope)];
        while let Some((id, scope)) = work.pop() {
            let s = self.index[&(id, scope.clone())];
            let mut plans = Vec::new();
            for node in &eg[id].nodes {
                if let Some(p) = self.plan(node, &scope, &mut work) {
                    plans.push(p);
                }
            }
            self.states[s].plans = plans;
        }
        s0
    }

    fn register(&mut self, key: (Id, Scope)) -> usize {
        let s = self.states.len();
        self.states.push(State {
            plans: Vec::new(),
            best: [None, None, None],
        });
        self.index.insert(key, s);
        s
    }

    /// The plan of `node` in a state of scope `scope`, or `None` when it is not admissible
    /// (an index variable out of scope, or a malformed static child).
    fn plan(&mut self, node: &Ir, scope: &[IVarId], work: &mut Vec<(Id, Scope)>) -> Option<Plan> {
        if let Ir::IVar(v) = node {
            if scope.binary_search(v).is_err() {
                return None;
            }
        }
        if matches!(node, Ir::Binders(_)) {
            return None;
        }
        let mut kids = Vec::new();
        for (k, c) in node.children().iter().enumerate() {
            if is_static_child(node, k) {
                kids.push(Kid::Static(self.static_leaves(node, k, *c)?));
                continue;
            }
            let mut inner = scope.to_vec();
            union_into(&mut inner, &bound_over(self.eg, node, k));
            let c = self.eg.find(*c);
            let inner = intersect(&inner, self.upper.get(&c).map_or(&[][..], |u| u));
            let key = (c, inner);
            let s = match self.index.get(&key) {
                Some(&s) => s,
                None => {
                    let s = self.register(key.clone());
                    work.push(key);
                    s
                }
            };
            kids.push(Kid::State(s));
        }
        Some(Plan {
            node: node.clone(),
            kids,
        })
    }

    fn static_leaves(&self, node: &Ir, k: usize, c: Id) -> Option<Vec<Ir>> {
        let eg = self.eg;
        let leaf = |f: &dyn Fn(&Ir) -> bool| eg[c].nodes.iter().find(|n| f(n)).cloned();
        Some(match (node, k) {
            (Ir::Pow(_), _) => vec![leaf(&|n| matches!(n, Ir::Lit(Const::Int(_))))?],
            (Ir::Build(_), 1) => vec![Ir::IVar(typing::ivar_leaf(eg, c)?)],
            (Ir::Gather(_) | Ir::Scatter(_), 2) => typing::binder_list(eg, c)?
                .into_iter()
                .map(Ir::IVar)
                .collect(),
            (Ir::Gather(_) | Ir::Scatter(_) | Ir::Transpose(_) | Ir::Reshape(_), 0) => {
                vec![leaf(&|n| matches!(n, Ir::Shape(_)))?]
            }
            _ => vec![leaf(&|n| matches!(n, Ir::Nat(_)))?],
        })
    }

    fn kid_cost(&self, kid: &Kid, mode: Mode) -> Option<Cost> {
        match kid {
            Kid::State(s) => self.states[*s].best[mode as usize].map(|b| b.0),
            Kid::Static(_) => Some(Cost::ZERO),
        }
    }

    /// The cost of an index node's array child and whether the stuck form is taken.
    fn index_array(&self, kid: &Kid) -> Option<(Cost, bool)> {
        let stuck = self.kid_cost(kid, Mode::Stuck);
        let any = self
            .kid_cost(kid, Mode::Any)
            .map(|c| c.plus(self.cost.bad_index()));
        match (stuck, any) {
            (Some(s), Some(a)) if s <= a => Some((s, true)),
            (Some(s), None) => Some((s, true)),
            (_, Some(a)) => Some((a, false)),
            (None, None) => None,
        }
    }

    /// The costs of a plan in the three modes (`None`: not available in that mode).
    fn plan_costs(&self, p: &Plan) -> [Option<Cost>; 3] {
        let w = self.cost.weight(self.eg, &p.node);
        let mut any = Some(w);
        for (k, kid) in p.kids.iter().enumerate() {
            let c = if k == 0 && matches!(p.node, Ir::Index(_)) {
                self.index_array(kid).map(|x| x.0)
            } else {
                self.kid_cost(kid, Mode::Any)
            };
            any = match (any, c) {
                (Some(a), Some(c)) => Some(a.plus(c)),
                _ => None,
            };
        }
        let constant = match &p.node {
            Ir::Lit(_) => any,
            Ir::Array(_) => p
                .kids
                .iter()
                .try_fold(w, |acc, k| Some(acc.plus(self.kid_cost(k, Mode::Const)?))),
            _ => None,
        };
        let stuck = match &p.node {
            Ir::Var(_) | Ir::Append(_) | Ir::Scatter(_) => any,
            // `v.k`: a component of a tuple variable is a variable of the tuple-free
            // encoding (docs/rules/bot.md, "Normal form"); its tuple stays stuck.
            Ir::Proj(_) => p
                .kids
                .iter()
                .try_fold(w, |acc, k| Some(acc.plus(self.kid_cost(k, Mode::Stuck)?))),
            _ => constant,
        };
        [any, stuck, constant]
    }

    /// Runs the cost fixpoint over every discovered state.
    pub fn solve(&mut self) {
        loop {
            let mut changed = false;
            for s in (0..self.states.len()).rev() {
                let mut best = self.states[s].best;
                for (pi, p) in self.states[s].plans.iter().enumerate() {
                    for (m, c) in self.plan_costs(p).into_iter().enumerate() {
                        let Some(c) = c else { continue };
                        let better = match best[m] {
                            None => true,
                            Some((old, _)) => c < old,
                        };
                        if better {
                            best[m] = Some((c, pi));
                        }
                    }
                }
                if best != self.states[s].best {
                    self.states[s].best = best;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The best cost of state `s` in mode `m`.
    pub fn cost_of(&self, s: usize, m: Mode) -> Option<Cost> {
        self.states[s].best[m as usize].map(|b| b.0)
    }

    /// Adds the selected term of state `s` in mode `m` to `out` (rooted at `forced` when
    /// given: a node of the state's class). `None` when no admissible term exists.
    pub fn build(&self, s: usize, m: Mode, forced: Option<&Ir>, out: &mut Builder) -> Option<Id> {
        let key = (s, m as u8);
        if forced.is_none() {
            if let Some(&id) = out.memo.get(&key) {
                return Some(id);
            }
            if !out.active.insert(key) {
                return None; // a cycle: only a cost model with zero weights gets here
            }
        }
        let p = match forced {
            Some(n) => self.states[s].plans.iter().find(|p| &p.node == n),
            None => self.states[s].best[m as usize].map(|b| &self.states[s].plans[b.1]),
        };
        let id = p.and_then(|p| self.build_plan(p, m, out));
        if forced.is_none() {
            out.active.remove(&key);
            if let Some(id) = id {
                out.memo.insert(key, id);
            }
        }
        id
    }

    fn build_plan(&self, p: &Plan, m: Mode, out: &mut Builder) -> Option<Id> {
        let mut node = p.node.clone();
        let mut ids = Vec::new();
        for (k, kid) in p.kids.iter().enumerate() {
            let id = match kid {
                Kid::Static(leaves) => {
                    let leaf_ids: Vec<Id> = leaves.iter().map(|l| out.add(l.clone())).collect();
                    match (&p.node, k) {
                        (Ir::Gather(_) | Ir::Scatter(_), 2) => {
                            out.add(Ir::Binders(leaf_ids.into_boxed_slice()))
                        }
                        _ => *leaf_ids.last()?,
                    }
                }
                Kid::State(c) => {
                    let cm = match (&p.node, m) {
                        (Ir::Index(_), _) if k == 0 => {
                            if self.index_array(kid)?.1 {
                                Mode::Stuck
                            } else {
                                Mode::Any
                            }
                        }
                        (Ir::Array(_), Mode::Stuck | Mode::Const) => Mode::Const,
                        (Ir::Proj(_), Mode::Stuck) => Mode::Stuck,
                        _ => Mode::Any,
                    };
                    self.build(*c, cm, None, out)?
                }
            };
            ids.push(id);
        }
        for (slot, id) in node.children_mut().iter_mut().zip(ids) {
            *slot = id;
        }
        Some(out.add(node))
    }
}

/// A hash-consing builder of the extracted [`RecExpr`].
#[derive(Default)]
pub(super) struct Builder {
    pub expr: RecExpr<Ir>,
    dedup: HashMap<Ir, Id>,
    memo: HashMap<(usize, u8), Id>,
    active: std::collections::HashSet<(usize, u8)>,
}

impl Builder {
    fn add(&mut self, n: Ir) -> Id {
        if let Some(&id) = self.dedup.get(&n) {
            return id;
        }
        let id = self.expr.add(n.clone());
        self.dedup.insert(n, id);
        id
    }
}
