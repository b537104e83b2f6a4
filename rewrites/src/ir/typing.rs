//! Typing and free index variables of IR nodes, from their children's analysis data (the
//! `make` half of [`super::analysis`]). The rules are the core checker's (docs/language.md,
//! `adora_core::check`) restated on e-classes:
//!
//! - elementwise operators need operands of one type (no broadcasting: translation input
//!   is elaborated); comparisons give `B` of the operands' shape; `floor` gives `Z`,
//!   `real` gives `R`; `(pow e z<k>)` needs a constant integer exponent (`R` when `k < 0`);
//! - `(index e j1 .. jk)` drops `k` leading dimensions (`1 <= k <= rank`), every `j` a `Z`
//!   scalar; `(array ..)` / `(stack ..)` add an outer dimension; `(build n i e)` too, and
//!   the binder's extent must be `n`;
//! - `(gather sh x bs ixs)`: as many binders as `sh` has dimensions, binder `k` ranging over
//!   `sh[k]`; `k` index components (`k <= rank x`); result `sh ++ dims(x)[k..]`;
//! - `(scatter sh x bs ixs)`: `k` binders ranging over the first `k` dimensions of `x`;
//!   `p` index components with `sh[p..] == dims(x)[k..]`; result of shape `sh`;
//! - leaves: `Nat`/`Shape` are [`Ty::Static`]; `IVar` a `Z` scalar; `(binders ..)` is
//!   [`Ty::Binders`], `(ixs ..)` [`Ty::Ixs`].
//!
//! Free index variables: the union of the children's, except that `build` removes its
//! binder from the body's set, and `gather`/`scatter` remove their binders from the set of
//! the `ixs` child (the source is outside the binders' scope). Binder-position children
//! (the `IVar` of a `build`, the `binders` list) contribute nothing. The data of a
//! `binders` class lists the variables it binds in `free`.

use super::analysis::{IrGraph, Ty};
use super::lang::{Const, IVarId, Ir};
pub use super::leaves::{binder_list, ivar_leaf, nat, shape_leaf};
use adora_core::types::{Base, Shape, Type};
use egg::{Id, Language};
use num_traits::ToPrimitive;

type R<T> = Result<T, String>;

/// A readable rendering of a type for conflict messages.
pub fn show_ty(t: &Ty) -> String {
    match t {
        Ty::Value(Type::Tuple(ts)) if ts.is_empty() => "<ill-typed>".to_string(),
        Ty::Value(t) => t.to_string(),
        Ty::Static => "<static>".to_string(),
        Ty::Binders => "<binders>".to_string(),
        Ty::Ixs => "<ixs>".to_string(),
    }
}

fn arr(eg: &IrGraph, id: Id, what: &str) -> R<(Base, Shape)> {
    match &eg[id].data.ty {
        Ty::Value(Type::Array(b, s)) => Ok((*b, s.clone())),
        t => Err(format!("{what} must be an array, found {}", show_ty(t))),
    }
}

fn based(eg: &IrGraph, id: Id, what: &str, ok: &[Base]) -> R<(Base, Shape)> {
    let (b, s) = arr(eg, id, what)?;
    if ok.contains(&b) {
        Ok((b, s))
    } else {
        Err(format!("{what} has base {b}, expected one of {ok:?}"))
    }
}

fn z_scalar(eg: &IrGraph, id: Id, what: &str) -> R<()> {
    match &eg[id].data.ty {
        Ty::Value(Type::Array(Base::Z, s)) if s.is_empty() => Ok(()),
        t => Err(format!("{what} must be a Z scalar, found {}", show_ty(t))),
    }
}

fn extent(eg: &IrGraph, v: IVarId) -> R<usize> {
    eg.analysis
        .ivars
        .get(v.0 as usize)
        .map(|i| i.extent)
        .ok_or_else(|| format!("unknown index variable {v}"))
}

fn check_binders(eg: &IrGraph, what: &str, vs: &[IVarId], dims: &[usize]) -> R<()> {
    if vs.len() != dims.len() {
        return Err(format!(
            "`{what}` binds {} index variable(s) over {} dimension(s)",
            vs.len(),
            dims.len()
        ));
    }
    for (v, d) in vs.iter().zip(dims) {
        let e = extent(eg, *v)?;
        if e != *d {
            return Err(format!(
                "binder {v} of `{what}` has extent {e} but ranges over a dimension of size {d}"
            ));
        }
    }
    Ok(())
}

