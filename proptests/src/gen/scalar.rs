//! Productions of the scalar fragment: arithmetic on `R` and `Z`, comparisons and boolean
//! connectives, `min`/`max`, `abs`, `pow`, `floor`, `real`. In the array fragments the
//! same productions apply elementwise to arrays, and rank-0 operands broadcast.
//!
//! Integer arithmetic stays small (multiplication, division and remainder only by
//! literals 1..3, `floor` only of small reals), so it never overflows.

use super::ctx::{Gen, VarKind};
use super::expr::Prod;
use super::mk;
use adora_core::ast::{BinOp, Expr, Prim, UnOp};
use adora_core::types::{Base, Type};

/// A scalar-fragment production (lifted elementwise on arrays).
#[derive(Clone, Debug)]
pub enum ScalarProd {
    /// `a op b` on two operands of the result type.
    Arith(BinOp),
    /// `a op s` or `s op a` with a rank-0 `s` (arrays only).
    Broadcast(BinOp),
    /// `c * a` with a literal `c`.
    MulConst,
    /// `a / c` or `a % c` on `Z` with a literal `c >= 1`.
    DivModConst(BinOp),
    /// `-a`.
    Neg,
    /// `abs(a)`.
    Abs,
    /// `min(a, b)` / `max(a, b)`.
    MinMax(bool),
    /// `pow(a, k)`.
    Pow,
    /// `real(z)`.
    RealOf,
    /// `floor(r)` of a small real.
    Floor,
    /// A comparison of two operands of the given base.
    Cmp(Base),
    /// `a && b`, `a || b`.
    Logic,
    /// `!a`.
    Not,
}

impl Gen {
    /// Adds the applicable scalar productions for type `b[s]`.
    pub fn scalar_prods(
        &mut self,
        b: Base,
        s: &[usize],
        budget: usize,
        out: &mut Vec<(u32, Prod)>,
    ) {
        let arr = !s.is_empty();
        let mut add = |w: u32, p: ScalarProd| out.push((w, Prod::Scalar(p)));
        match b {
            Base::R => {
                add(3, ScalarProd::Arith(BinOp::Add));
                add(2, ScalarProd::Arith(BinOp::Sub));
                add(3, ScalarProd::Arith(BinOp::Mul));
                add(2, ScalarProd::Arith(BinOp::Div));
                if arr {
                    add(3, ScalarProd::Broadcast(BinOp::Mul));
                    add(1, ScalarProd::Broadcast(BinOp::Add));
                }
                add(1, ScalarProd::Neg);
                add(1, ScalarProd::Abs);
                add(1, ScalarProd::MinMax(false));
                add(1, ScalarProd::MinMax(true));
                add(2, ScalarProd::Pow);
                if budget >= 3 {
                    add(1, ScalarProd::RealOf);
                }
            }
            Base::Z => {
                add(2, ScalarProd::Arith(BinOp::Add));
                add(1, ScalarProd::Arith(BinOp::Sub));
                add(1, ScalarProd::MulConst);
                add(1, ScalarProd::DivModConst(BinOp::Div));
                add(1, ScalarProd::DivModConst(BinOp::Mod));
                add(1, ScalarProd::Neg);
                add(1, ScalarProd::Abs);
                add(1, ScalarProd::MinMax(self.chance(0.5)));
                if !arr {
                    add(2, ScalarProd::Floor);
                }
            }
            Base::B => {
                add(4, ScalarProd::Cmp(Base::R));
                add(2, ScalarProd::Cmp(Base::Z));
                add(2, ScalarProd::Logic);
                add(1, ScalarProd::Not);
            }
        }
    }

