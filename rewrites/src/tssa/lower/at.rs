//! Element-wise lowering shared by the three kinds of core values (reals to terms,
//! integers to index expressions, booleans to predicates): the construct-table rows that
//! only move indices around (docs/engines/tssa-lowering.md, "Construct table"). Each
//! `row_*` function lowers one row "at" a list of in-bounds indices.

use super::cx::{internal, unsupported, Bound, Cx};
use super::mk;
use super::value;
use adora_core::ast::{Expr, ExprKind, Prim};
use adora_core::diag::Result;
use adora_core::tl::{CmpOp, Index, Pred};

/// A kind of core scalar and what it lowers to.
pub trait Elem: Sized {
    /// The rows special to this kind (arithmetic, comparisons, …).
    fn leaf<'a>(cx: &mut Cx<'a>, e: &'a Expr, idx: &[Index]) -> Result<Self>;
    /// A value bound to a name, at `idx`.
    fn bound<'a>(cx: &mut Cx<'a>, e: &'a Expr, b: Bound<'a>, idx: &[Index]) -> Result<Self>;
    /// `x` where `p` holds, the zero (or false) elsewhere.
    fn guard(p: Pred, x: Self) -> Self;
    /// `a` where `p`, `b` where `q`, for disjoint `p` and `q` one of which holds.
    fn cases(p: Pred, a: Self, q: Pred, b: Self) -> Self;
}

/// Lowers the element `idx` of `e` (the indices are in bounds of `e`'s shape).
pub fn at<'a, E: Elem>(cx: &mut Cx<'a>, e: &'a Expr, idx: &[Index]) -> Result<E> {
    match &e.kind {
        ExprKind::Var(x) => {
            let b = cx.lookup(e, x)?;
            E::bound(cx, e, b, idx)
        }
        ExprKind::Let(pat, e1, e2) => {
            cx.row("let");
            value::bind_pat(cx, pat, e1)?;
            at(cx, e2, idx)
        }
        ExprKind::Proj(inner, k) => {
            cx.row("tuple");
            let b = value::component(cx, inner, *k)?;
            E::bound(cx, e, b, idx)
        }
        ExprKind::Index(x, ixs) => row_index(cx, x, ixs, idx),
        ExprKind::Build(shape, names, body) => row_build(cx, e, shape, names, body, idx),
        ExprKind::Gather(_, x, names, ixs) => row_gather(cx, e, x, names, ixs, idx),
        ExprKind::Array(es) => row_array(cx, e, es, idx),
        ExprKind::Prim(Prim::Stack, es) => row_array(cx, e, es, idx),
        ExprKind::Prim(Prim::Replicate(_), args) => {
            cx.row("replicate");
            at(cx, &args[0], &idx[1..])
        }
        ExprKind::Prim(Prim::Transpose(perm), args) => {
            cx.row("transpose");
            let mut src = idx.to_vec();
            for (k, &p) in perm.iter().enumerate() {
                src[p] = idx[k].clone();
            }
            at(cx, &args[0], &src)
        }
        ExprKind::Prim(Prim::Append, args) => row_append(cx, e, &args[0], &args[1], idx),
        ExprKind::Prim(Prim::Select, args) => row_select(cx, &args[0], &args[1], &args[2], idx),
        ExprKind::If(..) => Err(unsupported(e, "`if` (a lazy conditional)")),
        ExprKind::Map(..) => Err(unsupported(e, "`map`")),
        ExprKind::Reduce(..) => Err(unsupported(e, "`reduce`")),
        ExprKind::Scan(..) => Err(unsupported(e, "`scan`")),
        ExprKind::ReduceByIndex { .. } => Err(unsupported(e, "`reduce_by_index`")),
        ExprKind::ScatterInto { .. } => Err(unsupported(e, "`scatter_into`")),
        ExprKind::Loop { .. } => Err(unsupported(e, "`loop`")),
        ExprKind::Call(..) => Err(unsupported(e, "a call (functions are inlined first)")),
        _ => E::leaf(cx, e, idx),
    }
}

/// `x[a1,…,ak]`: the indices (affine or opaque), guarded by `0 <= a < n` unless they are
/// surely in bounds (out-of-bounds reads give the zero, docs/language.md).
fn row_index<'a, E: Elem>(
    cx: &mut Cx<'a>,
    x: &'a Expr,
    ixs: &'a [Expr],
    idx: &[Index],
) -> Result<E> {
    let mut all = Vec::with_capacity(ixs.len() + idx.len());
    for a in ixs {
        all.push(at::<Index>(cx, a, &[])?);
    }
    let shape = cx.shape(x)?;
    let guard = cx.guard(&all, &shape);
    cx.row(if all.iter().all(|a| matches!(a, Index::Aff(_))) {
        "index-affine"
    } else {
        "index-opaque"
    });
    all.extend_from_slice(idx);
    let v = at(cx, x, &all)?;
    Ok(E::guard(guard, v))
}

