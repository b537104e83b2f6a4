//! The e-class analysis of the IR: type and shape, free index variables, constant value
//! and integer interval bounds. `merge` asserts that types (and known constants) agree, so
//! an unsound rule fails at the merge it causes, naming both sides.
//!
//! CONTRACT (written by the lead; implemented by the bot-ir helper; the bot-rules helper
//! reads the data in conditions and appliers).
//!
//! - `make` ([`super::typing`], [`super::fold`], [`super::interval`]): the type of every
//!   node from its children's data and the variable tables; its free index variables
//!   (binders remove their own); its constant (scalar folding exactly as the evaluator);
//!   the bounds of its elements when it is of base `Z`.
//! - `merge`: types must be equal and known constants equal, else a **conflict**; free
//!   sets are intersected, bounds intersected (an empty intersection is a conflict too);
//!   [`DidMerge`] is reported exactly (egg#239).
//! - `modify`: a class with a known constant gets its `Lit` node (constant folding).
//!
//! Conflicts never panic: the first one is recorded in [`IrAnalysis::conflict`] (rendered
//! data of both sides), the merge keeps `a` unchanged, and the phase runner
//! ([`super::runner`]) stops with an error naming it. An ill-typed node (from a rule that
//! builds a malformed term) is a conflict as well; its class gets the type
//! [`Data::ILL_TYPED`] (an empty tuple type, which no program has).
//!
//! Invariant the rules must keep: a binder class (the `IVar` child of `build`, the
//! children of `binders`) always contains its `IVar` leaf; never union such a class with
//! another term (e.g. `i` with `0` when the extent is 1) — give the binder a new class.

use super::lang::{Const, IVarId, Ir, VarId};
use adora_core::ast::Name;
use adora_core::types::Type;
use egg::{Analysis, DidMerge, EGraph, Id, Language};
use std::collections::BTreeMap;

/// The e-graph type every rule system uses.
pub type IrGraph = EGraph<Ir, IrAnalysis>;

/// What kind of thing an e-class denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A value of a core type (arrays of any rank, tuples).
    Value(Type),
    /// A static leaf: a `Nat` or a `Shape` (sizes, permutations, projection indices).
    Static,
    /// A `binders` list of a gather/scatter.
    Binders,
    /// An `ixs` list of a gather/scatter (the index terms, all `Z` scalars).
    Ixs,
}

/// An inclusive integer interval `[lo, hi]` known to contain every value of a `Z` term
/// (for every value of its free index variables within their extents).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// Lower bound.
    pub lo: i64,
    /// Upper bound.
    pub hi: i64,
}

/// Per-class data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    /// The type (asserted equal on merge).
    pub ty: Ty,
    /// Free index variables, sorted and deduplicated. On merge the **intersection** is
    /// kept: a class's members all denote the same value, so one that mentions fewer
    /// variables proves the value independent of the others. For a `binders` class: the
    /// variables it binds.
    pub free: Vec<IVarId>,
    /// The value, when the class is a known scalar constant (asserted equal on merge).
    pub constant: Option<Const>,
    /// Bounds of a `Z` class, when known (intersected on merge): every element (of a
    /// scalar: the value) lies in the interval, for every value of the free index
    /// variables within their extents.
    pub bounds: Option<Interval>,
}

impl Data {
    /// The type given to an ill-typed node (whose conflict is recorded): the empty tuple.
    pub const ILL_TYPED: Ty = Ty::Value(Type::Tuple(Vec::new()));

    /// Whether the class is a value of an array type (not static, binders, ixs, tuple).
    pub fn array(&self) -> Option<(adora_core::types::Base, &[usize])> {
        match &self.ty {
            Ty::Value(Type::Array(b, s)) => Some((*b, s)),
            _ => None,
        }
    }

    /// Whether the class is provably independent of the index variable `v`.
    pub fn independent_of(&self, v: IVarId) -> bool {
        self.free.binary_search(&v).is_err()
    }

    /// A one-line rendering: type, free variables, constant, bounds.
    pub fn render(&self) -> String {
        let mut s = format!("type {}", super::typing::show_ty(&self.ty));
        if !self.free.is_empty() {
            let vs: Vec<String> = self.free.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!(", free {{{}}}", vs.join(", ")));
        }
        if let Some(c) = &self.constant {
            s.push_str(&format!(", constant {c}"));
        }
        if let Some(b) = &self.bounds {
            s.push_str(&format!(", bounds [{}, {}]", b.lo, b.hi));
        }
        s
    }
}

/// Facts about a program variable.
#[derive(Clone, Debug)]
pub struct VarInfo {
    /// The source name (for printing).
    pub name: Name,
    /// Its type.
    pub ty: Type,
}

/// Facts about an index variable.
#[derive(Clone, Debug)]
pub struct IVarInfo {
    /// The source name (for printing), e.g. `i` or a derived fresh name.
    pub name: Name,
    /// The extent of its binder: the variable ranges over `0 .. extent`.
    pub extent: usize,
}

