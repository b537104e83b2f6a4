//! Literals, constant expressions of any type (the generator's and the shrinker's leaves),
//! and random input values.

use super::ctx::Gen;
use super::mk;
use super::Fragment;
use crate::values::{rat, Rat};
use adora_core::ast::{Expr, ExprKind, Lit, Prim, UnOp};
use adora_core::types::{Base, Type};
use adora_semantics::value::{Tensor, Value};

impl Gen {
    /// A small non-negative real literal (exactly printable as a decimal): numerators
    /// 0..5 over 1, 2 or 4 (and 5 or 10 unless the spec asks for f64-exact programs); a
    /// third is written as a division `n / 3.0` outside f64-exact programs.
    pub fn real_lit(&mut self) -> Expr {
        let num = self.range(0, 5);
        let den = if self.spec.f64_exact {
            self.weighted(&[(6, 1), (3, 2), (2, 4)])
        } else {
            self.weighted(&[(6, 1), (3, 2), (2, 4), (1, 5), (1, 10), (1, 3)])
        };
        if den == 3 {
            return mk::bin(
                adora_core::ast::BinOp::Div,
                mk::real(num, 1),
                mk::real(3, 1),
            );
        }
        mk::real(num, den)
    }

    /// A real literal, negative with probability 1/4 (mostly a negative literal, sometimes
    /// a negation of a literal).
    pub fn signed_real_lit(&mut self) -> Expr {
        let l = self.real_lit();
        if !self.chance(0.25) {
            return l;
        }
        match l.kind {
            ExprKind::Lit(Lit::Real(r)) if self.chance(0.8) => {
                mk::node(ExprKind::Lit(Lit::Real(-r)))
            }
            kind => mk::un(UnOp::Neg, mk::node(kind)),
        }
    }

    /// A constant of type `ty` (scalars: literals; arrays: `replicate` of a literal in
    /// the bulk fragment, an array literal elsewhere when small; tuples: tuples).
    pub fn constant(&mut self, ty: &Type) -> Expr {
        match ty {
            Type::Tuple(ts) => mk::tuple(ts.iter().map(|t| self.constant(t)).collect()),
            Type::Array(b, s) if s.is_empty() => match b {
                Base::R => self.signed_real_lit(),
                Base::Z => mk::int(self.range(0, 3)),
                Base::B => mk::boolean(self.chance(0.5)),
            },
            Type::Array(b, s) => {
                let literal = ty.size() <= 6 && (self.frag() != Fragment::Bulk || self.chance(0.3));
                if literal {
                    let elem = Type::Array(*b, s[1..].to_vec());
                    mk::node(ExprKind::Array(
                        (0..s[0]).map(|_| self.constant(&elem)).collect(),
                    ))
                } else {
                    let inner = self.constant(&Type::Array(*b, s[1..].to_vec()));
                    mk::prim(Prim::Replicate(s[0]), vec![inner])
                }
            }
        }
    }

    /// A random input value of type `ty`: rationals with numerators -5..5 and denominators
    /// 1..4 (1, 2, 4 for f64-exact specs), integers 0..4 (sometimes -1 or 5), booleans.
    pub fn input_value(&mut self, ty: &Type) -> Value<Rat> {
        match ty {
            Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| self.input_value(t)).collect()),
            Type::Array(b, s) => {
                let n: usize = s.iter().product();
                let shape = s.clone();
                match b {
                    Base::R => Value::Real(Tensor {
                        shape,
                        data: (0..n).map(|_| self.input_rat()).collect(),
                    }),
                    Base::Z => Value::Int(Tensor {
                        shape,
                        data: (0..n)
                            .map(|_| {
                                self.weighted(&[
                                    (10, 0),
                                    (10, 1),
                                    (8, 2),
                                    (6, 3),
                                    (3, 4),
                                    (1, -1),
                                    (1, 5),
                                ])
                            })
                            .collect(),
                    }),
                    Base::B => Value::Bool(Tensor {
                        shape,
                        data: (0..n).map(|_| self.chance(0.5)).collect(),
                    }),
                }
            }
        }
    }

    /// A random small rational (see [`Gen::input_value`]).
    pub fn input_rat(&mut self) -> Rat {
        let num = self.range(-5, 5);
        let den = if self.spec.f64_exact {
            self.pick(&[1, 2, 4])
        } else {
            self.range(1, 4)
        };
        rat(num, den)
    }
}
