//! The one JSON schema of `grad`, `jvp` and `vjp` (docs/json.md): a single engine prints an
//! answer object keyed by input name; `--engine all` prints the reference's answer object
//! and, per engine, a row whose `result` is the same object.

use super::support::adora;
use serde_json::{json, Value};
use std::path::PathBuf;

fn json_of(args: &[&str]) -> Value {
    let o = adora(args);
    assert!(
        matches!(o.status.code(), Some(0)),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, name: &str, contents: &str) -> String {
    let dir = std::env::temp_dir().join(format!("adora-json-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.to_str().unwrap().to_string()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort();
    k
}

/// `main(x: R[2], k: Z, y: R) -> R`: `k` is a constant (no gradient entry).
const PROGRAM: &str = "def main(x: R[2], k: Z, y: R) -> R = sum(x) * y + real(k)\n";
const INPUTS: [&str; 6] = ["--input", "x=[1, 2]", "--input", "k=3", "--input", "y=1/2"];

fn run(test: &str, question: &[&str], engine: &str) -> Value {
    let p = file(test, "p.adl", PROGRAM);
    let mut args = vec![question[0], p.as_str()];
    args.extend_from_slice(&question[1..]);
    args.extend(INPUTS);
    args.extend(["--engine", engine, "--format", "json"]);
    json_of(&args)
}

#[test]
fn grad_and_vjp_key_every_gradient_by_input_name() {
    for question in [&["grad"][..], &["vjp", "--cotangent", "1"][..]] {
        let single = run("keys", question, "reference");
        assert_eq!(keys(&single), ["gradient", "value"], "{single}");
        assert_eq!(keys(&single["gradient"]), ["x", "y"], "{single}");
        assert_eq!(single["gradient"]["x"], json!(["1/2", "1/2"]));
        assert_eq!(single["gradient"]["y"], "3");
        assert_eq!(single["value"], "9/2");

        let all = run("keys", question, "all");
        assert_eq!(keys(&all), ["agree", "engines", "reference"], "{all}");
        assert_eq!(all["reference"], single, "{all}");
        assert_eq!(all["agree"], true);
        let engines = all["engines"].as_object().expect("an object");
        assert!(!engines.is_empty() && !engines.contains_key("reference"));
        for (name, row) in engines {
            // An engine that answers no such question (engine `soac` derives JVP
            // programs only so far) or whose fragment excludes the program (engine
            // `pullback`: scalar programs only) is skipped with that reason, never agrees
            // silently.
            if row["status"] == "skipped" {
                let why = format!("answers no {} question", question[0]);
                let reason = row["reason"].as_str().unwrap_or_default();
                assert!(
                    reason.contains(&why) || reason.contains("fragment"),
                    "{name}: {row}"
                );
                continue;
            }
            assert_eq!(row["status"], "agrees", "{name}: {row}");
            assert_eq!(keys(row), ["exact", "result", "status"], "{name}: {row}");
            assert_eq!(row["exact"], true);
            assert_eq!(row["result"], single, "{name}: {row}");
        }
    }
}

#[test]
fn jvp_answers_value_and_tangent_in_both_forms() {
    let q = ["jvp", "--tangent", "x=[1, 0]", "--tangent", "y=2"];
    let single = run("jvp", &q, "reference");
    assert_eq!(keys(&single), ["tangent", "value"], "{single}");
    // d(sum(x) y) = (dx0 + dx1) y + sum(x) dy = 1/2 + 6
    assert_eq!(single["tangent"], "13/2");
    let all = run("jvp", &q, "all");
    assert_eq!(all["reference"], single, "{all}");
    for (name, row) in all["engines"].as_object().expect("an object") {
        if row["status"] == "skipped" {
            let reason = row["reason"].as_str().unwrap_or_default();
            assert!(reason.contains("fragment"), "{name}: {row}");
            continue;
        }
        assert_eq!(row["result"], single, "{name}: {row}");
    }
}

#[test]
fn skipped_engines_give_a_reason_and_f64_is_not_exact() {
    let p = file(
        "skip",
        "soac.adl",
        "def main(x: R[3]) -> R = reduce((a, b) => a + b, 0, map((v) => v * v, x))\n",
    );
    let base = [
        "grad",
        p.as_str(),
        "--input",
        "x=[1, 2, 3]",
        "--format",
        "json",
    ];
    let mut args = base.to_vec();
    args.extend(["--engine", "all"]);
    let all = json_of(&args);
    let rows = all["engines"].as_object().expect("an object");
    let skipped: Vec<_> = rows.values().filter(|r| r["status"] == "skipped").collect();
    assert!(!skipped.is_empty(), "{all}");
    for row in skipped {
        assert_eq!(keys(row), ["reason", "status"], "{row}");
        // Outside the engine's fragment (`reduce`; `pullback`: arrays), or a question it
        // does not answer.
        assert!(
            row["reason"].as_str().is_some_and(|r| r.contains("reduce")
                || r.contains("fragment")
                || r.contains("answers no grad question")),
            "{row}"
        );
    }
    assert_eq!(all["agree"], true, "skips do not count against agreement");

    args.extend(["--numeric", "f64"]);
    let f = json_of(&args);
    assert_eq!(f["reference"]["gradient"]["x"], json!([2.0, 4.0, 6.0]));
    for row in f["engines"].as_object().expect("an object").values() {
        if row["status"] == "agrees" {
            assert_eq!(row["exact"], false, "{row}");
        }
    }
}
