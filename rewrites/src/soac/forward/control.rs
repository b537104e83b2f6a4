//! Tangent statements of tuples, projections, `let`, `if` and `loop` (seed 004 §3: the
//! tangent of a tuple is the tuple of the real components' tangents, seed 002 §5.1.5;
//! `if` returns primal and tangent from the branch taken; a `loop` carries the pair
//! `(acc, acċ)` as its accumulator).

use super::{mk, tuple, var, wrap, Dual, Fwd};
use crate::linear::tangent::{slots, tangent_type};
use adora_core::ast::{Expr, ExprKind, Name, Pat};
use adora_core::diag::Result;
use adora_core::types::Type;

/// The tangent of component `k` of a tuple of type `ts` whose tangent is `t`.
fn tangent_component(t: Option<Expr>, ts: &[Type], k: usize) -> Option<Expr> {
    let (s, n) = slots(ts);
    let j = (*s.get(k)?)?;
    let t = t?;
    Some(if n == 1 {
        t
    } else {
        mk(ExprKind::Proj(Box::new(t), j))
    })
}

fn components(ty: &Type) -> Result<&[Type]> {
    match ty {
        Type::Tuple(ts) => Ok(ts),
        other => Err(super::internal(format!(
            "a tuple of type {other} was expected"
        ))),
    }
}

impl Fwd<'_> {
    /// `(e1, …, en)`.
    pub(super) fn tuple(&mut self, e: &Expr, es: &[Expr]) -> Result<Dual> {
        let ds = es
            .iter()
            .map(|x| self.jvp(x))
            .collect::<Result<Vec<Dual>>>()?;
        let p = self.bind("tup", tuple(ds.iter().map(|d| d.p.clone()).collect()));
        if ds.iter().all(|d| d.t.is_none()) {
            return Ok(Dual::constant(p));
        }
        let ty = self.ty(e)?;
        let ts = components(&ty)?.to_vec();
        let mut parts = Vec::new();
        for (d, t) in ds.into_iter().zip(&ts) {
            if let Some(x) = self.mat_opt(d.t, t) {
                parts.push(x);
            }
        }
        let t = match parts.len() {
            0 => None,
            1 => parts.pop(),
            _ => Some(self.bind("dtup", tuple(parts))),
        };
        Ok(Dual { p, t })
    }

    /// `x.k`.
    pub(super) fn proj(&mut self, x: &Expr, k: usize) -> Result<Dual> {
        let d = self.jvp(x)?;
        let ty = self.ty(x)?;
        let ts = components(&ty)?;
        let p = self.bind("proj", mk(ExprKind::Proj(Box::new(d.p), k)));
        let t = tangent_component(d.t, ts, k).map(|t| self.bind("dproj", t));
        Ok(Dual { p, t })
    }

    /// Binds the source pattern `pat` to the transformed value `d` of type `ty`.
    fn bind_pat(&mut self, pat: &Pat, d: Dual, ty: &Type) -> Result<()> {
        match pat {
            Pat::Var(x) => {
                let p = self.bind_as(x, d.p);
                let t = d.t.map(|t| self.bind_as(&format!("d{x}"), t));
                self.env.insert(x.clone(), Dual { p, t });
            }
            Pat::Tuple(xs) => {
                let ts = components(ty)?.to_vec();
                for (k, x) in xs.iter().enumerate() {
                    let p = self.bind_as(x, mk(ExprKind::Proj(Box::new(d.p.clone()), k)));
                    let t = tangent_component(d.t.clone(), &ts, k)
                        .map(|t| self.bind_as(&format!("d{x}"), t));
                    self.env.insert(x.clone(), Dual { p, t });
                }
            }
        }
        Ok(())
    }

    /// `let pat = v in b`.
    pub(super) fn let_in(&mut self, pat: &Pat, v: &Expr, b: &Expr) -> Result<Dual> {
        let d = self.jvp(v)?;
        let ty = self.ty(v)?;
        self.bind_pat(pat, d, &ty)?;
        self.jvp(b)
    }

    /// A body's transformed value as one expression: the pair `(p, ṗ)` when the type has
    /// a tangent, else `p`.
    fn pair(&mut self, d: Dual, ty: &Type) -> Expr {
        match self.mat_opt(d.t, ty) {
            Some(t) => tuple(vec![d.p, t]),
            None => d.p,
        }
    }

    /// The pair `r` taken apart (when `ty` has a tangent).
    fn split(&mut self, r: Expr, ty: &Type) -> Dual {
        if tangent_type(ty).is_none() {
            return Dual::constant(r);
        }
        let p = self.bind("p", mk(ExprKind::Proj(Box::new(r.clone()), 0)));
        let t = self.bind("dp", mk(ExprKind::Proj(Box::new(r), 1)));
        Dual { p, t: Some(t) }
    }

    /// `if c then a else b`: each branch computes its primal and tangent.
    pub(super) fn if_then(&mut self, e: &Expr, c: &Expr, a: &Expr, b: &Expr) -> Result<Dual> {
        let dc = self.jvp(c)?;
        let ty = self.ty(e)?;
        let (la, da) = self.scoped(|s| s.jvp(a))?;
        let ta = self.pair(da, &ty);
        let (lb, db) = self.scoped(|s| s.jvp(b))?;
        let tb = self.pair(db, &ty);
        let r = self.bind(
            "if",
            mk(ExprKind::If(
                Box::new(dc.p),
                Box::new(wrap(la, ta)),
                Box::new(wrap(lb, tb)),
            )),
        );
        Ok(self.split(r, &ty))
    }

    /// `loop (acc = init) for i < n do body`: the accumulator is the pair `(acc, acċ)`.
    pub(super) fn loop_(
        &mut self,
        e: &Expr,
        acc: &Pat,
        init: &Expr,
        i: &Name,
        count: usize,
        body: &Expr,
    ) -> Result<Dual> {
        let di = self.jvp(init)?;
        let ty = self.ty(e)?;
        let has_t = tangent_type(&ty).is_some();
        let init = self.pair(di, &ty);
        let counter = self.supply.claim(i);
        self.env.insert(i.clone(), Dual::constant(var(&counter)));
        let pa = self.supply.fresh("acc");
        let ta = has_t.then(|| self.supply.fresh("dacc"));
        let (lets, r) = self.scoped(|s| {
            let d = Dual {
                p: var(&pa),
                t: ta.as_deref().map(var),
            };
            s.bind_pat(acc, d, &ty)?;
            let d = s.jvp(body)?;
            Ok(s.pair(d, &ty))
        })?;
        let pat = match &ta {
            Some(ta) => Pat::Tuple(vec![pa, ta.clone()]),
            None => Pat::Var(pa),
        };
        let r = self.bind(
            "loop",
            mk(ExprKind::Loop {
                acc: pat,
                init: Box::new(init),
                var: counter,
                count,
                body: Box::new(wrap(lets, r)),
            }),
        );
        Ok(self.split(r, &ty))
    }
}
