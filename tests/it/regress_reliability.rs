//! Regression tests of the command line's reliability (issue 19): printing literals of any
//! length, the f64 comparison of `--engine all` (NaN, infinities), resource limits in
//! `--engine all`, input errors that name their flag or JSON key, the help of `show`,
//! values starting with `-`, and empty arrays as value literals.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("adora-rel-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_literal_with_more_places_than_a_format_width_prints() {
    // 65535 places: beyond `format!`'s width limit (u16::MAX).
    let places = format!("{}1", "0".repeat(65534));
    let p = file(
        "long",
        "long.adl",
        &format!("def main(x: R) -> R = x * 0.{places}\n"),
    );
    for stage in ["parse", "inline", "bot", "grad"] {
        let o = adora(&["show", &p, "--stage", stage]);
        let err: String = stderr(&o).chars().take(300).collect();
        assert_eq!(o.status.code(), Some(0), "{stage}: {err}");
        assert!(stdout(&o).contains(&places), "{stage}");
    }
    let o = adora(&["linearize", &p]);
    assert_eq!(o.status.code(), Some(0), "linearize");
    assert!(stdout(&o).contains(&places));
    // The printed program parses again and prints the same.
    let printed = stdout(&adora(&["show", &p, "--stage", "inline"]));
    let again = file("long", "again.adl", &printed);
    let o = adora(&["show", &again, "--stage", "inline"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o).len());
    assert!(
        stdout(&o) == printed,
        "the printed program does not print the same"
    );
}

#[test]
fn nan_agrees_with_nan_and_infinity_with_infinity_in_f64() {
    for (name, src, shown) in [
        ("nan", "def main(x: R) -> R = sqrt(-1.0) + x\n", "nan"),
        ("inf", "def main(x: R) -> R = exp(1000.0) + x\n", "inf"),
    ] {
        let p = file(name, "f.adl", src);
        let args = [
            "grad",
            &p,
            "--engine",
            "all",
            "--numeric",
            "f64",
            "--input",
            "x=1",
        ];
        let o = adora(&args);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{name}: {out}{}", stderr(&o));
        assert!(out.contains(shown), "{name}: {out}");
        assert!(!out.contains("differs"), "{name}: {out}");
        // every registered engine besides the reference, except the exact-only ones
        // (engine `pullback` declines f64: "does not implement gradients in this
        // numeric mode")
        let engines = adora_rewrites::engine::registry().len() - 1;
        let declined = out.matches("in this numeric mode").count();
        assert_eq!(
            out.matches(": agrees").count(),
            engines - declined,
            "{name}: {out}"
        );
        assert!(declined <= 1, "{name}: {out}");
    }
}

