//! Binding the entry point's size names from the shapes of its inputs: the first
//! occurrence binds, every later one must agree (docs/language.md, "Size parameters").

use super::{Dim, Signature, SymType};
use crate::ast::{Expr, ExprKind, Name};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::sizes::Sizes;
use std::collections::BTreeMap;

/// The shape of a given input value, as far as it could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shaped {
    /// An array of this shape (rank 0: a scalar).
    Array(Vec<usize>),
    /// A tuple of these parts.
    Tuple(Vec<Shaped>),
    /// Not the structure the parameter type expects: binds nothing (reading the value
    /// against its instantiated type reports the mismatch).
    Unknown,
}

/// One input value given for a parameter of the entry point.
#[derive(Clone, Debug)]
pub struct Given {
    /// The parameter's name.
    pub param: Name,
    /// The value's shape.
    pub shape: Shaped,
    /// Where it was given, for messages (`--input x=[1, 2]`, `F.json: key "x"`; empty:
    /// the parameter's name says enough).
    pub origin: String,
}

/// The shape of the value literal `e` read against the parameter type `ty`: for an array
/// type of rank `r`, the lengths of the first `r` levels of nested `[…]` (the first
/// element of each level; an empty level makes every inner dimension 0).
pub fn shape_of_literal(e: &Expr, ty: &SymType) -> Shaped {
    match ty {
        SymType::Tuple(ts) => match &e.kind {
            ExprKind::Tuple(es) if es.len() == ts.len() => Shaped::Tuple(
                es.iter()
                    .zip(ts)
                    .map(|(e, t)| shape_of_literal(e, t))
                    .collect(),
            ),
            _ => Shaped::Unknown,
        },
        SymType::Array(_, dims) => {
            let mut shape = Vec::with_capacity(dims.len());
            let mut cur = e;
            while shape.len() < dims.len() {
                match &cur.kind {
                    ExprKind::Array(es) if es.is_empty() => {
                        shape.resize(dims.len(), 0);
                    }
                    ExprKind::Array(es) => {
                        shape.push(es.len());
                        cur = &es[0];
                    }
                    _ => return Shaped::Unknown,
                }
            }
            Shaped::Array(shape)
        }
    }
}

/// Where a size name got its value: the value, the span of the binding occurrence in the
/// program (none for `--size`), the input or flag.
struct Source {
    value: usize,
    span: Option<Span>,
    origin: String,
}

impl Signature {
    /// The values of the size names: first those set explicitly (`(name, value, origin)`,
    /// e.g. from `--size n=10`), then, in parameter order, those read from the shapes of
    /// the given inputs. Errors, each an [`ErrorKind::Input`] at the occurrence in the
    /// program: two sources that disagree on a name (both named), an explicit name that
    /// is not a size parameter, and a size name that no source binds.
    pub fn bind(&self, explicit: &[(Name, usize, String)], given: &[Given]) -> Result<Sizes> {
        let names = self.size_names();
        let mut bound: BTreeMap<Name, Source> = BTreeMap::new();
        for (n, v, origin) in explicit {
            if !names.contains(&n) {
                let have: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                let msg = if have.is_empty() {
                    format!("{origin}: `{}` has no size parameters", self.name)
                } else {
                    format!(
                        "{origin}: `{}` has no size parameter `{n}` (its size parameters: {})",
                        self.name,
                        have.join(", ")
                    )
                };
                return Err(Diagnostic::new(ErrorKind::Input, self.name_span, msg));
            }
            let src = Source {
                value: *v,
                span: None,
                origin: origin.clone(),
            };
            agree(&mut bound, n, src, None)?;
        }
        for p in &self.params {
            let Some(g) = given.iter().find(|g| g.param == p.name) else {
                continue;
            };
            let mut occurrences = Vec::new();
            dims_of(&p.ty, &g.shape, &mut occurrences);
            for (n, span, value) in occurrences {
                let origin = if g.origin.is_empty() {
                    format!("`{}`", p.name)
                } else {
                    format!("`{}` ({})", p.name, g.origin)
                };
                let src = Source {
                    value,
                    span: Some(span),
                    origin,
                };
                agree(&mut bound, n, src, Some(span))?;
            }
        }
        let mut out = Sizes::new();
        for p in &self.params {
            for (n, span) in p.ty.size_names() {
                match bound.get(n) {
                    Some(s) => {
                        out.insert(n.clone(), s.value);
                    }
                    None => {
                        let msg = format!(
                            "the size `{n}` of `{}` has no value: give the input `{}` (its type binds `{n}`) or `--size {n}=N`",
                            self.name, p.name
                        );
                        return Err(Diagnostic::new(ErrorKind::Input, span, msg));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Records `src` for `n`, or checks it against the value recorded first.
fn agree(
    bound: &mut BTreeMap<Name, Source>,
    n: &Name,
    src: Source,
    at: Option<Span>,
) -> Result<()> {
    match bound.get(n) {
        None => {
            bound.insert(n.clone(), src);
            Ok(())
        }
        Some(first) if first.value == src.value => Ok(()),
        Some(first) => {
            let msg = format!(
                "inconsistent size `{n}`: {} gives {n} = {}, but {} gives {n} = {}",
                first.origin, first.value, src.origin, src.value
            );
            let span = at.or(first.span).unwrap_or(Span::DUMMY);
            let mut d = Diagnostic::new(ErrorKind::Input, span, msg);
            if let (Some(f), Some(_)) = (first.span, at) {
                d = d.with_label(f, format!("`{n}` is first bound here"));
            }
            Err(d)
        }
    }
}

/// The size names of `ty` with the values `shape` gives them, one entry per occurrence.
fn dims_of<'t>(ty: &'t SymType, shape: &Shaped, out: &mut Vec<(&'t Name, Span, usize)>) {
    match (ty, shape) {
        (SymType::Tuple(ts), Shaped::Tuple(ss)) if ts.len() == ss.len() => {
            for (t, s) in ts.iter().zip(ss) {
                dims_of(t, s, out);
            }
        }
        (SymType::Array(_, dims), Shaped::Array(sh)) if dims.len() == sh.len() => {
            for (d, v) in dims.iter().zip(sh) {
                if let Dim::Name(n, span) = d {
                    out.push((n, *span, *v));
                }
            }
        }
        _ => {}
    }
}
