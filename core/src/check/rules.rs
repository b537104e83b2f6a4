//! The typing rules of the core language, stated on the (already computed) types of the
//! operands. Shared by surface elaboration and by the strict checker of elaborated
//! programs; `bc` says whether a rank-0 operand may broadcast (surface) or not
//! (elaborated). Rules that broadcast return the target shape of the operands; the caller
//! wraps any operand of another shape (always rank 0) in `replicate`s.
//!
//! Error classes: base, tuple and arity mismatches are [`ErrorKind::Type`]; mismatched
//! or invalid static shapes are [`ErrorKind::Shape`]; oversized arrays are
//! [`ErrorKind::Resource`].

use crate::ast::{BinOp, Prim, UnOp};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::limits::MAX_ARRAY_ELEMENTS;
use crate::types::{Base, Shape, Type};

/// An operand: its type and where it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opd<'a> {
    pub ty: &'a Type,
    pub span: Span,
}

/// Shorthand for [`Diagnostic::new`].
pub(crate) fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(kind, span, msg)
}

/// The error class of a mismatch between `a` and `b`: [`ErrorKind::Shape`] for two arrays
/// of one base type, [`ErrorKind::Type`] otherwise.
pub(crate) fn mismatch_kind(a: &Type, b: &Type) -> ErrorKind {
    match (a, b) {
        (Type::Array(x, _), Type::Array(y, _)) if x == y => ErrorKind::Shape,
        _ => ErrorKind::Type,
    }
}

/// Requires `found == expected`; otherwise a mismatch error at `span` whose message is
/// `"{what} has type {found}, expected {expected}"`.
pub(crate) fn same_type(what: &str, span: Span, found: &Type, expected: &Type) -> Result<()> {
    if found == expected {
        return Ok(());
    }
    Err(err(
        mismatch_kind(found, expected),
        span,
        format!("{what} has type {found}, expected {expected}"),
    ))
}

/// The number of elements of `shape`, or `None` on overflow.
pub(crate) fn elements(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// Rejects types with an array of more than [`MAX_ARRAY_ELEMENTS`] elements.
pub(crate) fn limit(ty: &Type, span: Span) -> Result<()> {
    match ty {
        Type::Array(_, s) => match elements(s) {
            Some(n) if n <= MAX_ARRAY_ELEMENTS => Ok(()),
            _ => Err(err(
                ErrorKind::Resource,
                span,
                format!("the type {ty} has more than {MAX_ARRAY_ELEMENTS} elements"),
            )),
        },
        Type::Tuple(ts) => ts.iter().try_for_each(|t| limit(t, span)),
    }
}

fn bases(allowed: &[Base]) -> String {
    let names: Vec<String> = allowed.iter().map(|b| b.to_string()).collect();
    names.join(" or ")
}

/// Checks the number of expression arguments of a built-in.
pub(crate) fn prim_arity(p: &Prim, span: Span, n: usize) -> Result<()> {
    use Prim::*;
    let want = match p {
        Iota(_) => 0,
        Min | Max | Append => 2,
        Select => 3,
        Stack if n >= 1 => return Ok(()),
        Stack => {
            return Err(err(
                ErrorKind::Type,
                span,
                "`stack` needs at least one array",
            ));
        }
        _ => 1,
    };
    if n == want {
        return Ok(());
    }
    Err(err(
        ErrorKind::Type,
        span,
        format!("`{}` takes {want} argument(s) but {n} were given", p.name()),
    ))
}

/// Base and shape of an array operand; a tuple is a type error.
pub(crate) fn array<'a>(o: Opd<'a>, what: &str) -> Result<(Base, &'a Shape)> {
    match o.ty {
        Type::Array(b, s) => Ok((*b, s)),
        t => Err(err(
            ErrorKind::Type,
            o.span,
            format!("{what} must be an array, found the tuple type {t}"),
        )),
    }
}

/// An array operand whose base type is one of `allowed`.
pub(crate) fn with_base<'a>(o: Opd<'a>, what: &str, allowed: &[Base]) -> Result<(Base, &'a Shape)> {
    let (b, s) = array(o, what)?;
    if allowed.contains(&b) {
        return Ok((b, s));
    }
    Err(err(
        ErrorKind::Type,
        o.span,
        format!("{what} must be {}, found {}", bases(allowed), o.ty),
    ))
}

/// An array operand of rank at least 1.
pub(crate) fn ranked<'a>(o: Opd<'a>, what: &str, allowed: &[Base]) -> Result<(Base, &'a Shape)> {
    let (b, s) = with_base(o, what, allowed)?;
    if s.is_empty() {
        return Err(err(
            ErrorKind::Shape,
            o.span,
            format!("{what} must have rank at least 1, found {}", o.ty),
        ));
    }
    Ok((b, s))
}

