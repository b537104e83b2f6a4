//! Sized helper `def`s (docs/language.md, "Size parameters", "Helpers with size
//! parameters"): a `def` other than the entry point whose parameter types name sizes is a
//! *template*. The parser keeps its tokens; the checker binds its size names at each call
//! from the arguments' shapes ([`bind_call`]) and parses the tokens again under those
//! values ([`Template::instantiate`]), which gives an ordinary `def` with literal sizes.

use super::{render_type, Dim, Signature, Sizes, SymType};
use crate::ast::{Def, Name};
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::lexer::Token;
use crate::types::Type;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A `def` with size parameters other than the entry point, as parsed before its sizes
/// are known.
#[derive(Clone, Debug)]
pub struct Template {
    /// The `def` parsed with every size name at a placeholder value (0) and size errors
    /// ignored: its name, parameter names, bases, tuple structure and calls are those of
    /// every instance; its sizes mean nothing.
    pub def: Def,
    /// Its signature with the size names kept.
    pub sig: Signature,
    /// The tokens of the `def`, ending with [`crate::lexer::Tok::Eof`].
    pub(crate) toks: Arc<Vec<Token>>,
    /// The whole source file (the tokens' spans index it).
    pub(crate) src: Arc<str>,
}

impl PartialEq for Template {
    /// The same tokens (spans aside): the same `def` as written.
    fn eq(&self, other: &Template) -> bool {
        self.toks.len() == other.toks.len()
            && self
                .toks
                .iter()
                .zip(other.toks.iter())
                .all(|(a, b)| a.tok == b.tok)
    }
}

impl Template {
    /// The `def`'s name.
    pub fn name(&self) -> &Name {
        &self.def.name
    }

    /// The source text of the `def`, as written.
    pub fn text(&self) -> &str {
        self.src
            .get(self.def.span.start..self.def.span.end)
            .unwrap_or("")
    }

    /// The `def` with its size names bound to `sizes` (every size name of its parameter
    /// types): parsed again under those values, so every size is a literal. Errors are
    /// those of a sized parse (a negative size, a division by zero in a size).
    pub fn instantiate(&self, sizes: &Sizes) -> Result<Def> {
        crate::parser::parse_instance(&self.src, &self.toks, self.name(), sizes)
    }
}

/// The values of `callee`'s size names bound by the types of the arguments of one call
/// (`args`: each argument's type and span): each occurrence of a size name in a parameter
/// type takes the length of that dimension of the argument's type; the first occurrence
/// in parameter order binds it, every later one must agree. Errors, at the argument: a
/// type whose structure, base or rank is not the parameter's, a literal dimension that
/// differs, and an inconsistent binding (naming both parameters, the size name and both
/// sizes).
pub fn bind_call(callee: &Signature, args: &[(Type, Span)]) -> Result<Sizes> {
    let mut bound: BTreeMap<Name, (usize, &Name, Span)> = BTreeMap::new();
    for (p, (ta, span)) in callee.params.iter().zip(args) {
        let mismatch = |kind: ErrorKind| {
            let msg = format!(
                "argument `{}` of `{}` has type {ta}, expected {}",
                p.name,
                callee.name,
                render_type(&p.ty)
            );
            Diagnostic::new(kind, *span, msg).with_label(p.span, "parameter declared here")
        };
        let mut dims = Vec::new();
        if !dims_of(&p.ty, ta, &mut dims) {
            return Err(mismatch(ErrorKind::Type));
        }
        for (d, v) in dims {
            match d {
                Dim::Lit(l) if *l != v => return Err(mismatch(ErrorKind::Shape)),
                Dim::Lit(_) => {}
                Dim::Name(n, _) => match bound.get(n) {
                    None => {
                        bound.insert(n.clone(), (v, &p.name, *span));
                    }
                    Some((first, _, _)) if *first == v => {}
                    Some((first, q, qspan)) => {
                        let msg = format!(
                            "inconsistent size `{n}` in the call of `{}`: argument `{q}` gives {n} = {first}, but argument `{}` gives {n} = {v}",
                            callee.name, p.name
                        );
                        return Err(Diagnostic::new(ErrorKind::Type, *span, msg)
                            .with_label(*qspan, format!("`{n}` = {first} here"))
                            .with_label(p.span, "parameter declared here"));
                    }
                },
            }
        }
    }
    Ok(bound.into_iter().map(|(n, (v, _, _))| (n, v)).collect())
}

/// Pairs the dimensions of `sym` with those of `ty`; `false` when their structure, bases
/// or ranks differ.
fn dims_of<'t>(sym: &'t SymType, ty: &Type, out: &mut Vec<(&'t Dim, usize)>) -> bool {
    match (sym, ty) {
        (SymType::Tuple(ss), Type::Tuple(ts)) if ss.len() == ts.len() => {
            ss.iter().zip(ts).all(|(s, t)| dims_of(s, t, out))
        }
        (SymType::Array(b, dims), Type::Array(b2, shape))
            if b == b2 && dims.len() == shape.len() =>
        {
            out.extend(dims.iter().zip(shape.iter().copied()));
            true
        }
        _ => false,
    }
}

/// `` `dot` at n = 3 `` for messages about one instance.
pub fn describe_instance(name: &str, sizes: &Sizes) -> String {
    let vals: Vec<String> = sizes.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    format!("`{name}` at {}", vals.join(", "))
}
