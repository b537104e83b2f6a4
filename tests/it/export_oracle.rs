//! `adora export` and `adora difftest` (docs/oracle.md): every golden program exports or is
//! refused by name with its position; a few exported programs run in the project's Python
//! environment when it exists ("skipped: …" otherwise).

use crate::support::{adora, stderr, stdout};
use std::path::Path;

/// The `--input` arguments of a golden program's header.
fn input_args(case: &adora_specs::Case) -> Vec<String> {
    let mut args = Vec::new();
    for n in &case.inputs {
        args.push("--input".to_string());
        args.push(format!("{}={}", n.name, n.lit.text));
    }
    if matches!(case.numeric, adora_specs::case::Numeric::F64 { .. }) {
        args.push("--numeric".to_string());
        args.push("f64".to_string());
    }
    args
}

#[test]
fn every_golden_program_exports_or_is_refused_by_name() {
    let files = adora_specs::discover(Path::new("specs/programs"));
    assert!(files.len() > 50, "golden programs found: {}", files.len());
    let mut exported = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let case = adora_specs::parse_case(f, &text).unwrap();
        if case.error.is_some() {
            continue;
        }
        for to in ["jax", "pytorch"] {
            let mut args = vec![
                "export".to_string(),
                f.display().to_string(),
                "--to".to_string(),
                to.to_string(),
                "--entry".to_string(),
                case.entry.clone(),
            ];
            args.extend(input_args(&case));
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = adora(&argv);
            match o.status.code() {
                Some(0) => {
                    assert!(stdout(&o).contains("def program("), "{}", f.display());
                    exported += 1;
                }
                Some(2) => {
                    let e = stderr(&o);
                    assert!(
                        e.contains("error[unsupported]") && e.contains("does not export"),
                        "{}: {e}",
                        f.display()
                    );
                }
                c => panic!("{} --to {to}: exit {c:?}: {}", f.display(), stderr(&o)),
            }
        }
    }
    assert!(exported > 100, "exported {exported}");
}

