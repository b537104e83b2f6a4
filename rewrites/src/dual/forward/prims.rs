//! The elementwise and primitive rules of the runtime forward pass (seed 000 Fig. 14's
//! arithmetic rules lifted to arrays, §6.1: "Add and Scale … where the scaling constant
//! becomes array-valued, and the scaling is performed element-wise").
//!
//! The derivatives come from the table of primitives (docs/rules/primitives.md),
//! interpreted as Delta terms by [`crate::dual::table`]; a template's primal factor is
//! an array: the operand or result itself (shared, not copied) or the template evaluated
//! elementwise. Documented special cases, tried first (Futhark's dispatcher style):
//!
//! | construct | special case |
//! |---|---|
//! | `a * a` | the same operand twice: `Scale(2 u, du)` instead of two scaled copies |
//!
//! What the table gives, with `⟦a⟧ = (u, du)`, `⟦b⟧ = (v, dv)` and result `y`:
//!
//! | construct | Delta |
//! |---|---|
//! | `-a`, `a + b`, `a - b` | `Neg du`, `Add(du, dv)`, `Add(du, Neg dv)` |
//! | `a * b` | `Add(Scale(v, du), Scale(u, dv))` |
//! | `a / b` | `DivBy(v, Add(du, Neg(Scale(y, dv))))` (total: `x/0` has derivative 0) |
//! | `exp a`, `log a`, `sqrt a` | `Scale(y, du)`, `DivBy(u, du)`, `DivBy(y + y, du)` |
//! | `sin a`, `cos a`, `tanh a` | `Scale(cos u, du)`, `Scale(-sin u, du)`, `Scale(1 - y y, du)` |
//! | `abs a` | `Scale(sign u, du)` (`abs'(0) = 0`) |
//! | `pow(a, k)` | `k = 0`: `Zero`; `k = 1`: `du`; else `Scale(k pow(u, k-1), du)` (total) |
//! | `min(a, b)`, `max(a, b)`, `select(c, a, b)` | `Select(c', du, dv)`, `c'` the table's condition (`u <= v`, `u >= v`, `c`) |
//! | `sum`, `sum_outer`, `replicate`, `transpose`, `reshape`, `append` | linear: the primitive applied to the Deltas of its linear operands |
//! | `real z`, `floor a` | no tangent (`real z` is a constant, `floor` an integer) |
//!
//! Comparisons, `&& || !`, integer arithmetic and `iota` have no Delta (non-real results).

use super::super::delta::Delta;
use super::super::value::{RDelta, DV};
use super::{unsupported, Forward};
use crate::dual::table;
use crate::prims::partials::{eval_scalar, Env, T};
use crate::prims::{Cond, PrimId};
use adora_core::ast::{BinOp, Expr, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};
use adora_semantics::kernels::arith::{holds, keeps_left};
use adora_semantics::kernels::limits::{ill, overflow};
use adora_semantics::kernels::tensor::{self, checked_volume, map_with, zip_with};
use adora_semantics::scalar::{Scalar, Transcendental};
use adora_semantics::value::Tensor;
use std::rc::Rc;

/// A partial-derivative template of the table of primitives, elementwise over the
/// operands `a`, `b` (equal shapes; `b` is `a` for unary primitives) and the result `y`
/// (static exponent `k`).
fn partial_elementwise<S: Scalar>(
    t: &T,
    (a, b, y): (&Tensor<S>, &Tensor<S>, &Tensor<S>),
    k: i64,
    span: Span,
) -> Result<Tensor<S>> {
    let data = a
        .data
        .iter()
        .zip(&b.data)
        .zip(&y.data)
        .map(|((a, b), r)| {
            let env = Env {
                a: a.clone(),
                b: b.clone(),
                y: r.clone(),
                k,
            };
            eval_scalar(t, &env)
                .map_err(|n| Diagnostic::new(ErrorKind::NonRational, span, n.message()))
        })
        .collect::<Result<Vec<S>>>()?;
    Ok(Tensor {
        shape: a.shape.clone(),
        data,
    })
}

