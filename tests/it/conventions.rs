//! `--conventions futhark|jax|pytorch` (docs/conventions.md): every rule of the profiles'
//! table on a program at its tie or kink, under each profile, through `adora grad`; the
//! rule names of the table in `adora_semantics::conventions` and docs/conventions.md agree;
//! every engine agrees with the reference under every profile (through the lowering of
//! adora_rewrites::conventions).

use crate::support::{adora, stderr, stdout};

/// One row: the rule, the program, its inputs, and the gradient lines expected under
/// `futhark`, `jax` and `pytorch`.
struct Row {
    rule: &'static str,
    program: &'static str,
    inputs: &'static [&'static str],
    expect: [&'static [&'static str]; 3],
}

const ROWS: &[Row] = &[
    Row {
        rule: "tie-max-min",
        program: "def main(a: R, b: R) -> R =\n  max(a, b) + 2.0 * min(a, b)\n",
        inputs: &["a=1", "b=1"],
        expect: [
            &["a: 3", "b: 0"],
            &["a: 3/2", "b: 3/2"],
            &["a: 3/2", "b: 3/2"],
        ],
    },
    Row {
        rule: "reduce-ties",
        program: "def main(x: R[4], y: R[3]) -> R =\n  reduce(max, 0.0, x) + reduce(min, 0.0, y)\n",
        inputs: &["x=[1, 3, 3, 2]", "y=[0, 0, 0]"],
        expect: [
            &["x: R[4] = [0, 1, 0, 0]", "y: R[3] = [1, 0, 0]"],
            &["x: R[4] = [0, 1/2, 1/2, 0]", "y: R[3] = [1/4, 1/4, 1/4]"],
            &["x: R[4] = [0, 1/2, 1/2, 0]", "y: R[3] = [1/4, 1/4, 1/4]"],
        ],
    },
    Row {
        rule: "scan-ties",
        program: "def main(x: R[4]) -> R =\n  let y = scan(max, 0.0, x) in\n  y[0] + 2.0 * y[1] + 3.0 * y[2] + 4.0 * y[3]\n",
        inputs: &["x=[1, 3, 3, 2]"],
        expect: [
            &["x: R[4] = [1, 9, 0, 0]"],
            &["x: R[4] = [1, 11/2, 7/2, 0]"],
            &["x: R[4] = [1, 11/2, 7/2, 0]"],
        ],
    },
    Row {
        rule: "hist-ties",
        program: "def main(d: R[1], v: R[2]) -> R =\n  sum(reduce_by_index(d, max, 0.0, [0, 0], v))\n",
        inputs: &["d=[3]", "v=[3, 1]"],
        expect: [
            &["d: R[1] = [1]", "v: R[2] = [0, 0]"],
            &["d: R[1] = [1/2]", "v: R[2] = [1/2, 0]"],
            &["d: R[1] = [1/2]", "v: R[2] = [1/2, 0]"],
        ],
    },
    Row {
        rule: "abs-at-0",
        program: "def main(x: R, y: R) -> R =\n  abs(x) + abs(y)\n",
        inputs: &["x=0", "y=-2"],
        expect: [
            &["x: 0", "y: -1"],
            &["x: 1", "y: -1"],
            &["x: 0", "y: -1"],
        ],
    },
];

const PROFILES: [&str; 3] = ["futhark", "jax", "pytorch"];

#[test]
fn every_rule_gives_its_profiles_derivative_at_the_tie() {
    let dir = std::env::temp_dir().join(format!("adora-conventions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for row in ROWS {
        let file = dir.join(format!("{}.adl", row.rule));
        std::fs::write(&file, row.program).unwrap();
        for (p, expect) in PROFILES.iter().zip(row.expect) {
            let mut args = vec!["grad", file.to_str().unwrap(), "--conventions", p];
            for i in row.inputs {
                args.extend(["--input", i]);
            }
            let o = adora(&args);
            let s = stdout(&o);
            assert_eq!(o.status.code(), Some(0), "{}: {}", row.rule, stderr(&o));
            for line in expect {
                assert!(
                    s.lines().any(|l| l.trim().starts_with(line)
                        && (l.trim().len() == line.len()
                            || l.trim()[line.len()..].starts_with(" ≈"))),
                    "{} under {p}: expected `{line}` in\n{s}",
                    row.rule
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rules tested here are the rows of the profiles' table in the documentation and in
/// the module that implements them.
#[test]
fn the_tested_rules_are_the_documented_ones() {
    let docs = std::fs::read_to_string("docs/conventions.md").unwrap();
    let module = std::fs::read_to_string("semantics/src/conventions.rs").unwrap();
    let table_rules = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim_start_matches("//! ").strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .map(String::from)
            .collect()
    };
    let implemented = table_rules(&module);
    let tested: Vec<String> = ROWS.iter().map(|r| r.rule.to_string()).collect();
    assert_eq!(implemented, tested);
    let documented = table_rules(&docs);
    for r in &tested {
        assert!(documented.contains(r), "docs/conventions.md lacks `{r}`");
    }
}

/// Every engine answers every row under every profile as the reference does (the
/// harness gives the other engines the lowered program, adora_rewrites::conventions);
/// each row is answered by at least one engine besides the reference.
#[test]
fn every_engine_agrees_with_the_reference_under_every_profile() {
    let dir = std::env::temp_dir().join(format!("adora-conventions-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for row in ROWS {
        let file = dir.join(format!("{}.adl", row.rule));
        std::fs::write(&file, row.program).unwrap();
        for p in PROFILES {
            let mut args = vec![
                "grad",
                file.to_str().unwrap(),
                "--engine",
                "all",
                "--conventions",
                p,
            ];
            for i in row.inputs {
                args.extend(["--input", i]);
            }
            let o = adora(&args);
            let s = stdout(&o);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{} under {p}: {s}{}",
                row.rule,
                stderr(&o)
            );
            let engines: Vec<&str> = s.lines().filter(|l| l.starts_with("engine ")).collect();
            assert!(
                engines
                    .iter()
                    .all(|l| l.ends_with(": agrees (exactly)") || l.contains(": skipped (")),
                "{} under {p}:\n{s}",
                row.rule
            );
            assert!(
                engines.iter().any(|l| l.ends_with(": agrees (exactly)")),
                "{} under {p}: no engine besides the reference answers\n{s}",
                row.rule
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `adora show --conventions P` prints the lowered program as source that loads again, with
/// the same value and, under `futhark`, the profile's gradient; a stage outside the
/// elaborated pipeline refuses the flag (exit 2).
#[test]
fn show_prints_the_lowered_program() {
    let dir = std::env::temp_dir().join(format!("adora-conventions-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let row = &ROWS[1]; // reduce-ties
    let file = dir.join("reduce.adl");
    std::fs::write(&file, row.program).unwrap();
    let o = adora(&["show", file.to_str().unwrap(), "--conventions", "jax"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lowered = stdout(&o);
    assert!(lowered.contains("select("), "{lowered}");
    let again = dir.join("lowered.adl");
    std::fs::write(&again, &lowered).unwrap();
    let mut args = vec!["grad", again.to_str().unwrap()];
    for i in row.inputs {
        args.extend(["--input", i]);
    }
    let o = adora(&args);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for line in row.expect[1] {
        assert!(s.contains(line), "expected `{line}` in\n{s}");
    }
    let o = adora(&[
        "show",
        file.to_str().unwrap(),
        "--stage",
        "tl",
        "--conventions",
        "jax",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("`--conventions` applies to"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
