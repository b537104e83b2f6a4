//! One program of a differential test: [`prepare`] exports it (the module the other
//! system runs), [`judge`] compares the other system's JSON answer with ours
//! (docs/oracle.md, "Differential testing").

use super::compare::{agree, ours_all, Num, ENCLOSURE_BITS};
use crate::cli::export::module;
use crate::cli::inputs::{self, Loaded};
use crate::cli::{ConventionsArg, Format, JsonNumbersArg, Numeric, RunArgs};
use crate::export::Target;
use adora_core::diag::ErrorKind;
use adora_rewrites::engine;
use adora_semantics::conventions::Conventions;
use adora_semantics::eval::EvalOptions;
use adora_semantics::scalar::interval::PrecisionScope;
use adora_semantics::scalar::Interval;
use adora_semantics::Rat;
use serde_json::Value as Json;
use std::path::Path;

/// The outcome of one program.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every compared number agrees: the largest error in ULPs, and one line per compared
    /// output (its largest error in ULPs and where).
    Agree(f64, String),
    /// A number differs (or a side failed): what, where.
    Disagree(String),
    /// `export` refused the program (its message).
    Refused(String),
}

impl Outcome {
    /// The kind of a disagreement, kept while a disagreeing random program shrinks: the
    /// compared output (`value`, `gradient x`) or the failing side.
    pub fn kind(&self) -> Option<String> {
        match self {
            Outcome::Disagree(why) => Some(
                why.split(['[', ':'])
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            ),
            _ => None,
        }
    }
}

/// A program ready to run on the other side: the loaded program, how it was loaded, and
/// its exported module.
pub struct Prepared {
    /// The elaborated program.
    pub loaded: Loaded,
    /// Its run arguments (inputs from the file's header).
    pub args: RunArgs,
    /// The module's text.
    pub module: String,
}

/// What [`prepare`] made of a file.
pub enum Prep {
    /// Not a runnable case (a bad-input golden file).
    Skip,
    /// Decided without running the other side (a refusal, or a failure on our side).
    Decided(Outcome),
    /// Ready to run.
    Ready(Box<Prepared>),
}

/// Reads the case `file` (golden-file format: `-- input:` lines, `-- numeric:`, entry)
/// and exports it for `target`. Programs with transcendentals (`f64` and `ball` cases)
/// are exported and run in f64; ours are enclosures.
pub fn prepare(file: &Path, target: Target) -> Prep {
    match try_prepare(file, target) {
        Ok(p) => p,
        Err(e) => Prep::Decided(Outcome::Disagree(e)),
    }
}

fn try_prepare(file: &Path, target: Target) -> Result<Prep, String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let case = adora_specs::parse_case(file, &text)?;
    if case.error.is_some() {
        return Ok(Prep::Skip);
    }
    let numeric = match case.numeric {
        adora_specs::case::Numeric::Exact => Numeric::Exact,
        adora_specs::case::Numeric::F64 { .. } | adora_specs::case::Numeric::Ball { .. } => {
            Numeric::F64
        }
    };
    let args = RunArgs {
        file: file.to_path_buf(),
        entry: case.entry.clone(),
        inputs: case
            .inputs
            .iter()
            .map(|n| format!("{}={}", n.name, n.lit.text))
            .collect(),
        inputs_json: None,
        sizes: Vec::new(),
        json_numbers: JsonNumbersArg::Decimal,
        numeric,
        precision: 128,
        engine: None,
        checkpoint: None,
        strict: false,
        max_steps: EvalOptions::default().max_steps,
        max_memory: EvalOptions::default().max_memory,
        format: Format::Text,
        conventions: ConventionsArg::Futhark,
    };
    // The checker's warnings concern the program, not the comparison: not printed.
    let loaded = inputs::load_run_with(&args, false).map_err(|e| e.text)?;
    let module = match module(&loaded, &args, target) {
        Ok(m) => m,
        Err(e) if e.kind == ErrorKind::Unsupported => {
            return Ok(Prep::Decided(Outcome::Refused(
                e.text.lines().next().unwrap_or("").to_string(),
            )))
        }
        Err(e) => return Err(e.text),
    };
    Ok(Prep::Ready(Box::new(Prepared {
        loaded,
        args,
        module,
    })))
}

