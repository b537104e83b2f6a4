//! End-to-end tests of the `adora` command line: outputs, JSON shapes, exit codes and
//! error messages with positions.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;
use std::process::Output;

/// Writes `contents` to a fresh file in a per-test temporary directory.
fn file(test: &str, name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

#[test]
fn grad_of_the_readme_example_is_exact() {
    let dot = repo("examples/dot.adl");
    let args = [
        "grad",
        &dot,
        "--input",
        "x=[1, 2, 3]",
        "--input",
        "y=[1/2, 0.25, -1]",
    ];
    let o = adora(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("value: -2"), "{text}");
    assert!(
        text.contains("x: R[3] = [1/2, 1/4, -1] ≈ [0.5, 0.25, -1]"),
        "{text}"
    );
    let mut with_json = args.to_vec();
    with_json.extend(["--format", "json"]);
    let j = json(&adora(&with_json));
    assert_eq!(j["value"], "-2");
    assert_eq!(j["gradient"]["x"], serde_json::json!(["1/2", "1/4", "-1"]));
    assert_eq!(j["gradient"]["y"], serde_json::json!(["1", "2", "3"]));
}

#[test]
fn inputs_from_json_and_f64_mode() {
    let dot = repo("examples/dot.adl");
    let inputs = file(
        "json",
        "in.json",
        br#"{"x": [1, "2/3", 0.1], "y": ["1", 3, -2]}"#,
    );
    let j = json(&adora(&[
        "eval",
        &dot,
        "--inputs",
        inputs.to_str().unwrap(),
        "--format",
        "json",
    ]));
    // 1 + 2 - 1/5 = 14/5
    assert_eq!(j["value"], "14/5");
    assert_eq!(j["stats"]["div_by_zero"], 0);
    let j = json(&adora(&[
        "eval",
        &dot,
        "--inputs",
        inputs.to_str().unwrap(),
        "--numeric",
        "f64",
        "--format",
        "json",
    ]));
    assert!((j["value"].as_f64().unwrap() - 2.8).abs() < 1e-12);
}

#[test]
fn jvp_and_vjp_json() {
    let p = file(
        "jvp",
        "p.adl",
        b"def main(x: R[2], k: Z) -> (R, R[2]) = (x[0] * x[1], x * x)\n",
    );
    let p = p.to_str().unwrap();
    let j = json(&adora(&[
        "jvp",
        p,
        "--input",
        "x=[3, 1/2]",
        "--input",
        "k=7",
        "--tangent",
        "x=[1, 0]",
        "--format",
        "json",
    ]));
    assert_eq!(j["value"], serde_json::json!(["3/2", ["9", "1/4"]]));
    assert_eq!(j["tangent"], serde_json::json!(["1/2", ["6", "0"]]));
    let j = json(&adora(&[
        "vjp",
        p,
        "--input",
        "x=[3, 1/2]",
        "--input",
        "k=7",
        "--cotangent",
        "(1, [1, 1])",
        "--format",
        "json",
    ]));
    // d/dx [x0 x1 + x0^2 + x1^2] = [x1 + 2 x0, x0 + 2 x1]
    assert_eq!(j["gradient"]["x"], serde_json::json!(["13/2", "4"]));
    assert!(
        j["gradient"].get("k").is_none(),
        "integer inputs are constants"
    );
}

#[test]
fn show_prints_programs_that_evaluate_again() {
    let src = repo("specs/programs/conv/conv2d.adl");
    for stage in ["parse", "inline"] {
        let o = adora(&["show", &src, "--stage", stage]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let printed = file("show", &format!("{stage}.adl"), &o.stdout);
        let inputs = [
            "--input",
            "img=[[1, 2, 0, 1], [0, 1, 3, 1], [2, 2, 1, 0], [1, 0, 1, 2]]",
            "--input",
            "k=[[1, -1], [1/2, 2]]",
        ];
        let mut a = vec!["eval", src.as_str()];
        a.extend(inputs);
        let want = stdout(&adora(&a));
        let mut b = vec!["eval", printed.to_str().unwrap()];
        b.extend(inputs);
        let got = adora(&b);
        assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
        assert_eq!(stdout(&got), want, "stage {stage}");
    }
}

#[test]
fn cost_reports_the_design_examples() {
    let p = file(
        "cost",
        "dot.adl",
        b"def main(x: R[10], y: R[10]) -> R = sum(x * y)\n",
    );
    let j = json(&adora(&["cost", p.to_str().unwrap(), "--format", "json"]));
    assert_eq!(j["primal"]["ops"], 19);
    for key in ["work", "span", "mem"] {
        assert!(j["primal"][key].is_u64(), "{key}");
    }
    let p = file(
        "cost",
        "frac.adl",
        b"def main(x: R[3]) -> R = sum(x / (1 + x * x))\n",
    );
    let j = json(&adora(&["cost", p.to_str().unwrap(), "--format", "json"]));
    assert_eq!(j["primal"]["ops"], 11);
}

/// `cost --numeric f64` counts the evaluation in doubles, so programs with `exp` get
/// counts: the same counts as exact evaluation where both run, and an `exp` program,
/// which exact mode refuses (exit 2), is counted with its gradient program.
#[test]
fn cost_counts_f64_evaluation() {
    let p = file(
        "cost",
        "frac64.adl",
        b"def main(x: R[3]) -> R = sum(x / (1 + x * x))\n",
    );
    let j = json(&adora(&[
        "cost",
        p.to_str().unwrap(),
        "--numeric",
        "f64",
        "--format",
        "json",
    ]));
    assert_eq!(j["primal"]["ops"], 11);
    let e = file(
        "cost",
        "exp64.adl",
        b"def main(x: R[4]) -> R = sum(exp(x) * x)\n",
    );
    let e = e.to_str().unwrap();
    assert_eq!(adora(&["cost", e]).status.code(), Some(2));
    let j = json(&adora(&[
        "cost",
        e,
        "--numeric",
        "f64",
        "--engine",
        "dual",
        "--format",
        "json",
    ]));
    assert_eq!(j["primal"]["ops"], 11);
    assert!(j["gradient"]["ops"].as_u64().unwrap() > 11, "{j}");
}

/// Runs `args` and demands exit code 2 with `needle` in the error output.
fn bad(args: &[&str], needle: &str) {
    let o = adora(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "args {args:?}: stderr {err}");
    assert!(
        err.contains(needle),
        "args {args:?}: expected `{needle}` in\n{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_is_exit_code_2_with_a_position() {
    let dot = repo("examples/dot.adl");
    bad(
        &[
            "grad",
            &dot,
            "--engine",
            "nope",
            "--input",
            "x=[1,2,3]",
            "--input",
            "y=[1,2,3]",
        ],
        "unknown engine `nope`",
    );
    bad(
        &["eval", &dot, "--input", "x=[1,2,3]"],
        "missing input `y: R[3]`",
    );
    bad(
        &["eval", &dot, "--input", "x=[1,2]", "--input", "y=[1,2,3]"],
        "expected R[3], found an array of 2 elements",
    );
    bad(
        &[
            "eval",
            &dot,
            "--input",
            "x=[1,2,3]",
            "--input",
            "y=[1,2,3]",
            "--input",
            "z=1",
        ],
        "has no input `z`",
    );
    bad(&["eval", "/nonexistent/file.adl"], "cannot read");
    bad(&["show", &dot, "--stage", "nope"], "unknown stage `nope`");
    let e = file("bad", "exp.adl", b"def main(x: R) -> R =\n  1 + exp(x)\n");
    bad(
        &["eval", e.to_str().unwrap(), "--input", "x=1"],
        "exp.adl:2:7: error[non-rational]: `exp`",
    );
    let o = adora(&[
        "eval",
        e.to_str().unwrap(),
        "--input",
        "x=0",
        "--numeric",
        "f64",
    ]);
    assert_eq!(stdout(&o).trim(), "value: 2");
    let d = file("bad", "div.adl", b"def main(x: R) -> R = 1 / x\n");
    bad(
        &["eval", d.to_str().unwrap(), "--input", "x=0", "--strict"],
        "div.adl:1:23: error[runtime]: division by zero",
    );
    let o = adora(&["eval", d.to_str().unwrap(), "--input", "x=0"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("value: 0") && stdout(&o).contains("division by zero"));
    let t = file("bad", "type.adl", b"def main(x: R, n: Z) -> R =\n  x + n\n");
    bad(
        &[
            "eval",
            t.to_str().unwrap(),
            "--input",
            "x=1",
            "--input",
            "n=2",
        ],
        "type.adl:2:",
    );
    let g = file("bad", "grad.adl", b"def main(x: R[2]) -> R[2] = x\n");
    bad(
        &["grad", g.to_str().unwrap(), "--input", "x=[1, 2]"],
        "scalar R result",
    );
}

#[test]
fn hostile_files_are_errors_not_crashes() {
    let garbage: Vec<u8> = (0..4000u32)
        .map(|k| (k.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let g = file("hostile", "garbage.adl", &garbage);
    bad(&["eval", g.to_str().unwrap()], "error[syntax]");
    let deep = format!(
        "def main(x: R) -> R = {}x{}\n",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let d = file("hostile", "deep.adl", deep.as_bytes());
    bad(
        &["eval", d.to_str().unwrap(), "--input", "x=1"],
        "nesting too deep",
    );
    let blowup = "def f0(x: R) -> R = x * x\n".to_string()
        + &(1..80)
            .map(|k| format!("def f{k}(x: R) -> R = f{}(x) + f{}(x)\n", k - 1, k - 1))
            .collect::<String>()
        + "def main(x: R) -> R = f79(x)\n";
    let b = file("hostile", "blowup.adl", blowup.as_bytes());
    bad(
        &["eval", b.to_str().unwrap(), "--input", "x=1"],
        "error[resource]",
    );
    let l = file(
        "hostile",
        "loop.adl",
        b"def main(x: R) -> R = loop (a = x) for i < 100000000 do a + 1\n",
    );
    bad(
        &[
            "eval",
            l.to_str().unwrap(),
            "--input",
            "x=1",
            "--max-steps",
            "100000",
        ],
        "loop.adl:1:23: error[resource]: evaluation step limit (100000) exceeded",
    );
    let r = file(
        "hostile",
        "rat.adl",
        b"def main(x: R) -> R = loop (a = x) for i < 64 do a * a\n",
    );
    bad(
        &["eval", r.to_str().unwrap(), "--input", "x=2.5"],
        "error[resource]",
    );
}

#[test]
fn check_lists_runs_and_filters() {
    let o = adora(&["check", "--list"]);
    assert_eq!(o.status.code(), Some(0));
    let list = stdout(&o);
    assert!(list.lines().count() >= 10, "{list}");
    assert!(list.contains("sem/adjoint-law"));
    let o = adora(&["check", "--cases", "5", "--seed", "7", "--filter", "sem/"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("seed 7") && out.contains("passed"), "{out}");
    assert!(!out.contains("lang/"), "{out}");
    bad(
        &["check", "--filter", "no-such-property"],
        "no property matches",
    );
}

/// The engines of issues 4–6 through the command line: `--engine all`, the `bot`, `delta`
/// and `grad` stages (printed programs evaluate again, to the same value / gradient),
/// `cost --engine dual`, `linearize` and `transpose`.
#[test]
fn engines_stages_and_linear_a_commands() {
    let conv = repo("specs/programs/conv/conv1d.adl");
    let ins = [
        "--input",
        "x=[1,2,3,4,5,6,7,8,9,10]",
        "--input",
        "w=[1,-1,1/2]",
    ];
    let mut args = vec!["grad", conv.as_str(), "--engine", "all", "--format", "json"];
    args.extend(ins);
    let j = json(&adora(&args));
    assert_eq!(j["agree"], true);
    for e in ["dual", "dual-scalar", "linear"] {
        assert_eq!(j["engines"][e]["status"], "agrees", "{e}: {j}");
    }
    assert_eq!(j["reference"]["value"], "51");

    // A single engine answers like the reference.
    let mut args = vec![
        "grad",
        conv.as_str(),
        "--engine",
        "dual",
        "--format",
        "json",
    ];
    args.extend(ins);
    assert_eq!(
        json(&adora(&args))["gradient"]["w"],
        serde_json::json!(["204", "240", "276"])
    );

    // `show --stage bot` prints a build-free program that evaluates to the same value.
    let o = adora(&["show", &conv, "--stage", "bot"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bot = stdout(&o);
    assert!(!bot.contains("build"), "{bot}");
    let f = file("engines", "bot.adl", bot.as_bytes());
    let mut args = vec!["eval", f.to_str().unwrap(), "--format", "json"];
    args.extend(ins);
    assert_eq!(json(&adora(&args))["value"], "51");

    // `show --stage grad` prints the gradient program: inputs plus `dret`.
    let o = adora(&["show", &conv, "--stage", "grad"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let g = file("engines", "grad.adl", stdout(&o).as_bytes());
    let mut args = vec![
        "eval",
        g.to_str().unwrap(),
        "--input",
        "dret=1",
        "--format",
        "json",
    ];
    args.extend(ins);
    let v = json(&adora(&args));
    assert_eq!(v["value"][0], "51");
    assert_eq!(v["value"][2], serde_json::json!(["204", "240", "276"]));

    let o = adora(&["show", &conv, "--stage", "delta"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("-- delta"));

    // `cost --engine dual`: gradient costs, ratios and the cheap-gradient bound.
    let c = json(&adora(&[
        "cost", &conv, "--engine", "dual", "--format", "json",
    ]));
    assert!(c["gradient"]["ops"].as_u64().unwrap() > c["primal"]["ops"].as_u64().unwrap());
    assert_eq!(c["cheap_gradient"]["holds"], true);

    // `linearize` prints Linear A; `transpose` its transpose.
    let o = adora(&["linearize", &repo("examples/dot.adl")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("; dx: R[3]"), "{}", stdout(&o));
    let lin = repo("specs/programs/linear/fig10_transpose.ala");
    let o = adora(&["transpose", &lin, "--entry", "f"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("def f_t("), "{}", stdout(&o));

    // Outside a fragment: an engine declines with the construct and position, exit 2.
    let soac = file(
        "engines",
        "map.adl",
        b"def main(x: R[3]) -> R = sum(map(a => a * a, x))\n",
    );
    let o = adora(&[
        "grad",
        soac.to_str().unwrap(),
        "--engine",
        "dual",
        "--input",
        "x=[1,2,3]",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("map.adl:1:"), "{}", stderr(&o));
}
