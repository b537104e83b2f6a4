//! `adora`: the command-line program of Adora, a verified reference engine for automatic
//! differentiation of array programs. See `adora --help` and the README.

mod cli;
mod fuzz;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // Every command runs on a thread with a large stack: parsing, checking and evaluation
    // are recursive, and deep programs must produce errors, never stack overflows.
    let code = adora_core::with_stack(move || cli::run(args));
    ExitCode::from(code)
}
