//! Layout simplifications: `transpose` and `reshape` chains that bot's Fig. 9 rules leave
//! behind (`bot/build-append` wraps both operands in `transpose(swap, ..)`, nested builds
//! stack `reshape`s). Each is an equation of the core language (docs/language.md:
//! result dimension `k` of `transpose(p, x)` is dimension `p[k]` of `x`; `reshape` is
//! row-major), our decision after horde-ad's rule set (transpose and reshape fusion,
//! docs/rules/bot.md, "Layout simplifications").

use super::search::{custom, Shape2, View};
use super::util::{add_shape, arr, shape_leaf, transpose};
use crate::ir::analysis::{IrAnalysis, IrGraph};
use crate::ir::lang::Ir;
use egg::{Id, Rewrite};

/// The layout rules.
pub(crate) fn rules() -> Vec<Rewrite<Ir, IrAnalysis>> {
    let z = Id::from(0usize);
    let t = Ir::Transpose([z; 2]);
    let r = Ir::Reshape([z; 2]);
    vec![
        custom(
            "bot/transpose-transpose",
            Shape2::nested(&t, 1, &t),
            transpose_transpose,
        ),
        custom(
            "bot/transpose-identity",
            Shape2::node(&t),
            transpose_identity,
        ),
        custom("bot/reshape-identity", Shape2::node(&r), reshape_identity),
        custom(
            "bot/reshape-reshape",
            Shape2::nested(&r, 1, &r),
            reshape_reshape,
        ),
    ]
}

/// `transpose(p, transpose(q, e)) → transpose(r, e)` with `r[k] = q[p[k]]` (just `e`
/// when `r` is the identity).
fn transpose_transpose(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = shape_leaf(eg, m.o(0)?)?;
    let q = shape_leaf(eg, m.i(0)?)?;
    let e = m.i(1)?;
    if p.len() != q.len() || p.iter().any(|&d| d >= q.len()) {
        return None;
    }
    let r: Vec<usize> = p.iter().map(|&d| q[d]).collect();
    Some(transpose(eg, r, e))
}

/// `transpose(p, e) → e` when `p` is the identity permutation.
fn transpose_identity(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let p = shape_leaf(eg, m.o(0)?)?;
    p.iter()
        .enumerate()
        .all(|(k, &d)| k == d)
        .then_some(m.o(1)?)
}

/// `reshape(s, e) → e` when `e` has shape `s`.
fn reshape_identity(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let s = shape_leaf(eg, m.o(0)?)?;
    let e = m.o(1)?;
    (arr(eg, e)?.1 == s).then_some(e)
}

/// `reshape(s, reshape(t, e)) → reshape(s, e)` (row-major order is kept; just `e` when
/// `e` has shape `s`).
fn reshape_reshape(eg: &mut IrGraph, _c: Id, m: &View<'_>, _rule: &str) -> Option<Id> {
    let s = shape_leaf(eg, m.o(0)?)?;
    let e = m.i(1)?;
    if arr(eg, e)?.1 == s {
        return Some(e);
    }
    let sid = add_shape(eg, s);
    Some(eg.add(Ir::Reshape([sid, e])))
}
