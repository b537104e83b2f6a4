//! Scalar and elementwise operations: unary and binary operators, and the primitives
//! (`exp` … `stack`).

use super::layout::{append, select, transpose, unreachable_tuple};
use super::machine::{bad_shape, ill, overflow, volume, Machine};
use crate::kernels::arith::{
    div_real, holds, int_op, pick, pick_int, pow_int, pow_real, pow_steps,
};
use crate::kernels::limits::too_large;
use crate::rt::{same_shape, Arr, RV};
use crate::scalar::{Scalar, Transcendental};
use adora_core::ast::{BinOp, Expr, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_core::types::Base;
use std::cmp::Ordering;

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

impl<'a, S: Scalar> Machine<'a, '_, S> {
    /// `-x` and `!x`.
    pub(super) fn unary(&mut self, e: &Expr, op: UnOp, a: &RV<S>) -> Result<RV<S>> {
        let span = e.span;
        match (op, a) {
            (UnOp::Neg, RV::R(x)) => Ok(RV::R(x.map(|v| Ok::<_, Diagnostic>(v.neg()))?)),
            (UnOp::Neg, RV::Z(x)) => Ok(RV::Z(
                x.map(|v| v.checked_neg().ok_or_else(|| overflow(span)))?,
            )),
            (UnOp::Not, RV::B(x)) => Ok(RV::B(x.map(|v| Ok::<_, Diagnostic>(!v))?)),
            _ => Err(ill(
                span,
                format!(
                    "operator `{}` cannot apply to {}",
                    if op == UnOp::Neg { "-" } else { "!" },
                    a.ty()
                ),
            )),
        }
    }

    /// The real result of an arithmetic operator on two reals.
    fn real_arith(&mut self, op: BinOp, x: &S, y: &S, span: Span) -> Result<S> {
        let r = match op {
            BinOp::Add => x.add(y),
            BinOp::Sub => x.sub(y),
            BinOp::Mul => x.mul(y),
            _ => {
                let (q, by_zero) = div_real(x, y);
                if by_zero {
                    self.div_zero(span)?;
                }
                q
            }
        };
        self.fit(r, span)
    }

    /// The integer result of an arithmetic operator.
    fn int_arith(&mut self, op: BinOp, x: i64, y: i64, span: Span) -> Result<i64> {
        let (r, by_zero) = int_op(op, x, y);
        if by_zero {
            self.div_zero(span)?;
        }
        r.ok_or_else(|| overflow(span))
    }

    /// `a op b`, elementwise on equal shapes.
    pub(super) fn binary(&mut self, e: &Expr, op: BinOp, a: &RV<S>, b: &RV<S>) -> Result<RV<S>> {
        let span = e.span;
        let shapes_ok =
            matches!((a.array(), b.array()), (Some((_, sa)), Some((_, sb))) if same_shape(sa, sb));
        if !shapes_ok {
            return Err(bad_shape(
                span,
                format!(
                    "operands of `{}` must have equal shapes, found {} and {}",
                    op.symbol(),
                    a.ty(),
                    b.ty()
                ),
            ));
        }
        let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
        match (a, b) {
            (RV::R(x), RV::R(y)) if arith => {
                Ok(RV::R(x.zip(y, |p, q| self.real_arith(op, p, q, span))?))
            }
            (RV::R(x), RV::R(y)) if is_comparison(op) => {
                Ok(RV::B(x.zip(y, |p, q| {
                    Ok::<_, Diagnostic>(holds(op, p.compare(q)))
                })?))
            }
            (RV::Z(x), RV::Z(y)) if arith || op == BinOp::Mod => {
                Ok(RV::Z(x.zip(y, |p, q| self.int_arith(op, *p, *q, span))?))
            }
            (RV::Z(x), RV::Z(y)) if is_comparison(op) => {
                Ok(RV::B(x.zip(y, |p, q| {
                    Ok::<_, Diagnostic>(holds(op, Some(p.cmp(q))))
                })?))
            }
            (RV::B(x), RV::B(y))
                if matches!(op, BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or) =>
            {
                Ok(RV::B(x.zip(y, |p, q| {
                    Ok::<_, Diagnostic>(match op {
                        BinOp::Eq => p == q,
                        BinOp::Ne => p != q,
                        BinOp::And => *p && *q,
                        _ => *p || *q,
                    })
                })?))
            }
            _ => Err(ill(
                span,
                format!(
                    "operator `{}` cannot apply to {} and {}",
                    op.symbol(),
                    a.ty(),
                    b.ty()
                ),
            )),
        }
    }

    /// `min` / `max` of two values of equal type, elementwise.
    pub(super) fn min_max(
        &mut self,
        is_max: bool,
        a: &RV<S>,
        b: &RV<S>,
        span: Span,
    ) -> Result<RV<S>> {
        match (a, b) {
            (RV::R(x), RV::R(y)) if same_shape(x.shape(), y.shape()) => {
                let split = self.opts.conventions.splits_ties();
                Ok(RV::R(x.zip(y, |p, q| {
                    Ok::<_, Diagnostic>(if split && p.compare(q) == Some(Ordering::Equal) {
                        S::tie_mean(&[p, q])
                    } else {
                        pick(is_max, p, q).clone()
                    })
                })?))
            }
            (RV::Z(x), RV::Z(y)) if same_shape(x.shape(), y.shape()) => {
                Ok(RV::Z(x.zip(y, |p, q| {
                    Ok::<_, Diagnostic>(pick_int(is_max, *p, *q))
                })?))
            }
            _ => Err(ill(
                span,
                format!(
                    "`{}` needs two R or Z arrays of one shape, found {} and {}",
                    if is_max { "max" } else { "min" },
                    a.ty(),
                    b.ty()
                ),
            )),
        }
    }

    /// `reduce(max)` / `reduce(min)` of `items` (the neutral element first, then the
    /// elements) under a convention that splits ties (`reduce-ties`, crate::conventions):
    /// per position the extreme value, its derivative split evenly among every tied item.
    pub(super) fn min_max_even(
        &mut self,
        is_max: bool,
        items: &[RV<S>],
        span: Span,
    ) -> Result<RV<S>> {
        let reals: Option<Vec<&Arr<S>>> = items
            .iter()
            .map(|v| match v {
                RV::R(x) => Some(x),
                _ => None,
            })
            .collect();
        match reals {
            Some(xs) if xs.iter().all(|x| same_shape(x.shape(), xs[0].shape())) => {
                let data = (0..xs[0].data().len())
                    .map(|j| {
                        let col: Vec<&S> = xs.iter().map(|x| &x.data()[j]).collect();
                        let best = col[1..].iter().fold(col[0], |b, c| pick(is_max, b, c));
                        let tied: Vec<&S> = col
                            .iter()
                            .copied()
                            .filter(|c| c.compare(best) == Some(Ordering::Equal))
                            .collect();
                        if tied.is_empty() {
                            best.clone()
                        } else {
                            S::tie_mean(&tied)
                        }
                    })
                    .collect();
                Ok(RV::R(Arr::from_vec(xs[0].shape().to_vec(), data)))
            }
            _ => {
                let mut r = items[0].clone();
                for x in &items[1..] {
                    r = self.min_max(is_max, &r, x, span)?;
                }
                Ok(r)
            }
        }
    }

    /// `pow(x, k)`: `x^|k|` by squaring after a size check of the result, then a total
    /// reciprocal for negative `k` ([`pow_real`]); the derivative rule is the scalar's
    /// ([`Scalar::pow_rule`]). Charges [`pow_steps`] per element.
    fn pow(&mut self, x: &RV<S>, k: i64, span: Span) -> Result<RV<S>> {
        let elems = x.size() as u64;
        self.charge(pow_steps(k).saturating_mul(elems), span)?;
        let bits = self.opts.max_rational_bits;
        let fit = |v: S| {
            if v.fits_bits(bits) {
                Ok(v)
            } else {
                Err(too_large(bits, span))
            }
        };
        match x {
            RV::R(a) => Ok(RV::R(a.map(|v| {
                let r = pow_real(
                    v,
                    k,
                    bits,
                    fit,
                    || too_large(bits, span),
                    || self.div_zero(span),
                )?;
                Ok::<_, Diagnostic>(v.pow_rule(k, r))
            })?)),
            RV::Z(a) => Ok(RV::Z(a.map(|v| {
                pow_int(*v, k, || self.div_zero(span))?.ok_or_else(|| overflow(span))
            })?)),
            other => Err(ill(
                span,
                format!("`pow` needs an R or Z array, found {}", other.ty()),
            )),
        }
    }

    /// A primitive applied to its arguments.
    pub(super) fn eval_prim(&mut self, e: &'a Expr, p: &Prim, args: &'a [Expr]) -> Result<RV<S>> {
        if *p == Prim::Stack {
            return self.eval_stack(e, args);
        }
        let mut vs = Vec::with_capacity(args.len());
        for a in args {
            vs.push(self.eval(a)?);
        }
        let v = self.prim(e, p, &vs)?;
        if self.observing() {
            let sizes: Vec<usize> = vs.iter().map(RV::size).collect();
            self.node(e, &v, &sizes, 0, 0);
        }
        Ok(v)
    }

    fn prim(&mut self, e: &Expr, p: &Prim, vs: &[RV<S>]) -> Result<RV<S>> {
        let span = e.span;
        let arity = match p {
            Prim::Iota(_) => 0,
            Prim::Min | Prim::Max | Prim::Append => 2,
            Prim::Select => 3,
            _ => 1,
        };
        if vs.len() != arity {
            return Err(ill(
                span,
                format!("this primitive takes {arity} arguments, {} given", vs.len()),
            ));
        }
        if let Some(f) = Transcendental::of_prim(p) {
            return match &vs[0] {
                RV::R(a) => Ok(RV::R(a.map(|x| {
                    x.transcendental(f)
                        .map_err(|n| Diagnostic::new(ErrorKind::NonRational, span, n.message()))
                })?)),
                other => Err(ill(
                    span,
                    format!("`{}` needs an R array, found {}", f.name(), other.ty()),
                )),
            };
        }
        match p {
            Prim::Abs => match &vs[0] {
                RV::R(a) => {
                    // `abs-at-0` under `jax` (crate::conventions): `abs'(0) = 1`, i.e. `x` itself.
                    let slope_one = self.opts.conventions.abs_slope_one_at_zero();
                    Ok(RV::R(a.map(|x| {
                        Ok::<_, Diagnostic>(
                            if slope_one && x.compare(&S::zero()) == Some(Ordering::Equal) {
                                x.clone()
                            } else {
                                x.abs()
                            },
                        )
                    })?))
                }
                RV::Z(a) => Ok(RV::Z(
                    a.map(|x| x.checked_abs().ok_or_else(|| overflow(span)))?,
                )),
                other => Err(ill(
                    span,
                    format!("`abs` needs an R or Z array, found {}", other.ty()),
                )),
            },
            Prim::Floor => match &vs[0] {
                RV::R(a) => Ok(RV::Z(
                    a.map(|x| x.floor_i64().ok_or_else(|| overflow(span)))?,
                )),
                other => Err(ill(
                    span,
                    format!("`floor` needs an R array, found {}", other.ty()),
                )),
            },
            Prim::Real => match &vs[0] {
                RV::Z(a) => Ok(RV::R(a.map(|x| Ok::<_, Diagnostic>(S::from_i64(*x)))?)),
                other => Err(ill(
                    span,
                    format!("`real` needs a Z array, found {}", other.ty()),
                )),
            },
            Prim::Min | Prim::Max => self.min_max(*p == Prim::Max, &vs[0], &vs[1], span),
            Prim::Pow(k) => self.pow(&vs[0], *k, span),
            Prim::Select => select(&vs[0], &vs[1], &vs[2], span),
            Prim::Sum => self.sum(&vs[0], span),
            Prim::SumOuter => self.sum_outer(&vs[0], span),
            Prim::Replicate(n) => {
                let total = volume(&[*n, vs[0].size()]);
                self.limit(total, span)?;
                if *n == 0 {
                    return Ok(crate::rt::empty_of(&[0], &vs[0].ty()));
                }
                crate::rt::stack(vec![vs[0].clone(); *n])
                    .ok_or_else(|| ill(span, "cannot replicate this value"))
            }
            Prim::Transpose(perm) => transpose(&vs[0], perm, span),
            Prim::Reshape(sh) => {
                let ok = matches!(vs[0].array(), Some((_, s)) if volume(s) == volume(sh));
                if !ok {
                    return Err(bad_shape(
                        span,
                        format!("cannot reshape {} to {:?}", vs[0].ty(), sh),
                    ));
                }
                Ok(match &vs[0] {
                    RV::R(a) => RV::R(a.reshaped(sh.clone())),
                    RV::Z(a) => RV::Z(a.reshaped(sh.clone())),
                    RV::B(a) => RV::B(a.reshaped(sh.clone())),
                    RV::T(_) => unreachable_tuple(span)?,
                })
            }
            Prim::Iota(n) => {
                let n = self.limit(Some(*n), span)?;
                let data = (0..n as i64).collect();
                Ok(RV::Z(Arr::from_vec(vec![n], data)))
            }
            Prim::Append => append(&vs[0], &vs[1], span),
            _ => Err(ill(span, "unexpected primitive")),
        }
    }

    /// `sum(x)`: left fold from the first element (`0` when empty), by
    /// [`Scalar::sum_left`].
    fn sum(&mut self, x: &RV<S>, span: Span) -> Result<RV<S>> {
        match x {
            RV::R(a) => {
                let acc = self.sum_left(a.data(), span)?;
                Ok(RV::R(Arr::scalar(self.fit(acc, span)?)))
            }
            RV::Z(a) => {
                let mut acc: i64 = 0;
                for v in a.data() {
                    acc = acc.checked_add(*v).ok_or_else(|| overflow(span))?;
                }
                Ok(RV::Z(Arr::scalar(acc)))
            }
            other => Err(ill(
                span,
                format!("`sum` needs an R or Z array, found {}", other.ty()),
            )),
        }
    }

    /// `sum_outer(x)`: the outer slices added left to right.
    fn sum_outer(&mut self, x: &RV<S>, span: Span) -> Result<RV<S>> {
        let Some((base, shape)) = x.array() else {
            return Err(ill(
                span,
                format!("`sum_outer` needs an array, found {}", x.ty()),
            ));
        };
        if shape.is_empty() || base == Base::B {
            return Err(ill(
                span,
                format!(
                    "`sum_outer` needs an R or Z array of rank >= 1, found {}",
                    x.ty()
                ),
            ));
        }
        let (n, inner) = (shape[0], shape[1..].to_vec());
        let m: usize = inner.iter().product();
        match x {
            RV::R(a) => {
                let data = a.data();
                let acc = (0..m)
                    .map(|k| {
                        let v = self.sum_left((0..n).map(|row| &data[row * m + k]), span)?;
                        self.fit(v, span)
                    })
                    .collect::<Result<Vec<S>>>()?;
                Ok(RV::R(Arr::from_vec(inner, acc)))
            }
            RV::Z(a) => {
                let data = a.data();
                let mut acc = vec![0i64; m];
                for row in 0..n {
                    for (k, v) in acc.iter_mut().enumerate() {
                        *v = v
                            .checked_add(data[row * m + k])
                            .ok_or_else(|| overflow(span))?;
                    }
                }
                Ok(RV::Z(Arr::from_vec(inner, acc)))
            }
            _ => unreachable_tuple(span),
        }
    }
}
