//! The values of `--engine` and `--stage`, taken from the engine registry
//! (`adora_rewrites::engine::registry`) and the stage list of `show`: clap lists them in
//! `--help`, and an unknown value is a usage error (exit 2) that lists the known ones.

use adora_rewrites::engine::{self, Checkpoint, Question};
use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;

/// The `--engine` value that runs every registered engine and compares it with the
/// reference (not an engine name).
pub const ALL_ENGINES: &str = "all";

/// The error text for an unknown engine name, listing the registered engines.
pub fn unknown_engine(name: &str) -> String {
    let list: Vec<String> = engine::registry()
        .iter()
        .map(|e| format!("  {}: {}", e.name(), e.description()))
        .chain(std::iter::once(format!(
            "  {ALL_ENGINES}: every engine, compared with the reference"
        )))
        .collect();
    format!(
        "unknown engine `{name}`; available engines:\n{}",
        list.join("\n")
    )
}

/// The `--engine` parser: a registered engine's name, or (`with_all`) `all`.
#[derive(Clone, Copy, Debug)]
pub struct EngineName {
    /// Whether `all` is accepted.
    pub with_all: bool,
}

impl TypedValueParser for EngineName {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let name = value.to_string_lossy().into_owned();
        let known = engine::find(&name).is_some() || (self.with_all && name == ALL_ENGINES);
        if known {
            return Ok(name);
        }
        Err(clap::Error::raw(
            clap::error::ErrorKind::InvalidValue,
            format!("{}\n", unknown_engine(&name)),
        ))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let mut values: Vec<PossibleValue> = engine::registry()
            .iter()
            .map(|e| PossibleValue::new(e.name().to_string()).help(e.description().to_string()))
            .collect();
        if self.with_all {
            values.push(
                PossibleValue::new(ALL_ENGINES).help("every engine, compared with the reference"),
            );
        }
        Some(Box::new(values.into_iter()))
    }
}

/// The `--checkpoint` parser: `every`, `once` or `stripmine:K` (`K ≥ 1`); anything else
/// is a usage error (exit 2) saying what is accepted.
pub fn checkpoint_policy(text: &str) -> Result<Checkpoint, String> {
    Checkpoint::parse(text)
}

/// The stages of `show` that are not derivative questions, in pipeline order.
pub const STAGES: &[(&str, &str)] = &[
    ("parse", "the program as parsed (all defs)"),
    (
        "inline",
        "the elaborated entry point: calls inlined, literals typed, broadcasts explicit",
    ),
    (
        "bot",
        "after the bulk-operation transform (seed 000 §5): no build, indexing only of variables, constants, appends and scatters",
    ),
    (
        "delta",
        "the dual-arrays forward derivative in the separated form of seed 000 Eq. (6): primal bindings, then the symbolic Delta",
    ),
    (
        "plan",
        "the kernel plan of the entry point (docs/backend.md): kernels over flat f64 buffers, host loops, the memory plan",
    ),
    (
        "c",
        "the plan's kernels as the C the CPU executor compiles (docs/backend.md, \"Compiled kernels\")",
    ),
];

/// What the stage of a derivative question prints.
pub fn question_stage(q: Question) -> &'static str {
    match q {
        Question::Grad => {
            "the engine's gradient program (its VJP program, called with cotangent 1): inputs plus the result cotangent, result (value, gradients)"
        }
        Question::Vjp => {
            "the engine's VJP program: inputs plus the result cotangent, result (value, input cotangents)"
        }
        Question::Jvp => {
            "the engine's JVP program: inputs plus their tangents, result (value, tangent)"
        }
    }
}

/// Every stage of `show`: [`STAGES`], engine `tssa`'s pipeline stages, then one per
/// derivative question.
pub fn all_stages() -> Vec<(&'static str, &'static str)> {
    let mut out = STAGES.to_vec();
    out.extend(adora_rewrites::tssa::pipeline::STAGES);
    out.extend(Question::ALL.iter().map(|q| (q.name(), question_stage(*q))));
    out
}

/// The `--stage` parser of `show`.
#[derive(Clone, Copy, Debug)]
pub struct StageName;

impl TypedValueParser for StageName {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let name = value.to_string_lossy().into_owned();
        let stages = all_stages();
        if stages.iter().any(|(n, _)| *n == name) {
            return Ok(name);
        }
        let list: Vec<String> = stages.iter().map(|(n, w)| format!("  {n}: {w}")).collect();
        Err(clap::Error::raw(
            clap::error::ErrorKind::InvalidValue,
            format!(
                "unknown stage `{name}`; available stages:\n{}\n",
                list.join("\n")
            ),
        ))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let values: Vec<PossibleValue> = all_stages()
            .into_iter()
            .map(|(n, w)| PossibleValue::new(n).help(w))
            .collect();
        Some(Box::new(values.into_iter()))
    }
}