fn cons(n: usize, s: &[usize]) -> Shape {
    std::iter::once(n).chain(s.iter().copied()).collect()
}

fn same(eg: &IrGraph, x: Id, y: Id, what: &str) -> R<(Base, Shape)> {
    let a = arr(eg, x, what)?;
    let b = arr(eg, y, what)?;
    if a != b {
        return Err(format!(
            "the operands of {what} have different types: {} and {}",
            Type::Array(a.0, a.1),
            Type::Array(b.0, b.1)
        ));
    }
    Ok(a)
}

fn elements(eg: &IrGraph, xs: &[Id], what: &str) -> R<Type> {
    let first = *xs
        .first()
        .ok_or_else(|| format!("`{what}` needs an element"))?;
    let (b, s) = arr(eg, first, what)?;
    for x in &xs[1..] {
        same(eg, first, *x, what)?;
    }
    Ok(Type::Array(b, cons(xs.len(), &s)))
}

fn binary(eg: &IrGraph, node: &Ir, x: Id, y: Id) -> R<Type> {
    use Base::*;
    let what = format!("`{node}`");
    let (b, s) = same(eg, x, y, &what)?;
    let (ok, cmp): (&[Base], bool) = match node {
        Ir::Add(_) | Ir::Sub(_) | Ir::Mul(_) | Ir::Div(_) | Ir::Min(_) | Ir::Max(_) => {
            (&[R, Z], false)
        }
        Ir::Mod(_) => (&[Z], false),
        Ir::Eq(_) | Ir::Ne(_) => (&[R, Z, B], true),
        Ir::Lt(_) | Ir::Le(_) | Ir::Gt(_) | Ir::Ge(_) => (&[R, Z], true),
        _ => (&[B], false),
    };
    if !ok.contains(&b) {
        return Err(format!("{what} does not apply to base {b}"));
    }
    Ok(Type::Array(if cmp { B } else { b }, s))
}

fn unary(eg: &IrGraph, node: &Ir, x: Id) -> R<Type> {
    use Base::*;
    let what = format!("the operand of `{node}`");
    let (ok, to): (&[Base], Option<Base>) = match node {
        Ir::Neg(_) | Ir::Abs(_) => (&[R, Z], None),
        Ir::Not(_) => (&[B], None),
        Ir::Floor(_) => (&[R], Some(Z)),
        Ir::ToReal(_) => (&[Z], Some(R)),
        _ => (&[R], None),
    };
    let (b, s) = based(eg, x, &what, ok)?;
    Ok(Type::Array(to.unwrap_or(b), s))
}

fn permute(p: &[usize], s: &[usize]) -> R<Shape> {
    let mut seen = vec![false; s.len()];
    let ok = p.len() == s.len()
        && p.iter()
            .all(|&k| k < s.len() && !std::mem::replace(&mut seen[k], true));
    if !ok {
        return Err(format!(
            "{p:?} is not a permutation of {} dimensions",
            s.len()
        ));
    }
    Ok(p.iter().map(|&k| s[k]).collect())
}

