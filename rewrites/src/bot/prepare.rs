//! The one bot preparation every engine differentiates after (docs/architecture.md,
//! "Rewriting with egg"): [`prepare`] runs [`super::transform`] with the one engine
//! configuration [`engine_config`] and re-checks the result. Its binder names are unique
//! by construction (docs/architecture.md, "Lowering kit": extraction names every binder
//! from one supply), so no renaming pass follows. Engines `dual` and `linear` and `adora show --stage bot` all call it, so the
//! program `show --stage bot` prints is the program the engines differentiate.
//!
//! A build-free program is returned as it is: without a `build` every index is evaluated
//! once, and seed 000 Theorem 5.1's normal form of indexes matters for the one-hot bound,
//! not for correctness.

use super::{transform, BotConfig};
use adora_core::ast::{ExprKind, Function};
use adora_core::diag::{Diagnostic, ErrorKind, Result};
use adora_core::visit;
use std::time::Duration;

/// The limits engines run bot with: at most 40 iterations and 20,000 e-nodes, a 10 s
/// wall-clock safety net (hitting it is a resource error; results never depend on it).
/// Bot's result is the cheapest build-free term found when the phase stops, so small
/// limits suffice for the programs we know (the whole golden corpus reaches its normal
/// form within them), while bot's own defaults ([`BotConfig::default`]: 200 iterations,
/// 400,000 e-nodes, for studying the rule system) let some e-graphs
/// (`specs/programs/arrays/build3d.adl`) grow for minutes.
pub fn engine_config() -> BotConfig {
    BotConfig::default()
        .with_iter_limit(40)
        .with_node_limit(20_000)
        .with_time_limit(Duration::from_secs(10))
}

/// Whether `f` contains a `build`.
pub fn has_build(f: &Function) -> bool {
    visit::subexprs(&f.body)
        .iter()
        .any(|e| matches!(e.kind, ExprKind::Build(..)))
}

/// The program engines differentiate: `f` itself when it has no `build`, otherwise its
/// bot normal form under [`engine_config`], re-checked (a failure to check, a repeated
/// binder name included, is an internal error). Binder names are unique as bot makes
/// them — the engines' transformations flatten `let`s, as in every elaborated program. Bot's own errors pass through: limits are
/// `Resource`, a missing normal form is `Internal`, constructs outside seed 000's fragment
/// are `Unsupported`.
pub fn prepare(f: &Function) -> Result<Function> {
    if !has_build(f) {
        return Ok(f.clone());
    }
    let out = adora_core::with_stack(|| transform(f, &engine_config()))?;
    let g = out.function;
    adora_core::with_stack(|| adora_core::check::check_function(&g)).map_err(|d| {
        Diagnostic::new(
            ErrorKind::Internal,
            d.span,
            format!("internal error: bot's output does not type-check: {d}"),
        )
        .with_note(adora_core::pretty::function(&g))
    })?;
    Ok(g)
}

/// [`prepare`]'s result printed as a full `def` — valid source that parses, checks and
/// evaluates to the same values (`adora show --stage bot`).
pub fn show(f: &Function) -> Result<String> {
    Ok(adora_core::pretty::function(&prepare(f)?))
}
