//! Tangent statements of the operators and primitives (seed 004 §3, "tangent statements
//! interleaved with the primal"), read from the one table of primitives
//! (`crate::prims`, docs/rules/primitives.md): `Partials` become `ẏ = Σ ∂ᵢ · ȧᵢ` over the
//! operands that have a tangent (a partial `1` or `-1` multiplies nothing), `Choose`
//! becomes a `select` of the operands' tangents on the table's condition, `Linear`
//! applies the primitive to the tangents, `Constant` gives none.

use super::{filled, internal, mk, prim, real_lit, shape_of, Dual, Fwd};
use crate::prims::partials::T;
use crate::prims::{deriv_at, Cond, Deriv, PrimId};
use adora_core::ast::{BinOp, Expr, ExprKind, Prim, UnOp};
use adora_core::diag::Result;
use adora_core::types::Type;

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

fn neg(a: Expr) -> Expr {
    mk(ExprKind::Unary(UnOp::Neg, Box::new(a)))
}

/// The atoms a template reads, and the shape its constants are broadcast to.
pub(super) struct Leaves<'l> {
    /// The operands' primal atoms.
    pub args: &'l [Expr],
    /// The result's atom.
    pub y: Expr,
    /// The static exponent (`pow`), else 0.
    pub k: i64,
    /// The result's shape.
    pub shape: Vec<usize>,
}

