//! The type of every node of an elaborated function or of a surface program, from one
//! checking pass.
//!
//! Passes that look at nodes one at a time (the cost models, which are told of each
//! evaluated node by reference) need each node's static type: its base type and shape.
//! [`node_types`] runs the strict traversal of [`super::type_of`] over a function's body,
//! and [`surface_node_types`] the surface check of [`super::check_program`] over every
//! `def` body, recording the type each assigns to each node, so no typing rule is stated
//! twice.

use super::elab::NodeMap;
use crate::ast::{Expr, Function, Program};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::types::Type;

/// The static type of every node of one elaborated function's body ([`node_types`]) or of
/// every `def` body of a surface program ([`surface_node_types`]), lambda bodies and
/// index-map expressions included, keyed by the node's address ([`NodeTypes::key`]).
///
/// The map borrows nothing, so it is valid only while the typed function (or program) is
/// neither moved nor mutated (nor dropped): moving it moves the body's root node, and a
/// rebuilt or freed node's address may be reused by another. Looking up a node of another
/// tree gives `None` as long as the typed function is alive and unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeTypes {
    map: NodeMap,
}

impl NodeTypes {
    /// The key of a node: its address (`*const Expr` as `usize`), meaningful only while its
    /// tree is neither moved nor mutated.
    pub fn key(e: &Expr) -> usize {
        e as *const Expr as usize
    }

    /// The type of `e`, if `e` is a node of the typed function (or program).
    pub fn get(&self, e: &Expr) -> Option<&Type> {
        self.map.get(&Self::key(e))
    }

    /// The type of `e`, or an [`ErrorKind::Unsupported`] diagnostic at `e`'s span when `e`
    /// is not a node of the typed function (or program).
    pub fn of(&self, e: &Expr) -> Result<&Type> {
        self.get(e).ok_or_else(|| {
            Diagnostic::new(
                ErrorKind::Unsupported,
                e.span,
                "this expression is not a node of the typed function or program",
            )
        })
    }

    /// The number of typed nodes (every node of the body: `visit::node_count(&f.body)`;
    /// for a program, the sum of that over its `def` bodies).
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no node is typed (never the case for a successfully typed function, nor
    /// for a program with a `def`).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Types every node of the elaborated function `f` in one pass: the strict traversal of
/// [`super::type_of`] on `f.body` under `f`'s parameters, recording the type it gives each
/// node — the type `type_of` gives that subtree in its environment (the parameters and
/// the binders in scope there).
///
/// Errors are those of `type_of` on the body (an ill-typed function, or one with calls
/// or implicit broadcasts, is an error, never a panic). The elaborated invariants that do
/// not affect types — unique binder names, the body's type equal to the declared result,
/// the size limits — are [`super::check_function`]'s job and are not checked here. Like
/// `type_of`, this recurses once per tree level: run it through [`crate::with_stack`] on
/// deeply nested functions.
pub fn node_types(f: &Function) -> Result<NodeTypes> {
    let mut map = NodeMap::new();
    super::type_body(f, Some(&mut map))?;
    Ok(NodeTypes { map })
}

/// Types every node of every `def` body of the surface program `p`, during the check of
/// [`super::check_program`]: each node gets the type the checker gives it in its context,
/// before any broadcast `replicate` is inserted (an integer literal where a real is
/// expected has type `R`; a call has its callee's declared result type; an operand that
/// is broadcast keeps its own, lower-rank type).
///
/// Errors are exactly `check_program`'s (an ill-typed program is an error, never a
/// panic). Like `check_program`, this recurses once per tree level: run it through
/// [`crate::with_stack`] on deeply nested programs.
pub fn surface_node_types(p: &Program) -> Result<NodeTypes> {
    let mut map = NodeMap::new();
    super::elaborate_defs(p, Some(&mut map))?;
    Ok(NodeTypes { map })
}