fn volume(s: &[usize]) -> Option<usize> {
    s.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// The type of `node` from its children's data (see the module docs), or why it is
/// ill-typed.
pub fn node_ty(eg: &IrGraph, node: &Ir) -> R<Ty> {
    use Base::*;
    let v = |t: Type| Ok(Ty::Value(t));
    match node {
        Ir::Lit(c) => v(Type::scalar(match c {
            Const::Real(_) => R,
            Const::Int(_) => Z,
            Const::Bool(_) => B,
        })),
        Ir::Nat(_) | Ir::Shape(_) => Ok(Ty::Static),
        Ir::Var(x) => eg
            .analysis
            .vars
            .get(x.0 as usize)
            .map(|i| Ty::Value(i.ty.clone()))
            .ok_or_else(|| format!("unknown variable {x}")),
        Ir::IVar(i) => extent(eg, *i).map(|_| Ty::Value(Type::int())),
        Ir::Binders(ch) => {
            let mut vs = Vec::new();
            for c in ch.iter() {
                let x = ivar_leaf(eg, *c).ok_or("a binder must be an index variable")?;
                if vs.contains(&x) {
                    return Err(format!("{x} is bound twice in one binder list"));
                }
                vs.push(x);
            }
            Ok(Ty::Binders)
        }
        Ir::Ixs(ch) => {
            for c in ch.iter() {
                z_scalar(eg, *c, "an index component")?;
            }
            Ok(Ty::Ixs)
        }
        Ir::Array(xs) => v(elements(eg, xs, "array")?),
        Ir::Stack(xs) => v(elements(eg, xs, "stack")?),
        Ir::Tuple(xs) => {
            if xs.len() < 2 {
                return Err("a tuple needs at least two components".into());
            }
            let mut ts = Vec::new();
            for x in xs.iter() {
                match &eg[*x].data.ty {
                    Ty::Value(t) => ts.push(t.clone()),
                    t => return Err(format!("a tuple component has {}", show_ty(t))),
                }
            }
            v(Type::Tuple(ts))
        }
        Ir::Proj([k, e]) => {
            let k = nat(eg, *k)?;
            match &eg[*e].data.ty {
                Ty::Value(Type::Tuple(ts)) if k < ts.len() => v(ts[k].clone()),
                t => Err(format!("projection {k} of {}", show_ty(t))),
            }
        }
        Ir::Neg([x])
        | Ir::Not([x])
        | Ir::Exp([x])
        | Ir::Log([x])
        | Ir::Sin([x])
        | Ir::Cos([x])
        | Ir::Tanh([x])
        | Ir::Sqrt([x])
        | Ir::Abs([x])
        | Ir::Floor([x])
        | Ir::ToReal([x]) => v(unary(eg, node, *x)?),
        Ir::Pow([x, k]) => {
            let k = match &eg[*k].data.constant {
                Some(Const::Int(n)) => n.to_i64().ok_or("the exponent of `pow` is too large")?,
                _ => return Err("the exponent of `pow` must be a constant integer".into()),
            };
            let ok: &[Base] = if k < 0 { &[R] } else { &[R, Z] };
            let (b, s) = based(eg, *x, "the base of `pow`", ok)?;
            v(Type::Array(b, s))
        }
        Ir::Add([x, y])
        | Ir::Sub([x, y])
        | Ir::Mul([x, y])
        | Ir::Div([x, y])
        | Ir::Mod([x, y])
        | Ir::Eq([x, y])
        | Ir::Ne([x, y])
        | Ir::Lt([x, y])
        | Ir::Le([x, y])
        | Ir::Gt([x, y])
        | Ir::Ge([x, y])
        | Ir::And([x, y])
        | Ir::Or([x, y])
        | Ir::Min([x, y])
        | Ir::Max([x, y]) => v(binary(eg, node, *x, *y)?),
        Ir::Select([c, x, y]) => {
            let (b, s) = same(eg, *x, *y, "`select`")?;
            let (_, sc) = based(eg, *c, "the condition of `select`", &[B])?;
            if !sc.is_empty() && sc != s {
                return Err(format!(
                    "the condition of `select` has shape {sc:?}, the branches {s:?}"
                ));
            }
            v(Type::Array(b, s))
        }
        Ir::Sum([x]) => v(Type::scalar(
            based(eg, *x, "the argument of `sum`", &[R, Z])?.0,
        )),
        Ir::SumOuter([x]) => {
            let (b, s) = based(eg, *x, "the argument of `sum_outer`", &[R, Z])?;
            if s.is_empty() {
                return Err("`sum_outer` of a scalar".into());
            }
            v(Type::Array(b, s[1..].to_vec()))
        }
        Ir::Replicate([n, x]) => {
            let (b, s) = arr(eg, *x, "the argument of `replicate`")?;
            v(Type::Array(b, cons(nat(eg, *n)?, &s)))
        }
        Ir::Transpose([p, x]) => {
            let (b, s) = arr(eg, *x, "the argument of `transpose`")?;
            v(Type::Array(b, permute(&shape_leaf(eg, *p)?, &s)?))
        }
        Ir::Reshape([sh, x]) => {
            let (b, s) = arr(eg, *x, "the argument of `reshape`")?;
            let to = shape_leaf(eg, *sh)?;
            if volume(&s) != volume(&to) {
                return Err(format!("cannot reshape {s:?} to {to:?}"));
            }
            v(Type::Array(b, to))
        }
        Ir::Iota([n]) => v(Type::Array(Z, vec![nat(eg, *n)?])),
        Ir::Append([x, y]) => {
            let (b1, s1) = arr(eg, *x, "an argument of `append`")?;
            let (b2, s2) = arr(eg, *y, "an argument of `append`")?;
            if b1 != b2 || s1.is_empty() || s2.is_empty() || s1[1..] != s2[1..] {
                return Err(format!("cannot append {s1:?} ({b1}) and {s2:?} ({b2})"));
            }
            let outer = s1[0].checked_add(s2[0]).ok_or("`append` is too large")?;
            v(Type::Array(b1, cons(outer, &s1[1..])))
        }
        Ir::Index(ch) => {
            let (x, js) = ch.split_first().ok_or("`index` without operands")?;
            let (b, s) = arr(eg, *x, "the indexed value")?;
            if js.is_empty() || js.len() > s.len() {
                return Err(format!(
                    "{} indices for an array of rank {}",
                    js.len(),
                    s.len()
                ));
            }
            for j in js {
                z_scalar(eg, *j, "an index")?;
            }
            v(Type::Array(b, s[js.len()..].to_vec()))
        }
        Ir::Build([n, i, body]) => {
            let n = nat(eg, *n)?;
            let iv = ivar_leaf(eg, *i).ok_or("the binder of `build` must be an index variable")?;
            check_binders(eg, "build", &[iv], &[n])?;
            let (b, s) = arr(eg, *body, "the body of `build`")?;
            v(Type::Array(b, cons(n, &s)))
        }
        Ir::Gather([sh, x, bs, ixs]) => {
            let sh = shape_leaf(eg, *sh)?;
            let (b, s) = arr(eg, *x, "the source of `gather`")?;
            let vs = binder_list(eg, *bs).ok_or("`gather` needs a binder list")?;
            check_binders(eg, "gather", &vs, &sh)?;
            let k = ixs_len(eg, *ixs)?;
            if k > s.len() {
                return Err(format!(
                    "`gather` with {k} index components on rank {}",
                    s.len()
                ));
            }
            v(Type::Array(b, sh.iter().chain(&s[k..]).copied().collect()))
        }
        Ir::Scatter([sh, x, bs, ixs]) => {
            let sh = shape_leaf(eg, *sh)?;
            let (b, s) = based(eg, *x, "the source of `scatter`", &[R, Z])?;
            let vs = binder_list(eg, *bs).ok_or("`scatter` needs a binder list")?;
            if vs.len() > s.len() {
                return Err(format!(
                    "`scatter` binds {} variables on rank {}",
                    vs.len(),
                    s.len()
                ));
            }
            check_binders(eg, "scatter", &vs, &s[..vs.len()])?;
            let p = ixs_len(eg, *ixs)?;
            if p > sh.len() || sh[p..] != s[vs.len()..] {
                return Err(format!(
                    "`scatter` to {sh:?} with {p} index components from {s:?}"
                ));
            }
            v(Type::Array(b, sh))
        }
    }
}

fn ixs_len(eg: &IrGraph, id: Id) -> R<usize> {
    if eg[id].data.ty != Ty::Ixs {
        return Err("an index list (`ixs`) was expected".into());
    }
    super::leaves::ixs_children(eg, id)
        .map(|c| c.len())
        .ok_or_else(|| "an index list (`ixs`) was expected".into())
}

fn union(a: &mut Vec<IVarId>, b: &[IVarId]) {
    a.extend_from_slice(b);
    a.sort_unstable();
    a.dedup();
}

/// The free index variables of `node` (sorted, deduplicated; see the module docs).
pub fn node_free(eg: &IrGraph, node: &Ir) -> Vec<IVarId> {
    let free = |id: &Id| eg[*id].data.free.clone();
    match node {
        Ir::IVar(v) => vec![*v],
        Ir::Binders(ch) => {
            let mut vs: Vec<IVarId> = ch.iter().filter_map(|c| ivar_leaf(eg, *c)).collect();
            vs.sort_unstable();
            vs.dedup();
            vs
        }
        Ir::Build([_, i, body]) => {
            let bound = ivar_leaf(eg, *i);
            free(body)
                .into_iter()
                .filter(|v| Some(*v) != bound)
                .collect()
        }
        Ir::Gather([_, x, bs, ixs]) | Ir::Scatter([_, x, bs, ixs]) => {
            let bound = free(bs);
            let mut out = free(x);
            let inner: Vec<IVarId> = free(ixs)
                .into_iter()
                .filter(|v| !bound.contains(v))
                .collect();
            union(&mut out, &inner);
            out
        }
        _ => {
            let mut out = Vec::new();
            for c in node.children() {
                union(&mut out, &eg[*c].data.free);
            }
            out
        }
    }
}
