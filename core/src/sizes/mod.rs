//! Size parameters (docs/language.md, "Size parameters"): a `def`'s parameter types may
//! name sizes (`def main(x: R[n], w: R[k]) -> R = …`), and every place that expects a size
//! accepts arithmetic on them (`build (n - k + 1) …`, `R[2 * n]`).
//!
//! A program with size parameters is a family of programs. It is *instantiated* before
//! anything else runs: the entry point's size names are bound from the shapes of its
//! inputs ([`Signature::bind`]) and the file is parsed under those values
//! ([`crate::parser::parse_program_sized`]), which evaluates every size expression. The
//! result is an ordinary program with literal sizes, so the checker, the evaluators,
//! every engine and every cost model run it unchanged.
//!
//! A `def` other than the entry point may have size parameters too: it is a
//! [`Template`], instantiated by the checker at each call from the arguments' shapes
//! (`template`; docs/language.md, "Helpers with size parameters").

mod bind;
mod expr;
pub mod subst;
mod template;

pub use bind::{shape_of_literal, Given, Shaped};
pub use expr::{render, SizeExpr, SizeOp, Sizes};
pub use template::{bind_call, describe_instance, Template};

use crate::ast::{Expr, Function, Name};
use crate::diag::{Result, Span};
use crate::types::Base;

/// A dimension of a parameter type as written: a literal or a size name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A literal size.
    Lit(usize),
    /// A size name, with the span of this occurrence.
    Name(Name, Span),
}

/// A parameter type with symbolic dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymType {
    /// An array type `R[n, 3]` (rank 0: a scalar).
    Array(Base, Vec<Dim>),
    /// A tuple type.
    Tuple(Vec<SymType>),
}

/// A parameter with a symbolic type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymParam {
    /// The parameter's name.
    pub name: Name,
    /// Its type as written.
    pub ty: SymType,
    /// The span of the name and its type.
    pub span: Span,
}

/// The signature of a `def` as written, before sizes are bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The `def`'s name.
    pub name: Name,
    /// The span of that name.
    pub name_span: Span,
    /// Its parameters.
    pub params: Vec<SymParam>,
}

/// A parameter type as written: `R[n,3]`, `(R[n], Z)` (as [`Type`](crate::types::Type)
/// prints).
pub fn render_type(t: &SymType) -> String {
    match t {
        SymType::Array(b, dims) if dims.is_empty() => b.to_string(),
        SymType::Array(b, dims) => {
            let ds: Vec<String> = dims
                .iter()
                .map(|d| match d {
                    Dim::Lit(v) => v.to_string(),
                    Dim::Name(n, _) => n.clone(),
                })
                .collect();
            format!("{b}[{}]", ds.join(","))
        }
        SymType::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(render_type).collect();
            format!("({})", parts.join(", "))
        }
    }
}

impl SymType {
    /// The size names of the type with the span of each first occurrence, in order.
    pub fn size_names(&self) -> Vec<(&Name, Span)> {
        let mut out: Vec<(&Name, Span)> = Vec::new();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            match t {
                SymType::Array(_, dims) => {
                    for d in dims {
                        if let Dim::Name(n, s) = d {
                            if !out.iter().any(|(m, _)| *m == n) {
                                out.push((n, *s));
                            }
                        }
                    }
                }
                SymType::Tuple(ts) => stack.extend(ts.iter().rev()),
            }
        }
        out
    }
}

impl Signature {
    /// The size names of the parameter types, first occurrence first.
    pub fn size_names(&self) -> Vec<&Name> {
        let mut out: Vec<&Name> = Vec::new();
        for p in &self.params {
            for (n, _) in p.ty.size_names() {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        out
    }
}

/// The signature of `entry` in `src` when its parameter types name sizes; `None` when it
/// has none (or when `src` has no `def` of that name: loading reports that).
pub fn signature(src: &str, entry: &str) -> Result<Option<Signature>> {
    let sigs = crate::parser::signatures(src)?;
    Ok(sigs
        .into_iter()
        .find(|s| s.name == entry)
        .filter(|s| !s.size_names().is_empty()))
}

/// Parses, checks and elaborates `src` at `entry` with the entry's size parameters bound
/// to `sizes` (every name of the signature; see [`Signature::bind`]).
pub fn load_sized(src: &str, entry: &str, sizes: &Sizes) -> Result<Function> {
    load_sized_with_warnings(src, entry, sizes).map(|(f, _)| f)
}

/// [`load_sized`], also returning the checker's warnings (as
/// [`crate::load_with_warnings`] does).
pub fn load_sized_with_warnings(
    src: &str,
    entry: &str,
    sizes: &Sizes,
) -> Result<(Function, Vec<crate::diag::Diagnostic>)> {
    let program = crate::parser::parse_program_sized(src, entry, sizes)?;
    let warnings = crate::check::check_program_warnings(&program)?;
    Ok((crate::check::elaborate(&program, entry)?, warnings))
}

/// Loads `src` at `entry` for the inputs given as value literals (`name`, literal; the
/// golden files' and tests' form): a program without size parameters loads as
/// [`crate::load`] does, one with them is instantiated at the literals' shapes. Inputs
/// whose names are not parameters bind nothing (loading the inputs reports them).
pub fn load_for_literals(src: &str, entry: &str, inputs: &[(Name, Expr)]) -> Result<Function> {
    let Some(sig) = signature(src, entry)? else {
        return crate::load(src, entry);
    };
    let given: Vec<Given> = inputs
        .iter()
        .filter_map(|(n, e)| {
            let p = sig.params.iter().find(|p| p.name == *n)?;
            Some(Given {
                param: n.clone(),
                shape: shape_of_literal(e, &p.ty),
                origin: String::new(),
            })
        })
        .collect();
    let sizes = sig.bind(&[], &given)?;
    load_sized(src, entry, &sizes)
}