/// Compares the other side's answer (its printed JSON, or why it failed) with ours, our
/// derivatives under `conventions`.
pub fn judge(
    p: &Prepared,
    theirs: Result<Json, String>,
    target: Target,
    conventions: Conventions,
) -> Outcome {
    let theirs = match theirs {
        Ok(t) => t,
        Err(e) => return Outcome::Disagree(format!("{} failed: {e}", target.name())),
    };
    let (l, a) = (&p.loaded, &p.args);
    let opts = EvalOptions {
        conventions,
        ..EvalOptions::default()
    };
    let reference = engine::reference();
    let ours = match a.numeric {
        Numeric::Exact => inputs::inputs::<Rat>(l, a)
            .map_err(|e| e.text)
            .and_then(|xs| ours_all(l, &xs, &opts, reference.as_ref(), &theirs, Num::exact)),
        Numeric::F64 | Numeric::Ball => {
            let enclosed = {
                let _p = PrecisionScope::new(ENCLOSURE_BITS);
                inputs::inputs::<Interval>(l, a)
                    .map_err(|e| e.text)
                    .and_then(|xs| ours_all(l, &xs, &opts, reference.as_ref(), &theirs, Num::ball))
            };
            enclosed.or_else(|_| {
                inputs::inputs::<f64>(l, a)
                    .map_err(|e| e.text)
                    .and_then(|xs| {
                        ours_all(l, &xs, &opts, reference.as_ref(), &theirs, |x: &f64| {
                            Num::F64(*x)
                        })
                    })
            })
        }
    };
    let ours = match ours {
        Ok(o) => o,
        Err(e) => return Outcome::Disagree(format!("ours failed: {e}")),
    };
    let mut worst = 0.0f64;
    let mut lines = Vec::new();
    for (what, ours, theirs, conds) in &ours {
        let flat = super::compare::flatten(theirs);
        if flat.len() != ours.len() {
            return Outcome::Disagree(format!(
                "{what}: {} numbers, ours {}",
                flat.len(),
                ours.len()
            ));
        }
        let cond = |k: usize| match conds.get(k).copied().flatten() {
            Some(c) => format!(" (cond {})", show_cond(c)),
            None => String::new(),
        };
        let mut here = (0.0f64, 0usize);
        for (k, (o, t)) in ours.iter().zip(&flat).enumerate() {
            match agree(o, t) {
                Some(u) if u > here.0 => here = (u, k),
                Some(_) => {}
                None => {
                    return Outcome::Disagree(format!(
                        "{what}[{k}]: theirs {t}, ours {}{}",
                        o.show(),
                        cond(k)
                    ))
                }
            }
        }
        worst = worst.max(here.0);
        let kind = match ours.first() {
            Some(Num::Ball(..)) => " (enclosure)",
            Some(Num::F64(_)) => " (f64)",
            _ => "",
        };
        let max_cond = conds
            .iter()
            .flatten()
            .copied()
            .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))));
        lines.push(format!(
            "{what}{kind} max {:.1} ulps at [{}]{}{}",
            here.0,
            here.1,
            cond(here.1),
            match max_cond {
                Some(c) if conds.len() > 1 => format!(", max cond {}", show_cond(c)),
                _ => String::new(),
            }
        ));
    }
    Outcome::Agree(worst, lines.join("; "))
}

/// A condition number for a report: three significant digits, `inf` for infinity.
pub fn show_cond(c: f64) -> String {
    if c.is_infinite() {
        "inf".to_string()
    } else if c == 0.0 || (0.01..1e4).contains(&c) {
        format!("{}", (c * 100.0).round() / 100.0)
    } else {
        format!("{c:.2e}")
    }
}
