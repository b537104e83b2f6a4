//! Tangent statements of the second-order array combinators (seed 004 §3 and §2: the
//! JVP of a SOAC is the SOAC of the JVP of its lambda).
//!
//! | construct | tangent |
//! |---|---|
//! | `map(f, xs…)` | `map(f', xs…, ẋs…)` with `f'` returning `[y, ẏ]` |
//! | `reduce(+, ne, xs)`, `scan(+, …)` | `reduce(+, ṅe, ẋs)`, `scan(+, ṅe, ẋs)` (linear) |
//! | `reduce(⊙, ne, xs)`, `scan(⊙, …)` (`*`, lambda) | one `reduce`/`scan` of `⊙'` over the pairs `[xs[i], ẋs[i]]` from `[ne, ṅe]` |
//! | `reduce(min/max, …)`, `scan(min/max, …)` | as the evaluator: fold the pairs from the first element with the table's choice, then choose against `[ne, ṅe]` (elements win ties against `ne`, lower indices against higher) |
//! | `reduce_by_index(d, +, ne, is, vs)` | `reduce_by_index(ḋ, +, ṅe, is, v̇s)` (linear) |
//! | `reduce_by_index(d, ⊙, ne, is, vs)` | one `reduce_by_index` of `⊙'` on the pairs (the destination wins ties) |
//! | `scatter_into(d, is, vs)` | `scatter_into(ḋ, is, v̇s)` (linear; the last write wins for both) |
//!
//! `⊙'(A, B)` is the JVP of `⊙` on stacked pairs: `a = A[0], ȧ = A[1], b = B[0], ḃ =
//! B[1]`, then `[a ⊙ b, (a ⊙ b)˙]` with the tangent from the table of primitives (`*`,
//! `min`, `max`) or from the lambda's own tangent statements.

use super::{array, index, internal, mk, shape_of, wrap, Dual, Fwd};
use crate::prims::PrimId;
use adora_core::ast::{BinOp, Expr, ExprKind, Lambda, Name, Op, Prim};
use adora_core::diag::Result;
use adora_core::types::Type;

fn lambda(params: Vec<Name>, body: Expr) -> Lambda {
    Lambda {
        params,
        body: Box::new(body),
    }
}

/// The outer length of an array type.
fn outer(ty: &Type) -> usize {
    shape_of(ty).first().copied().unwrap_or(0)
}

