//! `--numeric ball` on the command line (docs/oracle.md, "Certified enclosures";
//! docs/json.md, "Enclosures"): `eval`, `grad`, `jvp`, `vjp` print enclosures, `--engine
//! all` compares engines by overlap, undecidable comparisons and domain errors exit 2
//! with their position and a hint.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-ball-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

const SIGMOID: &str = "def main(x: R, w: R) -> R = 1.0 / (1.0 + exp(-(w * x)))\n";

/// The decimal string `s` as (mantissa digits, exponent): enough to compare to a bound.
fn num(s: &str) -> f64 {
    s.parse().unwrap()
}

#[test]
fn grad_json_prints_enclosures() {
    let p = file("grad", SIGMOID);
    let o = adora(&[
        "grad",
        p.to_str().unwrap(),
        "--input",
        "x=1",
        "--input",
        "w=1/2",
        "--numeric",
        "ball",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let v = &j["value"];
    // sigmoid(1/2) = 0.622459331201854564638...
    assert!(num(v["lo"].as_str().unwrap()) <= 0.6224593312018546);
    assert!(num(v["hi"].as_str().unwrap()) >= 0.6224593312018545);
    assert!(v["mid"]
        .as_str()
        .unwrap()
        .starts_with("0.62245933120185456463"));
    assert!(v["digits"].as_u64().unwrap() >= 35, "{v}");
    // d/dx = w s (1 - s) = 0.1175019...
    let gx = &j["gradient"]["x"];
    assert!(gx["mid"].as_str().unwrap().starts_with("0.117501"), "{j}");
    assert!(gx["rad"].is_string() && gx["lo"].is_string() && gx["hi"].is_string());
}

#[test]
fn text_prints_mid_plus_minus_rad_and_more_precision_narrows() {
    let p = file("text", SIGMOID);
    let run = |bits: &str| {
        let o = adora(&[
            "eval",
            p.to_str().unwrap(),
            "--input",
            "x=1",
            "--input",
            "w=1/2",
            "--numeric",
            "ball",
            "--precision",
            bits,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let (a, b) = (run("64"), run("256"));
    assert!(
        a.starts_with("value: 0.62245933") && a.contains(" ± "),
        "{a}"
    );
    assert!(b.len() > a.len() + 40, "{a}\n{b}");
}

#[test]
fn engines_agree_by_overlap() {
    let p = file("all", "def main(x: R[3]) -> R =\n  let m = reduce(max, x[0], x) in\n  m + log(reduce(+, 0, exp(x - m)))\n");
    let o = adora(&[
        "grad",
        p.to_str().unwrap(),
        "--input",
        "x=[1, 2, 1/3]",
        "--numeric",
        "ball",
        "--engine",
        "all",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("agrees (the enclosures overlap)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn jvp_and_vjp_run_in_ball_mode() {
    let p = file("jvp", SIGMOID);
    let p = p.to_str().unwrap();
    let o = adora(&[
        "jvp",
        p,
        "--input",
        "x=1",
        "--input",
        "w=1/2",
        "--tangent",
        "x=1",
        "--tangent",
        "w=0",
        "--numeric",
        "ball",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("tangent: 0.117501"), "{}", stdout(&o));
    let o = adora(&[
        "vjp",
        p,
        "--input",
        "x=1",
        "--input",
        "w=1/2",
        "--cotangent",
        "2",
        "--numeric",
        "ball",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("x: 0.235003"), "{}", stdout(&o));
}

#[test]
fn an_undecidable_comparison_exits_2_with_its_position_and_a_hint() {
    let p = file(
        "undecidable",
        "def main(x: R) -> R =\n  if exp(log(x)) == x then 1.0 else 0.0\n",
    );
    let o = adora(&[
        "eval",
        p.to_str().unwrap(),
        "--input",
        "x=1/3",
        "--numeric",
        "ball",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains(":2:6: error[runtime]: undecidable at 128 bits"),
        "{e}"
    );
    assert!(e.contains("raise --precision"), "{e}");
    // Exact mode rejects `exp`; f64 decides (wrongly or not) without a word.
    let o = adora(&[
        "eval",
        p.to_str().unwrap(),
        "--input",
        "x=1/3",
        "--numeric",
        "f64",
    ]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn raising_the_precision_decides_a_close_comparison() {
    // exp(1) - 2.71828182845904523536028747 is about 1.35e-27, undecidable at 64 bits.
    let p = file(
        "close",
        "def main(x: R) -> R =\n  if exp(x) > 2.71828182845904523536028747 then 1.0 else 0.0\n",
    );
    let at = |bits: &str| {
        adora(&[
            "eval",
            p.to_str().unwrap(),
            "--input",
            "x=1",
            "--numeric",
            "ball",
            "--precision",
            bits,
        ])
    };
    assert_eq!(at("64").status.code(), Some(2));
    let o = at("128");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("value: 1 ± 0"), "{}", stdout(&o));
}

#[test]
fn log_of_a_negative_enclosure_is_a_runtime_error() {
    let p = file("log", "def main(x: R) -> R = log(x)\n");
    let o = adora(&[
        "eval",
        p.to_str().unwrap(),
        "--input",
        "x=-2",
        "--numeric",
        "ball",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error[runtime]: `log` has no real value"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_precision_and_unsupported_commands_are_usage_errors() {
    let p = file("usage", SIGMOID);
    let p = p.to_str().unwrap();
    let o = adora(&[
        "eval",
        p,
        "--input",
        "x=1",
        "--input",
        "w=1",
        "--numeric",
        "ball",
        "--precision",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = adora(&[
        "cost",
        p,
        "--input",
        "x=1",
        "--input",
        "w=1",
        "--numeric",
        "ball",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no --numeric ball mode"),
        "{}",
        stderr(&o)
    );
}
