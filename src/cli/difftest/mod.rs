//! `adora difftest --against jax|pytorch [F…] [--random N --seed S]`: golden or randomly
//! generated programs exported to JAX or PyTorch ([`super::export`]), run in the project's
//! Python environment, and their values, gradients, JVPs and VJPs (along the exported
//! probing directions, `crate::export::probe_tangent`) compared with ours (docs/oracle.md,
//! "Differential testing").
//!
//! | module | job |
//! |---|---|
//! | [`case`] | one program: export it, judge the other side's answer |
//! | [`compare`] | one number: exact, enclosure or f64, error in ULPs |
//! | [`condition`] | the condition number of each compared number |
//! | [`batch`] | many modules in one Python process |
//! | [`random`] | `--random`: generated programs, shrinking, the table per construct |
//!
//! Exact programs are compared against the exact rational: the float answer agrees when
//! `|d - r| <= 1e-9 * max(1, |r|)`, and the largest error in ULPs of the double nearest
//! `r` is reported. Programs with transcendental functions (`f64` and `ball` golden
//! programs) are compared against our certified enclosure `[lo, hi]` (`ball` mode at 128
//! bits): the float answer agrees when its distance to the enclosure is within the same
//! bound, and its distance in ULPs of the double nearest the enclosure's midpoint is
//! reported (0 inside). Where no enclosure can be had (an undecidable comparison, a value
//! outside the exponent range, an infinity or NaN) the answer is compared with our f64
//! answer within the bound (NaN agrees with NaN, an infinity with the same infinity).
//! Integers and booleans must be equal. Every compared real carries its condition number
//! ([`condition`]), so that a large error can be told from cancellation. Each agreeing
//! program prints, per compared output, its largest error in ULPs, the component where it
//! occurs and the condition numbers.

mod batch;
mod case;
pub mod compare;
mod condition;
mod random;

use super::error::CliError;
use super::export::TargetArg;
use super::inputs;
use super::{FAILED, OK};
use crate::export::Target;
use adora_core::diag::ErrorKind;
use adora_semantics::conventions::Conventions;
use case::{judge, prepare, Outcome, Prep};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use random::RandomArgs;

/// What every program of one run is run and judged with.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    /// The system tested against.
    pub target: Target,
    /// Its Python interpreter.
    pub python: &'a Path,
    /// The scratch directory of the modules.
    pub dir: &'a Path,
    /// Our derivative conventions.
    pub conventions: Conventions,
}

