//! Random expression trees (not necessarily well typed, but expressible in the concrete
//! syntax) must survive a print/parse round trip.

use super::support::*;
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Op, Pat, Prim, UnOp};
use num_bigint::BigInt;
use num_rational::BigRational;

const NAMES: [&str; 6] = ["x", "y", "acc", "i'", "_t1", "R"];
const BINOPS: [BinOp; 13] = BinOp::ALL;

struct Gen(Rng);

impl Gen {
    fn name(&mut self) -> String {
        NAMES[self.0.below(NAMES.len())].to_string()
    }
    fn names(&mut self, min: usize) -> Vec<String> {
        let n = min + self.0.below(3);
        (0..n).map(|_| self.name()).collect()
    }
    fn sizes(&mut self, min: usize) -> Vec<usize> {
        let n = min + self.0.below(3);
        (0..n).map(|_| self.0.below(12)).collect()
    }
    fn lit(&mut self) -> Lit {
        let n = self.0.below(2001) as i64 - 1000;
        match self.0.below(3) {
            0 => Lit::Int(BigInt::from(n)),
            1 => Lit::Bool(n % 2 == 0),
            _ => {
                // Denominators 2^a·5^b print as exact decimals.
                let d = [1i64, 2, 4, 5, 8, 10, 16, 25, 1000, 1024][self.0.below(10)];
                Lit::Real(BigRational::new(n.into(), d.into()))
            }
        }
    }
    fn list(&mut self, depth: usize, min: usize) -> Vec<Expr> {
        let n = min + self.0.below(3);
        (0..n).map(|_| self.expr(depth)).collect()
    }
    fn bx(&mut self, depth: usize) -> Box<Expr> {
        Box::new(self.expr(depth))
    }
    fn pat(&mut self) -> Pat {
        if self.0.below(2) == 0 {
            Pat::Var(self.name())
        } else {
            Pat::Tuple(self.names(2))
        }
    }
    fn op(&mut self, depth: usize) -> Op {
        match self.0.below(5) {
            0 => Op::Add,
            1 => Op::Mul,
            2 => Op::Min,
            3 => Op::Max,
            _ => Op::Lambda(lam_of(self.names(1), self.expr(depth))),
        }
    }
    fn prim(&mut self, depth: usize) -> ExprKind {
        let one = |g: &mut Gen| vec![g.expr(depth)];
        let (p, args) = match self.0.below(21) {
            0 => (Prim::Exp, one(self)),
            1 => (Prim::Log, one(self)),
            2 => (Prim::Sin, one(self)),
            3 => (Prim::Cos, one(self)),
            4 => (Prim::Tanh, one(self)),
            5 => (Prim::Sqrt, one(self)),
            6 => (Prim::Abs, one(self)),
            7 => (Prim::Floor, one(self)),
            8 => (Prim::Real, one(self)),
            9 => (Prim::Min, self.list(depth, 2)[..2].to_vec()),
            10 => (Prim::Max, self.list(depth, 2)[..2].to_vec()),
            11 => (Prim::Pow(self.0.below(11) as i64 - 5), one(self)),
            12 => (Prim::Select, self.list(depth, 3)[..3].to_vec()),
            13 => (Prim::Sum, one(self)),
            14 => (Prim::SumOuter, one(self)),
            15 => (Prim::Replicate(self.0.below(9)), one(self)),
            16 => (Prim::Transpose(self.sizes(0)), one(self)),
            17 => (Prim::Reshape(self.sizes(0)), one(self)),
            18 => (Prim::Iota(self.0.below(9)), vec![]),
            19 => (Prim::Append, self.list(depth, 2)[..2].to_vec()),
            _ => (Prim::Stack, self.list(depth, 1)),
        };
        ExprKind::Prim(p, args)
    }
    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.0.below(6) == 0 {
            return mk(if self.0.below(2) == 0 {
                ExprKind::Var(self.name())
            } else {
                ExprKind::Lit(self.lit())
            });
        }
        let d = depth - 1;
        let kind = match self.0.below(22) {
            0 => ExprKind::Array(self.list(d, 1)),
            1 => ExprKind::Tuple(self.list(d, 2)),
            2 => ExprKind::Proj(self.bx(d), self.0.below(4)),
            3 => ExprKind::Let(self.pat(), self.bx(d), self.bx(d)),
            4 => ExprKind::If(self.bx(d), self.bx(d), self.bx(d)),
            5 => ExprKind::Unary(
                if self.0.below(2) == 0 {
                    UnOp::Neg
                } else {
                    UnOp::Not
                },
                self.bx(d),
            ),
            6..=8 => ExprKind::Binary(BINOPS[self.0.below(BINOPS.len())], self.bx(d), self.bx(d)),
            9 => ExprKind::Call(["f", "g2"][self.0.below(2)].to_string(), self.list(d, 0)),
            10 => self.prim(d),
            11 => ExprKind::Index(self.bx(d), self.list(d, 1)),
            12 => {
                let sh = self.sizes(1);
                let ns = (0..sh.len()).map(|_| self.name()).collect();
                ExprKind::Build(sh, ns, self.bx(d))
            }
            13 => ExprKind::Gather(self.sizes(1), self.bx(d), self.names(1), self.list(d, 0)),
            14 => ExprKind::Scatter(self.sizes(1), self.bx(d), self.names(1), self.list(d, 0)),
            15 => ExprKind::Map(lam_of(self.names(1), self.expr(d)), self.list(d, 1)),
            16 => ExprKind::Reduce(self.op(d), self.bx(d), self.bx(d)),
            17 => ExprKind::Scan(self.op(d), self.bx(d), self.bx(d)),
            18 => ExprKind::ReduceByIndex {
                dest: self.bx(d),
                op: self.op(d),
                ne: self.bx(d),
                is: self.bx(d),
                vs: self.bx(d),
            },
            19 => ExprKind::ScatterInto {
                dest: self.bx(d),
                is: self.bx(d),
                vs: self.bx(d),
            },
            20 => ExprKind::Loop {
                acc: self.pat(),
                init: self.bx(d),
                var: self.name(),
                count: self.0.below(100),
                body: self.bx(d),
            },
            _ => ExprKind::Lit(self.lit()),
        };
        mk(kind)
    }
}

fn lam_of(params: Vec<String>, body: Expr) -> adora_core::ast::Lambda {
    adora_core::ast::Lambda {
        params,
        body: Box::new(body),
    }
}

#[test]
fn random_trees_round_trip() {
    let mut g = Gen(Rng(0x5eed_1234_abcd_0001));
    for _ in 0..3000 {
        let x = g.expr(5);
        roundtrip_expr(&x);
    }
}