#[test]
fn an_engine_at_a_resource_limit_is_not_a_difference() {
    let p = file("steps", "id.adl", "def main(x: R) -> R = x\n");
    let o = adora(&[
        "grad",
        &p,
        "--engine",
        "all",
        "--max-steps",
        "1",
        "--input",
        "x=1",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{}", stderr(&o));
    assert!(!out.contains("differs"), "{out}");
    assert!(out.contains("resource limit: "), "{out}");
    assert!(out.contains("error[resource]"), "{out}");
    // JSON: the row says so, and `agree` is false (the exit code is not 0).
    let o = adora(&[
        "grad",
        &p,
        "--engine",
        "all",
        "--max-steps",
        "1",
        "--input",
        "x=1",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(j["agree"], false);
    let statuses: Vec<&str> = j["engines"]
        .as_object()
        .unwrap()
        .values()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert!(statuses.contains(&"resource-limit"), "{j}");
    assert!(!statuses.contains(&"differs"), "{j}");
}

#[test]
fn a_reference_at_a_resource_limit_is_the_commands_error() {
    let p = file("steps-ref", "cube.adl", "def main(x: R) -> R = x * x * x\n");
    let o = adora(&[
        "grad",
        &p,
        "--engine",
        "all",
        "--max-steps",
        "1",
        "--input",
        "x=1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cube.adl:1:23: error[resource]"),
        "{}",
        stderr(&o)
    );
}

/// The first line of the error of `args`, which must exit 2.
fn input_error(args: &[&str]) -> String {
    let o = adora(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    err.lines().next().unwrap_or_default().to_string()
}

#[test]
fn input_errors_name_their_flag_or_json_key_once() {
    let p = file("inputs", "id.adl", "def main(x: R) -> R = x\n");
    let bad = file("inputs", "bad.json", r#"{"x": "3/0"}"#);
    let unknown = file("inputs", "unknown.json", r#"{"y": 1}"#);
    let good = file("inputs", "good.json", r#"{"x": 1}"#);
    let e = input_error(&["eval", &p, "--inputs", &bad]);
    assert!(
        e.ends_with(&format!(
            r#"error[input]: {bad}: key "x": expected R, found the string "3/0""#
        )),
        "{e}"
    );
    assert_eq!(e.matches(bad.as_str()).count(), 1, "{e}");
    let e = input_error(&["eval", &p, "--inputs", &unknown]);
    assert!(
        e.contains(&format!(r#"{unknown}: key "y": `main` has no input `y`"#)),
        "{e}"
    );
    let e = input_error(&["eval", &p, "--input", "y=1"]);
    assert!(e.contains("--input y=1: `main` has no input `y`"), "{e}");
    let e = input_error(&["eval", &p, "--input", "x=1", "--input", "x=2"]);
    assert!(
        e.contains("--input x=2: input `x` is given twice (first by --input x=1)"),
        "{e}"
    );
    let e = input_error(&["eval", &p, "--inputs", &good, "--input", "x=2"]);
    assert!(
        e.contains(&format!(
            r#"--input x=2: input `x` is given twice (first by {good}: key "x")"#
        )),
        "{e}"
    );
    let e = input_error(&["eval", &p, "--input", "x"]);
    assert!(e.contains("--input x: expected NAME=LITERAL"), "{e}");
    let e = input_error(&[
        "jvp",
        &p,
        "--input",
        "x=1",
        "--tangent",
        "x=1",
        "--tangent",
        "x=2",
    ]);
    assert!(
        e.contains("--tangent x=2: the tangent of `x` is given twice"),
        "{e}"
    );
    let e = input_error(&["jvp", &p, "--input", "x=1", "--tangent", "z=1"]);
    assert!(e.contains("--tangent z=1: `main` has no input `z`"), "{e}");
}

#[test]
fn show_help_lists_every_stage() {
    for flag in ["-h", "--help"] {
        let o = adora(&["show", flag]);
        assert_eq!(o.status.code(), Some(0));
        let help = stdout(&o);
        for stage in ["parse", "inline", "bot", "delta", "grad", "vjp", "jvp"] {
            assert!(help.contains(stage), "{flag}: {stage} missing:\n{help}");
        }
    }
}

#[test]
fn a_cotangent_may_start_with_a_minus_sign() {
    let p = file("minus", "id.adl", "def main(x: R) -> R = 3 * x\n");
    let o = adora(&["vjp", &p, "--input", "x=-1", "--cotangent", "-1/2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("x: -3/2"), "{}", stdout(&o));
    let o = adora(&["jvp", &p, "--input", "x=-1", "--tangent", "x=-1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("tangent: -3"), "{}", stdout(&o));
}

#[test]
fn empty_arrays_are_value_literals() {
    let p = file(
        "empty",
        "e.adl",
        "def main(x: R[2, 0], y: R) -> R = sum(x) + y\n",
    );
    let o = adora(&["grad", &p, "--input", "x=[[], []]", "--input", "y=2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("x: R[2,0] = [[], []]"),
        "{}",
        stdout(&o)
    );
    let p = file("empty", "v.adl", "def main(x: R[0]) -> R[0] = 2 * x\n");
    let o = adora(&[
        "vjp",
        &p,
        "--input",
        "x=[]",
        "--cotangent",
        "[ ]",
        "--engine",
        "all",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // A shape mismatch is still an error with its position.
    let e = input_error(&["vjp", &p, "--input", "x=[[]]", "--cotangent", "[]"]);
    assert!(e.contains("--input x:1:"), "{e}");
    // `[]` is still not an expression in programs (docs/language.md).
    let q = file("empty", "bad.adl", "def main(x: R) -> R = sum([])\n");
    let o = adora(&["eval", &q, "--input", "x=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn every_engines_errors_name_a_source_position() {
    let squarings: String = (1..=16)
        .map(|k| format!("  let x{k} = x{0} * x{0} in\n", k - 1))
        .collect();
    let cases: [(&str, String, &[&str], &str); 5] = [
        (
            "div",
            "def main(x: R) -> R =\n  1 / x\n".into(),
            &["--input", "x=0", "--strict"],
            ":2:3: error[runtime]: division by zero",
        ),
        (
            "exp",
            "def main(x: R) -> R =\n  select(x > 0, x, exp(x))\n".into(),
            &["--input", "x=1"],
            ":2:20: error[non-rational]",
        ),
        (
            "overflow",
            "def main(a: R[3]) -> R =\n  a[9223372036854775808]\n".into(),
            &["--input", "a=[1, 2, 3]"],
            ":2:5: error[runtime]: integer overflow",
        ),
        (
            "steps",
            "def main(x: R) -> R =\n  x * x * x * x\n".into(),
            &["--input", "x=2", "--max-steps", "3"],
            ":2:3: error[resource]: evaluation step limit (3) exceeded",
        ),
        (
            "bits",
            format!("def main(x0: R) -> R =\n{squarings}  x16\n"),
            &["--input", "x0=1/3"],
            ":17:13: error[resource]: exact rational larger than",
        ),
    ];
    for (name, src, args, want) in cases {
        let p = file("positions", &format!("{name}.adl"), &src);
        for engine in ["reference", "dual", "dual-scalar", "linear"] {
            let mut all = vec!["grad", p.as_str(), "--engine", engine];
            all.extend_from_slice(args);
            let o = adora(&all);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{name} {engine}: {err}");
            let first = err.lines().next().unwrap_or_default();
            assert!(
                first.starts_with(&format!("{p}{want}")),
                "{name} {engine}: {err}"
            );
        }
    }
}

#[test]
fn an_engine_error_the_reference_does_not_meet_is_placed_at_the_body() {
    let p = file("body", "id.adl", "def main(x: R) -> R =\n  x\n");
    for engine in ["dual", "linear"] {
        let o = adora(&[
            "grad",
            &p,
            "--engine",
            engine,
            "--max-steps",
            "1",
            "--input",
            "x=1",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{engine}: {err}");
        assert!(
            err.starts_with(&format!("{p}:2:3: error[resource]")),
            "{engine}: {err}"
        );
        assert!(err.contains("no source positions"), "{engine}: {err}");
    }
    let o = adora(&[
        "cost",
        &p,
        "--engine",
        "dual",
        "--max-steps",
        "1",
        "--input",
        "x=1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(&format!("{p}:2:3: error[resource]")),
        "{err}"
    );
}
