//! The construct-table rows of integer and boolean core expressions: index arithmetic
//! (affine where it can be, opaque otherwise: extension E3), integer data and relation
//! inputs, comparisons on indices as predicates, comparisons on reals as data predicates
//! (E1), connectives and negation (E4) (docs/engines/tssa-lowering.md).

use super::at::{at, Elem};
use super::cx::{internal, unsupported, Bound, Cx};
use super::mk;
use super::real::data_ref;
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Prim, UnOp};
use adora_core::diag::Result;
use adora_core::tl::{CmpOp, IExpr, Index, Pred};
use adora_core::types::Base;
use num_traits::ToPrimitive;

fn opaque2(f: fn(Box<IExpr>, Box<IExpr>) -> IExpr, a: &Index, b: &Index) -> Index {
    Index::Opaque(f(Box::new(mk::iexpr(a)), Box::new(mk::iexpr(b))))
}

fn as_const(a: &Index) -> Option<i64> {
    match a {
        Index::Aff(a) if a.terms.is_empty() => Some(a.constant),
        _ => None,
    }
}

impl Elem for Index {
    fn leaf<'a>(cx: &mut Cx<'a>, e: &'a Expr, idx: &[Index]) -> Result<Index> {
        cx.row("index-arith");
        match &e.kind {
            ExprKind::Lit(Lit::Int(k)) => k
                .to_i64()
                .map(mk::iconst)
                .ok_or_else(|| unsupported(e, "an integer literal beyond 64 bits")),
            ExprKind::Unary(UnOp::Neg, a) => Ok(mk::index_scale(-1, &at(cx, a, idx)?)),
            ExprKind::Binary(op, a, b) => {
                let (x, y): (Index, Index) = (at(cx, a, idx)?, at(cx, b, idx)?);
                Ok(match op {
                    BinOp::Add => mk::index_add_scaled(&x, 1, &y),
                    BinOp::Sub => mk::index_add_scaled(&x, -1, &y),
                    BinOp::Mul => match (as_const(&x), as_const(&y)) {
                        (Some(k), _) => mk::index_scale(k, &y),
                        (_, Some(k)) => mk::index_scale(k, &x),
                        _ => opaque2(IExpr::Mul, &x, &y),
                    },
                    BinOp::Div => opaque2(IExpr::Div, &x, &y),
                    BinOp::Mod => opaque2(IExpr::Mod, &x, &y),
                    _ => return Err(internal(e, "a non-arithmetic operator of integer type")),
                })
            }
            ExprKind::Prim(p, args) => match p {
                Prim::Abs => Ok(Index::Opaque(IExpr::Abs(Box::new(mk::iexpr(&at(
                    cx, &args[0], idx,
                )?))))),
                Prim::Min | Prim::Max => {
                    let (x, y): (Index, Index) = (at(cx, &args[0], idx)?, at(cx, &args[1], idx)?);
                    let f = if *p == Prim::Min {
                        IExpr::Min
                    } else {
                        IExpr::Max
                    };
                    Ok(opaque2(f, &x, &y))
                }
                Prim::Floor => {
                    let (r, _) = data_ref(cx, &args[0], idx)?;
                    Ok(Index::Opaque(IExpr::Floor(r)))
                }
                Prim::Iota(_) => Ok(idx[0].clone()),
                Prim::Reshape(_) => {
                    let src = unravel(cx, e, &args[0], idx)?;
                    at(cx, &args[0], &src)
                }
                _ => Err(unsupported(e, &format!("`{}` on integers", p.name()))),
            },
            _ => Err(unsupported(
                e,
                &format!("`{}` of integer type", e.kind.form_name()),
            )),
        }
    }

    fn bound<'a>(cx: &mut Cx<'a>, e: &'a Expr, b: Bound<'a>, idx: &[Index]) -> Result<Index> {
        match b {
            Bound::Index(a) => Ok(a),
            Bound::IntData(v) => {
                cx.row("int-data");
                Ok(Index::Opaque(IExpr::Read(v, idx.to_vec())))
            }
            Bound::Deferred(d) => at(cx, d, idx),
            _ => Err(internal(e, "an integer read of a non-integer binding")),
        }
    }

    fn guard(p: Pred, x: Index) -> Index {
        match p {
            Pred::True => x,
            p => Index::Opaque(IExpr::Cond(
                Box::new(p),
                Box::new(mk::iexpr(&x)),
                Box::new(IExpr::Const(0)),
            )),
        }
    }

    fn cases(p: Pred, a: Index, _q: Pred, b: Index) -> Index {
        Index::Opaque(IExpr::Cond(
            Box::new(p),
            Box::new(mk::iexpr(&a)),
            Box::new(mk::iexpr(&b)),
        ))
    }
}

