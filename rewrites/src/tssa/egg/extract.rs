//! Extraction from the TL e-graph by a total order that realises the paper's cost `C`
//! (seed 001 §4.3, rules 4.22–4.34) for the passes (docs/engines/tssa-passes.md,
//! "Extraction").
//!
//! The paper's `C` depends on predicate counts and, through data predicates (E1), on
//! input values: it is not a function of a node and its children's costs. Extraction
//! therefore minimises, lexicographically:
//!
//! 1. `viol`: the number of places where the term breaks the pass's normal form (LL-NF,
//!    PE-NF or GP-NF, counted bottom-up: a `let` under a non-`let` node, a projection of
//!    a non-input, a pair below a non-pair node or bound by a `let`, a `let` binding that
//!    is not `gen I. s` or an input expression, an output leaf that is neither);
//! 2. `C̄`: `C` with every predicate taken as true — an upper bound of `C` computed
//!    bottom-up by rules 4.22–4.34 (`gen` multiplies by its range, `sum i:n. e` costs
//!    `n·(C̄(e)+1) − 1`, so nested sums cost jointly as rule 4.30 says);
//! 3. the tree size;
//! 4. a structural fingerprint of the term (a deterministic hash of its nodes and
//!    leaves), so that ties never depend on e-class ids or on the order rules ran.
//!
//! All normal forms a pass can reach have the same exact `C` (let-lifting and pair
//! elimination are cost-neutral, S001-X5.1c and X5.2d) or lower it only by rules the
//! normal form makes compulsory (5.21 and 5.24 in gen push-out), so minimising `viol`
//! first and `C̄` second yields a normal form of least `C`; the properties check `C` on
//! the result exactly.
//!
//! Because the violations of a parent depend on *what* its children are (a `let`, a pair,
//! a scalar form) and not only on their costs, each class keeps its best candidate for
//! every combination of those flags ([`Flags`]), and a node combines its children's
//! candidates in every way. A candidate's tree size exceeds its children's, so the
//! fixpoint is unique and does not depend on the order classes are visited; a worklist
//! reaches it, recomputing only the parents of classes whose candidates changed.

use super::analysis::TlGraph;
use super::lang::{is_data_leaf, node_term, term_children, Tl};
use super::types::is_pair;
use adora_core::tl::{Term, Ty, Var};
use egg::{Id, Language};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::hash::{Hash, Hasher};

/// Which normal form the extraction aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    /// LL-NF (let-lifting).
    LetLift,
    /// PE-NF (pair elimination).
    PairElim,
    /// GP-NF (gen push-out).
    GenPush,
}

/// What a parent needs to know about a child's term.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Flags {
    /// Contains a `let`.
    pub has_let: bool,
    /// A tree of pairs (under `let` bodies) at the top.
    pub exposed_pair: bool,
    /// An input expression `X.k…`.
    pub input_path: bool,
    /// A data path: a variable, accesses and projections of one.
    pub data_path: bool,
    /// A scalar expression of GP-NF's `s`.
    pub is_s: bool,
    /// `gen I. s` (with `I` possibly empty).
    pub is_gens: bool,
    /// Acceptable as (a leaf of) the output in GP-NF: a `let` (its body is checked), a
    /// pair (its components are checked), a variable, an input expression, `gen I. s`.
    pub out_ok: bool,
}

/// The lexicographic key: violations, `C̄`, size, fingerprint.
pub type Key = (u64, u64, u64, u64);

#[derive(Clone, Debug)]
struct Cand {
    key: Key,
    flags: Flags,
    node: Tl,
    /// The flags of the chosen candidate of each child (by position; data leaves `None`).
    kids: Vec<Option<Flags>>,
}

/// The result of an extraction: per class, per flag combination, the best candidate.
pub struct Extraction {
    best: BTreeMap<Id, BTreeMap<Flags, Cand>>,
    mode: Mode,
}

const MAX_ROUNDS: usize = 400;

