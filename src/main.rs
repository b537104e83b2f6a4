//! `adora`: the command-line program of Adora, a verified reference engine for automatic
//! differentiation of array programs. See `adora --help` and the README.

mod cli;
mod export;
mod fuzz;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::Cli::parse();
    // Every command runs on a thread with a large stack: parsing, checking and evaluation
    // are recursive, and deep programs must produce errors, never stack overflows.
    let code = adora_core::with_stack(move || cli::run(args));
    ExitCode::from(code)
}

/// Lets a closed pipe end the process quietly, as it does other Unix filters
/// (`adora eval F | head -1`): Rust ignores `SIGPIPE`, so a write to a closed pipe would
/// otherwise panic in `println!` (found by `adora fuzz`, docs/fuzzing.md).
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread is spawned; `SIG_DFL` is a valid
    // disposition for `SIGPIPE`.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