impl Fwd<'_> {
    /// `-x`, `!x`.
    pub(super) fn unary(&mut self, e: &Expr, op: UnOp, x: &Expr) -> Result<Dual> {
        let d = self.jvp(x)?;
        let y = self.bind(op.name(), mk(ExprKind::Unary(op, Box::new(d.p.clone()))));
        if op != UnOp::Neg || !self.real(e)? {
            return Ok(Dual::constant(y));
        }
        let ty = self.ty(e)?;
        self.apply(PrimId::Neg, 0, None, &[d], &[], y, &ty)
    }

    /// `a op b`.
    pub(super) fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Result<Dual> {
        let da = self.jvp(a)?;
        let db = self.jvp(b)?;
        let value = bin(op, da.p.clone(), db.p.clone());
        let y = self.bind(op.name(), value);
        let id = match op {
            BinOp::Add => PrimId::Add,
            BinOp::Sub => PrimId::Sub,
            BinOp::Mul => PrimId::Mul,
            BinOp::Div => PrimId::Div,
            _ => return Ok(Dual::constant(y)),
        };
        if !self.real(e)? {
            return Ok(Dual::constant(y));
        }
        let ty = self.ty(e)?;
        self.apply(id, 0, None, &[da, db], &[], y, &ty)
    }

    /// A built-in function.
    pub(super) fn prim(&mut self, e: &Expr, p: &Prim, args: &[Expr]) -> Result<Dual> {
        let ds = args
            .iter()
            .map(|a| self.jvp(a))
            .collect::<Result<Vec<Dual>>>()?;
        let ps: Vec<Expr> = ds.iter().map(|d| d.p.clone()).collect();
        let y = self.bind(p.name(), prim(p.clone(), ps));
        if !self.real(e)? {
            return Ok(Dual::constant(y));
        }
        let ty = self.ty(e)?;
        let tys = args
            .iter()
            .map(|a| self.ty(a))
            .collect::<Result<Vec<Type>>>()?;
        match PrimId::of_prim(p) {
            Some((id, k)) => self.apply(id, k, Some(p), &ds, &tys, y, &ty),
            // `stack([a, …])` is linear in every operand (docs/rules/primitives.md, "Not
            // on the table"); `iota` has no real result.
            None if *p == Prim::Stack => {
                let ty0 = tys[0].clone();
                if ds.iter().all(|d| d.t.is_none()) {
                    return Ok(Dual::constant(y));
                }
                let ts = ds.into_iter().map(|d| self.mat(d.t, &ty0)).collect();
                let t = self.bind("dstack", prim(Prim::Stack, ts));
                Ok(Dual { p: y, t: Some(t) })
            }
            None => Ok(Dual::constant(y)),
        }
    }

    /// The tangent of the table's primitive `id` (exponent `k`; the core primitive `p`
    /// where it has one, whose static parameters a linear rule keeps) with operands `ds`
    /// of types `tys` and result `y` of type `ty` (which has reals).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn apply(
        &mut self,
        id: PrimId,
        k: i64,
        p: Option<&Prim>,
        ds: &[Dual],
        tys: &[Type],
        y: Expr,
        ty: &Type,
    ) -> Result<Dual> {
        let args: Vec<Expr> = ds.iter().map(|d| d.p.clone()).collect();
        let leaves = Leaves {
            args: &args,
            y: y.clone(),
            k,
            shape: shape_of(ty),
        };
        let t = match deriv_at(id, k) {
            Deriv::Partials(ps) => self.by_partials(ps, ds, &leaves)?,
            Deriv::Choose {
                cond,
                then_arg,
                else_arg,
            } => {
                let (a, b) = (&ds[*then_arg], &ds[*else_arg]);
                if a.t.is_none() && b.t.is_none() {
                    None
                } else {
                    let c = match cond {
                        Cond::Le => bin(BinOp::Le, args[0].clone(), args[1].clone()),
                        Cond::Ge => bin(BinOp::Ge, args[0].clone(), args[1].clone()),
                        Cond::Operand(i) => args[*i].clone(),
                    };
                    let c = self.bind("c", c);
                    let ta = self.mat(a.t.clone(), ty);
                    let tb = self.mat(b.t.clone(), ty);
                    Some(self.bind("dsel", prim(Prim::Select, vec![c, ta, tb])))
                }
            }
            Deriv::Linear { args: lin, .. } => {
                if lin.iter().all(|&i| ds[i].t.is_none()) {
                    None
                } else {
                    let p = p.cloned().ok_or_else(|| {
                        internal(format!("the linear primitive {id:?} has no core form"))
                    })?;
                    let mut ops = args.clone();
                    for &i in lin.iter() {
                        let ty_i = tys
                            .get(i)
                            .ok_or_else(|| internal("a linear operand has no type"))?;
                        ops[i] = self.mat(ds[i].t.clone(), ty_i);
                    }
                    Some(self.bind("dlin", prim(p, ops)))
                }
            }
            Deriv::Constant => None,
        };
        Ok(Dual { p: y, t })
    }

    /// `ẏ = Σᵢ ∂ᵢ · ȧᵢ` over the operands with a tangent.
    fn by_partials(&mut self, ps: &[T], ds: &[Dual], l: &Leaves) -> Result<Option<Expr>> {
        let mut sum: Option<Expr> = None;
        for (p, d) in ps.iter().zip(ds) {
            let Some(t) = d.t.clone() else { continue };
            let term = match p.bare() {
                T::Int(1) => t,
                T::Int(-1) => self.bind("dneg", neg(t)),
                _ => {
                    let part = self.template(p, l)?;
                    let part = self.bind("part", part);
                    self.bind("dmul", bin(BinOp::Mul, part, t))
                }
            };
            sum = Some(match sum {
                None => term,
                Some(s) => self.bind("dadd", bin(BinOp::Add, s, term)),
            });
        }
        Ok(sum)
    }

    /// The template `t` as a core expression over the leaves.
    fn template(&mut self, t: &T, l: &Leaves) -> Result<Expr> {
        let arg = |i: usize| {
            l.args
                .get(i)
                .cloned()
                .ok_or_else(|| internal("a template reads an operand the primitive lacks"))
        };
        let c = |n: i64| filled(&l.shape, real_lit(n));
        Ok(match t {
            T::A => arg(0)?,
            T::B => arg(1)?,
            T::Y => l.y.clone(),
            T::K => c(l.k),
            T::Int(n) => c(*n),
            T::Neg(u) => neg(self.template(u, l)?),
            T::Add(u, v) | T::Sub(u, v) | T::Mul(u, v) | T::Div(u, v) => {
                let op = match t {
                    T::Add(..) => BinOp::Add,
                    T::Sub(..) => BinOp::Sub,
                    T::Mul(..) => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let a = self.template(u, l)?;
                let a = self.bind("pa", a);
                let b = self.template(v, l)?;
                let b = self.bind("pb", b);
                bin(op, a, b)
            }
            T::PowKm1(u) => {
                let a = self.template(u, l)?;
                let a = self.bind("pa", a);
                prim(Prim::Pow(l.k - 1), vec![a])
            }
            T::Sin(u) => prim(Prim::Sin, vec![self.template(u, l)?]),
            T::Cos(u) => prim(Prim::Cos, vec![self.template(u, l)?]),
            T::Sign(u) => {
                // sign(u): -1 below zero, 0 at zero, 1 above and for NaN (the
                // reference's convention, docs/language.md).
                let a = self.template(u, l)?;
                let a = self.bind("sg", a);
                let zero = self.bind("z", c(0));
                let lt = self.bind("lt", bin(BinOp::Lt, a.clone(), zero.clone()));
                let eq = self.bind("eq", bin(BinOp::Eq, a, zero.clone()));
                let one = self.bind("one", c(1));
                let inner = self.bind("s", prim(Prim::Select, vec![eq, zero, one]));
                let m1 = self.bind("m1", c(-1));
                prim(Prim::Select, vec![lt, m1, inner])
            }
            T::Named(_, u) => self.template(u, l)?,
        })
    }
}
