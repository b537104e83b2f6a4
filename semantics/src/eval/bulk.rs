//! Indexing and the index-space forms: `e[i, ...]`, `build`, `gather`, `scatter`.

use super::machine::{bad_shape, ill, volume, Machine};
use super::Event;
use crate::kernels::buckets::scatter_sums;
use crate::kernels::tensor::{flat_prefix, scatter_slots, unflatten};
use crate::rt::{empty_of, Arr, Stacker, RV};
use crate::scalar::Scalar;
use adora_core::ast::{Binding, Expr, Name};
use adora_core::diag::{Result, Span};
use adora_core::types::{Base, Type};

impl<'a, S: Scalar> Machine<'a, '_, S> {
    /// The integer of a rank-0 `Z` value.
    pub(super) fn as_index(&self, v: &RV<S>, span: Span) -> Result<i64> {
        match v.as_z().and_then(Arr::as_scalar) {
            Some(i) => Ok(*i),
            None => Err(ill(
                span,
                format!("an index must be a Z scalar, found {}", v.ty()),
            )),
        }
    }

    /// Evaluates index expressions into `out`.
    pub(super) fn eval_indices(&mut self, ix: &'a [Expr], out: &mut Vec<i64>) -> Result<()> {
        out.clear();
        for i in ix {
            let v = self.eval(i)?;
            out.push(self.as_index(&v, i.span)?);
        }
        Ok(())
    }

    /// `x[idx]` for a prefix index; out of bounds reads zeros (counted).
    pub(super) fn read(&mut self, x: &RV<S>, idx: &[i64], span: Span) -> Result<RV<S>> {
        let Some((base, shape)) = x.array() else {
            return Err(ill(
                span,
                format!("cannot index a value of type {}", x.ty()),
            ));
        };
        if idx.len() > shape.len() {
            return Err(bad_shape(
                span,
                format!("{} indices for a value of type {}", idx.len(), x.ty()),
            ));
        }
        if flat_prefix(shape, idx).is_some() {
            let u: Vec<usize> = idx.iter().map(|&i| i as usize).collect();
            return Ok(x.prefix(&u));
        }
        self.stats.oob_reads += 1;
        Ok(RV::zeros(&Type::Array(base, shape[idx.len()..].to_vec())))
    }

    /// `a[i1, ..., ik]`.
    pub(super) fn eval_index(&mut self, e: &'a Expr, a: &'a Expr, is: &'a [Expr]) -> Result<RV<S>> {
        let av = self.eval(a)?;
        let mut idx = Vec::with_capacity(is.len());
        self.eval_indices(is, &mut idx)?;
        let v = self.read(&av, &idx, e.span)?;
        if self.observing() {
            let mut sizes = vec![av.size()];
            sizes.resize(1 + is.len(), 1);
            self.node(e, &v, &sizes, 0, 0);
        }
        Ok(v)
    }

    /// Binds index variables to the multi-index `idx`.
    fn set_indices(&mut self, names: &'a [Name], idx: &[usize]) {
        for (n, &i) in names.iter().zip(idx) {
            self.set_index(n, i as i64);
        }
    }

    /// `build sh (is => body)`.
    pub(super) fn eval_build(
        &mut self,
        e: &'a Expr,
        sh: &'a [usize],
        names: &'a [Name],
        body: &'a Expr,
    ) -> Result<RV<S>> {
        if names.len() != sh.len() {
            return Err(ill(
                e.span,
                format!(
                    "`build` over {} dimensions needs {} binders",
                    sh.len(),
                    sh.len()
                ),
            ));
        }
        let total = self.limit(volume(sh), e.span)?;
        self.emit(Event::ParBegin {
            expr: e,
            iterations: total,
        });
        names.iter().for_each(|n| self.push_index(n, 0));
        let mut st = Stacker::with_capacity(total);
        let mut idx = vec![0usize; sh.len()];
        for t in 0..total {
            unflatten(t, sh, &mut idx);
            self.set_indices(names, &idx);
            self.emit(Event::Iter);
            let v = self.eval(body)?;
            if t == 0 {
                self.limit(total.checked_mul(v.size()), e.span)?;
            }
            if !st.push(&v) {
                return Err(ill(
                    body.span,
                    "the body of `build` must have one type in every iteration",
                ));
            }
        }
        names.iter().rev().for_each(|n| self.pop_index(n));
        self.emit(Event::End);
        let r = match st.finish(sh) {
            Some(r) => r,
            None => {
                let extra = names
                    .iter()
                    .map(|n| Binding {
                        name: n.clone(),
                        ty: Type::int(),
                    })
                    .collect();
                let ty = self.type_in_env(extra, body)?;
                empty_of(sh, &ty)
            }
        };
        self.node(e, &r, &[], 0, 0);
        Ok(r)
    }

    /// `gather(sh, x, is => ix)`: `result[is] = x[ix(is)]`.
    pub(super) fn eval_gather(
        &mut self,
        e: &'a Expr,
        sh: &'a [usize],
        x: &'a Expr,
        names: &'a [Name],
        ix: &'a [Expr],
    ) -> Result<RV<S>> {
        let xv = self.eval(x)?;
        let Some((base, xshape)) = xv.array() else {
            return Err(ill(
                x.span,
                format!("`gather` needs an array, found {}", xv.ty()),
            ));
        };
        if names.len() != sh.len() || ix.len() > xshape.len() {
            return Err(bad_shape(
                e.span,
                format!("`gather` of shape {sh:?} from {} is ill-formed", xv.ty()),
            ));
        }
        let tail = xshape[ix.len()..].to_vec();
        let total = self.limit(volume(sh), e.span)?;
        self.limit(volume(&tail).and_then(|m| m.checked_mul(total)), e.span)?;
        self.emit(Event::ParBegin {
            expr: e,
            iterations: total,
        });
        names.iter().for_each(|n| self.push_index(n, 0));
        let mut st = Stacker::with_capacity(total);
        let mut idx = vec![0usize; sh.len()];
        let mut at = Vec::with_capacity(ix.len());
        for t in 0..total {
            unflatten(t, sh, &mut idx);
            self.set_indices(names, &idx);
            self.emit(Event::Iter);
            self.eval_indices(ix, &mut at)?;
            let v = self.read(&xv, &at, e.span)?;
            st.push(&v);
        }
        names.iter().rev().for_each(|n| self.pop_index(n));
        self.emit(Event::End);
        let r = match st.finish(sh) {
            Some(r) => r,
            None => empty_of(sh, &Type::Array(base, tail)),
        };
        self.node(e, &r, &[xv.size()], 0, 0);
        Ok(r)
    }

    /// `scatter(sh, x, is => ix)`: `result[ix(is)] += x[is]` from zeros.
    pub(super) fn eval_scatter(
        &mut self,
        e: &'a Expr,
        sh: &'a [usize],
        x: &'a Expr,
        names: &'a [Name],
        ix: &'a [Expr],
    ) -> Result<RV<S>> {
        let xv = self.eval(x)?;
        let Some((base, xshape)) = xv.array() else {
            return Err(ill(
                x.span,
                format!("`scatter` needs an array, found {}", xv.ty()),
            ));
        };
        let (k, j) = (names.len(), ix.len());
        let well_formed =
            base != Base::B && k <= xshape.len() && j <= sh.len() && sh[j..] == xshape[k..];
        if !well_formed {
            return Err(bad_shape(
                e.span,
                format!("`scatter` of {} into shape {sh:?} is ill-formed", xv.ty()),
            ));
        }
        let space = xshape[..k].to_vec();
        let iters = volume(&space).unwrap_or(0);
        let slots = self.limit(volume(&sh[..j]), e.span)?;
        self.limit(volume(sh), e.span)?;
        let slot_size: usize = sh[j..].iter().product();
        self.emit(Event::ParBegin {
            expr: e,
            iterations: iters,
        });
        names.iter().for_each(|n| self.push_index(n, 0));
        let mut targets: Vec<Option<usize>> = Vec::with_capacity(iters);
        let mut idx = vec![0usize; k];
        let mut at = Vec::with_capacity(j);
        for t in 0..iters {
            unflatten(t, &space, &mut idx);
            self.set_indices(names, &idx);
            self.emit(Event::Iter);
            self.eval_indices(ix, &mut at)?;
            let slot = flat_prefix(sh, &at);
            if slot.is_none() {
                self.stats.oob_writes += 1;
            }
            targets.push(slot);
        }
        names.iter().rev().for_each(|n| self.pop_index(n));
        self.emit(Event::End);
        let span = e.span;
        let (r, writes, collisions) = match &xv {
            RV::R(a) => {
                // One left fold per slot (kernels::buckets): the same additions in the same
                // order, linear for dual numbers, and the same size check of each partial
                // sum's primal value.
                let s = scatter_sums(a.data(), slots, slot_size, &targets, &S::zero(), |items| {
                    self.sum_left(items, span)
                })?;
                let out = s
                    .data
                    .into_iter()
                    .map(|v| self.fit(v, span))
                    .collect::<Result<Vec<S>>>()?;
                (
                    RV::R(Arr::from_vec(sh.to_vec(), out)),
                    s.writes,
                    s.collisions,
                )
            }
            RV::Z(a) => {
                let s = scatter_slots(a.data(), slots, slot_size, &targets, &0, |d, v| {
                    *d = d
                        .checked_add(*v)
                        .ok_or_else(|| super::machine::overflow(span))?;
                    Ok(())
                })?;
                let r = RV::Z(Arr::from_vec(sh.to_vec(), s.data));
                (r, s.writes, s.collisions)
            }
            _ => return Err(ill(span, "`scatter` needs an R or Z array")),
        };
        self.node(e, &r, &[xv.size()], writes, collisions);
        Ok(r)
    }
}
