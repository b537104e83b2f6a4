//! The construct-table rows of real-valued core expressions (docs/engines/tssa-lowering.md):
//! arithmetic with the paper's desugarings of `-` and `/`, black boxes, `min`/`max` through
//! data predicates (extension E1), `real(a)` as an index constant (E2), sums, `reshape`
//! and `scatter` as predicated sums.

use super::at::{at, Elem};
use super::cx::{internal, unsupported, Bound, Cx};
use super::mk;
use adora_core::ast::{BinOp, Expr, ExprKind, Lit, Prim, UnOp};
use adora_core::diag::Result;
use adora_core::tl::{BlackBox, CmpOp, DataRef, Index, PathStep, Pred, Rat, Term};

impl Elem for Term {
    fn leaf<'a>(cx: &mut Cx<'a>, e: &'a Expr, idx: &[Index]) -> Result<Term> {
        match &e.kind {
            ExprKind::Lit(l) => row_literal(e, l),
            ExprKind::Unary(UnOp::Neg, a) => row_neg(cx, a, idx),
            ExprKind::Binary(op, a, b) => match op {
                BinOp::Add => row_add(cx, a, b, idx),
                BinOp::Sub => row_sub(cx, a, b, idx),
                BinOp::Mul => row_mul(cx, a, b, idx),
                BinOp::Div => row_div(cx, a, b, idx),
                _ => Err(internal(e, "a non-arithmetic operator of real type")),
            },
            ExprKind::Prim(p, args) => match p {
                Prim::Exp => row_black_box(cx, BlackBox::Exp, &args[0], idx),
                Prim::Log => row_black_box(cx, BlackBox::Log, &args[0], idx),
                Prim::Sin => row_black_box(cx, BlackBox::Sin, &args[0], idx),
                Prim::Cos => row_black_box(cx, BlackBox::Cos, &args[0], idx),
                Prim::Tanh => row_black_box(cx, BlackBox::Tanh, &args[0], idx),
                Prim::Sqrt => row_black_box(cx, BlackBox::Sqrt, &args[0], idx),
                Prim::Abs => row_black_box(cx, BlackBox::Abs, &args[0], idx),
                Prim::Pow(k) => row_black_box(cx, BlackBox::Pow(*k), &args[0], idx),
                Prim::Min => row_min_max(cx, true, &args[0], &args[1], idx),
                Prim::Max => row_min_max(cx, false, &args[0], &args[1], idx),
                Prim::Real => row_real(cx, &args[0], idx),
                Prim::Sum => row_sum(cx, &args[0]),
                Prim::SumOuter => row_sum_outer(cx, &args[0], idx),
                Prim::Reshape(_) => row_reshape(cx, e, &args[0], idx),
                _ => Err(unsupported(e, &format!("`{}` on reals", p.name()))),
            },
            ExprKind::Scatter(sh, x, names, ixs) => row_scatter(cx, sh, x, names, ixs, idx),
            _ => Err(unsupported(e, &format!("`{}` here", e.kind.form_name()))),
        }
    }

    fn bound<'a>(_: &mut Cx<'a>, e: &'a Expr, b: Bound<'a>, idx: &[Index]) -> Result<Term> {
        match b {
            Bound::Term(t) => Ok(mk::access(t, idx)),
            _ => Err(internal(e, "a real read of a non-real binding")),
        }
    }

    fn guard(p: Pred, x: Term) -> Term {
        mk::bracket(p, x)
    }

    fn cases(p: Pred, a: Term, q: Pred, b: Term) -> Term {
        mk::add(mk::bracket(p, a), mk::bracket(q, b))
    }
}

/// A literal `c : R`.
fn row_literal(e: &Expr, l: &Lit) -> Result<Term> {
    match l {
        Lit::Real(r) => Ok(Term::Const(r.clone())),
        Lit::Int(k) => Ok(Term::Const(Rat::from_integer(k.clone()))),
        Lit::NonFinite(n) => Err(unsupported(
            e,
            &format!("the non-finite literal `{}`", n.name()),
        )),
        Lit::Bool(_) => Err(internal(e, "a boolean literal of real type")),
    }
}

/// `-a`: `(-1) * a`.
fn row_neg<'a>(cx: &mut Cx<'a>, a: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("neg");
    Ok(mk::mul(mk::num(-1), at(cx, a, idx)?))
}

/// `a + b`.
fn row_add<'a>(cx: &mut Cx<'a>, a: &'a Expr, b: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("add");
    Ok(mk::add(at(cx, a, idx)?, at(cx, b, idx)?))
}

/// `a - b`: `a + (-1) * b` (the paper's desugaring).
fn row_sub<'a>(cx: &mut Cx<'a>, a: &'a Expr, b: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("sub");
    let vb = mk::mul(mk::num(-1), at(cx, b, idx)?);
    Ok(mk::add(at(cx, a, idx)?, vb))
}

/// `a * b`.
fn row_mul<'a>(cx: &mut Cx<'a>, a: &'a Expr, b: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("mul");
    Ok(mk::mul(at(cx, a, idx)?, at(cx, b, idx)?))
}

