//! Typing rules of the array forms: indexing, `build`, `gather`, `scatter`, `map`,
//! `reduce`/`scan`, `reduce_by_index` and `scatter_into` (see [`super::rules`] for the
//! conventions).

use super::rules::{array, err, ranked, with_base, Opd};
use crate::ast::Op;
use crate::diag::{ErrorKind, Result, Span};
use crate::types::{Base, Shape, Type};

/// `x[i1, ..., ik]` (the indices are checked by the caller with [`z_scalar`]).
pub(crate) fn index(span: Span, x: Opd, k: usize) -> Result<Type> {
    let (b, s) = array(x, "the indexed value")?;
    if k == 0 || k > s.len() {
        let msg = format!(
            "{k} indices for a value of type {} (rank {})",
            x.ty,
            s.len()
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    Ok(Type::Array(b, s[k..].to_vec()))
}

/// The number of index binders of `build` / `gather` must equal the number of extents.
pub(crate) fn binder_count(span: Span, what: &str, dims: usize, binders: usize) -> Result<()> {
    if dims == binders {
        return Ok(());
    }
    let msg = format!("`{what}` has {dims} extent(s) but binds {binders} index variable(s)");
    Err(err(ErrorKind::Shape, span, msg))
}

fn concat(a: &[usize], b: &[usize]) -> Shape {
    a.iter().chain(b).copied().collect()
}

/// `build sh (is => body)`.
pub(crate) fn build(sh: &[usize], body: Opd) -> Result<Type> {
    let (b, s) = array(body, "the body of `build`")?;
    Ok(Type::Array(b, concat(sh, s)))
}

/// `gather(sh, x, is => ix)` with `k` index components.
pub(crate) fn gather(span: Span, sh: &[usize], x: Opd, k: usize) -> Result<Type> {
    let (b, s) = array(x, "the source of `gather`")?;
    if k > s.len() {
        let msg = format!(
            "the index map of `gather` has {k} components but the source has type {}",
            x.ty
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    Ok(Type::Array(b, concat(sh, &s[k..])))
}

/// The `k` binders of `scatter` must fit the source `x`.
pub(crate) fn scatter_binders(span: Span, x: Opd, k: usize) -> Result<()> {
    let (_, s) = with_base(x, "the source of `scatter`", &[Base::R, Base::Z])?;
    if k > s.len() {
        let msg = format!(
            "`scatter` binds {k} index variables but the source has type {}",
            x.ty
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    Ok(())
}

/// `scatter(sh, x, is => ix)` with `k` binders and `p` index components.
pub(crate) fn scatter(span: Span, sh: &[usize], x: Opd, k: usize, p: usize) -> Result<Type> {
    let (b, s) = with_base(x, "the source of `scatter`", &[Base::R, Base::Z])?;
    if p > sh.len() || sh[p..] != s[k..] {
        let msg = format!(
            "`scatter` result shape {sh:?} must be {p} indexed dimension(s) followed by {:?} \
             (the dimensions of {} not bound by the index map)",
            &s[k..],
            x.ty
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    Ok(Type::Array(b, sh.to_vec()))
}

/// The outer size and the parameter types of `map`'s function over arrays `xs`.
pub(crate) fn map_params(span: Span, xs: &[Opd], nparams: usize) -> Result<(usize, Vec<Type>)> {
    if xs.is_empty() {
        return Err(err(ErrorKind::Type, span, "`map` needs at least one array"));
    }
    if nparams != xs.len() {
        let msg = format!(
            "the function of `map` takes {nparams} parameter(s) but {} array(s) are given",
            xs.len()
        );
        return Err(err(ErrorKind::Type, span, msg));
    }
    let mut n = None;
    let mut params = Vec::new();
    for o in xs {
        let (b, s) = ranked(
            *o,
            "an array argument of `map`",
            &[Base::R, Base::Z, Base::B],
        )?;
        match n {
            None => n = Some(s[0]),
            Some(m) if m != s[0] => {
                let msg = format!(
                    "`map` needs arrays of equal outer size, found {} and {}",
                    xs[0].ty, o.ty
                );
                return Err(err(ErrorKind::Shape, o.span, msg)
                    .with_label(xs[0].span, format!("this has type {}", xs[0].ty)));
            }
            Some(_) => {}
        }
        params.push(Type::Array(b, s[1..].to_vec()));
    }
    Ok((n.unwrap_or(0), params))
}

/// The result of `map` with outer size `n` and body type `body`.
pub(crate) fn map_result(n: usize, body: Opd) -> Result<Type> {
    match body.ty {
        Type::Array(b, s) => Ok(Type::Array(
            *b,
            std::iter::once(n).chain(s.iter().copied()).collect(),
        )),
        t => Err(err(
            ErrorKind::Unsupported,
            body.span,
            format!("map with a tuple result ({t}) is not supported"),
        )),
    }
}

/// The slice type of `reduce` / `scan` over `xs` (its outer dimension dropped).
pub(crate) fn slice(what: &str, xs: Opd) -> Result<Type> {
    let (b, s) = ranked(
        xs,
        &format!("the array of `{what}`"),
        &[Base::R, Base::Z, Base::B],
    )?;
    Ok(Type::Array(b, s[1..].to_vec()))
}

/// A built-in combining operator needs `R` or `Z` slices.
pub(crate) fn op_base(what: &str, span: Span, op: &Op, t: &Type) -> Result<()> {
    let name = match op {
        Op::Add => "+",
        Op::Mul => "*",
        Op::Min => "min",
        Op::Max => "max",
        Op::Lambda(_) => return Ok(()),
    };
    match t {
        Type::Array(Base::R | Base::Z, _) => Ok(()),
        _ => Err(err(
            ErrorKind::Type,
            span,
            format!("`{what}` with `{name}` needs R or Z elements, found {t}"),
        )),
    }
}

/// The neutral element against slice type `t`: returns the shape it must have (a rank-0
/// one broadcasts when `bc`).
pub(crate) fn neutral(ne: Opd, t: &Type, bc: bool) -> Result<Shape> {
    let (b, s) = array(ne, "the neutral element")?;
    let (tb, ts) = array(
        Opd {
            ty: t,
            span: ne.span,
        },
        "the neutral element",
    )?;
    if b == tb && (s == ts || (bc && s.is_empty())) {
        return Ok(ts.clone());
    }
    let kind = if b == tb {
        ErrorKind::Shape
    } else {
        ErrorKind::Type
    };
    Err(err(
        kind,
        ne.span,
        format!("the neutral element has type {}, expected {t}", ne.ty),
    ))
}

fn bucketed(
    what: &str,
    span: Span,
    dest: Opd,
    is: Opd,
    vs: Opd,
    bases_ok: &[Base],
) -> Result<Type> {
    let (b, sd) = ranked(dest, &format!("the destination of `{what}`"), bases_ok)?;
    let (_, si) = with_base(is, &format!("the indices of `{what}`"), &[Base::Z])?;
    if si.len() != 1 {
        let msg = format!(
            "the indices of `{what}` must be a Z array of rank 1, found {}",
            is.ty
        );
        return Err(err(ErrorKind::Shape, is.span, msg));
    }
    let (bv, _) = array(vs, &format!("the values of `{what}`"))?;
    if bv != b {
        let msg = format!(
            "the values of `{what}` have type {}, but the destination has type {}",
            vs.ty, dest.ty
        );
        return Err(err(ErrorKind::Type, vs.span, msg));
    }
    let want = Type::Array(
        b,
        std::iter::once(si[0])
            .chain(sd[1..].iter().copied())
            .collect(),
    );
    if *vs.ty != want {
        let msg = format!(
            "the values of `{what}` have type {}, expected {want}",
            vs.ty
        );
        return Err(err(ErrorKind::Shape, vs.span, msg)
            .with_label(span, "one value slice per index is needed"));
    }
    Ok(Type::Array(b, sd[1..].to_vec()))
}

/// `reduce_by_index(dest, op, ne, is, vs)`: returns the slice type (of `ne` and `op`).
pub(crate) fn reduce_by_index(span: Span, dest: Opd, is: Opd, vs: Opd) -> Result<Type> {
    bucketed(
        "reduce_by_index",
        span,
        dest,
        is,
        vs,
        &[Base::R, Base::Z, Base::B],
    )
}

/// `scatter_into(dest, is, vs)`: returns the destination type.
pub(crate) fn scatter_into(span: Span, dest: Opd, is: Opd, vs: Opd) -> Result<Type> {
    bucketed(
        "scatter_into",
        span,
        dest,
        is,
        vs,
        &[Base::R, Base::Z, Base::B],
    )?;
    Ok(dest.ty.clone())
}
