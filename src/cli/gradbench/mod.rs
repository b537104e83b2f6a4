//! GradBench (docs/gradbench.md): `adora gradbench`, a GradBench tool whose evals are
//! programs in our language, and `adora gradbench-check LOG.jsonl`, which re-validates a
//! GradBench log against our exact answers.
//!
//! | module | job |
//! |---|---|
//! | [`evals`] | the evals served: programs, functions, input mapping |
//! | [`compute`] | one evaluate: load at the input's sizes, run, shape the answer |
//! | [`out`] | an answer in the eval's JSON shape |
//! | [`tool`] | the protocol over standard input and output |
//! | [`check`] | a log's evaluates recomputed, the table |
//! | [`agree`] | one case: the tool's output against our numbers |
//!
//! Derivatives are engines' (default `soac`, the reverse mode of *AD for an Array
//! Language with Nested Parallelism*, §4, redundant execution; docs/engines/soac.md),
//! checked against the reference in the project's property suite; exact in exact mode.

pub mod agree;
pub mod check;
pub mod compute;
pub mod evals;
pub mod out;
pub mod tool;

use super::error::CliError;
use super::inputs::plain_error;
use super::{names, OK};
use adora_core::diag::ErrorKind;
use adora_rewrites::engine::{self, Engine};
use adora_semantics::eval::EvalOptions;
use clap::Args;
use std::path::PathBuf;

/// The engine whose gradient programs answer by default.
pub const DEFAULT_ENGINE: &str = "soac";

/// Resource limits of one evaluation (docs/language.md, "Resource limits"); GradBench's
/// workloads need more steps than the command line's default.
#[derive(Args, Debug, Clone)]
pub struct Limits {
    /// Most evaluation steps of one run (the tool: an unsuccessful response past it; the
    /// check: the case is not checked).
    #[arg(long, value_name = "N", default_value_t = 100_000_000_000)]
    pub max_steps: u64,
    /// Most bytes of arrays one run may allocate.
    #[arg(long, value_name = "BYTES", default_value_t = adora_semantics::eval::EvalOptions::default().max_memory)]
    pub max_memory: u64,
}

impl Limits {
    fn options(&self) -> EvalOptions {
        EvalOptions {
            max_steps: self.max_steps,
            max_memory: self.max_memory,
            ..EvalOptions::default()
        }
    }
}

/// Options of `adora gradbench`.
#[derive(Args, Debug, Clone)]
pub struct ToolArgs {
    /// The engine whose gradients answer (`reference`: the exact forward mode; kmeans
    /// `dir` needs an engine with a gradient program).
    #[arg(long, default_value = DEFAULT_ENGINE, value_parser = names::EngineName { with_all: false })]
    pub engine: String,
    /// `exact`: exact rationals for the rational evals (answers are the nearest
    /// doubles), f64 for gmm and lstm; `f64`: f64 for every eval.
    #[arg(long, value_enum, default_value = "exact")]
    pub numbers: tool::ToolNumbers,
    #[command(flatten)]
    pub limits: Limits,
}

/// Options of `adora gradbench-check`.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// GradBench logs (`gradbench repo run … -o DIR` writes `DIR/<eval>/<tool>.jsonl`),
    /// each checked and reported on its own.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// The engine whose gradients are the expectations.
    #[arg(long, default_value = DEFAULT_ENGINE, value_parser = names::EngineName { with_all: false })]
    pub engine: String,
    /// The norm-wise relative bound of an agreement: `max |d - r| <= TOL * max |r|`.
    #[arg(long, default_value_t = 1e-9, value_name = "TOL")]
    pub tolerance: f64,
    #[command(flatten)]
    pub limits: Limits,
}

fn engine_named(name: &str) -> Result<Box<dyn Engine>, CliError> {
    engine::find(name).ok_or_else(|| plain_error(ErrorKind::Input, super::unknown_engine(name)))
}

/// `adora gradbench`: serves standard input until it ends.
pub fn serve(a: &ToolArgs) -> Result<u8, CliError> {
    let e = engine_named(&a.engine)?;
    let t = tool::Tool {
        engine: e.as_ref(),
        numbers: a.numbers,
        opts: a.limits.options(),
    };
    let stdin = std::io::stdin();
    t.serve(stdin.lock(), std::io::stdout().lock())?;
    Ok(OK)
}

/// `adora gradbench-check`; the exit code.
pub fn check(a: &CheckArgs) -> Result<u8, CliError> {
    let e = engine_named(&a.engine)?;
    let mut code = OK;
    for (k, log) in a.logs.iter().enumerate() {
        if a.logs.len() > 1 {
            println!("{}{}:", if k > 0 { "\n" } else { "" }, log.display());
        }
        code = code.max(check::check(
            log,
            e.as_ref(),
            a.tolerance,
            &a.limits.options(),
        )?);
    }
    Ok(code)
}