/// `a / b`: `a * recip(b)`, `recip(0) = 0` (total division).
fn row_div<'a>(cx: &mut Cx<'a>, a: &'a Expr, b: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("div");
    let rb = mk::call(BlackBox::Recip, at(cx, b, idx)?);
    Ok(mk::mul(at(cx, a, idx)?, rb))
}

/// `exp log sin cos tanh sqrt abs pow(·, k)`: a black box.
fn row_black_box<'a>(cx: &mut Cx<'a>, f: BlackBox, a: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("black-box");
    Ok(mk::call(f, at(cx, a, idx)?))
}

/// `real(a)`: the index constant `#a` (E2).
fn row_real<'a>(cx: &mut Cx<'a>, a: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("real");
    Ok(Term::IndexConst(at::<Index>(cx, a, idx)?))
}

/// A real operand of a data predicate (E1): a constant, a read of a variable, or a fresh
/// `let` of the value that the predicate then reads.
pub fn data_ref<'a>(cx: &mut Cx<'a>, e: &'a Expr, idx: &[Index]) -> Result<(DataRef, Term)> {
    let t: Term = at(cx, e, idx)?;
    if let Term::Const(c) = &t {
        return Ok((DataRef::Const(c.clone()), t));
    }
    if let Some((v, path)) = read_path(&t) {
        return Ok((DataRef::Read(v, path), t));
    }
    let v = cx.fresh("c");
    cx.push_let(v.clone(), t);
    Ok((DataRef::Read(v.clone(), Vec::new()), Term::Var(v)))
}

/// `x` followed by projections and accesses, as a data path.
fn read_path(t: &Term) -> Option<(String, Vec<PathStep>)> {
    match t {
        Term::Var(v) => Some((v.clone(), Vec::new())),
        Term::Proj(k, e) => read_path(e).map(|(v, mut p)| {
            p.push(PathStep::Proj(*k));
            (v, p)
        }),
        Term::Access(e, a) => read_path(e).map(|(v, mut p)| {
            p.push(PathStep::At(a.clone()));
            (v, p)
        }),
        _ => None,
    }
}

/// `min(a, b)`: `[a <= b] a + [!(a <= b)] b`; `max` with `b <= a` (ties pick `a`).
fn row_min_max<'a>(
    cx: &mut Cx<'a>,
    is_min: bool,
    a: &'a Expr,
    b: &'a Expr,
    idx: &[Index],
) -> Result<Term> {
    cx.row("min-max");
    let (ra, ta) = data_ref(cx, a, idx)?;
    let (rb, tb) = data_ref(cx, b, idx)?;
    let p = if is_min {
        Pred::Data(CmpOp::Le, ra, rb)
    } else {
        Pred::Data(CmpOp::Le, rb, ra)
    };
    Ok(Term::cases(p.clone(), ta, mk::not(p), tb))
}

/// `sum(x)`: `sum I. x[I]` over all of `x`'s dimensions.
fn row_sum<'a>(cx: &mut Cx<'a>, x: &'a Expr) -> Result<Term> {
    cx.row("sum");
    let shape = cx.shape(x)?;
    cx.sum(&shape, |cx, k| at(cx, x, k))
}

/// `sum_outer(x)`: `sum i:n. x[i][J]`.
fn row_sum_outer<'a>(cx: &mut Cx<'a>, x: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("sum-outer");
    let n = cx.shape(x)?[0];
    cx.sum(&[n], |cx, k| {
        let mut all = k.to_vec();
        all.extend_from_slice(idx);
        at(cx, x, &all)
    })
}

/// `reshape(sh, x)`: `sum K. [ravel_sh(I) == ravel_src(K)] x[K]`.
fn row_reshape<'a>(cx: &mut Cx<'a>, e: &'a Expr, x: &'a Expr, idx: &[Index]) -> Result<Term> {
    cx.row("reshape");
    let out = mk::ravel(idx, &cx.shape(e)?);
    let src = cx.shape(x)?;
    cx.sum(&src.clone(), |cx, k| {
        let p = mk::cmp(CmpOp::Eq, out, mk::ravel(k, &src));
        Ok(mk::bracket(p, at(cx, x, k)?))
    })
}

/// `scatter(sh, x, is => ix)`: `sum is. [J == ix(is)] x[is]` at `J`.
fn row_scatter<'a>(
    cx: &mut Cx<'a>,
    sh: &[usize],
    x: &'a Expr,
    names: &[String],
    ixs: &'a [Expr],
    idx: &[Index],
) -> Result<Term> {
    cx.row("scatter");
    let xs = cx.shape(x)?;
    let k = names.len();
    let j = ixs.len();
    let _ = sh;
    cx.sum(&xs[..k], |cx, is| {
        let olds: Vec<_> = names
            .iter()
            .zip(is)
            .map(|(n, a)| cx.bind(n, Bound::Index(a.clone())))
            .collect();
        let mut p = Pred::True;
        let mut r = Ok(());
        for (a, target) in ixs.iter().zip(idx) {
            match at::<Index>(cx, a, &[]) {
                Ok(v) => p = mk::and(p, mk::cmp(CmpOp::Eq, target.clone(), v)),
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
        let mut src = is.to_vec();
        src.extend_from_slice(&idx[j..]);
        Ok(mk::bracket(p, at(cx, x, &src)?))
    })
}