impl Fwd<'_> {
    /// `map(lam, xs…)`.
    pub(super) fn map(&mut self, e: &Expr, lam: &Lambda, xs: &[Expr]) -> Result<Dual> {
        let ds = xs
            .iter()
            .map(|x| self.jvp(x))
            .collect::<Result<Vec<Dual>>>()?;
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut bound = Vec::new();
        for (p, d) in lam.params.iter().zip(&ds) {
            let np = self.supply.claim(p);
            params.push(np.clone());
            args.push(d.p.clone());
            let t = d.t.clone().map(|t| {
                let nt = self.supply.claim(&format!("d{p}"));
                params.push(nt.clone());
                args.push(t);
                super::var(&nt)
            });
            bound.push((
                p.clone(),
                Dual {
                    p: super::var(&np),
                    t,
                },
            ));
        }
        for (p, d) in bound {
            self.env.insert(p, d);
        }
        let body_ty = self.ty(&lam.body)?;
        let (lets, d) = self.scoped(|s| s.jvp(&lam.body))?;
        let real = self.real(e)?;
        let (body, stacked) = match d.t {
            Some(t) if real => (wrap(lets, array(vec![d.p, t])), true),
            _ => (wrap(lets, d.p), false),
        };
        let r = self.bind("map", mk(ExprKind::Map(lambda(params, body), args)));
        if stacked {
            let rank = 2 + shape_of(&body_ty).len();
            Ok(self.unstack(r, 1, rank))
        } else {
            Ok(Dual::constant(r))
        }
    }

    /// `⊙'(A, B)` on the stacked pairs `A`, `B` (atoms) of slices of type `slice`,
    /// pushed into the current scope; returns the stacked result.
    fn op_pair(&mut self, op: &Op, a: Expr, b: Expr, slice: &Type) -> Result<Expr> {
        let pa = self.bind("a", index(a.clone(), 0));
        let ta = self.bind("da", index(a, 1));
        let pb = self.bind("b", index(b.clone(), 0));
        let tb = self.bind("db", index(b, 1));
        let da = Dual { p: pa, t: Some(ta) };
        let db = Dual { p: pb, t: Some(tb) };
        let d = match op {
            Op::Lambda(lam) => {
                let [x, y] = lam.params.as_slice() else {
                    return Err(internal("an operator lambda needs two parameters"));
                };
                self.env.insert(x.clone(), da);
                self.env.insert(y.clone(), db);
                let d = self.jvp(&lam.body)?;
                let t = self.mat(d.t, slice);
                Dual { p: d.p, t: Some(t) }
            }
            Op::Add | Op::Mul => {
                let (bop, id) = match op {
                    Op::Add => (BinOp::Add, PrimId::Add),
                    _ => (BinOp::Mul, PrimId::Mul),
                };
                let v = mk(ExprKind::Binary(
                    bop,
                    Box::new(da.p.clone()),
                    Box::new(db.p.clone()),
                ));
                let y = self.bind("y", v);
                self.apply(id, 0, None, &[da, db], &[], y, slice)?
            }
            Op::Min | Op::Max => {
                let (p, id) = match op {
                    Op::Min => (Prim::Min, PrimId::Min),
                    _ => (Prim::Max, PrimId::Max),
                };
                let y = self.bind(
                    "y",
                    super::prim(p.clone(), vec![da.p.clone(), db.p.clone()]),
                );
                let tys = [slice.clone(), slice.clone()];
                self.apply(id, 0, Some(&p), &[da, db], &tys, y, slice)?
            }
        };
        let t = self.mat(d.t, slice);
        Ok(self.bind("pr", array(vec![d.p, t])))
    }

    /// `⊙'` as a lambda over two stacked pairs.
    fn op_lambda(&mut self, op: &Op, slice: &Type) -> Result<Lambda> {
        let a = self.supply.fresh("pa");
        let b = self.supply.fresh("pb");
        let (lets, r) = self.scoped(|s| s.op_pair(op, super::var(&a), super::var(&b), slice))?;
        Ok(lambda(vec![a, b], wrap(lets, r)))
    }

    /// The operator as it is, for a combinator without tangents (a lambda is
    /// transformed for its primal part only, with binders of its own).
    fn primal_op(&mut self, op: &Op) -> Result<Op> {
        let Op::Lambda(lam) = op else {
            return Ok(op.clone());
        };
        let params: Vec<Name> = lam.params.iter().map(|p| self.supply.claim(p)).collect();
        for (p, n) in lam.params.iter().zip(&params) {
            self.env.insert(p.clone(), Dual::constant(super::var(n)));
        }
        let (lets, d) = self.scoped(|s| s.jvp(&lam.body))?;
        Ok(Op::Lambda(lambda(params, wrap(lets, d.p))))
    }

    /// `reduce(op, ne, xs)`, and `scan(op, ne, xs)` when `scan`.
    pub(super) fn reduce(
        &mut self,
        e: &Expr,
        op: &Op,
        ne: &Expr,
        xs: &Expr,
        scan: bool,
    ) -> Result<Dual> {
        let dne = self.jvp(ne)?;
        let dxs = self.jvp(xs)?;
        let slice = self.ty(ne)?;
        let xs_ty = self.ty(xs)?;
        let make = |op: Op, ne: Expr, xs: Expr| {
            let (ne, xs) = (Box::new(ne), Box::new(xs));
            mk(if scan {
                ExprKind::Scan(op, ne, xs)
            } else {
                ExprKind::Reduce(op, ne, xs)
            })
        };
        let lambda_op = matches!(op, Op::Lambda(_));
        let constant = dne.t.is_none() && dxs.t.is_none() && !lambda_op;
        if !self.real(e)? || constant {
            let op = self.primal_op(op)?;
            let p = self.bind(if scan { "scan" } else { "red" }, make(op, dne.p, dxs.p));
            return Ok(Dual::constant(p));
        }
        let rank = shape_of(&xs_ty).len();
        if let Op::Add = op {
            let p = self.bind("red", make(Op::Add, dne.p, dxs.p));
            let tne = self.mat(dne.t, &slice);
            let txs = self.mat(dxs.t, &xs_ty);
            let t = self.bind("dred", make(Op::Add, tne, txs));
            return Ok(Dual { p, t: Some(t) });
        }
        let tne = self.mat(dne.t, &slice);
        let ne2 = self.bind("ne", array(vec![dne.p, tne]));
        let txs = self.mat(dxs.t, &xs_ty);
        let zs = self.stack_inner(dxs.p, txs, rank);
        let opl = self.op_lambda(op, &slice)?;
        if !matches!(op, Op::Min | Op::Max) {
            let r = self.bind("red", make(Op::Lambda(opl), ne2, zs));
            return Ok(if scan {
                self.unstack(r, 1, rank + 1)
            } else {
                self.unstack(r, 0, rank + 1)
            });
        }
        // min/max as the evaluator folds them (docs/language.md, ties): from the first
        // element, earlier elements winning ties, then against `ne`, elements winning.
        let n = outer(&xs_ty);
        if n == 0 {
            if scan {
                let p = self.bind("scan", make(op.clone(), ne2.clone(), zs));
                return Ok(self.unstack(p, 1, rank + 1));
            }
            return Ok(self.unstack(ne2, 0, rank));
        }
        let z0 = self.bind("z0", index(zs.clone(), 0));
        let tail = self.tail(zs, n);
        let folded = self.bind("fold", make(Op::Lambda(opl), z0.clone(), tail));
        if !scan {
            let r = self.op_pair(op, folded, ne2, &slice)?;
            return Ok(self.unstack(r, 0, rank));
        }
        let first = self.bind("first", array(vec![z0]));
        let all = self.bind("all", super::prim(Prim::Append, vec![first, folded]));
        let x = self.supply.fresh("pz");
        let (lets, r) = self.scoped(|s| s.op_pair(op, super::var(&x), ne2, &slice))?;
        let r = self.bind(
            "scan",
            mk(ExprKind::Map(lambda(vec![x], wrap(lets, r)), vec![all])),
        );
        Ok(self.unstack(r, 1, rank + 1))
    }

    /// `zs[1..n]`: `gather([n - 1], zs, i => [i + 1])`.
    fn tail(&mut self, zs: Expr, n: usize) -> Expr {
        let i = self.supply.fresh("i");
        let ix = mk(ExprKind::Binary(
            BinOp::Add,
            Box::new(super::var(&i)),
            Box::new(super::int_lit(1)),
        ));
        self.bind(
            "tail",
            mk(ExprKind::Gather(
                vec![n - 1],
                Box::new(zs),
                vec![i],
                vec![ix],
            )),
        )
    }

    /// `reduce_by_index(dest, op, ne, is, vs)`.
    pub(super) fn reduce_by_index(
        &mut self,
        e: &Expr,
        dest: &Expr,
        op: &Op,
        ne: &Expr,
        is: &Expr,
        vs: &Expr,
    ) -> Result<Dual> {
        let dd = self.jvp(dest)?;
        let dne = self.jvp(ne)?;
        let di = self.jvp(is)?;
        let dv = self.jvp(vs)?;
        let slice = self.ty(ne)?;
        let dest_ty = self.ty(dest)?;
        let vs_ty = self.ty(vs)?;
        let make = |op: Op, d: Expr, ne: Expr, vs: Expr| {
            mk(ExprKind::ReduceByIndex {
                dest: Box::new(d),
                op,
                ne: Box::new(ne),
                is: Box::new(di.p.clone()),
                vs: Box::new(vs),
            })
        };
        let lambda_op = matches!(op, Op::Lambda(_));
        let constant = dd.t.is_none() && dne.t.is_none() && dv.t.is_none() && !lambda_op;
        if !self.real(e)? || constant {
            let op = self.primal_op(op)?;
            let p = self.bind("rbi", make(op, dd.p, dne.p, dv.p));
            return Ok(Dual::constant(p));
        }
        if let Op::Add = op {
            let p = self.bind("rbi", make(Op::Add, dd.p, dne.p, dv.p));
            let td = self.mat(dd.t, &dest_ty);
            let tne = self.mat(dne.t, &slice);
            let tv = self.mat(dv.t, &vs_ty);
            let t = self.bind("drbi", make(Op::Add, td, tne, tv));
            return Ok(Dual { p, t: Some(t) });
        }
        let rank = shape_of(&dest_ty).len();
        let td = self.mat(dd.t, &dest_ty);
        let d2 = self.stack_inner(dd.p, td, rank);
        let tv = self.mat(dv.t, &vs_ty);
        let v2 = self.stack_inner(dv.p, tv, rank);
        let tne = self.mat(dne.t, &slice);
        let ne2 = self.bind("ne", array(vec![dne.p, tne]));
        let opl = self.op_lambda(op, &slice)?;
        let r = self.bind("rbi", make(Op::Lambda(opl), d2, ne2, v2));
        Ok(self.unstack(r, 1, rank + 1))
    }

    /// `scatter_into(dest, is, vs)`.
    pub(super) fn scatter_into(
        &mut self,
        e: &Expr,
        dest: &Expr,
        is: &Expr,
        vs: &Expr,
    ) -> Result<Dual> {
        let dd = self.jvp(dest)?;
        let di = self.jvp(is)?;
        let dv = self.jvp(vs)?;
        let make = |d: Expr, vs: Expr| {
            mk(ExprKind::ScatterInto {
                dest: Box::new(d),
                is: Box::new(di.p.clone()),
                vs: Box::new(vs),
            })
        };
        let p = self.bind("sci", make(dd.p, dv.p));
        if !self.real(e)? || (dd.t.is_none() && dv.t.is_none()) {
            return Ok(Dual::constant(p));
        }
        let dest_ty = self.ty(dest)?;
        let vs_ty = self.ty(vs)?;
        let td = self.mat(dd.t, &dest_ty);
        let tv = self.mat(dv.t, &vs_ty);
        let t = self.bind("dsci", make(td, tv));
        Ok(Dual { p, t: Some(t) })
    }
}
