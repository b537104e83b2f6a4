//! Index expressions: `Z` scalars meant to index a dimension of a given extent. They are
//! in bounds most of the time and sometimes not (a shifted index near the edge, a
//! negative constant, the extent itself), so the out-of-bounds conventions get exercised.

use super::ctx::{Gen, VarKind};
use super::mk;
use adora_core::ast::{BinOp, Expr};
use adora_core::types::{Base, Type};

impl Gen {
    /// A `Z` expression indexing a dimension of size `extent`, of at most about `budget`
    /// nodes (at least a literal or a variable).
    pub fn index_expr(&mut self, extent: usize, budget: usize) -> Expr {
        let n = extent as i64;
        let idx = self.index_vars();
        let fitting: Vec<(String, usize)> =
            idx.iter().filter(|(_, e)| *e == extent).cloned().collect();
        let smaller: Vec<(String, usize)> =
            idx.iter().filter(|(_, e)| *e < extent).cloned().collect();
        let any = !idx.is_empty();
        let zin = self.visible(|v| v.kind == VarKind::Input && v.ty == Type::int());
        let choice = self.weighted(&[
            (if fitting.is_empty() { 0 } else { 12 }, 0), // i (same extent)
            (if smaller.is_empty() { 0 } else { 3 }, 1),  // i (smaller extent)
            (if any { 2 } else { 0 }, 2),                 // i + c / i - c
            (if fitting.is_empty() { 0 } else { 2 }, 3),  // n - 1 - i
            (if idx.len() >= 2 { 2 } else { 0 }, 4),      // (i + j) % n
            (if any { 1 } else { 0 }, 5),                 // i / 2, i % n
            (6, 6),                                       // constant in bounds
            (1, 7),                                       // constant out of bounds
            (if zin.is_empty() { 0 } else { 2 }, 8),      // integer input
            (if budget >= 3 { 1 } else { 0 }, 9),         // general small Z expression
            (if any { 1 } else { 0 }, 10),                // any index variable
        ]);
        match choice {
            0 => mk::var(&self.pick(&fitting).0),
            1 => mk::var(&self.pick(&smaller).0),
            2 => {
                let (i, _) = self.pick(&idx);
                let op = self.pick(&[BinOp::Add, BinOp::Sub]);
                mk::bin(op, mk::var(&i), mk::int(self.range(1, 2)))
            }
            3 => {
                let (i, _) = self.pick(&fitting);
                mk::bin(BinOp::Sub, mk::int(n - 1), mk::var(&i))
            }
            4 => {
                let (i, _) = self.pick(&idx);
                let (j, _) = self.pick(&idx);
                mk::bin(
                    BinOp::Mod,
                    mk::bin(BinOp::Add, mk::var(&i), mk::var(&j)),
                    mk::int(n),
                )
            }
            5 => {
                let (i, _) = self.pick(&idx);
                if self.chance(0.5) {
                    mk::bin(BinOp::Div, mk::var(&i), mk::int(2))
                } else {
                    mk::bin(BinOp::Mod, mk::var(&i), mk::int(n))
                }
            }
            6 => mk::int(self.range(0, n - 1)),
            7 => {
                if self.chance(0.5) {
                    mk::int(-1)
                } else {
                    mk::int(n)
                }
            }
            8 => mk::var(&self.pick(&zin).name),
            9 => self.expr(&Type::scalar(Base::Z), budget.min(4)),
            _ => mk::var(&self.pick(&idx).0),
        }
    }
}
