//! The elementwise and primitive rules of the runtime forward pass (seed 000 Fig. 14's
//! arithmetic rules lifted to arrays, §6.1: "Add and Scale … where the scaling constant
//! becomes array-valued, and the scaling is performed element-wise").
//!
//! | construct | rule (`⟦a⟧ = (u, du)`, `⟦b⟧ = (v, dv)`) |
//! |---|---|
//! | `-a` | `(-u, Neg du)` |
//! | `a + b` | `(u + v, Add(du, dv))` |
//! | `a - b` | `(u - v, Add(du, Neg dv))` |
//! | `a * b` | `(u v, Add(Scale(v, du), Scale(u, dv)))` |
//! | `a * a` | `(u u, Scale(2 u, du))` (the same operand twice) |
//! | `a / b` | `q = u / v`: `(q, DivBy(v, Add(du, Neg(Scale(q, dv)))))` (total: `x/0` has derivative 0) |
//! | `exp a` … `sqrt a` | the table of primitives' partial (docs/rules/primitives.md), elementwise; `1 / t` as `DivBy(t, du)` |
//! | `exp a` | `y = exp u`: `(y, Scale(y, du))` |
//! | `log a` | `(log u, DivBy(u, du))` |
//! | `sin a`, `cos a` | `Scale(cos u, du)`, `Scale(-sin u, du)` |
//! | `tanh a` | `t = tanh u`: `Scale(1 - t t, du)` |
//! | `sqrt a` | `r = sqrt u`: `DivBy(r + r, du)` |
//! | `abs a` | `Scale(sign u, du)`, `sign 0 = 0` (`abs'(0) = 0`) |
//! | `pow(a, k)` | the table's partial: `k = 0`: `Zero`; `k = 1`: `du`; else `Scale(k pow(u, k-1), du)` (total) |
//! | `min(a, b)`, `max(a, b)` | `c = u <= v` (resp. `u >= v`): `(select(c, u, v), Select(c, du, dv))` (ties: left) |
//! | `select(c, a, b)` | `(select(c, u, v), Select(c, du, dv))` (follows the selected branch) |
//! | `sum a`, `sum_outer a` | `(sum u, Sum du)`, `(sum_outer u, SumOuter du)` |
//! | `replicate(n, a)` | `(replicate n u, Replicate(n, du))` |
//! | `transpose(p, a)`, `reshape(s, a)` | `Transpose(p, du)`, `Reshape(du)` |
//! | `append(a, b)` | `Append(du, dv)` |
//! | `real z` | `(real z, Zero)` — integers are constants |
//! | `floor`, comparisons, `&& || !`, integer arithmetic, `iota` | no Delta (non-real results) |

use super::super::delta::Delta;
use super::super::value::DV;
use super::{unsupported, Forward};
use crate::prims::partials::{eval_scalar, Env, T};
use crate::prims::{deriv_at, Deriv, PrimId};
use adora_core::ast::{BinOp, Expr, Prim, UnOp};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_semantics::kernels::arith::{holds, keeps_left, sign};
use adora_semantics::kernels::limits::{ill, overflow};
use adora_semantics::kernels::tensor::{self, checked_volume, map_with, zip_with};
use adora_semantics::scalar::{Scalar, Transcendental};
use adora_semantics::value::Tensor;
use std::rc::Rc;

/// A partial-derivative template of the table of primitives, elementwise over the operand
/// `u` and the result `y` (static exponent `k`).
fn partial_elementwise<S: Scalar>(
    t: &T,
    u: &Tensor<S>,
    y: &Tensor<S>,
    k: i64,
    span: adora_core::diag::Span,
) -> Result<Tensor<S>> {
    let data = u
        .data
        .iter()
        .zip(&y.data)
        .map(|(a, r)| {
            let env = Env {
                a: a.clone(),
                b: a.clone(),
                y: r.clone(),
                k,
            };
            eval_scalar(t, &env)
                .map_err(|n| Diagnostic::new(ErrorKind::NonRational, span, n.message()))
        })
        .collect::<Result<Vec<S>>>()?;
    Ok(Tensor {
        shape: u.shape.clone(),
        data,
    })
}

