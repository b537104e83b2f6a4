//! Reading the static leaves of e-classes: the natural of a `Nat` class, the shape of a
//! `Shape` class, the index variable of a binder class, the variables of a `binders`
//! class and the components of an `ixs` class. Each looks for the first node of the
//! required kind in the class (such classes hold exactly one in a sound e-graph).

use super::analysis::IrGraph;
use super::lang::{IVarId, Ir};
use egg::Id;

type R<T> = Result<T, String>;

/// The value of the `Nat` leaf in class `id`.
pub fn nat(eg: &IrGraph, id: Id) -> R<usize> {
    eg[id]
        .nodes
        .iter()
        .find_map(|n| match n {
            Ir::Nat(k) => Some(k.0),
            _ => None,
        })
        .ok_or_else(|| "a static natural (`n<k>`) was expected".to_string())
}

/// The value of the `Shape` leaf in class `id`.
pub fn shape_leaf(eg: &IrGraph, id: Id) -> R<Vec<usize>> {
    eg[id]
        .nodes
        .iter()
        .find_map(|n| match n {
            Ir::Shape(s) => Some(s.0.clone()),
            _ => None,
        })
        .ok_or_else(|| "a static shape (`[..]`) was expected".to_string())
}

/// The index variable of a binder class (its `IVar` leaf).
pub fn ivar_leaf(eg: &IrGraph, id: Id) -> Option<IVarId> {
    eg[id].nodes.iter().find_map(|n| match n {
        Ir::IVar(v) => Some(*v),
        _ => None,
    })
}

/// The variables of a `binders` class, in order.
pub fn binder_list(eg: &IrGraph, id: Id) -> Option<Vec<IVarId>> {
    let ch = eg[id].nodes.iter().find_map(|n| match n {
        Ir::Binders(c) => Some(c.clone()),
        _ => None,
    })?;
    ch.iter().map(|c| ivar_leaf(eg, *c)).collect()
}

/// The index components of an `ixs` class (its first `ixs` node).
pub fn ixs_children(eg: &IrGraph, id: Id) -> Option<Vec<Id>> {
    eg[id].nodes.iter().find_map(|n| match n {
        Ir::Ixs(c) => Some(c.to_vec()),
        _ => None,
    })
}
