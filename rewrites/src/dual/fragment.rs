//! The fragment the `dual` engine accepts, and the preparation of its input.
//!
//! `dual` accepts the seed-000 fragment: literals, variables, `let`, tuples and
//! projections, elementwise arithmetic, comparisons and connectives, every built-in
//! function, indexing, `gather`, `scatter` and `build`. `build` is removed by the
//! bulk-operation transform (bot, seed 000 §5) before differentiation; the
//! transformation itself sees bot's normal form (no `build`; every index of a variable,
//! a constant, an `append` or a `scatter`), and accepts any build-free program of the
//! fragment. The seed-004 constructs (`map`, `reduce`, `scan`, `reduce_by_index`,
//! `scatter_into`, `loop`, lazy `if`) are rejected with an `Unsupported` error naming the
//! construct and its position, and so is any construct added to the language later.

use adora_core::ast::{Expr, ExprKind, Function};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::visit;

/// The first node of `f` outside the fragment (with `build` allowed or not), as an
/// `Unsupported` error for engine `engine`.
pub fn check_fragment(f: &Function, engine: &str, allow_build: bool) -> Result<()> {
    for e in visit::subexprs(&f.body) {
        let bad = match &e.kind {
            ExprKind::Var(_)
            | ExprKind::Lit(_)
            | ExprKind::Array(_)
            | ExprKind::Tuple(_)
            | ExprKind::Proj(..)
            | ExprKind::Let(..)
            | ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::Prim(..)
            | ExprKind::Index(..)
            | ExprKind::Gather(..)
            | ExprKind::Scatter(..) => None,
            ExprKind::Build(..) if allow_build => None,
            ExprKind::Build(..) => {
                Some("`build` (the transformation needs bot's build-free normal form)".to_string())
            }
            ExprKind::If(..)
            | ExprKind::Map(..)
            | ExprKind::Reduce(..)
            | ExprKind::Scan(..)
            | ExprKind::ReduceByIndex { .. }
            | ExprKind::ScatterInto { .. }
            | ExprKind::Loop { .. } => {
                Some(format!("`{}` (a seed-004 construct)", e.kind.form_name()))
            }
            ExprKind::Call(..) => Some("calls (the program is not elaborated)".to_string()),
            #[allow(unreachable_patterns)]
            other => Some(format!("`{}`", other.form_name())),
        };
        if let Some(what) = bad {
            return Err(reject(e, engine, &what));
        }
    }
    Ok(())
}

fn reject(e: &Expr, engine: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        e.span,
        format!("the `{engine}` engine does not support {what}"),
    )
}

/// The program the dual-arrays transformation differentiates: `f` checked (well typed,
/// elaborated, inside the fragment), then the one bot preparation
/// ([`crate::bot::prepare`]: bot's normal form when `f` has a `build`, `f` itself
/// otherwise), checked to be inside the fragment again.
pub fn prepare(f: &Function) -> Result<Function> {
    adora_core::with_stack(|| adora_core::check::check_function(f))?;
    check_fragment(f, "dual", true)?;
    if !crate::bot::has_build(f) {
        return Ok(f.clone());
    }
    let g = crate::bot::prepare(f)?;
    check_fragment(&g, "dual", false)?;
    Ok(g)
}

/// `f` checked and inside the fragment without `build` (the transformation's own input
/// condition, for callers that bypass bot).
pub fn prepare_build_free(f: &Function) -> Result<Function> {
    adora_core::with_stack(|| adora_core::check::check_function(f))?;
    check_fragment(f, "dual", false)?;
    Ok(f.clone())
}
