//! Inputs and outputs for float users (docs/language.md, "Non-finite literals" and "Inputs";
//! docs/json.md, "Values"): `inf`/`nan` in programs, `--input` and `--inputs` (f64 only;
//! exact mode rejects them by name and position), `jvp` without `--tangent`, `vjp`
//! without `--cotangent`, `--json-numbers`, and the JSON form of non-finite results fed
//! back as inputs.
use crate::support::{adora, stderr, stdout};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("adora-float-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.to_str().unwrap().to_string()
}

/// The JSON a successful run printed.
fn json_of(args: &[&str]) -> Value {
    let o = adora(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

/// The standard error of a run that must exit 2.
fn error_2(args: &[&str]) -> String {
    let o = adora(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    stderr(&o)
}

const MAXPOOL: &str = "def main(x: R[3]) -> R =\n  reduce(max, -inf, x) + min(x[0], inf)\n";

#[test]
fn inf_in_a_program_runs_in_f64_and_is_rejected_exactly_at_its_position() {
    let p = file("program", "maxpool.adl", MAXPOOL);
    let j = json_of(&[
        "grad",
        &p,
        "--numeric",
        "f64",
        "--input",
        "x=[1, 3, 2]",
        "--format",
        "json",
    ]);
    assert_eq!(j, json!({"value": 4.0, "gradient": {"x": [1.0, 1.0, 0.0]}}));
    let o = adora(&[
        "grad",
        &p,
        "--numeric",
        "f64",
        "--engine",
        "all",
        "--input",
        "x=[1, 3, 2]",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    for cmd in ["eval", "grad"] {
        let e = error_2(&[cmd, &p, "--input", "x=[1, 3, 2]"]);
        assert!(
            e.contains(&format!(
                "{p}:2:16: error[non-rational]: `inf` is not a rational number; run with --numeric f64"
            )),
            "{e}"
        );
        assert_eq!(e.matches("error[").count(), 1, "{e}");
    }
    // Rejected even where evaluation would not reach it.
    let q = file(
        "program",
        "unused.adl",
        "def main(x: R) -> R = if x > 0 then x else inf\n",
    );
    let e = error_2(&["eval", &q, "--input", "x=1"]);
    assert!(e.contains(&format!("{q}:1:44: error[non-rational]")), "{e}");
}

#[test]
fn inf_and_nan_inputs_are_f64_only_and_errors_name_the_flag_or_key() {
    let p = file(
        "inputs",
        "sum.adl",
        "def main(x: R[2], y: R) -> R = sum(x) * y\n",
    );
    let j = json_of(&[
        "eval",
        &p,
        "--numeric",
        "f64",
        "--input",
        "x=[1, -inf]",
        "--input",
        "y=2",
        "--format",
        "json",
    ]);
    assert_eq!(j["value"], json!("-inf"));
    let e = error_2(&["eval", &p, "--input", "x=[1, -inf]", "--input", "y=2"]);
    assert!(
        e.contains("--input x:1:5: error[non-rational]: `inf` is not a rational number; run with --numeric f64"),
        "{e}"
    );
    let inputs = file("inputs", "in.json", r#"{"x": [1, "nan"], "y": "inf"}"#);
    let j = json_of(&[
        "eval",
        &p,
        "--numeric",
        "f64",
        "--inputs",
        &inputs,
        "--format",
        "json",
    ]);
    assert_eq!(j["value"], json!("nan"));
    let e = error_2(&["eval", &p, "--inputs", &inputs]);
    assert!(
        e.contains(&format!(
            r#"error[non-rational]: {inputs}: key "x": `nan` is not a rational number; run with --numeric f64"#
        )),
        "{e}"
    );
}

#[test]
fn non_finite_json_results_are_strings_that_read_back_as_inputs() {
    let p = file(
        "roundtrip",
        "f.adl",
        "def main(x: R[3]) -> R[3] = x / 0.0\n",
    );
    let args = |engine: &'static str| {
        vec![
            "vjp",
            &p,
            "--numeric",
            "f64",
            "--input",
            "x=[1, -1, 0]",
            "--cotangent",
            "[1, 1, 1]",
            "--engine",
            engine,
            "--format",
            "json",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    let run = |engine| {
        let a = args(engine);
        json_of(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let single = run("reference");
    assert_eq!(single["value"], json!(["inf", "-inf", "nan"]));
    assert_eq!(single["gradient"]["x"], json!(["inf", "inf", "inf"]));
    let all = run("all");
    assert_eq!(all["reference"], single);
    for (name, row) in all["engines"].as_object().unwrap() {
        if row["status"] != json!("skipped") {
            assert_eq!(row["result"], single, "{name}");
        }
    }
    // The printed value is a valid `--inputs` file for the same input type.
    let back = file(
        "roundtrip",
        "back.json",
        &json!({"x": single["value"]}).to_string(),
    );
    let j = json_of(&[
        "eval",
        &p,
        "--numeric",
        "f64",
        "--inputs",
        &back,
        "--format",
        "json",
    ]);
    assert_eq!(j["value"], json!(["inf", "-inf", "nan"]));
    // And the text output prints literals that `--input` reads back.
    let o = adora(&["eval", &p, "--numeric", "f64", "--input", "x=[1, -1, 0]"]);
    assert!(stdout(&o).contains("[inf, -inf, nan]"), "{}", stdout(&o));
}

#[test]
fn jvp_without_a_tangent_lists_the_real_inputs() {
    let p = file(
        "tangent",
        "p.adl",
        "def main(k: Z, x: R[3], y: R) -> R = sum(x) * y + real(k)\n",
    );
    let e = error_2(&[
        "jvp",
        &p,
        "--input",
        "k=1",
        "--input",
        "x=[1, 2, 3]",
        "--input",
        "y=2",
    ]);
    assert!(
        e.contains("error[input]: `adora jvp` needs a tangent: give --tangent NAME=LITERAL"),
        "{e}"
    );
    assert!(e.contains("\n  x: R[3]\n  y: R\n"), "{e}");
    assert!(!e.contains("k: Z"), "{e}");
    assert!(e.contains("example: --tangent 'x=[1, 1, 1]'"), "{e}");
    // One tangent is enough; the others are zero.
    let o = adora(&[
        "jvp",
        &p,
        "--input",
        "k=1",
        "--input",
        "x=[1, 2, 3]",
        "--input",
        "y=2",
        "--tangent",
        "y=1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("tangent: 6"), "{}", stdout(&o));
    // A program without a real input has nothing to choose: its JVP is zero.
    let q = file("tangent", "ints.adl", "def main(k: Z) -> Z = k * 2\n");
    let o = adora(&["jvp", &q, "--input", "k=3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn vjp_without_a_cotangent_is_a_usage_error() {
    let p = file("cotangent", "p.adl", "def main(x: R) -> R = 2 * x\n");
    let e = error_2(&["vjp", &p, "--input", "x=1"]);
    assert!(e.contains("--cotangent <LITERAL>"), "{e}");
}

#[test]
fn json_numbers_are_decimals_or_the_exact_doubles() {
    let p = file("numbers", "p.adl", "def main(x: R, y: R) -> R = x + y\n");
    let inputs = file("numbers", "in.json", r#"{"x": 0.1, "y": 0.2}"#);
    let decimal = json_of(&["eval", &p, "--inputs", &inputs, "--format", "json"]);
    assert_eq!(decimal["value"], json!("3/10"));
    let double = json_of(&[
        "eval",
        &p,
        "--inputs",
        &inputs,
        "--json-numbers",
        "double",
        "--format",
        "json",
    ]);
    // 0.1 = 3602879701896397 / 2^55, 0.2 = 3602879701896397 / 2^54: the exact sum.
    assert_eq!(
        double["value"],
        json!("10808639105689191/36028797018963968")
    );
    let o = adora(&["eval", &p, "--inputs", &inputs, "--json-numbers", "binary"]);
    assert_eq!(o.status.code(), Some(2));
    let huge = file("numbers", "huge.json", r#"{"x": 1e400, "y": 0}"#);
    let e = error_2(&["eval", &p, "--inputs", &huge, "--json-numbers", "double"]);
    assert!(
        e.contains(&format!(r#"{huge}: key "x": the number"#)),
        "{e}"
    );
    // The decimal reading keeps every digit (no detour through a double).
    let long = file(
        "numbers",
        "long.json",
        r#"{"x": 0.10000000000000000000001, "y": 0}"#,
    );
    let j = json_of(&["eval", &p, "--inputs", &long, "--format", "json"]);
    assert_eq!(
        j["value"],
        json!("10000000000000000000001/100000000000000000000000")
    );
}