/// A `Z` scalar (indices, index-map components).
pub(crate) fn z_scalar(o: Opd, what: &str) -> Result<()> {
    let (_, s) = with_base(o, what, &[Base::Z])?;
    if !s.is_empty() {
        return Err(err(
            ErrorKind::Shape,
            o.span,
            format!("{what} must be a Z scalar, found {}", o.ty),
        ));
    }
    Ok(())
}

/// A `B` scalar (the condition of `if`).
pub(crate) fn condition(o: Opd) -> Result<()> {
    let (_, s) = with_base(o, "the condition of `if`", &[Base::B])?;
    if !s.is_empty() {
        return Err(err(
            ErrorKind::Shape,
            o.span,
            format!("the condition of `if` must be a B scalar, found {}", o.ty),
        ));
    }
    Ok(())
}

/// Two operands of one base type whose shapes agree (a rank-0 one broadcasts when `bc`).
/// Returns the base and the common shape.
pub(crate) fn common(what: &str, span: Span, a: Opd, b: Opd, bc: bool) -> Result<(Base, Shape)> {
    let (ba, sa) = array(a, &format!("an operand of {what}"))?;
    let (bb, sb) = array(b, &format!("an operand of {what}"))?;
    let labelled = |d: Diagnostic| {
        d.with_label(a.span, format!("this has type {}", a.ty))
            .with_label(b.span, format!("this has type {}", b.ty))
    };
    if ba != bb {
        let msg = format!("mismatched operand types for {what}: {} and {}", a.ty, b.ty);
        return Err(labelled(err(ErrorKind::Type, span, msg)));
    }
    if sa == sb {
        return Ok((ba, sa.clone()));
    }
    if bc && sa.is_empty() {
        return Ok((ba, sb.clone()));
    }
    if bc && sb.is_empty() {
        return Ok((ba, sa.clone()));
    }
    let msg = format!("mismatched shapes for {what}: {} and {}", a.ty, b.ty);
    let d = labelled(err(ErrorKind::Shape, span, msg));
    Err(if bc {
        d.with_note("only a rank-0 operand broadcasts against another shape")
    } else {
        d
    })
}

/// `a op b`: the result type and the shape both operands must have.
pub(crate) fn binary(op: BinOp, span: Span, a: Opd, b: Opd, bc: bool) -> Result<(Type, Shape)> {
    use BinOp::*;
    let what = format!("`{}`", op.symbol());
    let (base, shape) = common(&what, span, a, b, bc)?;
    let allowed: &[Base] = match op {
        Add | Sub | Mul | Div | Lt | Le | Gt | Ge => &[Base::R, Base::Z],
        Mod => &[Base::Z],
        Eq | Ne => &[Base::R, Base::Z, Base::B],
        And | Or => &[Base::B],
    };
    if !allowed.contains(&base) {
        let msg = format!(
            "{what} needs operands of type {}, found {} and {}",
            bases(allowed),
            a.ty,
            b.ty
        );
        return Err(err(ErrorKind::Type, span, msg));
    }
    let rb = if matches!(op, Eq | Ne | Lt | Le | Gt | Ge) {
        Base::B
    } else {
        base
    };
    Ok((Type::Array(rb, shape.clone()), shape))
}

/// `-a`, `!a`.
pub(crate) fn unary(op: UnOp, a: Opd) -> Result<Type> {
    match op {
        UnOp::Neg => with_base(a, "the operand of `-`", &[Base::R, Base::Z])?,
        UnOp::Not => with_base(a, "the operand of `!`", &[Base::B])?,
    };
    Ok(a.ty.clone())
}

/// `select(c, a, b)`: the result type and the shape `a` and `b` must have. When both
/// branches are rank 0 and `c` is not, the branches broadcast to `c`'s shape.
pub(crate) fn select(span: Span, c: Opd, a: Opd, b: Opd, bc: bool) -> Result<(Type, Shape)> {
    let (_, sc) = with_base(c, "the condition of `select`", &[Base::B])?;
    let (base, s) = common("`select`", span, a, b, bc)?;
    let target = if bc && s.is_empty() { sc.clone() } else { s };
    if !sc.is_empty() && *sc != target {
        let t = Type::Array(base, target);
        let msg = format!(
            "the condition of `select` has type {}, but the branches have type {t}",
            c.ty
        );
        return Err(err(ErrorKind::Shape, c.span, msg).with_note(
            "the condition must be a scalar (whole-array selection) or have the branches' shape",
        ));
    }
    Ok((Type::Array(base, target.clone()), target))
}

