//! The `ops` model (seed 001 §4.3 on core programs, docs/cost-models.md): the number of arithmetic
//! operations on reals, counted per scalar. Index (integer) arithmetic, comparisons,
//! booleans, selections and data movement are free. See `docs/cost-models.md`.

use crate::node::{self, mul};
use adora_core::ast::{BinOp, Expr, ExprKind, Op, Prim, UnOp};
use adora_core::check::NodeTypes;
use adora_core::diag::{Diagnostic, Result};
use adora_semantics::eval::{Event, Observer};

/// The own `ops` cost of one evaluation of `e` (its sub-expressions are reported, and
/// counted, separately). `collisions` and `writes` are the `Node` event's counts, in
/// scalars, of colliding and of in-bounds writes.
pub fn node_ops(types: &NodeTypes, e: &Expr, collisions: usize, writes: usize) -> Result<u64> {
    use ExprKind as K;
    let real = || node::is_real(types, e);
    let size = || node::result_size(types, e);
    Ok(match &e.kind {
        K::Unary(UnOp::Neg, _) if real()? => size()?,
        K::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, _, _) if real()? => size()?,
        K::Prim(p, _) if node::is_counted_function(p) && real()? => size()?,
        K::Prim(Prim::Sum, args) if real()? => match args.first() {
            Some(x) => node::result_size(types, x)?.saturating_sub(1),
            None => 0,
        },
        K::Prim(Prim::SumOuter, args) if real()? => match args.first() {
            Some(x) => {
                let (n, lane) = node::outer_and_lane(types, x)?;
                mul(n.saturating_sub(1), lane)
            }
            None => 0,
        },
        K::Reduce(op, _, xs) | K::Scan(op, _, xs) if node::is_arith(op) && real()? => {
            let (n, lane) = node::outer_and_lane(types, xs)?;
            mul(n.saturating_sub(1), lane)
        }
        K::Scatter(..) if real()? => collisions as u64,
        K::ReduceByIndex {
            op: Op::Add | Op::Mul,
            ..
        } if real()? => writes as u64,
        _ => 0,
    })
}

/// Observer that sums [`node_ops`] over every evaluated node.
pub struct OpsModel<'t> {
    types: &'t NodeTypes,
    total: u64,
    error: Option<Diagnostic>,
}

impl<'t> OpsModel<'t> {
    /// A fresh counter for the function `types` describes.
    pub fn new(types: &'t NodeTypes) -> OpsModel<'t> {
        OpsModel {
            types,
            total: 0,
            error: None,
        }
    }

    /// The count so far, or the first error met.
    pub fn finish(self) -> Result<u64> {
        match self.error {
            Some(d) => Err(d),
            None => Ok(self.total),
        }
    }
}

impl Observer for OpsModel<'_> {
    fn event(&mut self, event: Event<'_>) {
        if let Event::Node {
            expr,
            collisions,
            writes,
            ..
        } = event
        {
            match node_ops(self.types, expr, collisions, writes) {
                Ok(c) => self.total = self.total.saturating_add(c),
                Err(d) => {
                    self.error.get_or_insert(d);
                }
            }
        }
    }
}
