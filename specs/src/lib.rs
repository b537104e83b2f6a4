//! `adora-specs`: the golden programs (`specs/programs/**.adl`), the bad-input corpus
//! (`specs/bad/**.adl`) and the runner that checks them (docs/golden-format.md).
//!
//! A case is a `.adl` file whose leading comments state inputs and expectations (format:
//! `docs/golden-format.md`; the expectations were derived independently of Adora, by the
//! scripts in `specs/derivations/`). The runner is a library so that the command line and
//! the engines of later issues can reuse it:
//!
//! * [`discover`] lists the cases under a directory, [`load_case`] / [`parse_case`] read
//!   their headers;
//! * [`run_case`] checks a golden case: value and stats from the evaluator, and every
//!   derivative header against every [`Engine`] given, asked through the engine harness
//!   (`adora_rewrites::engine::harness`); an engine declines a program by answering
//!   `ErrorKind::Unsupported` (a skip); any other error,
//!   `ErrorKind::Internal` included, is a failure;
//! * [`run_bad_case`] checks that a bad case fails with the stated code, position and
//!   message;
//! * [`coverage`] lists the language constructs a case exercises;
//! * [`printed`] checks printed-program headers (`-- gradient-program[dual]:`): the exact
//!   text an engine prints for the case, and that it evaluates to the expectations.

pub mod bad;
pub mod case;
pub mod compare;
pub mod coverage;
pub mod engine;
pub mod golden;
pub mod printed;
pub mod sized;

pub use bad::run_bad_case;
pub use case::{parse_case, Case};
pub use engine::{Derivatives, Engine, Reference, Runtime};
pub use golden::{run_case, Outcome};

use std::path::{Path, PathBuf};

/// Every `.adl` file under `root` (recursively), sorted by path. A missing or unreadable
/// directory yields no files.
pub fn discover(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "adl") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Reads and parses the case at `path` (errors name the file).
pub fn load_case(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_case(path, &text)
}

/// What running a whole corpus found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CorpusReport {
    /// Number of case files found.
    pub cases: usize,
    /// Every failure, prefixed with its file.
    pub failures: Vec<String>,
    /// Engine questions declined (`file: engine: question`).
    pub skipped: Vec<String>,
    /// Number of checks made (values, derivatives per engine, bad cases).
    pub checked: usize,
}

/// Runs every golden case under `dir` against `engines` (see [`run_case`]).
pub fn run_golden_corpus(dir: &Path, engines: &[&dyn Engine]) -> CorpusReport {
    let files = discover(dir);
    let mut report = CorpusReport {
        cases: files.len(),
        ..CorpusReport::default()
    };
    for path in &files {
        match load_case(path) {
            Err(e) => report.failures.push(e),
            Ok(case) => {
                let out = run_case(&case, engines);
                report.checked += out.checked.len();
                report.failures.extend(out.failures);
                let name = case.name();
                report
                    .skipped
                    .extend(out.skipped.into_iter().map(|s| format!("{name}: {s}")));
            }
        }
    }
    report
}

/// Runs every bad case under `dir` (see [`run_bad_case`]).
pub fn run_bad_corpus(dir: &Path) -> CorpusReport {
    let files = discover(dir);
    let mut report = CorpusReport {
        cases: files.len(),
        ..CorpusReport::default()
    };
    for path in &files {
        report.checked += 1;
        if let Err(e) = load_case(path).and_then(|case| run_bad_case(&case)) {
            report.failures.push(e);
        }
    }
    report
}

/// The `specs/` directory of this crate (where `programs/` and `bad/` live).
pub fn specs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
