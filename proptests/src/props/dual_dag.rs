//! The structure of engine `dual`'s Delta DAGs (seed 000 §2.5: the two invariants of
//! Share ids, and share placement), on the runtime and the symbolic Delta of generated
//! programs after bot. The DAG is walked by node address, so a node reached twice
//! without a `Share` is seen as such.

use super::dual_delta::{bulk, call, forward_case, prop};
use super::util::fail;
use crate::catalogue::{Agg, Outcome, Pass, Property};
use crate::gen::{Case, RetKind};
use adora_core::ast::Function;
use adora_rewrites::dual::delta::{Delta, Kind, Rep};
use adora_rewrites::dual::symbolic::forward::{separate, SV};
use adora_rewrites::dual::symbolic::SDelta;
use std::collections::{BTreeMap, HashMap};

/// The Delta-structure properties.
pub fn properties() -> Vec<Property> {
    vec![
        prop("dual/share-ids-decrease", "seed 000 §2.5, Invariant 1",
            "in every Share i d of the runtime and of the symbolic Delta DAG, every Share id inside d is strictly \
             smaller than i (the figure: the largest number of Share ids)",
            Some(("max Share ids", Agg::Max)), || bulk(RetKind::Real), share_ids_decrease),
        prop("dual/share-id-unique", "seed 000 §2.5, Invariant 2",
            "two Share nodes with equal ids in the runtime or the symbolic Delta DAG are the same node (one \
             address); the figure: the largest number of Share nodes wrapping one body (1: the converse holds \
             too)",
            Some(("max Shares per body", Agg::Max)), || bulk(RetKind::Real), share_id_unique),
        prop("dual/delta-share-wrapped", "seed 000 §2.5, App. D (share placement)",
            "in the runtime and symbolic Delta DAGs every node reached from more than one parent (or from a \
             parent and a root) is a Share, Zero or Input node, and no Share wraps a Zero, Input or Share (the \
             figure: the largest in-degree of a Share node)",
            Some(("max Share in-degree", Agg::Max)), || bulk(RetKind::Real), share_wrapped),
    ]
}

/// One distinct node of a Delta DAG.
pub struct NodeInfo {
    /// The `Share` id, if the node is a `Share`.
    pub share: Option<u64>,
    /// Whether the node is `Zero` or `Input`.
    pub leaf: bool,
    /// The constructor's name.
    pub kind: &'static str,
    /// The children's addresses, with multiplicity.
    pub children: Vec<usize>,
}

/// A Delta DAG by node address: every distinct node, and the roots.
pub struct Dag {
    /// The nodes.
    pub nodes: BTreeMap<usize, NodeInfo>,
    /// The roots' addresses.
    pub roots: Vec<usize>,
}

fn addr<R: Rep>(d: &Delta<R>) -> usize {
    d.node() as *const _ as usize
}

/// Walks every node reachable from `roots`, each address once.
pub fn dag<R: Rep>(roots: &[Delta<R>]) -> Dag {
    let mut nodes = BTreeMap::new();
    let mut stack: Vec<Delta<R>> = roots.to_vec();
    while let Some(d) = stack.pop() {
        let a = addr(&d);
        if nodes.contains_key(&a) {
            continue;
        }
        let info = NodeInfo {
            share: match d.kind() {
                Kind::Share(id, _) => Some(*id),
                _ => None,
            },
            leaf: matches!(d.kind(), Kind::Zero | Kind::Input(_)),
            kind: adora_rewrites::dual::delta::kind_name(d.kind()),
            children: d.children().into_iter().map(addr).collect(),
        };
        nodes.insert(a, info);
        stack.extend(d.children().into_iter().cloned());
    }
    Dag {
        nodes,
        roots: roots.iter().map(addr).collect(),
    }
}

impl Dag {
    /// The largest Share id strictly inside each node (memoised, children first).
    fn max_id_below(&self) -> HashMap<usize, u64> {
        let mut memo: HashMap<usize, u64> = HashMap::new();
        let mut stack: Vec<(usize, bool)> = self.nodes.keys().map(|&a| (a, false)).collect();
        while let Some((a, done)) = stack.pop() {
            if memo.contains_key(&a) {
                continue;
            }
            let n = &self.nodes[&a];
            if !done {
                stack.push((a, true));
                stack.extend(
                    n.children
                        .iter()
                        .filter(|c| !memo.contains_key(c))
                        .map(|&c| (c, false)),
                );
                continue;
            }
            let m = n
                .children
                .iter()
                .map(|c| {
                    memo.get(c)
                        .copied()
                        .unwrap_or(0)
                        .max(self.nodes[c].share.unwrap_or(0))
                })
                .max()
                .unwrap_or(0);
            memo.insert(a, m);
        }
        memo
    }