/// `build s (I => e)`: the binders stand for the leading indices.
fn row_build<'a, E: Elem>(
    cx: &mut Cx<'a>,
    e: &'a Expr,
    shape: &[usize],
    names: &[String],
    body: &'a Expr,
    idx: &[Index],
) -> Result<E> {
    cx.row("build");
    if idx.len() < shape.len() {
        return Err(internal(e, "a build lowered at too few indices"));
    }
    let olds: Vec<_> = names
        .iter()
        .zip(idx)
        .map(|(n, a)| cx.bind(n, Bound::Index(a.clone())))
        .collect();
    let r = at(cx, body, &idx[shape.len()..]);
    for (n, old) in names.iter().zip(olds) {
        cx.restore(n, old);
    }
    r
}

/// `gather(sh, x, is => ix)`: `x[ix(I)]` with the bounds guard.
fn row_gather<'a, E: Elem>(
    cx: &mut Cx<'a>,
    e: &'a Expr,
    x: &'a Expr,
    names: &[String],
    ixs: &'a [Expr],
    idx: &[Index],
) -> Result<E> {
    cx.row("gather");
    if idx.len() < names.len() {
        return Err(internal(e, "a gather lowered at too few indices"));
    }
    let olds: Vec<_> = names
        .iter()
        .zip(idx)
        .map(|(n, a)| cx.bind(n, Bound::Index(a.clone())))
        .collect();
    let mut src = Vec::new();
    let mut r = Ok(());
    for a in ixs {
        match at::<Index>(cx, a, &[]) {
            Ok(v) => src.push(v),
            Err(d) => {
                r = Err(d);
                break;
            }
        }
    }
    for (n, old) in names.iter().zip(olds) {
        cx.restore(n, old);
    }
    r?;
    let shape = cx.shape(x)?;
    let guard = cx.guard(&src, &shape);
    src.extend_from_slice(&idx[names.len()..]);
    let v = at(cx, x, &src)?;
    Ok(E::guard(guard, v))
}

/// `[e0, …, e(n-1)]` and `stack`: the right-nested disjoint sum
/// `[i == 0] e0 + [i >= 1]([i == 1] e1 + [i >= 2](…))`.
fn row_array<'a, E: Elem>(
    cx: &mut Cx<'a>,
    e: &'a Expr,
    es: &'a [Expr],
    idx: &[Index],
) -> Result<E> {
    cx.row("array");
    let Some((i, rest)) = idx.split_first() else {
        return Err(internal(e, "an array literal lowered at no index"));
    };
    let mut acc: Option<E> = None;
    for (k, ek) in es.iter().enumerate().rev() {
        let v = at(cx, ek, rest)?;
        let here = mk::cmp(CmpOp::Eq, i.clone(), mk::iconst(k as i64));
        acc = Some(match acc {
            None => E::guard(here, v),
            Some(later) => {
                let after = mk::cmp(CmpOp::Le, mk::iconst(k as i64 + 1), i.clone());
                E::cases(here, v, after, later)
            }
        });
    }
    acc.ok_or_else(|| internal(e, "an empty array literal"))
}

/// `append(a, b)`: `[i < n] a[i] + [i >= n] b[i - n]`.
fn row_append<'a, E: Elem>(
    cx: &mut Cx<'a>,
    e: &'a Expr,
    a: &'a Expr,
    b: &'a Expr,
    idx: &[Index],
) -> Result<E> {
    cx.row("append");
    let Some((i, rest)) = idx.split_first() else {
        return Err(internal(e, "an append lowered at no index"));
    };
    let n = cx.shape(a)?[0] as i64;
    let mut ia = vec![i.clone()];
    ia.extend_from_slice(rest);
    let mut ib = vec![mk::index_add_scaled(i, -1, &mk::iconst(n))];
    ib.extend_from_slice(rest);
    let va = at(cx, a, &ia)?;
    let vb = at(cx, b, &ib)?;
    let p = mk::cmp(CmpOp::Lt, i.clone(), mk::iconst(n));
    let q = mk::cmp(CmpOp::Le, mk::iconst(n), i.clone());
    Ok(E::cases(p, va, q, vb))
}

/// `select(c, a, b)`: `[c'] a + [!c'] b`, elementwise when `c` has `a`'s shape.
fn row_select<'a, E: Elem>(
    cx: &mut Cx<'a>,
    c: &'a Expr,
    a: &'a Expr,
    b: &'a Expr,
    idx: &[Index],
) -> Result<E> {
    cx.row("select");
    let rank = cx.shape(c)?.len();
    let p: Pred = at(cx, c, &idx[..rank.min(idx.len())])?;
    let va = at(cx, a, idx)?;
    let vb = at(cx, b, idx)?;
    Ok(E::cases(p.clone(), va, mk::not(p), vb))
}
