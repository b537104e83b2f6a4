//! Whole values: `let` bindings (also of tuple patterns), tuples as right-nested pairs,
//! projections, whole-value `select` of tuples, and the materialisation of an array value
//! with `gen` (docs/engines/tssa-lowering.md, "Construct table", rows `let` and
//! `tuple`).

use super::at::at;
use super::cx::{internal, unsupported, Bound, Cx};
use super::mk;
use adora_core::ast::{Expr, ExprKind, Pat, Prim};
use adora_core::diag::Result;
use adora_core::tl::{Index, Pred, Term};
use adora_core::types::{Base, Type};

/// Whether every scalar of `t` is real (such values are TL terms).
pub fn all_real(t: &Type) -> bool {
    match t {
        Type::Array(b, _) => *b == Base::R,
        Type::Tuple(ts) => ts.iter().all(all_real),
    }
}

/// The whole value of the real-only expression `e` as a TL term.
pub fn full<'a>(cx: &mut Cx<'a>, e: &'a Expr) -> Result<Term> {
    match cx.ty(e)? {
        Type::Array(_, s) => {
            if let ExprKind::Var(x) = &e.kind {
                if let Bound::Term(t) = cx.lookup(e, x)? {
                    return Ok(t);
                }
            }
            let dims: Vec<u64> = s.iter().map(|&d| d as u64).collect();
            if dims.is_empty() {
                at(cx, e, &[])
            } else {
                cx.gen(&dims, |cx, idx| at(cx, e, idx))
            }
        }
        Type::Tuple(ts) => match &e.kind {
            ExprKind::Tuple(es) => {
                cx.row("tuple");
                let mut parts = Vec::new();
                for c in es {
                    parts.push(full(cx, c)?);
                }
                let last = parts.pop().ok_or_else(|| internal(e, "an empty tuple"))?;
                Ok(parts
                    .into_iter()
                    .rev()
                    .fold(last, |b, a| Term::Pair(Box::new(a), Box::new(b))))
            }
            ExprKind::Let(pat, e1, e2) => {
                cx.row("let");
                bind_pat(cx, pat, e1)?;
                full(cx, e2)
            }
            ExprKind::Prim(Prim::Select, args) => {
                cx.row("select");
                let p: Pred = at(cx, &args[0], &[])?;
                let a = named(cx, &args[1])?;
                let b = named(cx, &args[2])?;
                select_typed(cx, &p, a, b, &Type::Tuple(ts))
            }
            ExprKind::Var(_) | ExprKind::Proj(..) => match val(cx, e)? {
                Bound::Term(t) => Ok(t),
                _ => Err(internal(e, "a real tuple bound to a non-term")),
            },
            _ => Err(unsupported(
                e,
                &format!("`{}` of tuple type", e.kind.form_name()),
            )),
        },
    }
}

/// The whole value of `e`, bound to a fresh `let` unless it is a variable or a path.
fn named<'a>(cx: &mut Cx<'a>, e: &'a Expr) -> Result<Term> {
    let t = full(cx, e)?;
    if is_path(&t) {
        return Ok(t);
    }
    let v = cx.fresh("t");
    cx.push_let(v.clone(), t);
    Ok(Term::Var(v))
}

fn is_path(t: &Term) -> bool {
    match t {
        Term::Var(_) => true,
        Term::Proj(_, e) => is_path(e),
        _ => false,
    }
}

/// `[p] a + [!p] b` at the type `ty`, component by component and element by element.
fn select_typed(cx: &mut Cx<'_>, p: &Pred, a: Term, b: Term, ty: &Type) -> Result<Term> {
    match ty {
        Type::Tuple(ts) => {
            let n = ts.len();
            let mut parts = Vec::new();
            for (k, t) in ts.iter().enumerate() {
                let ak = mk::tuple_proj(a.clone(), k, n);
                let bk = mk::tuple_proj(b.clone(), k, n);
                parts.push(select_typed(cx, p, ak, bk, t)?);
            }
            let last = parts.pop().expect("tuples have two components or more");
            Ok(parts
                .into_iter()
                .rev()
                .fold(last, |r, x| Term::Pair(Box::new(x), Box::new(r))))
        }
        Type::Array(_, s) => {
            let one = |idx: &[Index]| {
                mk::add(
                    mk::bracket(p.clone(), mk::access(a.clone(), idx)),
                    mk::bracket(mk::not(p.clone()), mk::access(b.clone(), idx)),
                )
            };
            if s.is_empty() {
                Ok(one(&[]))
            } else {
                let dims: Vec<u64> = s.iter().map(|&d| d as u64).collect();
                cx.gen(&dims, |_, idx| Ok(one(idx)))
            }
        }
    }
}

