//! `adora run --backend interp` (docs/backend.md, "Timing"): the interpretive f64
//! evaluator times the same program or derivative program on the same inputs as the CPU
//! executor, prints the same answers, runs what the plan refuses, and `--repeat` on the
//! CPU backend prints the plan's counted traffic against the measured copy bandwidth.

use super::support::{adora, stderr, stdout};
use std::path::PathBuf;

fn file(test: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("adora-interp-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.adl");
    std::fs::write(&p, contents).unwrap();
    p
}

const CONV: &str = "def main(x: R[6], w: R[2]) -> R =\n  \
    let y = build 5 (i => sum(build 2 (k => x[i + k] * w[k]))) in\n  sum(y * y)\n";

const INS: [&str; 4] = ["--input", "x=[1, -2, 3, 1/2, 0, 2]", "--input", "w=[2, -1]"];

/// Standard output of `adora run` with `args`, asserting exit 0.
fn run(args: &[&str]) -> String {
    let o = adora(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The output up to the timing lines.
fn answer(out: &str) -> String {
    out.lines()
        .take_while(|l| !l.starts_with("time per call"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn interp_prints_the_answers_of_the_cpu_executor() {
    let p = file("same", CONV);
    let p = p.to_str().unwrap();
    // y = [4, -7, 11/2, 1, -2]: 16 + 49 + 121/4 + 1 + 4 = 401/4.
    for extra in [&[][..], &["--engine", "linear", "--grad"][..]] {
        let cpu = run(&[&["run", p, "--backend", "cpu"][..], &INS[..], extra].concat());
        let interp = run(&[&["run", p, "--backend", "interp"][..], &INS[..], extra].concat());
        assert!(cpu.contains(&format!("value: {}", 401.0f64 / 4.0)), "{cpu}");
        assert_eq!(answer(&cpu), answer(&interp), "{extra:?}");
    }
}

#[test]
fn interp_repeat_prints_time_per_call_without_traffic() {
    let p = file("repeat", CONV);
    let out = run(&[
        &[
            "run",
            p.to_str().unwrap(),
            "--backend",
            "interp",
            "--repeat",
            "3",
        ][..],
        &INS[..],
    ]
    .concat());
    assert!(
        out.contains("time per call (3 calls, interp backend): min "),
        "{out}"
    );
    assert!(!out.contains("traffic:"), "{out}");
}

#[test]
fn cpu_repeat_prints_the_counted_traffic_and_the_bandwidth() {
    let p = file("traffic", CONV);
    let out = run(&[&["run", p.to_str().unwrap(), "--repeat", "3"][..], &INS[..]].concat());
    // The plan of the primal: a map reading x (6) and w (2) into y (5), then a reduce
    // reading y into the scalar result (1): (6 + 2 + 5 + 5 + 1) × 8 = 152 bytes.
    let plan = run(&["show", p.to_str().unwrap(), "--stage", "plan"]);
    assert!(
        plan.contains("traffic: 152 bytes per call (2 kernel launches"),
        "{plan}"
    );
    assert!(
        out.contains("traffic: 152 bytes per call, median call "),
        "{out}"
    );
    assert!(out.contains(" of the copy bandwidth "), "{out}");
}

#[test]
fn interp_runs_what_the_plan_refuses() {
    let p = file(
        "refused",
        "def main(x: R[2, 3]) -> R[3] =\n  reduce((a, b) => a + b, x[0], x)\n",
    );
    let out = run(&[
        "run",
        p.to_str().unwrap(),
        "--backend",
        "interp",
        "--input",
        "x=[[1, 2, 3], [4, 5, 6]]",
    ]);
    // x[0] + x[0] + x[1] (the neutral element given is x[0]).
    assert!(out.contains("value: R[3] = [6, 9, 12]"), "{out}");
}
