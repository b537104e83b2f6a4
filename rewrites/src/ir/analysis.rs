//! The e-class analysis of the IR: type and shape, free index variables, constant value
//! and integer interval bounds. `merge` asserts that types (and known constants) agree, so
//! an unsound rule fails at the merge it causes, naming both sides.
//!
//! CONTRACT (written by the lead; the bot-rules helper implements `make`/`merge`/`modify`
//! and may add items, the translation helper constructs [`IrAnalysis`] with its tables).

use super::lang::{Const, IVarId, Ir, VarId};
use adora_core::ast::Name;
use adora_core::types::Type;
use egg::{Analysis, DidMerge, EGraph, Id};
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
#[derive(Clone, Debug)]
pub struct Data {
    /// The type (asserted equal on merge).
    pub ty: Ty,
    /// Free index variables, sorted and deduplicated. On merge the **intersection** is
    /// kept: a class's members all denote the same value, so one that mentions fewer
    /// variables proves the value independent of the others.
    pub free: Vec<IVarId>,
    /// The value, when the class is a known scalar constant (asserted equal on merge).
    pub constant: Option<Const>,
    /// Bounds of a `Z` scalar class, when known (intersected on merge).
    pub bounds: Option<Interval>,
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

impl Analysis<Ir> for IrAnalysis {
    type Data = Data;

    fn make(egraph: &mut IrGraph, enode: &Ir, _id: Id) -> Data {
        let _ = (egraph, enode);
        unimplemented!("bot-rules helper: type, free index variables, constant, bounds")
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let _ = (a, b);
        unimplemented!("bot-rules helper: assert types/constants agree; intersect free and bounds")
    }
}