/// The source indices of element `idx` of `reshape(sh, x)` (integer and boolean arrays):
/// the flat position unravelled by floor division and remainder.
fn unravel<'a>(cx: &Cx<'a>, e: &'a Expr, x: &'a Expr, idx: &[Index]) -> Result<Vec<Index>> {
    let flat = mk::iexpr(&mk::ravel(idx, &cx.shape(e)?));
    let src = cx.shape(x)?;
    let mut out = Vec::new();
    let mut stride: i64 = src.iter().map(|&d| d as i64).product();
    for &d in &src {
        stride /= (d as i64).max(1);
        let q = IExpr::Div(
            Box::new(flat.clone()),
            Box::new(IExpr::Const(stride.max(1))),
        );
        out.push(Index::Opaque(IExpr::Mod(
            Box::new(q),
            Box::new(IExpr::Const(d as i64)),
        )));
    }
    Ok(out)
}

fn cmp_op(op: BinOp) -> Option<(CmpOp, bool)> {
    Some(match op {
        BinOp::Eq => (CmpOp::Eq, false),
        BinOp::Ne => (CmpOp::Ne, false),
        BinOp::Lt => (CmpOp::Lt, false),
        BinOp::Le => (CmpOp::Le, false),
        BinOp::Gt => (CmpOp::Lt, true),
        BinOp::Ge => (CmpOp::Le, true),
        _ => return None,
    })
}

/// A comparison: on indices a predicate, on reals a data predicate (E1), on booleans an
/// equivalence.
fn row_compare<'a>(
    cx: &mut Cx<'a>,
    e: &'a Expr,
    op: BinOp,
    a: &'a Expr,
    b: &'a Expr,
    idx: &[Index],
) -> Result<Pred> {
    let (c, swap) = cmp_op(op).ok_or_else(|| internal(e, "not a comparison"))?;
    let (a, b) = if swap { (b, a) } else { (a, b) };
    match cx.base(a)? {
        Base::Z => {
            cx.row("compare-index");
            Ok(mk::cmp(c, at(cx, a, idx)?, at(cx, b, idx)?))
        }
        Base::R => {
            cx.row("compare-real");
            let (ra, _) = data_ref(cx, a, idx)?;
            let (rb, _) = data_ref(cx, b, idx)?;
            Ok(Pred::Data(c, ra, rb))
        }
        Base::B => {
            cx.row("compare-bool");
            let (p, q): (Pred, Pred) = (at(cx, a, idx)?, at(cx, b, idx)?);
            let same = mk::or(
                mk::and(p.clone(), q.clone()),
                mk::and(mk::not(p), mk::not(q)),
            );
            match c {
                CmpOp::Eq => Ok(same),
                CmpOp::Ne => Ok(mk::not(same)),
                _ => Err(internal(e, "an ordering of booleans")),
            }
        }
    }
}

impl Elem for Pred {
    fn leaf<'a>(cx: &mut Cx<'a>, e: &'a Expr, idx: &[Index]) -> Result<Pred> {
        match &e.kind {
            ExprKind::Lit(Lit::Bool(b)) => Ok(if *b { Pred::True } else { Pred::False }),
            ExprKind::Unary(UnOp::Not, a) => {
                cx.row("connective");
                Ok(mk::not(at(cx, a, idx)?))
            }
            ExprKind::Binary(BinOp::And, a, b) => {
                cx.row("connective");
                Ok(Pred::And(
                    Box::new(at(cx, a, idx)?),
                    Box::new(at(cx, b, idx)?),
                ))
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                cx.row("connective");
                Ok(mk::or(at(cx, a, idx)?, at(cx, b, idx)?))
            }
            ExprKind::Binary(op, a, b) => row_compare(cx, e, *op, a, b, idx),
            ExprKind::Prim(Prim::Reshape(_), args) => {
                let src = unravel(cx, e, &args[0], idx)?;
                at(cx, &args[0], &src)
            }
            _ => Err(unsupported(
                e,
                &format!("`{}` of boolean type", e.kind.form_name()),
            )),
        }
    }

    fn bound<'a>(cx: &mut Cx<'a>, e: &'a Expr, b: Bound<'a>, idx: &[Index]) -> Result<Pred> {
        match b {
            Bound::Pred(p) => Ok(p),
            Bound::RelData(v) => {
                cx.row("relation");
                Ok(Pred::Rel(v, idx.to_vec()))
            }
            Bound::Deferred(d) => at(cx, d, idx),
            _ => Err(internal(e, "a boolean read of a non-boolean binding")),
        }
    }

    fn guard(p: Pred, x: Pred) -> Pred {
        mk::and(p, x)
    }

    fn cases(p: Pred, a: Pred, q: Pred, b: Pred) -> Pred {
        mk::or(mk::and(p, a), mk::and(q, b))
    }
}
