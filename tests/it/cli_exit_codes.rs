//! Exit codes of the command line (0 success, 1 a check or comparison failed, 2 bad usage
//! or bad input, 3 an internal error) and errors printed exactly once. Internal errors
//! cannot be caused by any input (they are bugs), so their mapping to exit 3 and their
//! place in `--engine all` are tested on the classification functions, in the unit tests
//! of `src/cli/error.rs` and `src/cli/compare.rs`.

use super::support::{adora, stderr};
use std::path::PathBuf;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-exit-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

#[test]
fn a_program_error_is_printed_once_with_its_position() {
    let p = file("once", "unbound.adl", "def main(x: R) -> R =\n  x + y\n");
    let o = adora(&["eval", p.to_str().unwrap(), "--input", "x=1"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("unbound variable `y`").count(), 1, "{err}");
    assert!(
        err.contains("unbound.adl:2:7: error[name]: unbound variable `y`"),
        "{err}"
    );
    // The snippet with the caret is still there.
    assert!(err.contains("x + y") && err.contains('┬'), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn an_input_error_is_printed_once() {
    let p = file("input", "dot.adl", "def main(x: R[3]) -> R = sum(x)\n");
    let o = adora(&["grad", p.to_str().unwrap(), "--input", "x=[1, 2"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--input x:1:"), "{err}");
    let first = err.lines().next().unwrap_or_default().to_string();
    let message = first.split("]: ").nth(1).expect("`error[code]: message`");
    assert_eq!(err.matches(message).count(), 1, "{err}");
}

#[test]
fn success_is_0_and_bad_usage_is_2() {
    let p = file("codes", "sq.adl", "def main(x: R) -> R = x * x\n");
    let p = p.to_str().unwrap();
    for engine in ["reference", "all"] {
        let o = adora(&["grad", p, "--input", "x=3", "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{engine}: {}", stderr(&o));
    }
    let o = adora(&["grad", p, "--input", "x=3", "--engine", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = adora(&["grad", p]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("bug in Adora"), "{}", stderr(&o));
}

#[test]
fn help_lists_every_exit_code() {
    let o = adora(&["--help"]);
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0));
    for needle in [
        "0 success",
        "1 a check failed",
        "2 bad usage",
        "3 an internal error",
    ] {
        assert!(help.contains(needle), "`{needle}` missing from\n{help}");
    }
}