fn is_comparison(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

impl<S: Scalar> Forward<'_, S> {
    /// `-a`, `!a`.
    pub(super) fn unary(&mut self, e: &Expr, op: UnOp, a: DV<S>) -> Result<DV<S>> {
        let span = e.span;
        match (op, a) {
            (UnOp::Neg, DV::R(u, du)) => {
                let v = map_with(&u, |x| Ok::<_, Diagnostic>(x.neg()))?;
                Ok(self.real(v, |_| Delta::minus(du)))
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
                match op {
                    BinOp::Add => {
                        let w = zip_with(&u, &v, |x, y| ck.fit(x.add(y), span))?;
                        Ok(self.real(w, |_| Delta::plus(du, dv)))
                    }
                    BinOp::Sub => {
                        let w = zip_with(&u, &v, |x, y| ck.fit(x.sub(y), span))?;
                        Ok(self.real(w, |_| Delta::plus(du, Delta::minus(dv))))
                    }
                    BinOp::Mul => {
                        let w = zip_with(&u, &v, |x, y| ck.fit(x.mul(y), span))?;
                        Ok(self.real(w, |_| {
                            if !du.is_zero() && du.same(&dv) && Rc::ptr_eq(&u, &v) {
                                // x * x: Scale(2 x, dx).
                                let two = S::from_i64(2);
                                return Delta::scale(Rc::new(u.map(|x| two.mul(x))), du);
                            }
                            Delta::plus(Delta::scale(v.clone(), du), Delta::scale(u.clone(), dv))
                        }))
                    }
                    _ => {
                        let q = zip_with(&u, &v, |x, y| ck.real_div(x, y, span))?;
                        Ok(self.real(q, |q| {
                            let inner = Delta::plus(du, Delta::minus(Delta::scale(q.clone(), dv)));
                            Delta::div_by(v.clone(), inner)
                        }))
                    }
                }
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
        if !self.diff || du.is_zero() {
            return Ok(self.real(y, |_| du));
        }
        let y = Rc::new(y);
        let id = match f {
            Transcendental::Exp => PrimId::Exp,
            Transcendental::Log => PrimId::Log,
            Transcendental::Sin => PrimId::Sin,
            Transcendental::Cos => PrimId::Cos,
            Transcendental::Tanh => PrimId::Tanh,
            Transcendental::Sqrt => PrimId::Sqrt,
        };
        let Deriv::Partials([p]) = deriv_at(id, 0) else {
            return Err(ill(span, format!("`{}` has one partial", f.name())));
        };
        // The table's partial, elementwise (docs/rules/primitives.md). Special cases, tried
        // first: the result itself (`exp`) is shared, not copied, and a partial `1 / t` is
        // the Delta `DivBy(t, du)` (no reciprocal array).
        let at = |t: &T| partial_elementwise(t, &u, &y, 0, span);
        let d = match p.bare() {
            T::Y => Delta::scale(y.clone(), du),
            T::Div(one, T::A) if one.bare() == &T::Int(1) => Delta::div_by(u.clone(), du),
            T::Div(one, t) if one.bare() == &T::Int(1) => Delta::div_by(Rc::new(at(t)?), du),
            t => Delta::scale(Rc::new(at(t)?), du),
        };
        Ok(DV::R(y, d))
    }

    /// `min` / `max`: `c = u <= v` (`u >= v`), `(select(c, u, v), Select(c, du, dv))`.
    fn min_max(&mut self, e: &Expr, is_max: bool, a: DV<S>, b: DV<S>) -> Result<DV<S>> {
        match (a, b) {
            (DV::R(u, du), DV::R(v, dv)) if u.shape == v.shape => {
                let c = zip_with(&u, &v, |x, y| {
                    Ok::<_, Diagnostic>(keeps_left(is_max, x.compare(y)))
                })?;
                let w = tensor::select(&c, &u, &v);
                Ok(self.real(w, |_| Delta::select(Rc::new(c), du, dv)))
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
                    Ok(self.real(v, |_| Delta::scale(Rc::new(u.map(sign)), du)))
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
                        // The table's partial (docs/rules/primitives.md): `pow(x, 0)' = 0`,
                        // `pow(x, 1)' = dx`, else `k * pow(x, k - 1)` elementwise.
                        let deriv = deriv_at(PrimId::Pow, k);
                        let factor = match deriv {
                            Deriv::Partials([p])
                                if *p != T::Int(1) && self.diff && !du.is_zero() =>
                            {
                                Some(Rc::new(partial_elementwise(p, &u, &v, k, span)?))
                            }
                            _ => None,
                        };
                        Ok(self.real(v, |_| match (deriv, factor) {
                            (_, Some(f)) => Delta::scale(f, du),
                            (Deriv::Partials(_), None) => du,
                            _ => Delta::zero(u.shape.clone()),
                        }))
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
                        Ok(self.real(w, |_| Delta::select(c.clone(), du, dv)))
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
                    Ok(self.real(Tensor::scalar(acc), |_| Delta::sum(du)))
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
                    Ok(self.real(t, |_| Delta::sum_outer(du)))
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
                    DV::R(u, du) => {
                        self.real(tensor::replicate(n, &u), |_| Delta::replicate(n, du))
                    }
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
                    DV::R(u, du) => self.real(tensor::transpose(&u, perm), |_| {
                        Delta::transpose(perm.clone(), du)
                    }),
                    DV::Z(u) => DV::Z(Rc::new(tensor::transpose(&u, perm))),
                    DV::B(u) => DV::B(Rc::new(tensor::transpose(&u, perm))),
                    DV::T(_) => return Err(ill(span, "cannot transpose a tuple")),
                })
            }
            Prim::Reshape(sh) => {
                let a = next()?;
                let ok = |s: &[usize]| checked_volume(s) == checked_volume(sh);
                Ok(match a {
                    DV::R(u, du) if ok(&u.shape) => {
                        self.real(tensor::reshape(&u, sh), |_| Delta::reshape(sh.clone(), du))
                    }
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
                    (DV::R(u, du), DV::R(v, dv)) if ok(&u.shape, &v.shape) => {
                        self.real(tensor::append(&u, &v), |_| Delta::append(du, dv))
                    }
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