/// What the value of `e` is bound as: a TL term for real-only values, an index or a
/// predicate for integer and boolean scalars, a deferred expression for integer and
/// boolean arrays, components for mixed tuples.
pub fn val<'a>(cx: &mut Cx<'a>, e: &'a Expr) -> Result<Bound<'a>> {
    let ty = cx.ty(e)?;
    if let ExprKind::Var(x) = &e.kind {
        return cx.lookup(e, x);
    }
    if let ExprKind::Proj(inner, k) = &e.kind {
        cx.row("tuple");
        return component(cx, inner, *k);
    }
    if all_real(&ty) {
        return Ok(Bound::Term(full(cx, e)?));
    }
    match (&ty, &e.kind) {
        (Type::Array(Base::Z, s), _) if s.is_empty() => Ok(Bound::Index(at(cx, e, &[])?)),
        (Type::Array(Base::B, s), _) if s.is_empty() => Ok(Bound::Pred(at(cx, e, &[])?)),
        (Type::Array(..), _) => Ok(Bound::Deferred(e)),
        (Type::Tuple(_), ExprKind::Tuple(es)) => {
            cx.row("tuple");
            let mut parts = Vec::new();
            for c in es {
                parts.push(bound_named(cx, c)?);
            }
            Ok(Bound::Tuple(parts))
        }
        (Type::Tuple(_), ExprKind::Let(pat, e1, e2)) => {
            cx.row("let");
            bind_pat(cx, pat, e1)?;
            val(cx, e2)
        }
        _ => Err(unsupported(
            e,
            &format!(
                "`{}` of a tuple type with integer or boolean components",
                e.kind.form_name()
            ),
        )),
    }
}

/// [`val`], with a real value that is not a variable bound to a fresh `let`.
fn bound_named<'a>(cx: &mut Cx<'a>, e: &'a Expr) -> Result<Bound<'a>> {
    if all_real(&cx.ty(e)?) {
        return Ok(Bound::Term(named(cx, e)?));
    }
    val(cx, e)
}

/// Component `k` of the tuple `e`.
pub fn component<'a>(cx: &mut Cx<'a>, e: &'a Expr, k: usize) -> Result<Bound<'a>> {
    let n = match cx.ty(e)? {
        Type::Tuple(ts) => ts.len(),
        Type::Array(..) => return Err(internal(e, "a projection of an array")),
    };
    match val(cx, e)? {
        Bound::Term(t) => Ok(Bound::Term(mk::tuple_proj(t, k, n))),
        Bound::Tuple(mut parts) if k < parts.len() => Ok(parts.swap_remove(k)),
        _ => Err(internal(e, "a projection of a non-tuple binding")),
    }
}

/// `let pat = e1`: real values become TL `let`s (pushed on the current frame), integer
/// and boolean values are kept by the context.
pub fn bind_pat<'a>(cx: &mut Cx<'a>, pat: &'a Pat, e1: &'a Expr) -> Result<()> {
    match pat {
        Pat::Var(x) => {
            let b = if all_real(&cx.ty(e1)?) {
                let t = full(cx, e1)?;
                let v = cx.claim(x);
                cx.push_let(v.clone(), t);
                Bound::Term(Term::Var(v))
            } else {
                val(cx, e1)?
            };
            cx.bind(x, b);
        }
        Pat::Tuple(names) => {
            let whole = if all_real(&cx.ty(e1)?) {
                let t = full(cx, e1)?;
                let v = cx.fresh("p");
                cx.push_let(v.clone(), t);
                Bound::Term(Term::Var(v))
            } else {
                val(cx, e1)?
            };
            let n = names.len();
            for (k, x) in names.iter().enumerate() {
                let b = match &whole {
                    Bound::Term(t) => {
                        let v = cx.claim(x);
                        cx.push_let(v.clone(), mk::tuple_proj(t.clone(), k, n));
                        Bound::Term(Term::Var(v))
                    }
                    Bound::Tuple(parts) if k < parts.len() => parts[k].clone(),
                    _ => return Err(internal(e1, "a tuple pattern of a non-tuple")),
                };
                cx.bind(x, b);
            }
        }
    }
    Ok(())
}
