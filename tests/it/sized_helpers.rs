//! Helper `def`s with size parameters on the command line (docs/language.md, "Helpers
//! with size parameters"): one helper at two sizes runs under every engine, and the
//! errors of a call (inconsistent sizes, an unknown size name, a negative instance size)
//! are exit 2 with file:line:col.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

/// Writes `src` to a file of its own under the temporary directory.
fn program(name: &str, src: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "adora-sized-helpers-{}-{name}.adl",
        std::process::id()
    ));
    std::fs::write(&path, src).expect("writing a temporary program");
    path
}

const DOT: &str = "def dot(x: R[n], y: R[n]) -> R = sum(x * y)\n";

#[test]
fn a_helper_at_two_sizes_runs_under_every_engine() {
    let f = program(
        "two",
        &format!("{DOT}def main(a: R[p], b: R[q]) -> R = dot(a, a) * dot(b, b)"),
    );
    let f = f.to_str().unwrap();
    let o = adora(&[
        "grad",
        f,
        "--engine",
        "all",
        "--input",
        "a=[1, 2]",
        "--input",
        "b=[1, 0, -1]",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    // dot(a, a) = 5, dot(b, b) = 2: the gradient is (2a * 2, 2b * 5).
    assert!(out.contains("value: 10\n"), "{out}");
    assert!(out.contains("a: R[2] = [4, 8]"), "{out}");
    assert!(out.contains("b: R[3] = [10, 0, -10]"), "{out}");
    for e in ["dual", "dual-scalar", "linear"] {
        assert!(
            out.contains(&format!("engine {e}: agrees (exactly)")),
            "{out}"
        );
    }
}

#[test]
fn inconsistent_sizes_at_a_call_are_a_type_error_naming_both() {
    let f = program(
        "inconsistent",
        &format!("{DOT}def main(a: R[3], b: R[4]) -> R = dot(a, b)"),
    );
    let o = adora(&[
        "eval",
        f.to_str().unwrap(),
        "--input",
        "a=[1, 2, 3]",
        "--input",
        "b=[1, 2, 3, 4]",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("inconsistent.adl:2:42: error[type]: inconsistent size `n` in the call of `dot`: argument `x` gives n = 3, but argument `y` gives n = 4"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_unknown_size_name_in_a_helper_is_an_error_at_the_helper() {
    let f = program(
        "unknown",
        "def f(x: R[n]) -> R[m] = x\ndef main(a: R[2]) -> R = sum(a)",
    );
    let o = adora(&["eval", f.to_str().unwrap(), "--input", "a=[1, 2]"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("unknown.adl:1:21: error[name]: unknown size `m`"),
        "{err}"
    );
}

#[test]
fn a_negative_size_of_an_instance_is_a_shape_error_pointing_at_the_call() {
    let f = program(
        "negative",
        "def f(x: R[n]) -> R = sum(build (n - 2) (i => x[i]))\ndef main(a: R[k]) -> R = f(a)",
    );
    let o = adora(&["grad", f.to_str().unwrap(), "--input", "a=[1]"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(
            "negative.adl:1:34: error[shape]: the size `n - 2` (n = 1) is -1, which is negative"
        ),
        "{err}"
    );
    assert!(err.contains("`f` at n = 1 instantiated here"), "{err}");
}