/// The one-argument built-ins (everything but `min`, `max`, `select`, `iota`, `append`,
/// `stack`).
pub(crate) fn prim1(p: &Prim, span: Span, a: Opd) -> Result<Type> {
    use Prim::*;
    let what = format!("the argument of `{}`", p.name());
    let rz = [Base::R, Base::Z];
    Ok(match p {
        Exp | Log | Sin | Cos | Tanh | Sqrt => {
            with_base(a, &what, &[Base::R])?;
            a.ty.clone()
        }
        Abs => {
            with_base(a, &what, &rz)?;
            a.ty.clone()
        }
        Pow(k) => {
            with_base(a, &what, if *k < 0 { &[Base::R] } else { &rz })?;
            a.ty.clone()
        }
        Floor => Type::Array(Base::Z, with_base(a, &what, &[Base::R])?.1.clone()),
        Real => Type::Array(Base::R, with_base(a, &what, &[Base::Z])?.1.clone()),
        Sum => Type::scalar(with_base(a, &what, &rz)?.0),
        SumOuter => {
            let (b, s) = ranked(a, &what, &rz)?;
            Type::Array(b, s[1..].to_vec())
        }
        Replicate(n) => {
            let (b, s) = array(a, &what)?;
            Type::Array(b, std::iter::once(*n).chain(s.iter().copied()).collect())
        }
        Transpose(perm) => transpose(span, perm, a)?,
        Reshape(sh) => reshape(span, sh, a)?,
        Min | Max | Select | Iota(_) | Append | Stack => {
            return Err(err(
                ErrorKind::Type,
                span,
                format!("`{}` is not a one-argument built-in", p.name()),
            ));
        }
    })
}

fn transpose(span: Span, perm: &[usize], a: Opd) -> Result<Type> {
    let (b, s) = array(a, "the argument of `transpose`")?;
    let mut seen = vec![false; s.len()];
    let ok = perm.len() == s.len()
        && perm
            .iter()
            .all(|&k| k < s.len() && !std::mem::replace(&mut seen[k], true));
    if !ok {
        let msg = format!(
            "{perm:?} is not a permutation of the {} dimensions of {}",
            s.len(),
            a.ty
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    Ok(Type::Array(b, perm.iter().map(|&k| s[k]).collect()))
}

fn reshape(span: Span, sh: &[usize], a: Opd) -> Result<Type> {
    let (b, s) = array(a, "the argument of `reshape`")?;
    let to = Type::Array(b, sh.to_vec());
    limit(&to, span)?;
    let (n, m) = (elements(s), elements(sh));
    if n != m {
        let show = |x: Option<usize>| x.map_or("too many".to_string(), |v| v.to_string());
        let msg = format!(
            "cannot reshape {} ({} elements) to {to} ({} elements)",
            a.ty,
            show(n),
            show(m)
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    Ok(to)
}

/// `append(a, b)`.
pub(crate) fn append(span: Span, a: Opd, b: Opd) -> Result<Type> {
    let (ba, sa) = ranked(a, "an argument of `append`", &[Base::R, Base::Z, Base::B])?;
    let (bb, sb) = ranked(b, "an argument of `append`", &[Base::R, Base::Z, Base::B])?;
    if ba != bb {
        return Err(err(
            ErrorKind::Type,
            span,
            format!("mismatched types for `append`: {} and {}", a.ty, b.ty),
        ));
    }
    if sa[1..] != sb[1..] {
        let msg = format!(
            "`append` needs equal inner dimensions, found {} and {}",
            a.ty, b.ty
        );
        return Err(err(ErrorKind::Shape, span, msg));
    }
    let outer = sa[0]
        .checked_add(sb[0])
        .ok_or_else(|| err(ErrorKind::Resource, span, "`append` result is too large"))?;
    Ok(Type::Array(
        ba,
        std::iter::once(outer)
            .chain(sa[1..].iter().copied())
            .collect(),
    ))
}

/// `[e1, ..., en]` and `stack([...])`: all elements arrays of one type.
pub(crate) fn elements_of(span: Span, what: &str, es: &[Opd]) -> Result<Type> {
    let Some(first) = es.first() else {
        return Err(err(
            ErrorKind::Type,
            span,
            format!("{what} needs at least one element"),
        ));
    };
    let (b, s) = array(*first, &format!("an element of {what}"))?;
    for o in &es[1..] {
        array(*o, &format!("an element of {what}"))?;
        if o.ty != first.ty {
            let msg = format!(
                "the elements of {what} have different types: {} and {}",
                first.ty, o.ty
            );
            return Err(err(mismatch_kind(first.ty, o.ty), o.span, msg).with_label(
                first.span,
                format!("the first element has type {}", first.ty),
            ));
        }
    }
    Ok(Type::Array(
        b,
        std::iter::once(es.len()).chain(s.iter().copied()).collect(),
    ))
}

/// `e.k`.
pub(crate) fn proj(span: Span, x: Opd, k: usize) -> Result<Type> {
    match x.ty {
        Type::Tuple(ts) if k < ts.len() => Ok(ts[k].clone()),
        Type::Tuple(_) => Err(err(
            ErrorKind::Type,
            span,
            format!("projection .{k} is out of range for {}", x.ty),
        )),
        t => Err(err(
            ErrorKind::Type,
            span,
            format!("projection .{k} of a non-tuple of type {t}"),
        )),
    }
}