/// The analysis state: the variable tables the leaves index into, and the memo of fresh
/// index variables derived from matches (so a rule that needs a new binder gets the same
/// one every time it fires on the same match, and the e-graph can saturate).
#[derive(Clone, Debug, Default)]
pub struct IrAnalysis {
    /// `VarId(k)` is `vars[k]`.
    pub vars: Vec<VarInfo>,
    /// `IVarId(k)` is `ivars[k]`.
    pub ivars: Vec<IVarInfo>,
    /// Fresh index variables already handed out, by derivation key.
    pub fresh: BTreeMap<(String, Id, usize), IVarId>,
    /// The first analysis conflict (an ill-typed node, or a merge of classes whose types,
    /// constants or bounds disagree), rendered with both sides' data. The phase runner
    /// stops when it is set.
    pub conflict: Option<String>,
}

impl IrAnalysis {
    /// Registers a program variable and returns its leaf id.
    pub fn add_var(&mut self, name: Name, ty: Type) -> VarId {
        self.vars.push(VarInfo { name, ty });
        VarId((self.vars.len() - 1) as u32)
    }

    /// Registers an index variable ranging over `0 .. extent` and returns its leaf id.
    pub fn add_ivar(&mut self, name: Name, extent: usize) -> IVarId {
        self.ivars.push(IVarInfo { name, extent });
        IVarId((self.ivars.len() - 1) as u32)
    }

    /// The fresh index variable derived from `(rule, class, slot)`: created on first
    /// request (named after `hint`), the same one on every later request.
    pub fn fresh_ivar(
        &mut self,
        rule: &str,
        class: Id,
        slot: usize,
        hint: &str,
        extent: usize,
    ) -> IVarId {
        let key = (rule.to_string(), class, slot);
        if let Some(v) = self.fresh.get(&key) {
            return *v;
        }
        let v = self.add_ivar(format!("{hint}{}", self.ivars.len()), extent);
        self.fresh.insert(key, v);
        v
    }
}

impl IrAnalysis {
    /// Records `msg` as the conflict unless one is already recorded.
    pub fn record_conflict(&mut self, msg: impl Into<String>) {
        if self.conflict.is_none() {
            self.conflict = Some(msg.into());
        }
    }
}

/// The data of a fresh node (the body of `make`).
fn make_data(egraph: &mut IrGraph, enode: &Ir) -> Data {
    let ty = match super::typing::node_ty(egraph, enode) {
        Ok(t) => t,
        Err(why) => {
            let kids: Vec<String> = enode
                .children()
                .iter()
                .map(|c| super::typing::show_ty(&egraph[*c].data.ty))
                .collect();
            let msg = format!(
                "ill-typed node `{enode}` with operands of type [{}]: {why}",
                kids.join(", ")
            );
            egraph.analysis.record_conflict(msg);
            Data::ILL_TYPED
        }
    };
    let free = super::typing::node_free(egraph, enode);
    let scalar = matches!(&ty, Ty::Value(Type::Array(_, s)) if s.is_empty());
    let constant = if scalar {
        super::fold::fold(enode, |id| egraph[id].data.constant.as_ref())
    } else {
        None
    };
    let bounds = super::interval::node_bounds(egraph, enode, &ty);
    let bounds = match (&constant, bounds) {
        (Some(Const::Int(n)), _) => num_traits::ToPrimitive::to_i64(n).map(Interval::point),
        (_, b) => b,
    };
    Data {
        ty,
        free,
        constant,
        bounds,
    }
}

fn intersect_free(a: &[IVarId], b: &[IVarId]) -> Vec<IVarId> {
    a.iter()
        .copied()
        .filter(|v| b.binary_search(v).is_ok())
        .collect()
}

impl Analysis<Ir> for IrAnalysis {
    type Data = Data;

    fn make(egraph: &mut IrGraph, enode: &Ir, _id: Id) -> Data {
        make_data(egraph, enode)
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let clash = |what: &str| {
            format!(
                "merging two e-classes whose {what} disagree: [{}] and [{}]",
                a.render(),
                b.render()
            )
        };
        if a.ty != b.ty {
            self.record_conflict(clash("types"));
            return DidMerge(false, true);
        }
        if let (Some(x), Some(y)) = (&a.constant, &b.constant) {
            if x != y {
                self.record_conflict(clash("constants"));
                return DidMerge(false, true);
            }
        }
        let bounds = match (a.bounds, b.bounds) {
            (Some(x), Some(y)) => match x.intersect(y) {
                Some(i) => Some(i),
                None => {
                    self.record_conflict(clash("bounds"));
                    return DidMerge(false, true);
                }
            },
            (x, y) => x.or(y),
        };
        let constant = a.constant.clone().or_else(|| b.constant.clone());
        let free = intersect_free(&a.free, &b.free);
        let b_differs = constant != b.constant || free != b.free || bounds != b.bounds;
        let a_changed = constant != a.constant || free != a.free || bounds != a.bounds;
        a.constant = constant;
        a.free = free;
        a.bounds = bounds;
        DidMerge(a_changed, b_differs)
    }

    fn modify(egraph: &mut IrGraph, id: Id) {
        if let Some(c) = egraph[id].data.constant.clone() {
            let lit = egraph.add(Ir::Lit(c));
            egraph.union(id, lit);
        }
    }
}
