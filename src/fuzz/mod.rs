//! `adora fuzz`: a fuzzer of Adora's own entry points (docs/fuzzing.md). Inputs come from
//! the golden programs and the bad-input corpus (mutated at the token and byte level and
//! spliced), from the typed program generators of the property suite, and from
//! adversarial programs at the language's limits. Executions run in worker processes
//! (`worker`) supervised by `supervise`, so that panics, aborts, stack overflows and
//! executions past the time limit are all reported as findings (`findings`).

pub mod case;
pub mod corpus;
pub mod exec;
pub mod findings;
pub mod gen;
pub mod mutate;
pub mod rng;
pub mod supervise;
pub mod worker;

use gen::Generator;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An entry point under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The parser and the pretty-printer (`adora show --stage parse`).
    Parse,
    /// Parsing, checking and elaboration (`adora show --stage inline`).
    Check,
    /// The evaluator (`adora eval`).
    Eval,
    /// Gradients by an engine (`adora grad`).
    Grad,
    /// JVPs by an engine (`adora jvp`).
    Jvp,
    /// VJPs by an engine (`adora vjp`).
    Vjp,
    /// Every stage of `adora show`.
    Show,
    /// The cost models (`adora cost --engine E`).
    Cost,
    /// Self-test of the fuzzer (hidden): panics on some inputs.
    SelftestPanic,
    /// Self-test of the fuzzer (hidden): aborts the process on some inputs.
    SelftestAbort,
    /// Self-test of the fuzzer (hidden): hangs on some inputs.
    SelftestHang,
}

impl Target {
    /// The targets `--target all` runs.
    pub const PUBLIC: [Target; 8] = [
        Target::Parse,
        Target::Check,
        Target::Eval,
        Target::Grad,
        Target::Jvp,
        Target::Vjp,
        Target::Show,
        Target::Cost,
    ];
    const HIDDEN: [Target; 3] = [
        Target::SelftestPanic,
        Target::SelftestAbort,
        Target::SelftestHang,
    ];

    /// The target's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Parse => "parse",
            Target::Check => "check",
            Target::Eval => "eval",
            Target::Grad => "grad",
            Target::Jvp => "jvp",
            Target::Vjp => "vjp",
            Target::Show => "show",
            Target::Cost => "cost",
            Target::SelftestPanic => "selftest-panic",
            Target::SelftestAbort => "selftest-abort",
            Target::SelftestHang => "selftest-hang",
        }
    }

    /// The targets `name` selects: one target, or every public one for `all`.
    pub fn select(name: &str) -> Option<Vec<Target>> {
        if name == "all" {
            return Some(Target::PUBLIC.to_vec());
        }
        Target::PUBLIC
            .iter()
            .chain(&Target::HIDDEN)
            .find(|t| t.name() == name)
            .map(|t| vec![*t])
    }
}

/// The options of a fuzzing run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of every random choice.
    pub seed: u64,
    /// Stop after this many executions.
    pub runs: Option<u64>,
    /// Stop handing out executions after this many seconds.
    pub seconds: Option<u64>,
    /// Worker processes run at once.
    pub jobs: usize,
    /// `--target`: a target's name or `all`.
    pub target_name: String,
    /// Corpus directories.
    pub corpus: Vec<PathBuf>,
    /// Where findings are written.
    pub findings: PathBuf,
    /// Seconds an execution may run before its worker is killed and it is a finding.
    pub timeout: u64,
    /// Step limit of every evaluation.
    pub max_steps: u64,
    /// Address-space limit of a worker, in MiB.
    pub memory_mib: u64,
}

impl Options {
    /// The generator of this run's inputs (reads the corpus).
    pub fn generator(&self) -> Result<Generator, String> {
        let targets = Target::select(&self.target_name).ok_or_else(|| {
            let names: Vec<&str> = Target::PUBLIC.iter().map(|t| t.name()).collect();
            format!(
                "unknown fuzz target `{}`; targets: {}, all",
                self.target_name,
                names.join(", ")
            )
        })?;
        Ok(Generator {
            seeds: corpus::load(&self.corpus)?,
            targets,
            max_steps: self.max_steps,
        })
    }

    /// The flags that give a worker the same inputs as its supervisor.
    pub fn worker_args(&self) -> Vec<String> {
        let mut a = vec![
            "--seed".to_string(),
            self.seed.to_string(),
            "--target".into(),
            self.target_name.clone(),
            "--max-steps".into(),
            self.max_steps.to_string(),
        ];
        for c in &self.corpus {
            a.push("--corpus".into());
            a.push(c.display().to_string());
        }
        a
    }
}

/// The result of a fuzzing run.
#[derive(Debug)]
pub struct Report {
    /// The text printed for the user.
    pub text: String,
    /// The finding files written.
    pub files: Vec<PathBuf>,
}

/// Runs the fuzzer.
pub fn run(opts: &Options) -> Result<Report, String> {
    let gen = opts.generator()?;
    let start = Instant::now();
    let deadline = opts.seconds.map(|s| start + Duration::from_secs(s));
    let tally = supervise::supervise(opts, &gen, deadline);
    let seconds = start.elapsed().as_secs_f64();
    let executions = tally.executions();
    let findings = tally
        .findings
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let files = findings.write(&opts.findings, &gen, opts).map_err(|e| {
        format!(
            "cannot write findings into `{}`: {e}",
            opts.findings.display()
        )
    })?;
    let mut text = format!(
        "fuzz: seed {}, target {}, {} job(s), corpus of {} programs\n",
        opts.seed,
        opts.target_name,
        opts.jobs,
        gen.seeds.len()
    );
    let per = tally
        .per_target
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    for (t, [ok, rej, found]) in &per {
        text.push_str(&format!(
            "  {t:<15} {:>9} executions: {ok} succeeded, {rej} rejected the input, {found} findings\n",
            ok + rej + found
        ));
    }
    text.push_str(&format!(
        "executions: {executions}  time: {seconds:.1} s  execs/s: {:.0}  findings: {}\n",
        executions as f64 / seconds.max(1e-9),
        findings.0.len()
    ));
    let (micros, i, t) = tally
        .slowest
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if executions > 0 {
        text.push_str(&format!(
            "slowest finished execution: {:.3} s (execution {i}, target {t})\n",
            micros as f64 / 1e6
        ));
    }
    for (f, path) in findings.0.values().zip(&files) {
        text.push_str(&format!(
            "finding {} ({}, target {}, {} times): {}\n",
            path.display(),
            f.kind,
            f.target,
            f.count,
            f.detail
        ));
    }
    Ok(Report { text, files })
}