/// Extracts over the classes reachable from `roots`. `inputs` are the free input
/// variables (input expressions are projections of them).
///
/// A worklist computes the fixpoint: every class is computed once (in id order, which
/// puts most children before their parents), and a class whose candidates changed puts
/// its parents back on the list. Each candidate's tree size exceeds its children's, so
/// the fixpoint is unique and every visiting order reaches it; the worklist only saves
/// the recomputation of unchanged classes that synchronous rounds pay.
pub fn extract(eg: &TlGraph, roots: &[Id], mode: Mode, inputs: &BTreeSet<Var>) -> Extraction {
    let classes = reachable(eg, roots);
    let mut parents: BTreeMap<Id, Vec<Id>> = BTreeMap::new();
    for &c in &classes {
        for n in &eg[c].nodes {
            for &ch in n.children() {
                let ps = parents.entry(eg.find(ch)).or_default();
                if ps.last() != Some(&c) {
                    ps.push(c);
                }
            }
        }
    }
    let mut best: BTreeMap<Id, BTreeMap<Flags, Cand>> = BTreeMap::new();
    let mut queue: VecDeque<Id> = classes.iter().copied().collect();
    let mut queued: BTreeSet<Id> = classes.iter().copied().collect();
    let mut budget = MAX_ROUNDS.saturating_mul(classes.len());
    while let Some(c) = queue.pop_front() {
        queued.remove(&c);
        if budget == 0 {
            break;
        }
        budget -= 1;
        let mut here: BTreeMap<Flags, Cand> = BTreeMap::new();
        for n in &eg[c].nodes {
            if is_data_leaf(n) {
                continue;
            }
            for cand in candidates(eg, n, &best, mode, inputs) {
                let better = here.get(&cand.flags).is_none_or(|old| cand.key < old.key);
                if better {
                    here.insert(cand.flags, cand);
                }
            }
        }
        let same = match best.get(&c) {
            Some(o) => {
                o.len() == here.len()
                    && o.iter()
                        .all(|(f, x)| here.get(f).is_some_and(|y| y.key == x.key))
            }
            None => here.is_empty(),
        };
        if same {
            continue;
        }
        best.insert(c, here);
        for &p in parents.get(&c).map(Vec::as_slice).unwrap_or(&[]) {
            if queued.insert(p) {
                queue.push_back(p);
            }
        }
    }
    Extraction { best, mode }
}

fn reachable(eg: &TlGraph, roots: &[Id]) -> Vec<Id> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<Id> = roots.iter().map(|&r| eg.find(r)).collect();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) {
            continue;
        }
        for n in &eg[c].nodes {
            for &ch in n.children() {
                let ch = eg.find(ch);
                if !seen.contains(&ch) {
                    stack.push(ch);
                }
            }
        }
    }
    seen.into_iter().collect()
}

fn leaf_hash(n: &Tl) -> u64 {
    let mut h = DefaultHasher::new();
    n.hash(&mut h);
    h.finish()
}

/// The candidates of node `n` from every combination of its children's candidates.
fn candidates(
    eg: &TlGraph,
    n: &Tl,
    best: &BTreeMap<Id, BTreeMap<Flags, Cand>>,
    mode: Mode,
    inputs: &BTreeSet<Var>,
) -> Vec<Cand> {
    let kids: Vec<Id> = n.children().iter().map(|&c| eg.find(c)).collect();
    let terms: BTreeSet<Id> = term_children(n).iter().map(|&c| eg.find(c)).collect();
    // Options per child: data leaves have one (None); terms their candidates.
    let mut options: Vec<Vec<Option<&Cand>>> = Vec::new();
    for k in &kids {
        if terms.contains(k) && !is_leaf_class(eg, *k) {
            match best.get(k) {
                Some(m) => options.push(m.values().map(Some).collect()),
                None => return Vec::new(),
            }
        } else {
            options.push(vec![None]);
        }
    }
    let mut out = Vec::new();
    let mut idx = vec![0usize; options.len()];
    loop {
        let chosen: Vec<Option<&Cand>> = idx.iter().zip(&options).map(|(&i, o)| o[i]).collect();
        out.push(combine(eg, n, &kids, &chosen, mode, inputs));
        // Next combination.
        let mut p = 0;
        loop {
            if p == idx.len() {
                return out;
            }
            idx[p] += 1;
            if idx[p] < options[p].len() {
                break;
            }
            idx[p] = 0;
            p += 1;
        }
    }
}