    /// Runs a scalar production for `ty` with children budget `b`.
    pub fn run_scalar(&mut self, p: ScalarProd, ty: &Type, b: usize) -> Expr {
        let Type::Array(base, s) = ty else {
            unreachable!("scalar productions are for arrays")
        };
        let scalar = Type::scalar(*base);
        match p {
            ScalarProd::Arith(BinOp::Div) if *base == Base::R && self.spec.f64_exact => {
                // Division by a power of two is exact in f64.
                let d = self.weighted(&[(3, (2, 1)), (2, (4, 1)), (1, (1, 2))]);
                mk::bin(BinOp::Div, self.expr(ty, b - 1), mk::real(d.0, d.1))
            }
            ScalarProd::Arith(op) => {
                let parts = self.split(b, 2);
                let x = self.expr(ty, parts[0]);
                let y = if *base == Base::R && self.chance(0.12) {
                    self.int_as_real()
                } else {
                    self.expr(ty, parts[1])
                };
                mk::bin(op, x, y)
            }
            ScalarProd::Broadcast(op) => {
                let parts = self.split(b, 2);
                let small = if *base == Base::R && self.chance(0.2) {
                    self.int_as_real()
                } else {
                    self.expr(&scalar, parts[0].min(4))
                };
                let big = self.expr(ty, parts[1]);
                if self.chance(0.5) {
                    mk::bin(op, big, small)
                } else {
                    mk::bin(op, small, big)
                }
            }
            ScalarProd::MulConst => {
                let c = self.range(0, 3);
                mk::bin(BinOp::Mul, mk::int(c), self.expr(ty, b.min(4)))
            }
            ScalarProd::DivModConst(op) => {
                let c = self.range(1, 3);
                mk::bin(op, self.expr(ty, b.min(5)), mk::int(c))
            }
            ScalarProd::Neg => mk::un(UnOp::Neg, self.expr(ty, b)),
            ScalarProd::Abs => mk::prim(Prim::Abs, vec![self.expr(ty, b)]),
            ScalarProd::MinMax(is_max) => {
                let parts = self.split(b, 2);
                let (x, y) = (self.expr(ty, parts[0]), self.expr(ty, parts[1]));
                mk::prim(if is_max { Prim::Max } else { Prim::Min }, vec![x, y])
            }
            ScalarProd::Pow => {
                let k = if self.spec.f64_exact {
                    self.weighted(&[(1, 0), (2, 1), (4, 2), (2, 3)])
                } else {
                    self.weighted(&[(1, 0), (2, 1), (4, 2), (2, 3), (1, -1), (1, -2)])
                };
                mk::prim(Prim::Pow(k), vec![self.expr(ty, b.min(8))])
            }
            ScalarProd::RealOf => {
                let z = Type::Array(Base::Z, s.clone());
                mk::prim(Prim::Real, vec![self.expr(&z, b.min(6))])
            }
            ScalarProd::Floor => mk::prim(Prim::Floor, vec![self.small_real(b)]),
            ScalarProd::Cmp(ob) => {
                let op = self.pick(&[
                    BinOp::Lt,
                    BinOp::Le,
                    BinOp::Gt,
                    BinOp::Ge,
                    BinOp::Eq,
                    BinOp::Ne,
                ]);
                let parts = self.split(b, 2);
                let t = Type::Array(ob, s.clone());
                let x = self.expr(&t, parts[0]);
                // Sometimes compare against a rank-0 operand (broadcast).
                let yt = if !s.is_empty() && self.chance(0.3) {
                    Type::scalar(ob)
                } else {
                    t
                };
                let y = if ob == Base::R && self.chance(0.12) {
                    self.int_as_real()
                } else {
                    self.expr(&yt, parts[1])
                };
                mk::bin(op, x, y)
            }
            ScalarProd::Logic => {
                let op = self.pick(&[BinOp::And, BinOp::Or]);
                let parts = self.split(b, 2);
                mk::bin(op, self.expr(ty, parts[0]), self.expr(ty, parts[1]))
            }
            ScalarProd::Not => mk::un(UnOp::Not, self.expr(ty, b)),
        }
    }

    /// An integer literal standing for a real (next to a real operand, the checker types
    /// it `R`): `0`..`5`, sometimes negative.
    pub fn int_as_real(&mut self) -> Expr {
        let n = self.range(0, 5);
        if self.chance(0.2) {
            mk::int(-n)
        } else {
            mk::int(n)
        }
    }

    /// A real scalar whose magnitude is small (at most about 25): a literal, an input or
    /// index variable, or a sum or product of two of them. `floor` takes only these, so
    /// integer values stay far from overflow.
    pub fn small_real(&mut self, b: usize) -> Expr {
        let atom = |g: &mut Gen| -> Expr {
            let inputs = g.visible(|v| v.kind == VarKind::Input && v.ty == Type::real());
            let idx = g.index_vars();
            let k = g.weighted(&[
                (3, 0),
                (if inputs.is_empty() { 0 } else { 4 }, 1),
                (if idx.is_empty() { 0 } else { 2 }, 2),
            ]);
            match k {
                1 => mk::var(&g.pick(&inputs).name),
                2 => mk::prim(Prim::Real, vec![mk::var(&g.pick(&idx).0)]),
                _ => g.signed_real_lit(),
            }
        };
        if b < 3 || self.chance(0.3) {
            return atom(self);
        }
        let op = self.pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul]);
        let (x, y) = (atom(self), atom(self));
        mk::bin(op, x, y)
    }
}
