//! The command line on inferred literal types (docs/language.md, "Literal typing"):
//! programs from the language issue run, warnings go to standard error with
//! `file:line:col` without changing the exit code (and into JSON output), and the
//! newcomers' errors print a `help:` line.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-lit-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

#[test]
fn let_bound_literals_take_the_base_of_their_uses() {
    let p = file(
        "dot",
        "def main(x: R[3]) -> R = let c = [1, 2, 3] in sum(x * c)\n",
    );
    let o = adora(&["grad", p.to_str().unwrap(), "--input", "x=[1, 1/2, 1/3]"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "value: 3\ngradient:\n  x: R[3] = [1, 2, 3]\n");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // `1/2` bound by a let and used as a real is the rational 1/2 (no warning).
    let p = file("half", "def main(x: R) -> R = let h = 1/2 in x * h\n");
    let o = adora(&["eval", p.to_str().unwrap(), "--input", "x=3"]);
    assert_eq!(stdout(&o), "value: 3/2 ≈ 1.5\n", "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn a_truncating_constant_division_warns_with_its_position_and_exits_0() {
    let p = file(
        "trunc",
        "def main(x: R) -> R =\n  let h = 1/2 in x * real(h)\n",
    );
    let path = p.to_str().unwrap();
    let o = adora(&["eval", path, "--input", "x=3"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(stdout(&o), "value: 0\n");
    let head = format!(
        "{path}:2:11: warning[type]: integer division of constants truncates: 1/2 is 0 on Z"
    );
    assert!(err.starts_with(&head), "{err}");
    assert_eq!(err.matches("warning[type]").count(), 1, "{err}");
    assert!(
        err.contains("\nhelp: for the rational 1/2 write `1.0 / 2`"),
        "{err}"
    );
    // In JSON output too, on standard output, and still on standard error.
    let o = adora(&["eval", path, "--input", "x=3", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let w = &j["warnings"][0];
    assert_eq!(
        (w["line"].as_u64(), w["column"].as_u64()),
        (Some(2), Some(11))
    );
    assert_eq!(w["code"], "type");
    assert!(w["help"][0].as_str().unwrap().contains("1.0 / 2"), "{j}");
    assert!(stderr(&o).contains("warning[type]"));
    let o = adora(&[
        "grad", path, "--input", "x=3", "--format", "json", "--engine", "all",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["warnings"].as_array().map(Vec::len), Some(1), "{j}");
    // A program without warnings has no "warnings" key.
    let q = file("quiet", "def main(x: R) -> R = x * (1/2)\n");
    let o = adora(&[
        "eval",
        q.to_str().unwrap(),
        "--input",
        "x=3",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(j.get("warnings").is_none(), "{j}");
}

/// Runs `eval` on `src`; asserts exit 2 and returns standard error.
fn rejected(test: &str, src: &str) -> (String, String) {
    let p = file(test, src);
    let path = p.to_str().unwrap().to_string();
    let o = adora(&["eval", &path, "--input", "x=[1, 2, 3]"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("error[").count(), 1, "{err}");
    (path, err)
}

#[test]
fn newcomers_errors_print_a_help_line_with_the_position() {
    let (p, err) = rejected("real", "def main(x: R[3], i: Z) -> R = x[i] * i\n");
    assert!(
        err.starts_with(&format!(
            "{p}:1:32: error[type]: mismatched operand types for `*`: R and Z"
        )),
        "{err}"
    );
    assert!(err.ends_with("help: convert with `real(i)`\n"), "{err}");
    let (p, err) = rejected("pow", "def main(x: R[3]) -> R = sum(x ** 2)\n");
    assert!(
        err.starts_with(&format!("{p}:1:32: error[syntax]: `**` is not an operator")),
        "{err}"
    );
    assert!(err.ends_with("help: write `pow(x, 2)`\n"), "{err}");
    let (p, err) = rejected("slice", "def main(x: R[3]) -> R = sum(x[1:3])\n");
    assert!(
        err.starts_with(&format!("{p}:1:33: error[syntax]: slices")),
        "{err}"
    );
    assert!(
        err.contains("help: write `gather([2], x, i => [i + 1])`"),
        "{err}"
    );
    let (p, err) = rejected("max", "def main(x: R[3]) -> R = max(x)\n");
    assert!(
        err.starts_with(&format!(
            "{p}:1:26: error[syntax]: `max` takes 2 arguments, found 1"
        )),
        "{err}"
    );
    assert!(
        err.contains("help: `max` takes two arrays (elementwise)"),
        "{err}"
    );
    assert!(err.contains("`reduce(max, x[0], x)`"), "{err}");
    let (p, err) = rejected("both", "def main(x: R[3]) -> R = let n = 2 in x[n] * n\n");
    assert!(
        err.starts_with(&format!(
            "{p}:1:39: error[type]: `n` is used both as Z and as R"
        )),
        "{err}"
    );
    assert!(
        err.contains("help: keep `n` an integer and convert it where a real is needed: `real(n)`"),
        "{err}"
    );
}
