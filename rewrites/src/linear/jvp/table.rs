//! Engine `linear`'s interpreter of the table of primitives (`rewrites/src/prims`): the
//! tangent of `y = p(args)` as Linear A statements (seed 002 §5.1.3).
//!
//! - [`Deriv::Partials`]: `ẏ = Σ ∂ᵢ · ȧᵢ` over the operands with a tangent, summed left to
//!   right. A partial that is a bare constant is a scalar literal coefficient (`1`: the
//!   tangent itself); inside a template, constants are filled to the result's shape (the
//!   elementwise operations of Linear A take equal shapes). Each template node is one
//!   non-linear statement, named after its [`T::Named`] hint; equal templates are
//!   computed once per application (the `1 / b` of `a / b`'s two partials).
//! - [`Deriv::Choose`]: `select(cond, ȧ, ḃ)`, a missing tangent as `0.0`.
//! - [`Deriv::Linear`]: the same operation on the tangents of its linear operands.
//! - [`Deriv::Constant`]: no tangent.

use super::J;
use crate::linear::tangent::tangent_type;
use crate::prims::partials::T;
use crate::prims::{deriv_at, Cond, Deriv, PrimId};
use adora_core::ast::{BinOp, Name, Prim, UnOp};
use adora_core::diag::Result;
use adora_core::linear::{Atom, Op};
use adora_core::types::Type;

/// The table's primitive of a Linear A operation and its static exponent (`pow`), or
/// `None` for an operation outside the table.
pub fn prim_of_op(op: &Op) -> Option<(PrimId, i64)> {
    let id = match op {
        Op::Unary(UnOp::Neg) => PrimId::Neg,
        Op::Binary(BinOp::Add) => PrimId::Add,
        Op::Binary(BinOp::Sub) => PrimId::Sub,
        Op::Binary(BinOp::Mul) => PrimId::Mul,
        Op::Binary(BinOp::Div) => PrimId::Div,
        Op::Index => PrimId::Index,
        Op::Gather(..) => PrimId::Gather,
        Op::Scatter(..) => PrimId::Scatter,
        Op::Prim(p) => return PrimId::of_prim(p),
        _ => return None,
    };
    Some((id, 0))
}

/// What a template reads while it is interpreted for one application.
struct Site<'s> {
    args: &'s [Atom],
    y: &'s Name,
    k: i64,
    sh: &'s [usize],
    /// Templates already computed for this application.
    memo: Vec<(&'static T, Atom)>,
}

impl J<'_> {
    /// The tangent of `y = op(args)` by the table (`y` of shape `sh`).
    pub(super) fn table_rule(
        &mut self,
        (id, k): (PrimId, i64),
        op: &Op,
        y: &Name,
        sh: &[usize],
        args: &[Atom],
    ) -> Result<Option<Name>> {
        let tans: Vec<Option<Name>> = args.iter().map(|a| self.tan(a)).collect();
        Ok(match deriv_at(id, k) {
            Deriv::Partials(ps) => {
                if tans.iter().all(Option::is_none) {
                    return Ok(None);
                }
                let mut site = Site {
                    args,
                    y,
                    k,
                    sh,
                    memo: Vec::new(),
                };
                let mut acc = None;
                for (p, d) in ps.iter().zip(&tans) {
                    let Some(d) = d.clone() else { continue };
                    let term = match p {
                        T::Int(1) => Some(d),
                        T::Int(n) => self.scale(super::rat(*n), Some(d)),
                        _ => {
                            let c = self.template(p, "t", &mut site);
                            self.scale(c, Some(d))
                        }
                    };
                    acc = self.add(acc, term);
                }
                acc
            }
            Deriv::Choose {
                cond,
                then_arg,
                else_arg,
            } => {
                let (dt, de) = (tans[*then_arg].clone(), tans[*else_arg].clone());
                if dt.is_none() && de.is_none() {
                    return Ok(None);
                }
                let c = match cond {
                    Cond::Le | Cond::Ge => {
                        let cmp = if *cond == Cond::Le {
                            BinOp::Le
                        } else {
                            BinOp::Ge
                        };
                        self.nl(
                            "pick",
                            Op::Binary(cmp),
                            vec![args[0].clone(), args[1].clone()],
                        )
                    }
                    Cond::Operand(i) => args[*i].clone(),
                };
                Some(self.masked_select(c, dt, de))
            }
            Deriv::Linear { args: lin, .. } => {
                if lin.iter().all(|&i| tans[i].is_none()) {
                    return Ok(None);
                }
                let mut atoms = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    if lin.contains(&i) {
                        let tt = tangent_type(&self.atom_type(a)).unwrap_or_else(Type::real);
                        atoms.push(Atom::Var(self.tan_or_zero(a, &tt)));
                    } else {
                        atoms.push(a.clone());
                    }
                }
                Some(self.lin(op.clone(), atoms))
            }
            Deriv::Constant => None,
        })
    }

    /// Template `t` as an atom: one non-linear statement per node, named `name`.
    fn template(&mut self, t: &'static T, name: &str, site: &mut Site) -> Atom {
        if let Some((_, a)) = site.memo.iter().find(|(u, _)| *u == t) {
            return a.clone();
        }
        let sh = site.sh;
        let out = match t {
            T::A => site.args[0].clone(),
            T::B => site.args[1].clone(),
            T::Y => Atom::v(site.y),
            T::K => self.fill(site.k, sh),
            T::Int(n) => self.fill(*n, sh),
            T::Named(hint, u) => self.template(u, hint, site),
            T::Neg(u) => {
                let x = self.template(u, "t", site);
                self.nl(name, Op::Unary(UnOp::Neg), vec![x])
            }
            T::Add(u, v) => self.binary(BinOp::Add, u, v, name, site),
            T::Sub(u, v) => self.binary(BinOp::Sub, u, v, name, site),
            T::Mul(u, v) => self.binary(BinOp::Mul, u, v, name, site),
            T::Div(u, v) => self.binary(BinOp::Div, u, v, name, site),
            T::PowKm1(u) => {
                let x = self.template(u, "t", site);
                self.nl(name, Op::Prim(Prim::Pow(site.k - 1)), vec![x])
            }
            T::Sin(u) | T::Cos(u) => {
                let x = self.template(u, "t", site);
                let p = if matches!(t, T::Sin(_)) {
                    Prim::Sin
                } else {
                    Prim::Cos
                };
                self.nl(name, Op::Prim(p), vec![x])
            }
            T::Sign(u) => {
                // select(x < 0, -1, select(x == 0, 0, 1)): abs'(0) = 0 (docs/language.md),
                // and 1 for an unordered (NaN) x, as the reference has it.
                let x = self.template(u, "t", site);
                let zero = self.fill(0, sh);
                let one = self.fill(1, sh);
                let mone = self.fill(-1, sh);
                let eq = self.nl("eq", Op::Binary(BinOp::Eq), vec![x.clone(), zero.clone()]);
                let neg = self.nl("neg", Op::Binary(BinOp::Lt), vec![x, zero.clone()]);
                let s1 = self.nl("sgn", Op::Prim(Prim::Select), vec![eq, zero, one]);
                self.nl("sgn", Op::Prim(Prim::Select), vec![neg, mone, s1])
            }
        };
        site.memo.push((t, out.clone()));
        out
    }

    fn binary(
        &mut self,
        op: BinOp,
        u: &'static T,
        v: &'static T,
        name: &str,
        site: &mut Site,
    ) -> Atom {
        let x = self.template(u, "t", site);
        let z = self.template(v, "t", site);
        self.nl(name, Op::Binary(op), vec![x, z])
    }
}