/// The table's condition of a choice, elementwise.
fn condition<S: Scalar>(
    cond: Cond,
    a: &Tensor<S>,
    b: &Tensor<S>,
    c: Option<&Rc<Tensor<bool>>>,
    span: Span,
) -> Result<Rc<Tensor<bool>>> {
    let op = match cond {
        Cond::Le => BinOp::Le,
        Cond::Ge => BinOp::Ge,
        Cond::Operand(_) => {
            return c.cloned().ok_or_else(|| {
                table::mismatch(PrimId::Select, span, "a choice by a condition operand")
            })
        }
    };
    Ok(Rc::new(zip_with(a, b, |x, y| {
        Ok::<_, Diagnostic>(holds(op, x.compare(y)))
    })?))
}

/// The one linear operand's Delta mapped by `f`; `None` unless the table lists exactly
/// one linear operand.
pub(super) fn lin1<S: Scalar>(
    ds: Vec<RDelta<S>>,
    f: impl FnOnce(RDelta<S>) -> RDelta<S>,
) -> Option<RDelta<S>> {
    let [d]: [RDelta<S>; 1] = ds.try_into().ok()?;
    Some(f(d))
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

impl<S: Scalar> Forward<'_, S> {
    /// `y = id(operands)` (static exponent `k`) with the table's partial derivatives
    /// ([`table::partials`]); the operands have `y`'s shape.
    fn by_partials(
        &self,
        id: PrimId,
        k: i64,
        ops: &[(&Rc<Tensor<S>>, RDelta<S>)],
        y: Tensor<S>,
        span: Span,
    ) -> Result<DV<S>> {
        let y = Rc::new(y);
        let zero = || Delta::zero(y.shape.clone());
        if !self.diff || ops.iter().all(|(_, d)| d.is_zero()) {
            return Ok(DV::R(y.clone(), zero()));
        }
        let Some(ps) = table::partials_of(id, k, span)? else {
            return Ok(DV::R(y.clone(), zero()));
        };
        let (a, b) = match ops {
            [(a, _)] => (*a, *a),
            [(a, _), (b, _), ..] => (*a, *b),
            [] => return Err(table::mismatch(id, span, "a primitive with operands")),
        };
        let ds = ops.iter().map(|(_, d)| d.clone()).collect();
        let d = table::partials(ps, ds, |t| {
            Ok(match t {
                T::A => a.clone(),
                T::B => b.clone(),
                T::Y => y.clone(),
                t => Rc::new(partial_elementwise(t, (a, b, &y), k, span)?),
            })
        })?;
        Ok(DV::R(y, d))
    }

    /// `w = id(a, b)` (or `id(c, a, b)`) with the table's choice between the operand
    /// Deltas `du`, `dv`: `Select(cond, du, dv)`.
    fn by_choice(
        &self,
        id: PrimId,
        (u, du): (&Rc<Tensor<S>>, RDelta<S>),
        (v, dv): (&Rc<Tensor<S>>, RDelta<S>),
        c: Option<&Rc<Tensor<bool>>>,
        w: Tensor<S>,
        span: Span,
    ) -> Result<DV<S>> {
        let w = Rc::new(w);
        if !self.diff || (du.is_zero() && dv.is_zero()) {
            return Ok(DV::R(w.clone(), Delta::zero(w.shape.clone())));
        }
        let (cond, then_arg, else_arg) = table::choice_of(id, span)?;
        let branches = match cond {
            Cond::Operand(_) => (1, 2),
            _ => (0, 1),
        };
        let (d_then, d_else) = match (then_arg, else_arg) {
            (t, e) if (t, e) == branches => (du, dv),
            (t, e) if (e, t) == branches => (dv, du),
            _ => {
                return Err(table::mismatch(
                    id,
                    span,
                    "a choice between its real operands",
                ))
            }
        };
        let c = condition(cond, u, v, c, span)?;
        Ok(DV::R(w, Delta::select(c, d_then, d_else)))
    }

    /// `y = id(…)` linear in some operands (the table's [`crate::prims::Deriv::Linear`]):
    /// `apply` builds the primitive's Delta from the Deltas of its linear operands (`ds`
    /// has one entry per operand, `None` for those without a Delta).
    pub(super) fn by_linear(
        &self,
        id: PrimId,
        ds: Vec<Option<RDelta<S>>>,
        y: Tensor<S>,
        span: Span,
        apply: impl FnOnce(Vec<RDelta<S>>, &Rc<Tensor<S>>) -> Option<RDelta<S>>,
    ) -> Result<DV<S>> {
        let y = Rc::new(y);
        if !self.diff {
            return Ok(DV::R(y.clone(), Delta::zero(y.shape.clone())));
        }
        let args = table::linear_args(id, ds, span)?;
        let d =
            apply(args, &y).ok_or_else(|| table::mismatch(id, span, "linear in these operands"))?;
        Ok(DV::R(y, d))
    }

    /// `-a`, `!a`.
    pub(super) fn unary(&mut self, e: &Expr, op: UnOp, a: DV<S>) -> Result<DV<S>> {
        let span = e.span;
        match (op, a) {
            (UnOp::Neg, DV::R(u, du)) => {
                let v = map_with(&u, |x| Ok::<_, Diagnostic>(x.neg()))?;
                self.by_partials(PrimId::Neg, 0, &[(&u, du)], v, span)
            }
            (UnOp::Neg, DV::Z(u)) => Ok(DV::Z(Rc::new(map_with(&u, |x| {
                x.checked_neg().ok_or_else(|| overflow(span))
            })?))),
            (UnOp::Not, DV::B(u)) => Ok(DV::B(Rc::new(map_with(&u, |x| Ok::<_, Diagnostic>(!x))?))),
            (_, other) => Err(ill(
                span,
                format!(
                    "operator `{}` cannot apply to {}",
                    op.symbol(),
                    other.describe()
                ),
            )),
        }
    }

    /// `a op b` on equal shapes.
    pub(super) fn binary(&mut self, e: &Expr, op: BinOp, a: DV<S>, b: DV<S>) -> Result<DV<S>> {
        let span = e.span;
        let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
        match (a, b) {
            (DV::R(u, du), DV::R(v, dv)) if u.shape == v.shape && arith => {
                let ck = &mut self.ck;
                let (id, w) = match op {
                    BinOp::Add => (
                        PrimId::Add,
                        zip_with(&u, &v, |x, y| ck.fit(x.add(y), span))?,
                    ),
                    BinOp::Sub => (
                        PrimId::Sub,
                        zip_with(&u, &v, |x, y| ck.fit(x.sub(y), span))?,
                    ),
                    BinOp::Mul => (
                        PrimId::Mul,
                        zip_with(&u, &v, |x, y| ck.fit(x.mul(y), span))?,
                    ),
                    _ => (
                        PrimId::Div,
                        zip_with(&u, &v, |x, y| ck.real_div(x, y, span))?,
                    ),
                };
                if id == PrimId::Mul && !du.is_zero() && du.same(&dv) && Rc::ptr_eq(&u, &v) {
                    // Special case x * x: Scale(2 x, dx), one factor instead of two
                    // scaled copies of one Delta.
                    let two = S::from_i64(2);
                    return Ok(self.real(w, |_| Delta::scale(Rc::new(u.map(|x| two.mul(x))), du)));
                }
                self.by_partials(id, 0, &[(&u, du), (&v, dv)], w, span)
            }
            (DV::R(u, _), DV::R(v, _)) if u.shape == v.shape && is_comparison(op) => {
                Ok(DV::B(Rc::new(zip_with(&u, &v, |x, y| {
                    Ok::<_, Diagnostic>(holds(op, x.compare(y)))
                })?)))
            }
            (DV::Z(u), DV::Z(v)) if u.shape == v.shape && (arith || op == BinOp::Mod) => {
                let ck = &mut self.ck;
                Ok(DV::Z(Rc::new(zip_with(&u, &v, |x, y| {
                    ck.int_arith(op, *x, *y, span)
                })?)))
            }
            (DV::Z(u), DV::Z(v)) if u.shape == v.shape && is_comparison(op) => {
                Ok(DV::B(Rc::new(zip_with(&u, &v, |x, y| {
                    Ok::<_, Diagnostic>(holds(op, Some(x.cmp(y))))
                })?)))
            }
            (DV::B(u), DV::B(v))
                if u.shape == v.shape
                    && matches!(op, BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or) =>
            {
                Ok(DV::B(Rc::new(zip_with(&u, &v, |p, q| {
                    Ok::<_, Diagnostic>(match op {
                        BinOp::Eq => p == q,
                        BinOp::Ne => p != q,
                        BinOp::And => *p && *q,
                        _ => *p || *q,
                    })
                })?)))
            }
            (a, b) => Err(ill(
                span,
                format!(
                    "operator `{}` cannot apply to {} and {}",
                    op.symbol(),
                    a.describe(),
                    b.describe()
                ),
            )),
        }
    }

    /// A transcendental function (`f64` only; exact scalars report `NonRational`).
    fn transcendental(&mut self, e: &Expr, f: Transcendental, a: DV<S>) -> Result<DV<S>> {
        let span = e.span;
        let DV::R(u, du) = a else {
            return Err(ill(span, format!("`{}` needs an R array", f.name())));
        };
        let apply = |x: &S, g: Transcendental| {
            x.transcendental(g)
                .map_err(|n| Diagnostic::new(ErrorKind::NonRational, span, n.message()))
        };
        let y = map_with(&u, |x| apply(x, f))?;
        let id = PrimId::of_transcendental(f);
        self.by_partials(id, 0, &[(&u, du)], y, span)
    }

    /// `min` / `max`: `c = u <= v` (`u >= v`), `(select(c, u, v), Select(c, du, dv))`.
    fn min_max(&mut self, e: &Expr, is_max: bool, a: DV<S>, b: DV<S>) -> Result<DV<S>> {
        match (a, b) {
            (DV::R(u, du), DV::R(v, dv)) if u.shape == v.shape => {
                let c = zip_with(&u, &v, |x, y| {
                    Ok::<_, Diagnostic>(keeps_left(is_max, x.compare(y)))
                })?;
                let w = tensor::select(&c, &u, &v);
                let id = if is_max { PrimId::Max } else { PrimId::Min };
                self.by_choice(id, (&u, du), (&v, dv), None, w, e.span)
            }
            (DV::Z(u), DV::Z(v)) if u.shape == v.shape => {
                Ok(DV::Z(Rc::new(zip_with(&u, &v, |x, y| {
                    Ok::<_, Diagnostic>(if keeps_left(is_max, Some(x.cmp(y))) {
                        *x
                    } else {
                        *y
                    })
                })?)))
            }
            (a, b) => Err(ill(
                e.span,
                format!(
                    "`min`/`max` cannot apply to {} and {}",
                    a.describe(),
                    b.describe()
                ),
            )),
        }
    }

    /// A primitive applied to its evaluated arguments (`stack` is handled by the caller).
    pub(super) fn prim(&mut self, e: &Expr, p: &Prim, mut vs: Vec<DV<S>>) -> Result<DV<S>> {
        let span = e.span;
        let arity = match p {
            Prim::Iota(_) => 0,
            Prim::Min | Prim::Max | Prim::Append => 2,
            Prim::Select => 3,
            _ => 1,
        };
        if vs.len() != arity {
            return Err(ill(span, format!("`{}` takes {arity} arguments", p.name())));
        }
        if let Some(f) = Transcendental::of_prim(p) {
            let a = vs.swap_remove(0);
            return self.transcendental(e, f, a);
        }
        let mut args = vs.into_iter();
        let mut next = || args.next().ok_or_else(|| ill(span, "missing argument"));
        match p {
            Prim::Abs => match next()? {
                DV::R(u, du) => {
                    let v = map_with(&u, |x| Ok::<_, Diagnostic>(x.abs()))?;
                    self.by_partials(PrimId::Abs, 0, &[(&u, du)], v, span)
                }
                DV::Z(u) => Ok(DV::Z(Rc::new(map_with(&u, |x| {
                    x.checked_abs().ok_or_else(|| overflow(span))
                })?))),
                other => Err(ill(
                    span,
                    format!("`abs` cannot apply to {}", other.describe()),
                )),
            },
            Prim::Floor => match next()? {
                DV::R(u, _) => Ok(DV::Z(Rc::new(map_with(&u, |x| {
                    x.floor_i64().ok_or_else(|| overflow(span))
                })?))),
                other => Err(ill(
                    span,
                    format!("`floor` cannot apply to {}", other.describe()),
                )),
            },
            Prim::Real => match next()? {
                DV::Z(u) => Ok(DV::constant(u.map(|x| S::from_i64(*x)))),
                other => Err(ill(
                    span,
                    format!("`real` cannot apply to {}", other.describe()),
                )),
            },
            Prim::Min | Prim::Max => {
                let (a, b) = (next()?, next()?);
                self.min_max(e, *p == Prim::Max, a, b)
            }
            Prim::Pow(k) => {
                let k = *k;
                match next()? {
                    DV::R(u, du) => {
                        let ck = &mut self.ck;
                        let v = map_with(&u, |x| ck.pow_real(x, k, span))?;
                        self.by_partials(PrimId::Pow, k, &[(&u, du)], v, span)
                    }
                    DV::Z(u) => {
                        let ck = &mut self.ck;
                        Ok(DV::Z(Rc::new(map_with(&u, |x| ck.pow_int(*x, k, span))?)))
                    }
                    other => Err(ill(
                        span,
                        format!("`pow` cannot apply to {}", other.describe()),
                    )),
                }
            }
            Prim::Select => {
                let (c, a, b) = (next()?, next()?, next()?);
                let DV::B(c) = c else {
                    return Err(ill(span, "`select` needs a B condition"));
                };
                match (a, b) {
                    (DV::R(u, du), DV::R(v, dv)) if u.shape == v.shape => {
                        let w = tensor::select(&c, &u, &v);
                        self.by_choice(PrimId::Select, (&u, du), (&v, dv), Some(&c), w, span)
                    }
                    (DV::Z(u), DV::Z(v)) if u.shape == v.shape => {
                        Ok(DV::Z(Rc::new(tensor::select(&c, &u, &v))))
                    }
                    (DV::B(u), DV::B(v)) if u.shape == v.shape => {
                        Ok(DV::B(Rc::new(tensor::select(&c, &u, &v))))
                    }
                    _ => Err(ill(span, "`select` branches must have one array type")),
                }
            }
            Prim::Sum => match next()? {
                DV::R(u, du) => {
                    let mut acc = u.data.first().cloned().unwrap_or_else(S::zero);
                    for x in u.data.iter().skip(1) {
                        acc.add_assign(x);
                    }
                    let acc = self.ck.fit(acc, span)?;
                    self.by_linear(
                        PrimId::Sum,
                        vec![Some(du)],
                        Tensor::scalar(acc),
                        span,
                        |ds, _| lin1(ds, Delta::sum),
                    )
                }
                DV::Z(u) => {
                    let mut acc: i64 = 0;
                    for x in &u.data {
                        acc = acc.checked_add(*x).ok_or_else(|| overflow(span))?;
                    }
                    Ok(DV::Z(Rc::new(Tensor::scalar(acc))))
                }
                other => Err(ill(
                    span,
                    format!("`sum` cannot apply to {}", other.describe()),
                )),
            },
            Prim::SumOuter => match next()? {
                DV::R(u, du) if !u.shape.is_empty() => {
                    let (n, inner) = (u.shape[0], u.shape[1..].to_vec());
                    let m = tensor::volume(&inner);
                    let mut acc: Vec<S> = if n == 0 {
                        vec![S::zero(); m]
                    } else {
                        u.data[..m].to_vec()
                    };
                    for row in 1..n {
                        for (k, v) in acc.iter_mut().enumerate() {
                            v.add_assign(&u.data[row * m + k]);
                        }
                    }
                    let acc = acc
                        .into_iter()
                        .map(|v| self.ck.fit(v, span))
                        .collect::<Result<Vec<S>>>()?;
                    let t = Tensor {
                        shape: inner,
                        data: acc,
                    };
                    self.by_linear(PrimId::SumOuter, vec![Some(du)], t, span, |ds, _| {
                        lin1(ds, Delta::sum_outer)
                    })
                }
                DV::Z(u) if !u.shape.is_empty() => {
                    let (n, inner) = (u.shape[0], u.shape[1..].to_vec());
                    let m = tensor::volume(&inner);
                    let mut acc = vec![0i64; m];
                    for row in 0..n {
                        for (k, v) in acc.iter_mut().enumerate() {
                            *v = v
                                .checked_add(u.data[row * m + k])
                                .ok_or_else(|| overflow(span))?;
                        }
                    }
                    Ok(DV::Z(Rc::new(Tensor {
                        shape: inner,
                        data: acc,
                    })))
                }
                other => Err(ill(
                    span,
                    format!("`sum_outer` cannot apply to {}", other.describe()),
                )),
            },
            Prim::Replicate(n) => {
                let n = *n;
                let a = next()?;
                let size = match &a {
                    DV::R(t, _) => t.data.len(),
                    DV::Z(t) => t.data.len(),
                    DV::B(t) => t.data.len(),
                    DV::T(_) => return Err(ill(span, "cannot replicate a tuple")),
                };
                self.ck.limit(checked_volume(&[n, size]), span)?;
                Ok(match a {
                    DV::R(u, du) => self.by_linear(
                        PrimId::Replicate,
                        vec![Some(du)],
                        tensor::replicate(n, &u),
                        span,
                        |ds, _| lin1(ds, |d| Delta::replicate(n, d)),
                    )?,
                    DV::Z(u) => DV::Z(Rc::new(tensor::replicate(n, &u))),
                    DV::B(u) => DV::B(Rc::new(tensor::replicate(n, &u))),
                    DV::T(_) => return Err(ill(span, "cannot replicate a tuple")),
                })
            }
            Prim::Transpose(perm) => {
                let a = next()?;
                let shape = match &a {
                    DV::R(t, _) => t.shape.clone(),
                    DV::Z(t) => t.shape.clone(),
                    DV::B(t) => t.shape.clone(),
                    DV::T(_) => return Err(ill(span, "cannot transpose a tuple")),
                };
                let mut seen = vec![false; shape.len()];
                let valid = perm.len() == shape.len()
                    && perm
                        .iter()
                        .all(|&q| q < shape.len() && !std::mem::replace(&mut seen[q], true));
                if !valid {
                    return Err(Diagnostic::new(ErrorKind::Shape, span, "not a permutation"));
                }
                Ok(match a {
                    DV::R(u, du) => self.by_linear(
                        PrimId::Transpose,
                        vec![Some(du)],
                        tensor::transpose(&u, perm),
                        span,
                        |ds, _| lin1(ds, |d| Delta::transpose(perm.clone(), d)),
                    )?,
                    DV::Z(u) => DV::Z(Rc::new(tensor::transpose(&u, perm))),
                    DV::B(u) => DV::B(Rc::new(tensor::transpose(&u, perm))),
                    DV::T(_) => return Err(ill(span, "cannot transpose a tuple")),
                })
            }
            Prim::Reshape(sh) => {
                let a = next()?;
                let ok = |s: &[usize]| checked_volume(s) == checked_volume(sh);
                Ok(match a {
                    DV::R(u, du) if ok(&u.shape) => self.by_linear(
                        PrimId::Reshape,
                        vec![Some(du)],
                        tensor::reshape(&u, sh),
                        span,
                        |ds, _| lin1(ds, |d| Delta::reshape(sh.clone(), d)),
                    )?,
                    DV::Z(u) if ok(&u.shape) => DV::Z(Rc::new(tensor::reshape(&u, sh))),
                    DV::B(u) if ok(&u.shape) => DV::B(Rc::new(tensor::reshape(&u, sh))),
                    _ => return Err(Diagnostic::new(ErrorKind::Shape, span, "cannot reshape")),
                })
            }
            Prim::Iota(n) => {
                let n = self.ck.limit(Some(*n), span)?;
                Ok(DV::Z(Rc::new(Tensor::vector((0..n as i64).collect()))))
            }
            Prim::Append => {
                let (a, b) = (next()?, next()?);
                let ok =
                    |x: &[usize], y: &[usize]| !x.is_empty() && !y.is_empty() && x[1..] == y[1..];
                Ok(match (a, b) {
                    (DV::R(u, du), DV::R(v, dv)) if ok(&u.shape, &v.shape) => self.by_linear(
                        PrimId::Append,
                        vec![Some(du), Some(dv)],
                        tensor::append(&u, &v),
                        span,
                        |ds, _| {
                            let [d, e]: [RDelta<S>; 2] = ds.try_into().ok()?;
                            Some(Delta::append(d, e))
                        },
                    )?,
                    (DV::Z(u), DV::Z(v)) if ok(&u.shape, &v.shape) => {
                        DV::Z(Rc::new(tensor::append(&u, &v)))
                    }
                    (DV::B(u), DV::B(v)) if ok(&u.shape, &v.shape) => {
                        DV::B(Rc::new(tensor::append(&u, &v)))
                    }
                    _ => return Err(Diagnostic::new(ErrorKind::Shape, span, "cannot append")),
                })
            }
            other => Err(unsupported(e, &format!("the primitive `{}`", other.name()))),
        }
    }
}
