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

use crate::bot::BotConfig;
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

/// Whether `f` contains a `build`.
pub fn has_build(f: &Function) -> bool {
    visit::subexprs(&f.body)
        .iter()
        .any(|e| matches!(e.kind, ExprKind::Build(..)))
}

/// The limits `dual` runs bot with: at most 40 iterations and 20,000 e-nodes, a 10 s
/// safety net. Bot's result is the cheapest build-free term found when the phase stops,
/// so small limits suffice for the programs we know (the whole golden corpus reaches its
/// normal form within them in about a second), while bot's default limits (200
/// iterations, 400,000 e-nodes) let some e-graphs (`specs/programs/arrays/build3d.adl`)
/// grow for minutes.
pub fn dual_bot_config() -> BotConfig {
    BotConfig::default()
        .with_iter_limit(40)
        .with_node_limit(20_000)
        .with_time_limit(std::time::Duration::from_secs(10))
}

/// The program the dual-arrays transformation differentiates: `f` checked (well typed,
/// elaborated, inside the fragment), then, when it contains a `build`, put in bot's
/// normal form ([`crate::bot::transform`] with [`dual_bot_config`]). A build-free
/// program is differentiated as it is: the transformation accepts every build-free
/// program of the fragment (Theorem 5.1's normal form of indexes matters for the one-hot
/// bound, not for correctness — and without a `build` every index is evaluated once).
pub fn prepare(f: &Function) -> Result<Function> {
    prepare_with(f, &dual_bot_config())
}

/// [`prepare`] with bot's limits `cfg`.
pub fn prepare_with(f: &Function, cfg: &BotConfig) -> Result<Function> {
    adora_core::with_stack(|| adora_core::check::check_function(f))?;
    check_fragment(f, "dual", true)?;
    if !has_build(f) {
        return Ok(f.clone());
    }
    let out = adora_core::with_stack(|| crate::bot::transform(f, cfg))?;
    // The transformation flattens `let`s, so binder names must be unique (as in every
    // elaborated program); bot's output is made so and checked again.
    let mut g = out.function;
    let params: Vec<adora_core::ast::Name> = g.params.iter().map(|p| p.name.clone()).collect();
    g.body = adora_core::with_stack(|| visit::rename_unique(&params, &g.body));
    adora_core::with_stack(|| adora_core::check::check_function(&g)).map_err(|d| {
        Diagnostic::new(
            ErrorKind::Internal,
            d.span,
            format!("internal error: bot's output does not type-check: {d}"),
        )
        .with_note(adora_core::pretty::function(&g))
    })?;
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