#[test]
fn a_tuple_parameter_exports_as_its_leaves() {
    let o = adora(&[
        "export",
        "specs/programs/tuples/tuple_param.adl",
        "--to",
        "jax",
        "--input",
        "p=(2, [1, -1/2])",
        "--input",
        "k=3",
    ]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(s.contains(r#"("p.0", "R", (), ["2"])"#), "{s}");
    assert!(s.contains(r#"("p.1", "R", (2,), ["1", "-1/2"])"#), "{s}");
    assert!(s.contains("PARAMS = [(0, 1,), 2, ]"), "{s}");
    assert!(s.contains(r#"PARAM_NAMES = ["p", "k", ]"#), "{s}");
}

#[test]
fn an_exported_module_holds_exact_inputs_and_the_doubles_used() {
    let o = adora(&[
        "export",
        "examples/dot.adl",
        "--to",
        "pytorch",
        "--input",
        "x=[1, 2, 1/3]",
        "--input",
        "y=[1/2, 0.1, -1]",
    ]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(s.contains(r#"("x", "R", (3,), ["1", "2", "1/3"])"#), "{s}");
    assert!(
        s.contains(r#"("y", "R", (3,), ["0.5", "0.1", "-1.0"])"#),
        "{s}"
    );
    assert!(s.contains("TOTAL_DIVISION = True"), "{s}");
}

/// Runs `difftest` on a few golden programs; passes with "skipped:" where the environment
/// is missing, and otherwise needs every program to agree.
#[test]
fn difftest_runs_a_few_programs_or_is_skipped() {
    for against in ["jax", "pytorch"] {
        let o = adora(&[
            "difftest",
            "--against",
            against,
            "specs/programs/basics/arith_scalar.adl",
            "specs/programs/basics/div_by_zero.adl",
            "specs/programs/conv/conv1d.adl",
            "specs/programs/arrays/build2d.adl",
        ]);
        let s = stdout(&o);
        if s.starts_with("skipped:") {
            assert_eq!(o.status.code(), Some(0));
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{s}{}", stderr(&o));
        assert!(
            s.contains("total                 4      4         0        0"),
            "{s}"
        );
    }
}

/// `difftest` compares a float answer with the certified enclosure where one exists and
/// says how many ULPs off each output is; without an enclosure (GMM's `max` at a tie) it
/// falls back to our f64 answer and says so.
#[test]
fn difftest_compares_with_enclosures_or_is_skipped() {
    let o = adora(&[
        "difftest",
        "--against",
        "jax",
        "specs/programs/ball/softmax_xent.adl",
        "specs/programs/workloads/gmm.adl",
    ]);
    let s = stdout(&o);
    if s.starts_with("skipped:") {
        assert_eq!(o.status.code(), Some(0));
        return;
    }
    assert_eq!(o.status.code(), Some(0), "{s}{}", stderr(&o));
    assert!(
        s.contains("agree specs/programs/ball/softmax_xent.adl: value (enclosure) max "),
        "{s}"
    );
    assert!(s.contains("gradient x (enclosure) max "), "{s}");
    assert!(
        s.contains("agree specs/programs/workloads/gmm.adl: value (f64) max "),
        "{s}"
    );
}

/// Regression: the PyTorch module of a `reduce_by_index` with `max` wrote into a tensor
/// whose view autograd had saved ("modified by an inplace operation"); it now runs.
#[test]
fn pytorch_reduce_by_index_with_max_runs_or_is_skipped() {
    let python = Path::new(".venv/bin/python");
    let has_torch = std::process::Command::new(python)
        .args(["-c", "import torch"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_torch {
        println!("skipped: {} cannot import torch", python.display());
        return;
    }
    let f = Path::new("specs/programs/soacs/hist_minmax.adl");
    let case = adora_specs::parse_case(f, &std::fs::read_to_string(f).unwrap()).unwrap();
    let out = std::env::temp_dir().join(format!("adora-hist-{}.py", std::process::id()));
    let mut args = vec![
        "export".to_string(),
        f.display().to_string(),
        "--to".to_string(),
        "pytorch".to_string(),
        "-o".to_string(),
        out.display().to_string(),
    ];
    args.extend(input_args(&case));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = adora(&argv);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let run = std::process::Command::new(python)
        .arg(&out)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("\"gradient\""));
}

/// `difftest --random`: generated programs, a table per fragment (every case counted
/// once) and per construct; each disagreement is shrunk, saved as a golden-format file,
/// and that file on its own still disagrees (case 2 of seed 14 is a `reduce_by_index` with
/// `min` at a tie, a disagreement under our own `futhark` conventions, which it agrees
/// with under `jax`'s; one shrinking round keeps the test short). Skipped where the
/// environment is missing.
#[test]
fn difftest_random_programs_are_tabulated_and_disagreements_saved_or_is_skipped() {
    let save = std::env::temp_dir().join(format!("adora-dt-random-{}", std::process::id()));
    let o = adora(&[
        "difftest",
        "--against",
        "jax",
        "--random",
        "3",
        "--seed",
        "14",
        "--shrink-rounds",
        "1",
        "--conventions",
        "futhark",
        "--save",
        save.to_str().unwrap(),
    ]);
    let s = stdout(&o);
    if s.starts_with("skipped:") {
        assert_eq!(o.status.code(), Some(0));
        return;
    }
    assert!(matches!(o.status.code(), Some(0 | 1)), "{s}{}", stderr(&o));
    assert!(
        s.contains("against jax, 3 random programs, seed 14:"),
        "{s}"
    );
    let total = s
        .lines()
        .find(|l| l.starts_with("total "))
        .unwrap_or_else(|| panic!("no total row: {s}"));
    let n: Vec<usize> = total
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(n[0], 3, "{total}");
    assert_eq!(n[1] + n[2] + n[3], 3, "{total}");
    assert_eq!(n[2], 1, "{s}");
    assert!(s.contains("\nconstruct "), "{s}");
    assert_eq!(o.status.code() == Some(1), n[2] > 0, "{s}");
    for line in s.lines().filter(|l| l.contains("; saved as ")) {
        let file = line
            .rsplit("; saved as ")
            .next()
            .unwrap()
            .trim_end_matches(':');
        let again = adora(&[
            "difftest",
            "--against",
            "jax",
            "--conventions",
            "futhark",
            file,
        ]);
        assert_eq!(again.status.code(), Some(1), "{file}: {}", stdout(&again));
        assert!(stdout(&again).contains("DISAGREE "), "{}", stdout(&again));
    }
    let under_jax = adora(&[
        "difftest",
        "--against",
        "jax",
        "--random",
        "3",
        "--seed",
        "14",
    ]);
    assert_eq!(under_jax.status.code(), Some(0), "{}", stdout(&under_jax));
    let _ = std::fs::remove_dir_all(&save);
}

/// The probing tangent and cotangent of an exported module, and the JVP and VJP each
/// system computes along them, against values derived by hand: for `x * x` at `x = [1, 2]`
/// the tangent is `[-1/2, -3/2]` (`((7k + 3) mod 9 - 4) / 2`), so the JVP is
/// `2x·t = [-1, -6]`; the cotangent is `[-1, 3/2]` (`((5k + 1) mod 7 - 3) / 2`), so the
/// VJP is `2x·c = [-2, 6]`. The module text is checked everywhere; running it is skipped
/// where the environment is missing.
#[test]
fn exported_jvp_and_vjp_follow_the_probing_directions() {
    let dir = std::env::temp_dir().join(format!("adora-probe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("square.adl");
    std::fs::write(&f, "def main(x: R[2]) -> R[2] =\n  x * x\n").unwrap();
    for (to, module) in [("jax", "jax"), ("pytorch", "torch")] {
        let out = dir.join(format!("probe_{to}.py"));
        let o = adora(&[
            "export",
            f.to_str().unwrap(),
            "--to",
            to,
            "--input",
            "x=[1, 2]",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains("TANGENTS = [[\"-0.5\", \"-1.5\"], ]"),
            "{text}"
        );
        assert!(
            text.contains("COTANGENT = ((2,), [\"-1.0\", \"1.5\"])"),
            "{text}"
        );
        let python = Path::new(".venv/bin/python");
        let has = std::process::Command::new(python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !has {
            println!("skipped: {} cannot import {module}", python.display());
            continue;
        }
        let run = std::process::Command::new(python)
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(json["jvp"], serde_json::json!([-1.0, -6.0]), "{to}: {json}");
        assert_eq!(
            json["vjp"]["x"],
            serde_json::json!([-2.0, 6.0]),
            "{to}: {json}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
