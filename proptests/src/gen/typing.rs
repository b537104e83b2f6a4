//! Types of the subterms of generated surface programs, taken from the checker.
//!
//! The shrinker replaces surface subterms by same-typed ones, and the coverage measure
//! looks at operand ranks, so both need the type of every *surface* node. No typing rule
//! is stated here: the types are those [`adora_core::check::surface_node_types`] records
//! while checking the program, so they are *contextual*: an integer literal where a real
//! is expected has type `R`, and an operand that is broadcast keeps its own rank.

use adora_core::ast::{Expr, ExprKind, Name, Op, Pat, Program};
use adora_core::check::{self, NodeTypes};
use adora_core::types::Type;

/// A typing environment: innermost binding last.
pub type Env = Vec<(Name, Type)>;

/// The type of one outer slice of an array type (`R[3,4]` → `R[4]`).
pub fn element(t: &Type) -> Option<Type> {
    match t {
        Type::Array(b, s) if !s.is_empty() => Some(Type::Array(*b, s[1..].to_vec())),
        _ => None,
    }
}

/// The types of the nodes of a surface program's `def` bodies, keyed by node address:
/// valid while the program is neither moved nor mutated. A program that does not check
/// has no types.
#[derive(Clone, Debug, Default)]
pub struct SurfaceTypes {
    types: NodeTypes,
}

impl SurfaceTypes {
    /// Types every node of every `def` body of `p` (see the module documentation).
    pub fn of(p: &Program) -> SurfaceTypes {
        SurfaceTypes {
            types: check::surface_node_types(p).unwrap_or_default(),
        }
    }

    /// The type of the surface node `e`, if it was typed.
    pub fn get(&self, e: &Expr) -> Option<&Type> {
        self.types.get(e)
    }

    /// The types of the names `e` binds, in the order of
    /// [`adora_core::visit::node_binders`]; `None` when a needed type is missing.
    pub fn binder_types(&self, e: &Expr) -> Option<Vec<Type>> {
        use ExprKind::*;
        let ty = |x: &Expr| self.get(x).cloned();
        let pat = |p: &Pat, t: Type| match (p, t) {
            (Pat::Var(_), t) => Some(vec![t]),
            (Pat::Tuple(ns), Type::Tuple(ts)) if ns.len() == ts.len() => Some(ts),
            _ => None,
        };
        let slices = |op: &Op, arr: &Expr| match op {
            Op::Lambda(l) => Some(vec![element(&ty(arr)?)?; l.params.len()]),
            _ => Some(Vec::new()),
        };
        match &e.kind {
            Let(p, v, _) => pat(p, ty(v)?),
            Build(_, bs, _) | Gather(_, _, bs, _) | Scatter(_, _, bs, _) => {
                Some(vec![Type::int(); bs.len()])
            }
            Map(_, xs) => xs.iter().map(|x| element(&ty(x)?)).collect(),
            Reduce(op, _, xs) | Scan(op, _, xs) => slices(op, xs),
            ReduceByIndex { op, dest, .. } => slices(op, dest),
            Loop { acc, init, .. } => {
                let mut out = pat(acc, ty(init)?)?;
                out.push(Type::int());
                Some(out)
            }
            _ => Some(Vec::new()),
        }
    }
}
