//! Accumulator updates out of a `map` (seed 004 *AD for an Array Language with Nested
//! Parallelism* §5.4 and §6.1): the reversed lambda returns, per element, the `k`
//! updates of an accumulator (`super::map_acc`); after the `map` they are the columns
//! `is: R[n, k]` and `vs: R[n, k, …]`, turned into one batch for the enclosing scope.
//!
//! | rule | when | our notation | paper | status |
//! |---|---|---|---|---|
//! | `acc/map` | always applicable | `(reshape([n·k], is), reshape([n·k, …], vs))`: `n · k` updates | §5.4 | paper |
//! | `acc/reduce` | the indices of the updates do not depend on the `map`'s element: none of the statement names they come from (index atoms, `if` conditions) depends on the lambda's parameters (`super::map_acc::variant`), and `n ≥ 1` | `(is[0], reduce(+, 0, vs))`: `k` updates whose values are summed over the invariant dimension | §6.1 ("the map-nest encapsulating the accumulation is reorganized such that the invariant dimension is moved innermost … whose sum (reduce (+) 0) is re-written to be the value accumulated") | paper (the nest is not split: the indices of the first element stand for all, our decision) |
//!
//! `acc/reduce` fires only when `Rules::acc_to_reduce` is set (the default); the
//! property `soac/acc-to-reduce-preserves-semantics` compares the derivative programs
//! with and without it. A `map` of no elements gives no updates.

use super::build::{bin, int, prim, zeros, Block, Rev};
use super::ir::{mk, var};
use super::map_acc::Batch;
use adora_core::ast::{BinOp, Expr, ExprKind, Name, Op, Prim};
use adora_core::diag::Result;
use adora_core::types::{Base, Type};
use std::collections::BTreeSet;

/// Where one accumulator's updates lie in the rows of a `map`'s packed adjoints.
pub struct Columns {
    /// The number of indices of the accesses.
    pub rank: usize,
    /// The updates per element.
    pub k: usize,
    /// The packed rows, `R[n, total]`.
    pub rows: Expr,
    /// The column of the first index.
    pub off_is: usize,
    /// The column of the first value scalar.
    pub off_vs: usize,
    /// The statement names the indices depend on.
    pub deps: BTreeSet<Name>,
}

/// `gather(shape, m, (p…) => [row, col])`.
fn gather(rev: &mut Rev, shape: Vec<usize>, m: &Expr, ix: impl Fn(&[Expr]) -> [Expr; 2]) -> Expr {
    let ps: Vec<Name> = shape.iter().map(|_| rev.fresh("p")).collect();
    let vs: Vec<Expr> = ps.iter().map(|p| var(p)).collect();
    mk(ExprKind::Gather(
        shape,
        Box::new(m.clone()),
        ps,
        ix(&vs).to_vec(),
    ))
}

impl Rev {
    /// The batch of `f`'s updates out of a `map` of `n` elements (`None` when `n = 0`):
    /// `acc/reduce` when `invariant` and the rule is enabled, `acc/map` otherwise.
    pub fn batch_after_map(
        &mut self,
        f: &Name,
        n: usize,
        c: Columns,
        invariant: bool,
        out: &mut Block,
    ) -> Result<Option<Batch>> {
        if n == 0 || c.k == 0 {
            return Ok(None);
        }
        let rest = self.rest_of(f, c.rank)?;
        let rl: usize = rest.iter().product();
        let kty = |m: usize| {
            Type::Array(
                Base::R,
                std::iter::once(m).chain(rest.iter().copied()).collect(),
            )
        };
        let (k, kr) = (c.k as i64, (c.k * rl) as i64);
        let (oi, ov) = (c.off_is as i64, c.off_vs as i64);
        let (is, vs, total) = if invariant && self.rules.acc_to_reduce {
            // The first element's indices; the values summed over the elements.
            let is = gather(self, vec![c.k], &c.rows, |p| {
                [int(0), bin(BinOp::Add, p[0].clone(), int(oi))]
            });
            let is = self.bind("is", &Type::Array(Base::R, vec![c.k]), is, out);
            let cols = gather(self, vec![n, c.k * rl], &c.rows, |p| {
                [p[0].clone(), bin(BinOp::Add, p[1].clone(), int(ov))]
            });
            let cty = Type::Array(Base::R, vec![n, c.k * rl]);
            let cols = self.bind("cols", &cty, cols, out);
            let flat = Type::Array(Base::R, vec![c.k * rl]);
            let sum = mk(ExprKind::Reduce(
                Op::Add,
                Box::new(zeros(&flat)),
                Box::new(cols),
            ));
            let vs = self.bind("vs", &flat, sum, out);
            (is, vs, c.k)
        } else {
            let m = n * c.k;
            let is = gather(self, vec![m], &c.rows, |p| {
                [
                    bin(BinOp::Div, p[0].clone(), int(k)),
                    bin(BinOp::Add, bin(BinOp::Mod, p[0].clone(), int(k)), int(oi)),
                ]
            });
            let is = self.bind("is", &Type::Array(Base::R, vec![m]), is, out);
            let vs = gather(self, vec![m * rl], &c.rows, |p| {
                [
                    bin(BinOp::Div, p[0].clone(), int(kr)),
                    bin(BinOp::Add, bin(BinOp::Mod, p[0].clone(), int(kr)), int(ov)),
                ]
            });
            let vs = self.bind("vs", &Type::Array(Base::R, vec![m * rl]), vs, out);
            (is, vs, m)
        };
        let vs = if rest.is_empty() {
            vs
        } else {
            let r = prim(
                Prim::Reshape(
                    kty(total)
                        .as_array()
                        .map(|(_, s)| s.clone())
                        .unwrap_or_default(),
                ),
                vec![vs],
            );
            self.bind("vs", &kty(total), r, out)
        };
        Ok(Some(Batch {
            rank: c.rank,
            is,
            vs,
            k: total,
            deps: c.deps,
        }))
    }
}
