//! Tangent statements of the bulk forms (seed 004 §3; the linear ones after seed 002
//! §5.1.3): array literals, indexing, `gather` and `scatter` are linear in their array
//! operands and apply to the tangents with the same indices; `build` runs its body's
//! primal and tangent statements together and returns them stacked (module
//! documentation of [`super`]).

use super::{array, mk, wrap, Dual, Fwd};
use crate::kit::subst::subst_claiming;
use adora_core::ast::{Expr, ExprKind, Name};
use adora_core::diag::Result;
use adora_core::types::Shape;
use adora_core::visit::free_vars;

impl Fwd<'_> {
    /// `[e1, …, en]`.
    pub(super) fn array(&mut self, e: &Expr, es: &[Expr]) -> Result<Dual> {
        let ds = es
            .iter()
            .map(|x| self.jvp(x))
            .collect::<Result<Vec<Dual>>>()?;
        let p = self.bind("arr", array(ds.iter().map(|d| d.p.clone()).collect()));
        if !self.real(e)? || ds.iter().all(|d| d.t.is_none()) {
            return Ok(Dual::constant(p));
        }
        let ty0 = self.ty(&es[0])?;
        let ts = ds.into_iter().map(|d| self.mat(d.t, &ty0)).collect();
        let t = self.bind("darr", array(ts));
        Ok(Dual { p, t: Some(t) })
    }

    /// `x[i1, …, ik]`: `ẏ = ẋ[i1, …, ik]`.
    pub(super) fn index(&mut self, e: &Expr, x: &Expr, is: &[Expr]) -> Result<Dual> {
        let d = self.jvp(x)?;
        let ix = is
            .iter()
            .map(|i| self.jvp(i).map(|d| d.p))
            .collect::<Result<Vec<Expr>>>()?;
        let p = self.bind("ix", mk(ExprKind::Index(Box::new(d.p.clone()), ix.clone())));
        let t = match d.t {
            Some(t) if self.real(e)? => {
                Some(self.bind("dix", mk(ExprKind::Index(Box::new(t), ix))))
            }
            _ => None,
        };
        Ok(Dual { p, t })
    }

    /// `build sh (is => b)`: one `build` whose body returns `[b, ḃ]` when `b` has a
    /// tangent, taken apart afterwards.
    pub(super) fn build(&mut self, e: &Expr, sh: &Shape, is: &[Name], b: &Expr) -> Result<Dual> {
        let names: Vec<Name> = is.iter().map(|i| self.supply.claim(i)).collect();
        for (i, n) in is.iter().zip(&names) {
            self.env.insert(i.clone(), Dual::constant(super::var(n)));
        }
        let body_ty = self.ty(b)?;
        let (lets, d) = self.scoped(|s| s.jvp(b))?;
        let real = self.real(e)?;
        match d.t {
            Some(t) if real => {
                let body = wrap(lets, array(vec![d.p, t]));
                let r = self.bind(
                    "bld",
                    mk(ExprKind::Build(sh.clone(), names, Box::new(body))),
                );
                let rank = sh.len() + 1 + super::shape_of(&body_ty).len();
                Ok(self.unstack(r, sh.len(), rank))
            }
            _ => {
                let body = wrap(lets, d.p);
                let p = self.bind(
                    "bld",
                    mk(ExprKind::Build(sh.clone(), names, Box::new(body))),
                );
                Ok(Dual::constant(p))
            }
        }
    }

    /// `gather(sh, x, bs => ix)` (`scatter` when `is_scatter`): linear in `x`, the
    /// tangent uses a copy of the index map with binders of its own.
    pub(super) fn gather(
        &mut self,
        e: &Expr,
        sh: &Shape,
        x: &Expr,
        bs: &[Name],
        ix: &[Expr],
        is_scatter: bool,
    ) -> Result<Dual> {
        let d = self.jvp(x)?;
        let p = self.gather_copy(sh, d.p, bs, ix, is_scatter)?;
        let p = self.bind(if is_scatter { "sc" } else { "g" }, p);
        let t = match d.t {
            Some(t) if self.real(e)? => {
                let g = self.gather_copy(sh, t, bs, ix, is_scatter)?;
                Some(self.bind(if is_scatter { "dsc" } else { "dg" }, g))
            }
            _ => None,
        };
        Ok(Dual { p, t })
    }

    /// A `gather`/`scatter` of `src` with a copy of the index map: fresh binders, free
    /// variables replaced by their primal atoms.
    fn gather_copy(
        &mut self,
        sh: &Shape,
        src: Expr,
        bs: &[Name],
        ix: &[Expr],
        is_scatter: bool,
    ) -> Result<Expr> {
        let names: Vec<Name> = bs.iter().map(|b| self.supply.claim(b)).collect();
        let mut map: Vec<(Name, Expr)> = bs
            .iter()
            .zip(&names)
            .map(|(b, n)| (b.clone(), super::var(n)))
            .collect();
        for e in ix {
            for v in free_vars(e) {
                if bs.contains(&v) || map.iter().any(|(n, _)| *n == v) {
                    continue;
                }
                let d = self.env.get(&v).ok_or_else(|| {
                    super::internal(format!("the index variable `{v}` is unbound"))
                })?;
                map.push((v.clone(), d.p.clone()));
            }
        }
        let ix: Vec<Expr> = ix
            .iter()
            .map(|e| subst_claiming(e, &map, &mut self.supply))
            .collect();
        let kind = if is_scatter {
            ExprKind::Scatter(sh.clone(), Box::new(src), names, ix)
        } else {
            ExprKind::Gather(sh.clone(), Box::new(src), names, ix)
        };
        Ok(mk(kind))
    }
}
