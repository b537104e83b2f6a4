//! What the command-line tests share: running the built `adora` binary and reading its
//! output.

use std::process::{Command, Output};

/// Runs the `adora` binary of this build with `args` and waits for it.
pub fn adora(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adora"))
        .args(args)
        .output()
        .expect("running adora")
}

/// Standard output of a run, lossily decoded.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error of a run, lossily decoded.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