/// `adora difftest`: `random` replaces the files by generated programs; our derivatives
/// follow `conventions` (default: the profile of the system tested against).
pub fn difftest(
    against: TargetArg,
    files: &[PathBuf],
    python: &Path,
    conventions: Option<Conventions>,
    random: Option<RandomArgs>,
) -> Result<u8, CliError> {
    let target: Target = against.into();
    let module_name = match target {
        Target::Jax => "jax",
        Target::Pytorch => "torch",
    };
    let probe = Command::new(python)
        .args(["-c", &format!("import {module_name}")])
        .output();
    if !matches!(&probe, Ok(o) if o.status.success()) {
        println!(
            "skipped: {} cannot import `{module_name}`; create the environment with `scripts/python-env.sh {}` (or give --python)",
            python.display(),
            if target == Target::Jax { "jax" } else { "torch" }
        );
        return Ok(OK);
    }
    let dir = std::env::temp_dir().join(format!("adora-difftest-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| inputs::plain_error(ErrorKind::Input, format!("{}: {e}", dir.display())))?;
    let side = Side {
        target,
        python,
        dir: &dir,
        conventions: conventions.unwrap_or(match target {
            Target::Jax => Conventions::Jax,
            Target::Pytorch => Conventions::Pytorch,
        }),
    };
    println!(
        "our derivatives under the `{}` conventions (docs/conventions.md)",
        side.conventions
    );
    let failed = match random {
        Some(r) => random::run(side, &r),
        None => goldens(side, files),
    };
    let _ = std::fs::remove_dir_all(&dir);
    Ok(if failed { FAILED } else { OK })
}

/// The golden programs `files` (default: every program under `specs/programs`), one
/// line each and a table per directory; whether one disagreed.
fn goldens(side: Side, files: &[PathBuf]) -> bool {
    let target = side.target;
    let files: Vec<PathBuf> = if files.is_empty() {
        adora_specs::discover(Path::new("specs/programs"))
    } else {
        files.to_vec()
    };
    let preps: Vec<(PathBuf, Prep)> = files
        .iter()
        .map(|f| (f.clone(), prepare(f, target)))
        .collect();
    let outcomes = run_all(side, preps.iter().map(|(_, p)| p));
    let mut table = Table::default();
    for ((f, _), outcome) in preps.iter().zip(outcomes) {
        let Some(outcome) = outcome else { continue };
        let group = f
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match &outcome {
            Outcome::Agree(_, lines) => println!("agree {}: {lines}", f.display()),
            Outcome::Disagree(why) => println!("DISAGREE {}: {why}", f.display()),
            Outcome::Refused(why) => println!("refused {}: {why}", f.display()),
        }
        table.add(&group, &outcome);
    }
    println!("\nagainst {}:", target.name());
    table.print("group", true);
    table.disagreements() > 0
}

/// Runs the ready programs of `preps` in one Python process and judges every program:
/// `None` for a skipped one.
fn run_all<'p>(side: Side, preps: impl Iterator<Item = &'p Prep> + Clone) -> Vec<Option<Outcome>> {
    let texts: Vec<&str> = preps
        .clone()
        .filter_map(|p| match p {
            Prep::Ready(r) => Some(r.module.as_str()),
            _ => None,
        })
        .collect();
    let mut answers = batch::run(side.python, side.dir, &texts).into_iter();
    preps
        .map(|p| match p {
            Prep::Skip => None,
            Prep::Decided(o) => Some(o.clone()),
            Prep::Ready(r) => {
                let theirs = answers
                    .next()
                    .unwrap_or_else(|| Err("no answer".to_string()));
                Some(judge(r, theirs, side.target, side.conventions))
            }
        })
        .collect()
}

/// A report table: per row (a directory of golden programs, or a construct), cases,
/// agreements, disagreements, refusals and the largest error in ULPs of an agreement.
#[derive(Default)]
pub struct Table {
    rows: BTreeMap<String, ([usize; 4], f64)>,
}

impl Table {
    /// Counts `outcome` in row `row`.
    pub fn add(&mut self, row: &str, outcome: &Outcome) {
        let (r, u) = self.rows.entry(row.to_string()).or_default();
        r[0] += 1;
        match outcome {
            Outcome::Agree(ulps, _) => {
                r[1] += 1;
                *u = u.max(*ulps);
            }
            Outcome::Disagree(_) => r[2] += 1,
            Outcome::Refused(_) => r[3] += 1,
        }
    }

    /// The number of disagreements over all rows.
    pub fn disagreements(&self) -> usize {
        self.rows.values().map(|(r, _)| r[2]).sum()
    }

    /// Prints the table, rows headed `head`, with a total row when `total` (rows that
    /// partition the cases).
    pub fn print(&self, head: &str, total: bool) {
        let w = self.rows.keys().map(|k| k.len()).max().unwrap_or(0).max(16);
        println!(
            "{head:<w$} {:>6} {:>6} {:>9} {:>8} {:>12}",
            "cases", "agree", "disagree", "refused", "max ulps"
        );
        let mut tot = [0usize; 4];
        for (g, (r, u)) in &self.rows {
            println!(
                "{g:<w$} {:>6} {:>6} {:>9} {:>8} {:>12.1}",
                r[0], r[1], r[2], r[3], u
            );
            for i in 0..4 {
                tot[i] += r[i];
            }
        }
        if total {
            println!(
                "{:<w$} {:>6} {:>6} {:>9} {:>8}",
                "total", tot[0], tot[1], tot[2], tot[3]
            );
        }
    }
}
