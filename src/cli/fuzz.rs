//! `adora fuzz`: the command line of the fuzzer (`crate::fuzz`, docs/fuzzing.md).

use crate::fuzz::{self, Options};
use clap::Args;
use std::path::PathBuf;

/// Options of `adora fuzz`.
#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// Fuzz for this many seconds (default 60 when `--runs` is not given).
    #[arg(long, value_name = "N", conflicts_with = "runs")]
    seconds: Option<u64>,
    /// Run exactly this many executions (deterministic for a given seed).
    #[arg(long, value_name = "N")]
    runs: Option<u64>,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker processes at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Entry point under test: parse, check, eval, grad, jvp, vjp, show, cost, or all.
    #[arg(long, default_value = "all")]
    target: String,
    /// A corpus directory of `.adl` seed programs (repeatable; default `specs/programs`
    /// and `specs/bad`).
    #[arg(long, value_name = "DIR")]
    corpus: Vec<PathBuf>,
    /// Where findings are written.
    #[arg(long, value_name = "DIR", default_value = "fuzz/findings")]
    findings: PathBuf,
    /// Seconds one execution may take before it is a finding (`slow`).
    #[arg(long, value_name = "S", default_value_t = 10)]
    timeout: u64,
    /// Evaluation step limit of every execution.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_steps: u64,
    /// Address-space limit of each worker process, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 6144)]
    memory_mib: u64,
    /// Print the input of execution N (its command line and program) instead of fuzzing.
    #[arg(long, value_name = "N")]
    print_execution: Option<u64>,
    /// Internal: run as a worker of executions `--from..--to`.
    #[arg(long, hide = true)]
    worker: bool,
    /// Internal: the worker's first execution.
    #[arg(long, hide = true, default_value_t = 0)]
    from: u64,
    /// Internal: the worker's end of executions.
    #[arg(long, hide = true, default_value_t = 0)]
    to: u64,
}

/// `adora fuzz`: exit 0 without findings, 1 with findings, 2 on bad usage.
pub fn fuzz(a: &FuzzArgs) -> u8 {
    let opts = Options {
        seed: a.seed,
        runs: a.runs,
        seconds: match (a.seconds, a.runs) {
            (None, None) => Some(60),
            (s, _) => s,
        },
        jobs: a.jobs.max(1),
        target_name: a.target.clone(),
        corpus: if a.corpus.is_empty() {
            fuzz::corpus::default_dirs()
        } else {
            a.corpus.clone()
        },
        findings: a.findings.clone(),
        timeout: a.timeout.max(1),
        max_steps: a.max_steps,
        memory_mib: a.memory_mib,
    };
    if a.worker {
        return match fuzz::worker::run(&opts, a.from, a.to) {
            Ok(()) => super::OK,
            Err(e) => {
                eprintln!("error[internal]: {e}");
                super::INTERNAL
            }
        };
    }
    if let Some(i) = a.print_execution {
        return match opts.generator() {
            Ok(g) => {
                let case = g.case(opts.seed, i);
                println!("-- {}\n{}", case.command_line("FILE.adl"), case.src);
                super::OK
            }
            Err(e) => {
                eprintln!("error[input]: {e}");
                super::BAD_INPUT
            }
        };
    }
    match fuzz::run(&opts) {
        Ok(r) => {
            print!("{}", r.text);
            if r.files.is_empty() {
                super::OK
            } else {
                super::FAILED
            }
        }
        Err(e) => {
            eprintln!("error[input]: {e}");
            super::BAD_INPUT
        }
    }
}