fn is_leaf_class(eg: &TlGraph, c: Id) -> bool {
    eg[c].nodes.iter().all(is_data_leaf)
}

fn combine(
    eg: &TlGraph,
    n: &Tl,
    kids: &[Id],
    chosen: &[Option<&Cand>],
    mode: Mode,
    inputs: &BTreeSet<Var>,
) -> Cand {
    let pe = mode >= Mode::PairElim;
    let gp = mode == Mode::GenPush;
    let f = |k: usize| chosen[k].map(|c| c.flags).unwrap_or_default();
    let key = |k: usize| chosen[k].map(|c| c.key).unwrap_or((0, 0, 0, 0));
    let ty = |k: usize| eg[kids[k]].data.ty.clone();
    let mut viol: u64 = chosen.iter().flatten().map(|c| c.key.0).sum();
    let size: u64 = 1 + chosen.iter().flatten().map(|c| c.key.2).sum::<u64>();
    let csum: u64 = chosen
        .iter()
        .flatten()
        .map(|c| c.key.1)
        .fold(0, u64::saturating_add);
    let mut h = DefaultHasher::new();
    std::mem::discriminant(n).hash(&mut h);
    for (k, c) in chosen.iter().enumerate() {
        match c {
            Some(c) => c.key.3.hash(&mut h),
            None => leaf_hash(&eg[kids[k]].nodes[0]).hash(&mut h),
        }
    }
    if kids.is_empty() {
        leaf_hash(n).hash(&mut h);
    }
    let mut fl = Flags {
        has_let: chosen.iter().flatten().any(|c| c.flags.has_let),
        ..Flags::default()
    };
    let own_ty_scalar = |t: Option<Ty>| t == Some(Ty::Num);
    let cbar = match n {
        Tl::Var(x) => {
            fl.data_path = true;
            fl.input_path = inputs.contains(&x.0);
            let t = eg.analysis.types.get(&x.0).cloned();
            fl.is_s = own_ty_scalar(t.map(|t| super::types::soa(&t)));
            fl.out_ok = true;
            0
        }
        Tl::Num(_) | Tl::IConst(_) => {
            fl.is_s = true;
            0
        }
        Tl::Add([..]) | Tl::Mul([..]) => {
            fl.is_s = f(0).is_s && f(1).is_s;
            csum.saturating_add(1)
        }
        Tl::Call(_) => {
            fl.is_s = f(1).is_s;
            csum.saturating_add(1)
        }
        Tl::Pair(_) => {
            fl.exposed_pair = true;
            csum
        }
        Tl::Proj0(_) | Tl::Proj1(_) => {
            fl.input_path = f(0).input_path;
            fl.data_path = f(0).data_path;
            let k = u8::from(matches!(n, Tl::Proj1(_)));
            let comp = ty(0).and_then(|t| super::types::proj(&t, k));
            fl.is_s = f(0).data_path && own_ty_scalar(comp);
            if pe && !f(0).input_path {
                viol += 1;
            }
            csum
        }
        Tl::Gen([b, _]) | Tl::Sum([b, _]) => {
            let range = match eg[*b].nodes.first() {
                Some(Tl::Bind(b)) => b.0 .1,
                _ => 0,
            };
            let body = key(1).1;
            if matches!(n, Tl::Gen(_)) {
                fl.is_gens = f(1).is_s || f(1).is_gens;
                range.saturating_mul(body)
            } else {
                fl.is_s = f(1).is_s;
                if range == 0 {
                    0
                } else {
                    range.saturating_mul(body.saturating_add(1)) - 1
                }
            }
        }
        Tl::At(_) => {
            fl.data_path = f(0).data_path;
            fl.input_path = false;
            let elem = ty(0).and_then(|t| super::types::elem(&t));
            fl.is_s = f(0).data_path && own_ty_scalar(elem);
            csum
        }
        Tl::Br(_) => {
            fl.is_s = f(1).is_s;
            csum
        }
        Tl::Let(_) => {
            fl.exposed_pair = f(2).exposed_pair;
            fl.has_let = true;
            fl.out_ok = true;
            csum
        }
        _ => csum,
    };
    if fl.is_s {
        fl.is_gens = true;
    }
    if fl.is_gens || fl.input_path || fl.exposed_pair {
        fl.out_ok = true;
    }
    // Violations of the normal forms at this node.
    match n {
        Tl::Let(_) => {
            if f(1).has_let {
                viol += 1;
            }
            if pe && (f(1).exposed_pair || ty(1).as_ref().is_some_and(is_pair)) {
                viol += 1;
            }
            if gp && !(f(1).is_gens || f(1).input_path) {
                viol += 1;
            }
            if gp && !f(2).out_ok {
                viol += 1;
            }
        }
        Tl::Pair(_) => {
            for k in 0..2 {
                if f(k).has_let {
                    viol += 1;
                }
                if gp && !f(k).out_ok {
                    viol += 1;
                }
            }
        }
        _ => {
            for (k, c) in chosen.iter().enumerate() {
                if c.is_some() {
                    if f(k).has_let {
                        viol += 1;
                    }
                    if pe && f(k).exposed_pair {
                        viol += 1;
                    }
                }
            }
        }
    }
    let kids_flags = chosen.iter().map(|c| c.map(|c| c.flags)).collect();
    Cand {
        key: (viol, cbar, size, h.finish()),
        flags: fl,
        node: n.clone(),
        kids: kids_flags,
    }
}

