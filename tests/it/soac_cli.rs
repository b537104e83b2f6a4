//! The command line with engine `soac`, which derives JVP programs only so far
//! (docs/engines/soac-forward.md, "The engine"): `jvp --engine soac` answers, `show
//! --engine soac --stage jvp` prints a program that loads again, and every question it
//! does not answer is an `Unsupported` error (exit 2) or, under `--engine all`, a skip —
//! never a silent agreement.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-soac-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

const PROGRAM: &str = "def main(x: R[3]) -> R = reduce(max, 0.0, x) * sum(x)\n";

#[test]
fn jvp_with_engine_soac_agrees_and_show_prints_its_program() {
    let p = file("jvp", PROGRAM);
    let p = p.to_str().unwrap();
    let args = [
        "jvp",
        p,
        "--input",
        "x=[1, 3, 3]",
        "--tangent",
        "x=[1, 2, 4]",
    ];
    let o = adora(&[&args[..], &["--engine", "soac"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // max picks the first 3 (index 1): tangent 2 * 7 + 3 * 7 = 35.
    assert!(stdout(&o).contains("35"), "{}", stdout(&o));
    let o = adora(&[&args[..], &["--engine", "all"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("engine soac: agrees (exactly)"),
        "{}",
        stdout(&o)
    );
    let o = adora(&["show", p, "--engine", "soac", "--stage", "jvp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("def main_jvp(x: R[3], dx: R[3]) -> (R, R)"),
        "{text}"
    );
    adora_core::load(&text, "main_jvp").unwrap_or_else(|d| panic!("{d}\n{text}"));
}

#[test]
fn grad_vjp_show_and_cost_with_engine_soac() {
    let p = file("reverse", PROGRAM);
    let p = p.to_str().unwrap();
    // max = 3 (first at index 1), sum = 7: the gradient is 3 everywhere plus 7 at index 1.
    let o = adora(&["grad", p, "--input", "x=[1, 3, 3]", "--engine", "soac"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("[3, 10, 3]"), "{}", stdout(&o));
    let o = adora(&["grad", p, "--input", "x=[1, 3, 3]", "--engine", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("engine soac: agrees (exactly)"),
        "{}",
        stdout(&o)
    );
    for stage in ["grad", "vjp"] {
        let o = adora(&["show", p, "--engine", "soac", "--stage", stage]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        let entry = text
            .strip_prefix("def ")
            .and_then(|t| t.split('(').next())
            .unwrap_or_else(|| panic!("{text}"))
            .to_string();
        adora_core::load(&text, &entry).unwrap_or_else(|d| panic!("{d}\n{text}"));
    }
    let o = adora(&[
        "cost",
        p,
        "--input",
        "x=[1, 3, 3]",
        "--engine",
        "soac",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"gradient\""), "{}", stdout(&o));
}
