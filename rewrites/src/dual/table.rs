//! Engine `dual`'s interpretation of the table of primitives ([`crate::prims`],
//! docs/rules/primitives.md) as Delta terms, shared by the runtime forward pass
//! ([`super::forward`], primal tensors) and the symbolic one ([`super::symbolic::forward`],
//! primal terms). Both passes supply the primal factor of a template (a tensor, or an
//! atom bound in the separated form); this module decides the Delta's shape.
//!
//! `ẏ = Σᵢ ∂ᵢ · dᵢ` over the operands whose Delta is not `Zero` becomes (seed 000 Fig. 14,
//! §6.1, with the `Neg` / `DivBy` constructors of docs/engines/dual.md):
//!
//! | partial `∂ᵢ` | term |
//! |---|---|
//! | `1`, `-1`, `0` | `dᵢ`, `Neg dᵢ`, nothing |
//! | `t` | `Scale(⟦t⟧, dᵢ)` |
//! | every live partial `±(cᵢ · (1 / u))` or `±(1 / u)` with one `u` | `DivBy(⟦u⟧, Σᵢ ±cᵢ · dᵢ)` |
//!
//! The last row (a common reciprocal factored out, as Futhark's `Derivatives.hs` writes
//! the quotient rule) gives division `DivBy(v, du + Neg(Scale(q, dv)))`, `log`
//! `DivBy(u, du)` and `sqrt` `DivBy(y + y, du)`: no reciprocal array is formed, and a
//! division by zero stays total (`c ⊘ 0 = 0`, docs/language.md).
//!
//! A [`Deriv::Choose`] is `Select(c, d_then, d_else)` with `c` the condition, a
//! [`Deriv::Linear`] primitive is the same primitive applied to the Deltas of its linear
//! operands ([`linear_args`]), and [`Deriv::Constant`] is `Zero`.

use super::delta::{Delta, Rep};
use crate::prims::partials::T;
use crate::prims::{deriv_at, Cond, Deriv, PrimId};
use adora_core::diag::{Diagnostic, ErrorKind, Result, Span};

/// `1 / u`, `c · (1 / u)` or their negations: `(u, negated, c)`.
fn reciprocal(p: &T) -> Option<(&T, bool, Option<&T>)> {
    match p.bare() {
        T::Div(one, u) if one.bare() == &T::Int(1) => Some((u.bare(), false, None)),
        T::Mul(c, r) => match reciprocal(r)? {
            (u, neg, None) => Some((u, neg, Some(*c))),
            _ => None,
        },
        T::Neg(x) => reciprocal(x).map(|(u, neg, c)| (u, !neg, c)),
        _ => None,
    }
}

/// The term `∂ · d` for a partial without a factored reciprocal.
fn term<R: Rep>(
    p: &T,
    d: Delta<R>,
    factor: &mut impl FnMut(&T) -> Result<R::Factor>,
) -> Result<Delta<R>> {
    Ok(match p.bare() {
        T::Int(0) => Delta::zero(d.shape().to_vec()),
        T::Int(1) => d,
        T::Int(-1) => Delta::minus(d),
        t => Delta::scale(factor(t)?, d),
    })
}

/// The Delta `Σᵢ ∂ᵢ · dᵢ` of the partials `ps` and the operands' Deltas `ds` (in
/// operand order), with `factor(t)` the primal value of a template `t` (see the module
/// documentation). Factors are asked for in operand order, a factored reciprocal first.
pub fn partials<R: Rep>(
    ps: &[T],
    ds: Vec<Delta<R>>,
    mut factor: impl FnMut(&T) -> Result<R::Factor>,
) -> Result<Delta<R>> {
    let shape = ds.first().map(|d| d.shape().to_vec()).unwrap_or_default();
    let live: Vec<(&T, Delta<R>)> = ps
        .iter()
        .zip(ds)
        .filter(|(p, d)| !d.is_zero() && p.bare() != &T::Int(0))
        .collect();
    let recips: Vec<_> = live.iter().map(|(p, _)| reciprocal(p)).collect();
    let common = match recips.first() {
        Some(Some((u, _, _)))
            if recips
                .iter()
                .all(|r| matches!(r, Some((v, _, _)) if v == u)) =>
        {
            Some(*u)
        }
        _ => None,
    };
    let mut acc = Delta::zero(shape);
    match common {
        Some(u) => {
            let k = factor(u)?;
            for ((_, d), r) in live.into_iter().zip(recips) {
                let Some((_, neg, c)) = r else { continue };
                let t = match c {
                    Some(c) => term(c, d, &mut factor)?,
                    None => d,
                };
                acc = Delta::plus(acc, if neg { Delta::minus(t) } else { t });
            }
            Ok(Delta::div_by(k, acc))
        }
        None => {
            for (p, d) in live {
                acc = Delta::plus(acc, term(p, d, &mut factor)?);
            }
            Ok(acc)
        }
    }
}

/// An internal error: the table does not describe `id` as the caller expects.
pub fn mismatch(id: PrimId, span: Span, expected: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Internal,
        span,
        format!(
            "the table of primitives describes `{}` as `{}`, not {expected}",
            crate::prims::primitive(id).name,
            crate::prims::primitive(id).deriv
        ),
    )
}

/// The partials of `id` (static exponent `k`): `None` when the primitive has no tangent
/// there ([`Deriv::Constant`], e.g. `pow(x, 0)`); an internal error for a derivative of
/// another kind.
pub fn partials_of(id: PrimId, k: i64, span: Span) -> Result<Option<&'static [T]>> {
    match deriv_at(id, k) {
        Deriv::Partials(ps) => Ok(Some(ps)),
        Deriv::Constant => Ok(None),
        _ => Err(mismatch(id, span, "partial derivatives")),
    }
}

/// The choice of `id` (the table's [`Deriv::Choose`]): its condition and the operands
/// whose Deltas are taken where it holds and elsewhere.
pub fn choice_of(id: PrimId, span: Span) -> Result<(Cond, usize, usize)> {
    match deriv_at(id, 0) {
        Deriv::Choose {
            cond,
            then_arg,
            else_arg,
        } => Ok((*cond, *then_arg, *else_arg)),
        _ => Err(mismatch(id, span, "a choice between operand tangents")),
    }
}

/// The Deltas of the linear operands of `id` (the table's [`Deriv::Linear`]), picked from
/// the Deltas of all its operands `ds`; an internal error if the table does not describe
/// `id` as linear. The caller applies the primitive itself to them (`ẏ = f(ȧ)`).
pub fn linear_args<R: Rep>(
    id: PrimId,
    ds: Vec<Option<Delta<R>>>,
    span: Span,
) -> Result<Vec<Delta<R>>> {
    let Deriv::Linear { args, .. } = deriv_at(id, 0) else {
        return Err(mismatch(id, span, "linear"));
    };
    let mut ds = ds;
    args.iter()
        .map(|&i| {
            ds.get_mut(i)
                .and_then(Option::take)
                .ok_or_else(|| mismatch(id, span, "linear in an operand that has a Delta"))
        })
        .collect()
}