impl Extraction {
    /// The best term of class `root` as the whole output (GP-NF's output condition
    /// counted), with its key; `None` when the class has no finite term.
    pub fn root_term(&self, eg: &TlGraph, root: Id) -> Option<(Key, Term)> {
        let root = eg.find(root);
        let m = self.best.get(&root)?;
        let (_, c) = m
            .iter()
            .map(|(f, c)| {
                let pen = u64::from(self.mode == Mode::GenPush && !f.out_ok);
                ((c.key.0 + pen, c.key.1, c.key.2, c.key.3), c)
            })
            .min_by_key(|(k, _)| *k)?;
        let key = (
            c.key.0 + u64::from(self.mode == Mode::GenPush && !c.flags.out_ok),
            c.key.1,
            c.key.2,
            c.key.3,
        );
        Some((key, self.build(eg, root, c.flags, 0)?))
    }

    /// The best term of class `c` in any context (a representative).
    pub fn any_term(&self, eg: &TlGraph, c: Id) -> Option<Term> {
        let c = eg.find(c);
        let (f, _) = self.best.get(&c)?.iter().min_by_key(|(_, x)| x.key)?;
        self.build(eg, c, *f, 0)
    }

    fn build(&self, eg: &TlGraph, c: Id, f: Flags, depth: usize) -> Option<Term> {
        if depth > 100_000 {
            return None;
        }
        let cand = self.best.get(&eg.find(c))?.get(&f)?;
        let mut queue = cand
            .kids
            .iter()
            .flatten()
            .copied()
            .collect::<Vec<_>>()
            .into_iter();
        let mut leaf = |id: Id| eg[id].nodes.first().cloned();
        let mut term = |id: Id| {
            let fl = queue.next()?;
            self.build(eg, id, fl, depth + 1)
        };
        node_term(&cand.node, &mut leaf, &mut term)
    }
}