    /// Edges into each node (with multiplicity; a root counts one).
    fn in_degrees(&self) -> HashMap<usize, usize> {
        let mut deg: HashMap<usize, usize> = HashMap::new();
        for n in self.nodes.values() {
            for c in &n.children {
                *deg.entry(*c).or_default() += 1;
            }
        }
        for r in &self.roots {
            *deg.entry(*r).or_default() += 1;
        }
        deg
    }

    /// The tree size of the DAG with sharing ignored (saturating).
    pub fn tree_size(&self) -> u128 {
        let mut memo: HashMap<usize, u128> = HashMap::new();
        let mut stack: Vec<(usize, bool)> = self.roots.iter().map(|&a| (a, false)).collect();
        while let Some((a, done)) = stack.pop() {
            if memo.contains_key(&a) {
                continue;
            }
            if done {
                let s = self.nodes[&a]
                    .children
                    .iter()
                    .fold(1u128, |s, c| s.saturating_add(memo[c]));
                memo.insert(a, s);
            } else {
                stack.push((a, true));
                stack.extend(self.nodes[&a].children.iter().map(|&c| (c, false)));
            }
        }
        self.roots
            .iter()
            .fold(0u128, |s, r| s.saturating_add(memo[r]))
    }
}

/// The symbolic Deltas of the bot output (`None`: vacuous).
fn symbolic(g: &Function) -> Result<Option<Vec<SDelta>>, String> {
    fn collect(sv: &SV, out: &mut Vec<SDelta>) {
        match sv {
            SV::R(_, d) => out.push(d.clone()),
            SV::N(_) => {}
            SV::T(vs) => vs.iter().for_each(|c| collect(c, out)),
        }
    }
    let Some(sep) = call(separate(g), "the symbolic forward pass")? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    collect(&sep.result, &mut out);
    Ok(Some(out))
}

/// Both DAGs of a case: runtime and symbolic (`None`: vacuous).
fn both_dags(case: &Case) -> Result<Option<[(&'static str, Dag); 2]>, String> {
    let Some((_, g, fw)) = forward_case(case)? else {
        return Ok(None);
    };
    let Some(sym) = symbolic(&g)? else {
        return Ok(None);
    };
    Ok(Some([
        ("runtime", dag(&fw.result.deltas())),
        ("symbolic", dag(&sym)),
    ]))
}

fn share_ids_decrease(case: &Case) -> Outcome {
    let Some(dags) = both_dags(case)? else {
        return Pass::vacuous();
    };
    let mut most = 0usize;
    for (which, d) in &dags {
        let below = d.max_id_below();
        for (a, n) in &d.nodes {
            if let Some(id) = n.share {
                if below[a] >= id {
                    return fail(format!(
                        "{which} Delta: Share {id} contains Share id {} (invariant 1)",
                        below[a]
                    ));
                }
            }
        }
        most = most.max(d.nodes.values().filter(|n| n.share.is_some()).count());
    }
    Pass::figure(most as f64)
}

fn share_id_unique(case: &Case) -> Outcome {
    let Some(dags) = both_dags(case)? else {
        return Pass::vacuous();
    };
    let mut worst = 0usize;
    for (which, d) in &dags {
        let mut at: BTreeMap<u64, usize> = BTreeMap::new();
        let mut per_body: HashMap<usize, usize> = HashMap::new();
        for (a, n) in &d.nodes {
            let Some(id) = n.share else { continue };
            if let Some(b) = at.insert(id, *a) {
                return fail(format!("{which} Delta: two Share nodes with id {id} at different addresses ({b:#x}, {a:#x}; invariant 2)"));
            }
            *per_body.entry(n.children[0]).or_default() += 1;
        }
        worst = worst.max(per_body.values().copied().max().unwrap_or(1));
    }
    Pass::figure(worst as f64)
}

fn share_wrapped(case: &Case) -> Outcome {
    let Some(dags) = both_dags(case)? else {
        return Pass::vacuous();
    };
    let mut worst = 0usize;
    for (which, d) in &dags {
        let deg = d.in_degrees();
        for (a, n) in &d.nodes {
            let k = deg.get(a).copied().unwrap_or(0);
            if k > 1 && n.share.is_none() && !n.leaf {
                return fail(format!(
                    "{which} Delta: a `{}` node is reached {k} times without a Share",
                    n.kind
                ));
            }
            if n.share.is_some() {
                worst = worst.max(k);
                let body = &d.nodes[&n.children[0]];
                if body.leaf || body.share.is_some() {
                    return fail(format!(
                        "{which} Delta: a Share wraps a `{}` node",
                        body.kind
                    ));
                }
            }
        }
    }
    Pass::figure(worst as f64)
}
