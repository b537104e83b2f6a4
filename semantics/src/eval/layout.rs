//! Data-layout primitives that need no evaluator state: `select`, `transpose`, `append`.

use super::machine::{bad_shape, ill, same_type};
use crate::rt::{Arr, RV};
use crate::scalar::Scalar;
use adora_core::diag::{Result, Span};

/// The error for a case the callers have excluded (kept total: no panics).
pub(super) fn unreachable_tuple<T>(span: Span) -> Result<T> {
    Err(ill(span, "unexpected tuple"))
}

/// `select(c, a, b)`: whole-array for a scalar `c`, elementwise otherwise.
pub(super) fn select<S: Scalar>(c: &RV<S>, a: &RV<S>, b: &RV<S>, span: Span) -> Result<RV<S>> {
    let RV::B(c) = c else {
        return Err(ill(
            span,
            format!("`select` needs a B condition, found {}", c.ty()),
        ));
    };
    if !same_type(a, b) {
        return Err(ill(
            span,
            format!(
                "`select` branches must have one type, found {} and {}",
                a.ty(),
                b.ty()
            ),
        ));
    }
    if let Some(c) = c.as_scalar() {
        return Ok(if *c { a.clone() } else { b.clone() });
    }
    if a.array().map(|(_, s)| s) != Some(c.shape()) {
        return Err(bad_shape(
            span,
            format!(
                "`select` condition of shape {:?} does not match {}",
                c.shape(),
                a.ty()
            ),
        ));
    }
    fn pick<T: Clone>(c: &Arr<bool>, x: &Arr<T>, y: &Arr<T>) -> Arr<T> {
        let data = c
            .data()
            .iter()
            .zip(x.data().iter().zip(y.data()))
            .map(|(c, (p, q))| if *c { p.clone() } else { q.clone() });
        Arr::from_vec(c.shape().to_vec(), data.collect())
    }
    Ok(match (a, b) {
        (RV::R(x), RV::R(y)) => RV::R(pick(c, x, y)),
        (RV::Z(x), RV::Z(y)) => RV::Z(pick(c, x, y)),
        (RV::B(x), RV::B(y)) => RV::B(pick(c, x, y)),
        _ => return unreachable_tuple(span),
    })
}

/// `transpose(perm, x)`: result dimension `k` is input dimension `perm[k]`.
pub(super) fn transpose<S: Scalar>(x: &RV<S>, perm: &[usize], span: Span) -> Result<RV<S>> {
    let Some((_, shape)) = x.array() else {
        return Err(ill(
            span,
            format!("`transpose` needs an array, found {}", x.ty()),
        ));
    };
    let rank = shape.len();
    let mut seen = vec![false; rank];
    let valid = perm.len() == rank
        && perm
            .iter()
            .all(|&p| p < rank && !std::mem::replace(&mut seen[p], true));
    if !valid {
        return Err(bad_shape(
            span,
            format!(
                "{perm:?} is not a permutation of the {rank} dimensions of {}",
                x.ty()
            ),
        ));
    }
    fn go<T: Clone>(a: &Arr<T>, perm: &[usize]) -> Arr<T> {
        let (shape, data) = crate::kernels::tensor::transpose_data(a.shape(), a.data(), perm);
        Arr::from_vec(shape, data)
    }
    Ok(match x {
        RV::R(a) => RV::R(go(a, perm)),
        RV::Z(a) => RV::Z(go(a, perm)),
        RV::B(a) => RV::B(go(a, perm)),
        RV::T(_) => return unreachable_tuple(span),
    })
}

/// `append(a, b)` along the outermost dimension.
pub(super) fn append<S: Scalar>(a: &RV<S>, b: &RV<S>, span: Span) -> Result<RV<S>> {
    let ok = match (a.array(), b.array()) {
        (Some((ba, sa)), Some((bb, sb))) => {
            ba == bb && !sa.is_empty() && !sb.is_empty() && sa[1..] == sb[1..]
        }
        _ => false,
    };
    if !ok {
        return Err(bad_shape(
            span,
            format!("cannot append {} and {}", a.ty(), b.ty()),
        ));
    }
    fn go<T: Clone>(x: &Arr<T>, y: &Arr<T>) -> Arr<T> {
        let mut shape = x.shape().to_vec();
        shape[0] += y.shape()[0];
        let mut data = Vec::with_capacity(x.len() + y.len());
        data.extend_from_slice(x.data());
        data.extend_from_slice(y.data());
        Arr::from_vec(shape, data)
    }
    Ok(match (a, b) {
        (RV::R(x), RV::R(y)) => RV::R(go(x, y)),
        (RV::Z(x), RV::Z(y)) => RV::Z(go(x, y)),
        (RV::B(x), RV::B(y)) => RV::B(go(x, y)),
        _ => return unreachable_tuple(span),
    })
}
